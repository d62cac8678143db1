// Package testkit holds what the tests of several packages share: a log
// buffer that a server's goroutines and the test write and read at once,
// a small disk that the test fills for real, and the rows of a query
// whatever its columns.
package testkit

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

// SyncBuffer is a bytes.Buffer that a logger's goroutines and the test
// can share.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// MountTmpfs mounts a tmpfs of size (as mount's -o size= takes it) on a
// new temporary directory for the test, and unmounts it at its end.
// Mounting needs root: where it fails the test is skipped, so that go test
// ./... passes on a developer's machine; CI runs as root and sets
// TJ_TMPFS_TESTS=required, which makes the skip a failure.
func MountTmpfs(t testing.TB, size string) string {
	t.Helper()
	mnt := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size+",mode=0700", "tmpfs", mnt).CombinedOutput(); err != nil {
		why := fmt.Sprintf("%v: %s", err, bytes.TrimSpace(out))
		if os.Getenv("TJ_TMPFS_TESTS") == "required" {
			t.Fatalf("cannot mount a tmpfs, and TJ_TMPFS_TESTS=required: %s", why)
		}
		t.Skipf("cannot mount a tmpfs (needs root, as in CI): %s", why)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", mnt).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", mnt, err, out)
		}
	})
	return mnt
}

// FillDisk writes a file in dir until its filesystem has no space left,
// and returns its path.
func FillDisk(t testing.TB, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for size := len(chunk); size > 0; {
		if _, err := f.Write(chunk[:size]); errors.Is(err, syscall.ENOSPC) {
			size /= 2 // fill the last blocks too
		} else if err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// Rows reads every row of rows, whatever its columns, as the driver gives
// their values, and closes rows.
func Rows(t testing.TB, rows *sql.Rows) (cols []string, values [][]any) {
	t.Helper()
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		values = append(values, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return cols, values
}
