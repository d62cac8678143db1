package server

import (
	"os"
	"runtime/debug"
)

// The garbage collector's settings for serving. A server keeps a few MB of
// live heap, and a page of the trade list allocates about 220 KB: at Go's
// default (GOGC=100) the collector ran every few dozen pages and took a
// third of the list's time on two cores. Collecting when the heap has grown
// to five times what is live, under a soft limit of 48 MiB on all the
// memory Go manages, keeps anonymous memory under 100 MB: SQLite's page
// caches (16 MiB for the writer, 4 MiB for each reader, see db.dsn) come on
// top of it.
const (
	gcPercent = 400
	gcLimit   = 48 << 20
)

// TuneGC applies the settings above, except where the environment sets
// GOGC or GOMEMLIMIT, which win as for any Go program. It returns a
// function that puts back the settings it changed. serve calls it once.
func TuneGC() (restore func()) {
	percent, limit := -2, int64(-1)
	if os.Getenv("GOGC") == "" {
		percent = debug.SetGCPercent(gcPercent)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		limit = debug.SetMemoryLimit(gcLimit)
	}
	return func() {
		if percent != -2 {
			debug.SetGCPercent(percent)
		}
		if limit >= 0 {
			debug.SetMemoryLimit(limit)
		}
	}
}
