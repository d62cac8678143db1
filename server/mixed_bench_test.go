package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tradejournal/db"
	"tradejournal/files"
	"tradejournal/replica"
)

// BenchmarkMixed runs writers and readers at once over HTTP against a
// journal of 100,000 trades, as a busy evening with scripts does: 32
// writers create trades of 4 fills (b.N in all) while 16 readers read,
// until the writers are done. It reports each side's rate and p50/p99 latency, and the largest
// size the write-ahead log reached (sampled every 10 ms): readers that
// never pause must not stop a checkpoint from bounding it. The reads are,
// in turn: the first page of the list, one trade, the page at offset
// 50,000 and the statistics summary of a year.
//
//	go test ./server -run XXX -bench Mixed -benchtime 3000x
//
// Mixed/local is the journal as serve keeps it; Mixed/replica the same
// while it is replicated (serve --replica) to a folder: Litestream then
// runs the checkpoints, and wal-max-MB says whether it bounds the log as
// the server's own checkpointer does.
func BenchmarkMixed(b *testing.B) {
	b.Run("local", func(b *testing.B) { mixed(b, false) })
	b.Run("replica", func(b *testing.B) { mixed(b, true) })
}

func mixed(b *testing.B, replicate bool) {
	e := newScaleEnv(b) // 16 clients: the readers'
	if replicate {
		startReplica(b, e.db, e.path)
	}
	for range 32 {
		e.clients = append(e.clients, &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}})
	}
	create := e.create()
	reads := []op{e.get("/api/v1/trades?limit=100"), e.get("/api/v1/trades/" + e.tradeID),
		e.get("/api/v1/trades?limit=100&offset=50000"), e.get("/api/v1/stats/summary?start_date=2026-01-01")}

	// Start from an empty log: the seeding's is not the benchmark's.
	if _, err := e.raw.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		b.Fatal(err)
	}
	wal := e.path + "-wal"
	var walMax atomic.Int64
	stop := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			if fi, err := os.Stat(wal); err == nil && fi.Size() > walMax.Load() {
				walMax.Store(fi.Size())
			}
			select {
			case <-t.C:
			case <-stop:
				return
			}
		}
	})

	b.ResetTimer()
	writeLat, readLat := make([][]time.Duration, 32), make([][]time.Duration, 16)
	var next atomic.Int64
	var writers, readers sync.WaitGroup
	done := make(chan struct{})
	start := time.Now()
	for w := range 32 {
		writers.Go(func() {
			for next.Add(1) <= int64(b.N) {
				t := time.Now()
				if err := create(16 + w); err != nil {
					b.Error(err)
					return
				}
				writeLat[w] = append(writeLat[w], time.Since(t))
			}
		})
	}
	for r := range 16 {
		readers.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				t := time.Now()
				if err := reads[(r+i)%len(reads)](r); err != nil {
					b.Error(err)
					return
				}
				readLat[r] = append(readLat[r], time.Since(t))
			}
		})
	}
	writers.Wait()
	elapsed := time.Since(start)
	close(done)
	readers.Wait()
	b.StopTimer()
	close(stop)
	sampler.Wait()

	report := func(name string, lat [][]time.Duration) {
		all := slices.Concat(lat...)
		slices.Sort(all)
		if len(all) == 0 {
			return
		}
		b.ReportMetric(float64(len(all))/elapsed.Seconds(), name+"-req/s")
		b.ReportMetric(ms(all[len(all)/2]), name+"-p50-ms")
		b.ReportMetric(ms(all[len(all)*99/100]), name+"-p99-ms")
	}
	report("write", writeLat)
	report("read", readLat)
	b.ReportMetric(float64(walMax.Load())/(1<<20), "wal-max-MB")
}

// startReplica has Litestream run the journal's checkpoints and
// replicates it to a folder of the benchmark's, as serve --replica does.
func startReplica(b testing.TB, d *db.DB, path string) {
	target, err := replica.Connect(b.Context(), "file://"+filepath.Join(b.TempDir(), "replica"), replica.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { target.Close() })
	store, err := files.Open(filepath.Join(filepath.Dir(path), "files"))
	if err != nil {
		b.Fatal(err)
	}
	r := replica.New(target, path, make([]byte, files.SecretSize), store, replica.DefaultSync, slog.New(slog.NewTextHandler(io.Discard, nil)))
	d.HandOverCheckpoints(r.Checkpoint)
	if err := r.Start(b.Context()); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close(context.Background()) })
	// Measure the journal as it is replicated, not Litestream's first
	// copy of it (which runs no checkpoint while it reads the database).
	select {
	case <-r.HoldsJournal():
	case <-b.Context().Done():
	}
}
