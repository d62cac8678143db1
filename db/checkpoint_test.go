package db

import (
	"crypto/rand"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
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

// TestPassiveCheckpointHeldBack commits twice past walPassiveAt, the second
// right after the first, so that its checkpoint is held back by
// passiveEvery: it still runs once the wait is over, with no commit after
// it to kick, and the database file then holds both.
func TestPassiveCheckpointHeldBack(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	const size = 3 * walPassiveAt / 2
	for _, stmt := range []string{`CREATE TABLE scratch (b BLOB)`,
		fmt.Sprintf(`INSERT INTO scratch VALUES (zeroblob(%d))`, size), fmt.Sprintf(`INSERT INTO scratch VALUES (zeroblob(%d))`, size)} {
		if _, err := inTx(ctx, d.begin, func(tx txn) (struct{}, error) {
			_, err := tx.ExecContext(ctx, stmt)
			return struct{}{}, err
		}); err != nil {
			t.Fatal(err)
		}
	}
	file := strings.TrimSuffix(d.checkpointer.wal, "-wal")
	deadline := time.Now().Add(10 * time.Second)
	for {
		fi, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() >= 2*size {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the database file holds %d bytes 10 s after the last commit, want the %d of both blobs", fi.Size(), 2*size)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
