package cmd

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"
)

// TestCrashKeepsAcknowledgedWrites kills the real server with SIGKILL in
// the middle of concurrent trade creates and uploads, restarts it on the
// same directory, and checks DESIGN.md §7: every write acknowledged with a
// 2xx is there and whole, no trade lacks any of its executions, and the
// directory passes check once the restart has cleaned up. Four crashes
// (cycles) in a row, each restart checking all writes acknowledged so far.
func TestCrashKeepsAcknowledgedWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts the real binary")
	}
	dir := filepath.Join(t.TempDir(), "data")
	key := setUpUser(t, dir)
	srv := startBinary(t, dir)
	c := newAPIClient(srv.base, key)
	w := &workload{t: t, c: c, account: "A-1", samples: readSamples(t), expectGone: true}
	w.accountID = mustCreateAccount(t, c, w.account)

	const cycles = 4
	for cycle := 1; cycle <= cycles; cycle++ {
		w.c = newAPIClient(srv.base, key)
		ctx, stopWrites := context.WithCancel(t.Context())
		before := w.acked.Load()
		wait := w.start(ctx, 8)
		w.waitAcked(t, before+10) // the traffic flows
		time.Sleep(time.Duration(150+rand.IntN(350)) * time.Millisecond)
		srv.kill()
		stopWrites() // writers stop at their next request, if the kill has not stopped them
		wait()
		trades, docs := w.snapshot()
		t.Logf("cycle %d: killed with %d acknowledged writes in all (%d trades, %d documents)", cycle, w.acked.Load(), len(trades), len(docs))

		srv = startBinary(t, dir)
		rc := newAPIClient(srv.base, key)
		for _, tr := range trades {
			checkTradeWhole(t, rc, tr)
		}
		for _, d := range docs {
			checkDocWhole(t, srv.base, d)
		}
		checkNoPartialTrades(t, dir)
		if t.Failed() {
			t.Fatalf("cycle %d: acknowledged writes lost or partial after a crash\n%s", cycle, srv.stderr.String())
		}

		// Stop it, so that check counts every orphan and temp file
		// whatever its age: the restart must have removed them all.
		if err := srv.terminate(t); err != nil {
			t.Fatalf("serve after SIGTERM: %v, want exit status 0\n%s", err, srv.stderr.String())
		}
		if out, err := runBinary(t, "check", "--data", dir); err != nil {
			t.Fatalf("cycle %d: check after the restart: %v, want exit 0\n%s", cycle, err, out)
		}
		if cycle < cycles {
			srv = startBinary(t, dir)
		}
	}
}
