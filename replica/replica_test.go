package replica

import (
	"crypto/rand"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tradejournal/db"
	"tradejournal/files"
)

// walLimit is where the log is cut back while Litestream replicates: the
// TruncatePageN Start sets, in bytes (the server's own checkpointer cuts
// at the same size).
const walLimit = 16 << 20

// TestWALBoundedWhileReplicating shows Litestream's own checkpoints
// bounding the log, as the server's checkpointer bounds it (db's
// TestWALBoundedUnderReaders): 50 MiB committed by 1 and by 16 writers of
// their own (so the journal's checkpointer, which counts its writer's
// commits, never runs one) while four readers read in a loop that never
// pauses. The log stays within 2.5 times 16 MiB (it reached 18-32 MiB
// here, and as much with 100 MiB committed); with Litestream's
// checkpoints turned off it grows by all 50 MiB.
func TestWALBoundedWhileReplicating(t *testing.T) {
	for _, writers := range []int{1, 16} {
		t.Run(fmt.Sprintf("writers=%d", writers), func(t *testing.T) {
			walBoundedWhileReplicating(t, writers)
		})
	}
}

func walBoundedWhileReplicating(t *testing.T, writers int) {
	ctx := t.Context()
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.db")
	d, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	store, err := files.Open(filepath.Join(dir, "files"))
	if err != nil {
		t.Fatal(err)
	}
	target, err := Connect(ctx, "file://"+filepath.Join(t.TempDir(), "replica"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	secret := make([]byte, files.SecretSize)
	r := New(target, path, secret, store, 100*time.Millisecond, slog.New(slog.NewTextHandler(io.Discard, nil)))
	d.HandOverCheckpoints(r.Checkpoint)
	if err := r.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)

	// Plain connections to the same journal, as the server's writer and
	// readers are: the writes need no schema of the journal's.
	open := func(query string) *sql.DB {
		u := url.URL{Scheme: "file", Path: path, RawQuery: query}
		pool, err := sql.Open("sqlite", u.String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pool.Close() })
		return pool
	}
	write := open("_pragma=busy_timeout(10000)&_pragma=synchronous(FULL)&_pragma=wal_autocheckpoint(0)&_txlock=immediate")
	write.SetMaxOpenConns(1)
	read := open("_pragma=busy_timeout(10000)&mode=ro")
	if _, err := write.ExecContext(ctx, `CREATE TABLE scratch (b BLOB)`); err != nil {
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
				var n int
				if err := read.QueryRowContext(ctx, `SELECT count(*) FROM scratch`).Scan(&n); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	var largest, samples, left atomic.Int64
	left.Store(800)
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			blob := make([]byte, 64<<10)
			for left.Add(-1) >= 0 {
				rand.Read(blob)
				if _, err := write.ExecContext(ctx, `INSERT INTO scratch VALUES (?)`, blob); err != nil {
					t.Error(err)
					return
				}
				fi, err := os.Stat(path + "-wal")
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
	if samples.Load() != 800 || largest.Load() < 4<<20 {
		t.Errorf("the log's size was sampled after %d of the 800 commits, at most %d bytes; want after each, and at least 4 MiB (a checkpoint's worth)",
			samples.Load(), largest.Load())
	}
	if limit := int64(walLimit * 5 / 2); largest.Load() > limit {
		t.Errorf("the log reached %d bytes under readers while replicating, want at most %d", largest.Load(), limit)
	}
}

// TestConnectRefuses names what is wrong with a replica URL.
func TestConnectRefuses(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"ftp://host/x", "scheme must be file, sftp or s3"},
		{"file://relative/path", "file:///absolute/path"},
		{"file:///", ""},
		{"s3:///prefix", "s3://bucket/prefix"},
		{"sftp://host/path", "sftp://user@host[:port]/path"},
		{"sftp://me@127.0.0.1:1/path", "known_hosts"},
	} {
		t.Run(tc.url, func(t *testing.T) {
			t.Setenv("HOME", t.TempDir()) // no known_hosts
			target, err := Connect(t.Context(), tc.url, Options{})
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Connect(%q): %v, want it accepted", tc.url, err)
				}
				target.Close()
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Connect(%q): %v, want an error saying %q", tc.url, err, tc.want)
			}
		})
	}
}

// TestStartRefusesAnotherJournalsReplica: a replica holding another
// secret belongs to another journal, and is left alone.
func TestStartRefusesAnotherJournalsReplica(t *testing.T) {
	ctx := t.Context()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "secret"), make([]byte, files.SecretSize), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	store, err := files.Open(filepath.Join(dir, "files"))
	if err != nil {
		t.Fatal(err)
	}
	target, err := Connect(ctx, "file://"+root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mine := make([]byte, files.SecretSize)
	mine[0] = 1
	err = New(target, filepath.Join(dir, "journal.db"), mine, store, time.Second, slog.New(slog.NewTextHandler(io.Discard, nil))).Start(ctx)
	if err == nil || !strings.Contains(err.Error(), "holds another journal") {
		t.Fatalf("Start on another journal's replica: %v, want refused", err)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 1 {
		t.Errorf("the other journal's replica now holds %d entries, want its secret alone", len(entries))
	}
}
