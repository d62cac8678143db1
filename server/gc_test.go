package server_test

import (
	"runtime/debug"
	"testing"

	"tradejournal/server"
)

// TestTuneGC: serving collects at GOGC=400 under a 48 MiB limit, unless
// the environment sets either, and the settings come back when it is done.
func TestTuneGC(t *testing.T) {
	percent := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }
	limit := func() int64 { return debug.SetMemoryLimit(-1) } // a negative limit only reads it
	wasPercent, wasLimit := percent(), limit()

	for _, c := range []struct {
		gogc, gomemlimit string
		percent          int
		limit            int64
	}{
		{"", "", 400, 48 << 20},
		{"200", "", wasPercent, 48 << 20},
		{"", "1GiB", 400, wasLimit},
		{"off", "1GiB", wasPercent, wasLimit},
	} {
		t.Setenv("GOGC", c.gogc)
		t.Setenv("GOMEMLIMIT", c.gomemlimit)
		restore := server.TuneGC()
		if p, l := percent(), limit(); p != c.percent || l != c.limit {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: GC percent %d, limit %d; want %d, %d", c.gogc, c.gomemlimit, p, l, c.percent, c.limit)
		}
		restore()
		if p, l := percent(), limit(); p != wasPercent || l != wasLimit {
			t.Errorf("GOGC=%q GOMEMLIMIT=%q: restored to %d, %d; want %d, %d", c.gogc, c.gomemlimit, p, l, wasPercent, wasLimit)
		}
	}
}

// TestImportsAtWork: while imports are at work the soft limit is TuneGC's
// plus 150 MiB for each (what an import of the largest file holds live),
// unless the environment sets GOMEMLIMIT.
func TestImportsAtWork(t *testing.T) {
	limit := func() int64 { return debug.SetMemoryLimit(-1) }
	was := limit()
	defer debug.SetMemoryLimit(was)
	t.Setenv("GOMEMLIMIT", "")
	for n, want := range []int64{48 << 20, 198 << 20, 348 << 20} {
		server.ImportsAtWork(n)
		if got := limit(); got != want {
			t.Errorf("%d imports: limit %d, want %d", n, got, want)
		}
	}
	debug.SetMemoryLimit(was)
	t.Setenv("GOMEMLIMIT", "1GiB")
	server.ImportsAtWork(1)
	if got := limit(); got != was {
		t.Errorf("GOMEMLIMIT set: limit %d, want it left at %d", got, was)
	}
}
