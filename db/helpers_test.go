package db

import (
	"path/filepath"
	"testing"
	"time"
)

// newTestDB opens a migrated database in a fresh file under t.TempDir and
// closes it when the test ends.
func newTestDB(t testing.TB) *DB {
	t.Helper()
	d, err := Open(t.Context(), filepath.Join(t.TempDir(), "journal.db"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		// A benchmark's journal is too large to read twice over.
		if _, bench := t.(*testing.B); !bench && !t.Failed() {
			checkListings(t, d)
			checkTradeDays(t, d)
		}
		if err := d.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return d
}

// pinClock makes d's clock read at, so stored timestamps are known.
func pinClock(d *DB, at time.Time) { d.Now = func() time.Time { return at } }

// newTestUser adds a user and fails the test if that fails.
func newTestUser(t *testing.T, d *DB, name string) User {
	t.Helper()
	u, err := d.CreateUser(t.Context(), name, "")
	if err != nil {
		t.Fatalf("CreateUser(%q): %v", name, err)
	}
	return u
}
