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

// importHeap is what the soft limit grows by for each import at work. An
// import of the largest file (25 MiB, about a million fills) holds about
// 150 MB live at its peak: the file's fills, 120 bytes each, and the
// import's notes on them. Under the 48 MiB limit alone the collector ran
// back to back through it: 2,305 collections and 113 s of CPU for that
// file's import, against 43 collections and 37 s at Go's defaults. With
// the limit raised by this much while it runs (198 MiB in all), the import
// collects about every 60 MB it allocates, and the process stays under
// 256 MB of anonymous memory with SQLite's page caches on top (db.dsn).
const importHeap = 150 << 20

// ImportsAtWork sets the soft limit to TuneGC's plus importHeap for each of
// the n imports at work; it leaves the limit alone where the environment
// sets GOMEMLIMIT, as TuneGC does. serve hands it to upload.Uploads (Config).
func ImportsAtWork(n int) {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(gcLimit + int64(n)*importHeap)
	}
}
