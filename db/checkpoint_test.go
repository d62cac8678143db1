package db

import (
	"crypto/rand"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestWALBoundedUnderReaders writes 50 MiB in 800 commits, as fast as
// the disk takes them, while four readers read in a loop that never
// pauses: the write-ahead log stays within 1.5 times walLimit (what
// arrives while a checkpoint runs is on top of walLimit), where without the
// checkpointer it grows by all 50 MiB. With 16 writers at once, the
// writer is always in a group, and the TRUNCATE must find a moment
// between two (without writer.between the log reached 29-51 MiB).
func TestWALBoundedUnderReaders(t *testing.T) {
	for _, writers := range []int{1, 16} {
		t.Run(fmt.Sprintf("writers=%d", writers), func(t *testing.T) {
			walBoundedUnderReaders(t, writers)
		})
	}
}

func walBoundedUnderReaders(t *testing.T, writers int) {
	d := newTestDB(t)
	ctx := t.Context()
	execWrite(t, d, `CREATE TABLE scratch (b BLOB)`)
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
	var largest, samples atomic.Int64
	var left atomic.Int64
	left.Store(800)
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			blob := make([]byte, 64<<10)
			for left.Add(-1) >= 0 {
				rand.Read(blob)
				if _, err := inTx(ctx, d.begin, func(tx txn) (struct{}, error) {
					_, err := tx.ExecContext(ctx, `INSERT INTO scratch VALUES (?)`, blob)
					return struct{}{}, err
				}); err != nil {
					t.Error(err)
					return
				}
				fi, err := os.Stat(journalPath(d) + "-wal")
				if err != nil {
					t.Error(err)
					return
				}
				samples.Add(1)
				if fi.Size() > largest.Load() {
					largest.Store(fi.Size()) // a race between writers only loses a sample
				}
			}
		})
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	t.Logf("the log reached %.1f MiB", float64(largest.Load())/(1<<20))
	// A bound over no samples, or over a log that never held what a
	// checkpoint waits for, would hold whatever the checkpointer did.
	if samples.Load() != 800 || largest.Load() < walPassiveAt {
		t.Errorf("the log's size was sampled after %d of the 800 commits, at most %d bytes; want after each, and at least %d (a checkpoint's worth)",
			samples.Load(), largest.Load(), walPassiveAt)
	}
	if limit := int64(walLimit * 3 / 2); largest.Load() > limit {
		t.Errorf("the log reached %d bytes under readers, want at most %d", largest.Load(), limit)
	}
}

// TestWALState reads the wal-index header as SQLite itself reports it: a
// reader holding a snapshot keeps a checkpoint from copying the commits
// made after it, and walState says how many frames the log holds and how
// many still wait.
func TestWALState(t *testing.T) {
	d, shm := scratchJournal(t)
	ctx := t.Context()
	write := func(n int) {
		t.Helper()
		for range n {
			execWrite(t, d, `INSERT INTO scratch VALUES (randomblob(3000))`)
		}
	}
	write(5)
	reader, err := d.beginRead(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := reader.QueryRowContext(ctx, `SELECT count(*) FROM scratch`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	write(10)
	var busy, logged, copied int64
	raw, err := sql.Open("sqlite", journalPath(d))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if err := raw.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logged, &copied); err != nil {
		t.Fatal(err)
	}
	reader.Rollback()
	if copied >= logged {
		t.Fatalf("the checkpoint copied %d of %d frames past a reader's snapshot", copied, logged)
	}
	gotLogged, gotWaiting, ok := walState(shm)
	const frame = 24 + 4096
	if !ok || gotLogged != logged*frame || gotWaiting != (logged-copied)*frame {
		t.Errorf("walState = %d, %d, %v; want %d, %d, true", gotLogged, gotWaiting, ok, logged*frame, (logged-copied)*frame)
	}
}

// TestIdleLogIsCopied: a log too small for a checkpoint of its own is
// copied into the database file once no commit has come for walIdle.
func TestIdleLogIsCopied(t *testing.T) {
	d, shm := scratchJournal(t)
	for range 20 {
		execWrite(t, d, `INSERT INTO scratch VALUES (randomblob(100))`)
	}
	deadline := time.Now().Add(walIdle + 10*time.Second)
	for {
		logged, waiting, ok := walState(shm)
		if !ok {
			t.Fatal("walState cannot read the wal-index")
		}
		if waiting == 0 && logged > 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d bytes of the log still wait to be copied %v after the last commit", waiting, walIdle+10*time.Second)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// scratchJournal is a journal with an empty table of blobs, scratch, and
// its wal-index open for walState.
func scratchJournal(t *testing.T) (*DB, *os.File) {
	t.Helper()
	d := newTestDB(t)
	execWrite(t, d, `CREATE TABLE scratch (b BLOB)`)
	return d, d.shm
}

// journalPath is the path of d's journal, beside its wal-index.
func journalPath(d *DB) string { return strings.TrimSuffix(d.shm.Name(), "-shm") }

// execWrite runs one statement as a write of its own.
func execWrite(t *testing.T, d *DB, query string, args ...any) {
	t.Helper()
	if _, err := inTx(t.Context(), d.begin, func(tx txn) (struct{}, error) {
		_, err := tx.ExecContext(t.Context(), query, args...)
		return struct{}{}, err
	}); err != nil {
		t.Fatal(err)
	}
}

// TestLogStartsOverUnderWrites: with no reader, a stream of commits has
// its log start over after each walPassiveAt checkpoint, so the log never
// reaches walPinnedAt, where every commit would pay a checkpoint. The
// commits made while a checkpoint runs are copied between two groups of
// writes; without that they still waited when it ended, no write could
// start the log over, and it passed walPinnedAt.
func TestLogStartsOverUnderWrites(t *testing.T) {
	d, shm := scratchJournal(t)
	var largest int64
	for range 6000 { // about 24 MiB of pages
		execWrite(t, d, `INSERT INTO scratch VALUES (randomblob(3000))`)
		logged, _, ok := walState(shm)
		if !ok {
			t.Fatal("walState cannot read the wal-index")
		}
		largest = max(largest, logged)
	}
	// The log must have held a checkpoint's worth, or the bound below
	// says nothing.
	if largest < walPassiveAt {
		t.Errorf("the log held at most %d bytes, want at least %d: a checkpoint's worth", largest, walPassiveAt)
	}
	if largest >= walPinnedAt {
		t.Errorf("the log held %d bytes, want under %d", largest, walPinnedAt)
	}
}
