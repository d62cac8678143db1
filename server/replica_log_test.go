package server_test

import (
	"database/sql"
	"encoding/binary"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tradejournal/db"
	"tradejournal/internal/seed"
)

// TestReplicaLogBounded: while the journal is replicated (serve --replica)
// its checkpoints run through Litestream; under writers and readers that
// never pause, the log still starts over and stays within twice the
// checkpointer's limit (16 MiB), and every write is acknowledged.
func TestReplicaLogBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("writes about 100 MiB of log")
	}
	const (
		walLimit = 16 << 20
		bound    = 2 * walLimit
		through  = 6 * walLimit // the log written before the test ends
	)
	ts := newTestServer(t)
	userID, key := ts.newUser(t, "alice")
	a, err := ts.db.CreateAccount(t.Context(), userID, db.AccountInput{AccountNumber: db.Some("APEX-1")})
	if err != nil {
		t.Fatal(err)
	}
	e := &scaleEnv{tradeEnv: &tradeEnv{testServer: ts, userID: userID, key: key, accountID: a.ID}}
	// Enough trades that a reader is always reading: each holds the log
	// from starting over after a plain (passive) checkpoint.
	raw, err := sql.Open("sqlite", "file:"+ts.path+"?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	seed.Trades(t, raw, userID, a.ID, 20_000)
	raw.Close()
	if _, err := ts.db.FillListings(t.Context()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(ts.srv)
	defer hs.Close()
	e.url = hs.URL
	for range 16 {
		e.clients = append(e.clients, &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}})
	}
	startReplica(t, ts.db, ts.path)

	// The log's size and how much has been written to it, read from the
	// wal-index header (https://sqlite.org/walformat.html) as the
	// checkpointer reads it: mxFrame, counted again from 0 when it starts over.
	shm, err := os.Open(ts.path + "-shm")
	if err != nil {
		t.Fatal(err)
	}
	defer shm.Close()
	var written, largest atomic.Int64
	restarts := 0
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		var last int64
		for {
			var h [100]byte
			if _, err := shm.ReadAt(h[:], 0); err == nil {
				frame := 24 + int64(binary.NativeEndian.Uint16(h[14:]))
				logged := int64(binary.NativeEndian.Uint32(h[16:])) * frame
				if logged < last {
					restarts++
					last = 0
				}
				written.Add(logged - last)
				last = logged
			}
			if fi, err := os.Stat(ts.path + "-wal"); err == nil && fi.Size() > largest.Load() {
				largest.Store(fi.Size())
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	})

	create := e.create()
	reads := []op{e.get("/api/v1/trades?limit=100"), e.get("/api/v1/stats/summary"), e.get("/api/v1/stats/daily")}
	done := make(chan struct{})
	var closeDone sync.Once
	finish := func() { closeDone.Do(func() { close(done) }) }
	var work sync.WaitGroup
	for w := range len(e.clients) {
		work.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				var err error
				if w < 8 {
					err = create(w)
				} else {
					err = reads[i%len(reads)](w)
				}
				if err != nil {
					t.Error(err)
					finish()
					return
				}
				if written.Load() >= through || largest.Load() > bound {
					finish()
					return
				}
			}
		})
	}
	work.Wait()
	close(stop)
	sampler.Wait()
	if got := largest.Load(); got > bound {
		t.Errorf("the log reached %.1f MiB (%.1f MiB written, started over %d times), want at most %d MiB", float64(got)/(1<<20), float64(written.Load())/(1<<20), restarts, bound>>20)
	}
	t.Logf("%.1f MiB written to the log, which started over %d times and reached %.1f MiB", float64(written.Load())/(1<<20), restarts, float64(largest.Load())/(1<<20))
}
