package db

import (
	"crypto/rand"
	"os"
	"sync"
	"testing"
)

// TestWALBoundedUnderReaders writes 50 MiB in 800 commits, as fast as
// the disk takes them, while four readers read in a loop that never
// pauses: the write-ahead log stays within twice walLimit (what arrives
// while a checkpoint runs is on top of walLimit), where without the
// checkpointer it grows by all 50 MiB.
func TestWALBoundedUnderReaders(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	if _, err := inTx(ctx, d.begin, func(tx txn) (struct{}, error) {
		_, err := tx.ExecContext(ctx, `CREATE TABLE scratch (b BLOB)`)
		return struct{}{}, err
	}); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 4 {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				_, err := inTx(ctx, d.beginRead, func(tx txn) (int, error) {
					var n int
					return n, tx.QueryRowContext(ctx, `SELECT count(*) FROM scratch`).Scan(&n)
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	blob := make([]byte, 64<<10)
	var largest int64
	for range 800 {
		rand.Read(blob)
		if _, err := inTx(ctx, d.begin, func(tx txn) (struct{}, error) {
			_, err := tx.ExecContext(ctx, `INSERT INTO scratch VALUES (?)`, blob)
			return struct{}{}, err
		}); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(d.checkpointer.wal); err == nil {
			largest = max(largest, fi.Size())
		}
	}
	close(stop)
	readers.Wait()
	t.Logf("the log reached %.1f MiB", float64(largest)/(1<<20))
	if limit := int64(2 * walLimit); largest > limit {
		t.Errorf("the log reached %d bytes under readers, want at most %d", largest, limit)
	}
}
