package db

import (
	"database/sql"
	"errors"
	"testing"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// TestOpenPragmas reads every connection setting back through both pools, as
// DESIGN.md §7 asks: WAL, synchronous=FULL, foreign keys, busy timeout on
// every connection, and query_only on the readers alone.
func TestOpenPragmas(t *testing.T) {
	d := newTestDB(t)
	tests := []struct {
		pragma   string
		readOnly bool
		want     string
	}{
		{"journal_mode", false, "wal"},
		{"journal_mode", true, "wal"},
		{"synchronous", false, "2"},
		{"synchronous", true, "2"},
		{"foreign_keys", false, "1"},
		{"foreign_keys", true, "1"},
		{"busy_timeout", false, "10000"},
		{"busy_timeout", true, "10000"},
		{"query_only", false, "0"},
		{"query_only", true, "1"},
	}
	for _, tt := range tests {
		got, err := d.Pragma(t.Context(), tt.pragma, tt.readOnly)
		if err != nil {
			t.Fatalf("Pragma(%s, readOnly=%v): %v", tt.pragma, tt.readOnly, err)
		}
		if got != tt.want {
			t.Errorf("Pragma(%s, readOnly=%v) = %q, want %q", tt.pragma, tt.readOnly, got, tt.want)
		}
	}
}

// TestEveryReaderConnectionHasPragmas holds several connections of each
// read-only pool (the readers, the lookups) open at once, so each is a
// distinct SQLite connection, and checks each one: a PRAGMA run once on the
// first connection would pass TestOpenPragmas alone. The readers map the
// file; the lookups do not (see dsn).
func TestEveryReaderConnectionHasPragmas(t *testing.T) {
	d := newTestDB(t)
	for _, pool := range []struct {
		name string
		db   *sql.DB
		mmap string
	}{{"read", d.read, "1073741824"}, {"lookup", d.lookup, "0"}} {
		want := map[string]string{
			"journal_mode": "wal", "synchronous": "2", "foreign_keys": "1",
			"busy_timeout": "10000", "query_only": "1", "mmap_size": pool.mmap,
		}
		var conns []*sql.Conn
		for range 4 {
			c, err := pool.db.Conn(t.Context())
			if err != nil {
				t.Fatalf("%s.Conn: %v", pool.name, err)
			}
			defer c.Close()
			conns = append(conns, c)
		}
		for i, c := range conns {
			for name, w := range want {
				var got string
				if err := c.QueryRowContext(t.Context(), "PRAGMA "+name).Scan(&got); err != nil {
					t.Fatalf("%s conn %d: PRAGMA %s: %v", pool.name, i, name, err)
				}
				if got != w {
					t.Errorf("%s conn %d: PRAGMA %s = %q, want %q", pool.name, i, name, got, w)
				}
			}
		}
	}
}

// TestLookupCannotWrite: the lookups' pool refuses writes, as the
// readers' does.
func TestLookupCannotWrite(t *testing.T) {
	d := newTestDB(t)
	_, err := d.lookup.ExecContext(t.Context(),
		`INSERT INTO users (id, name, created_at) VALUES ('u1', 'sneaky', '2026-01-01T00:00:00.000Z')`)
	var se *sqlite.Error
	if !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_READONLY {
		t.Errorf("insert through a lookup: got %v, want SQLITE_READONLY", err)
	}
}

// TestReaderCannotWrite shows that the reader pool refuses writes, so a
// query that reaches it by mistake can never change the journal.
func TestReaderCannotWrite(t *testing.T) {
	d := newTestDB(t)
	_, err := d.read.ExecContext(t.Context(),
		`INSERT INTO users (id, name, created_at) VALUES ('u1', 'sneaky', '2026-01-01T00:00:00.000Z')`)
	var se *sqlite.Error
	if !errors.As(err, &se) {
		t.Fatalf("insert through reader: got %v, want a *sqlite.Error", err)
	}
	if got := se.Code() & 0xff; got != sqlite3.SQLITE_READONLY {
		t.Errorf("insert through reader: code %d, want SQLITE_READONLY (%d)", se.Code(), sqlite3.SQLITE_READONLY)
	}
	users, err := d.Users(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(users) != 0 {
		t.Errorf("users after refused insert: got %d, want 0", len(users))
	}
}

// TestForeignKeysEnforced shows the pragma has teeth on the writer: an
// account for a user that does not exist is refused.
func TestForeignKeysEnforced(t *testing.T) {
	d := newTestDB(t)
	_, err := d.CreateAccount(t.Context(), "no-such-user", AccountInput{AccountNumber: Some("A1")})
	var se *sqlite.Error
	if !errors.As(err, &se) || se.Code() != sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY {
		t.Errorf("CreateAccount for a missing user: got %v, want SQLITE_CONSTRAINT_FOREIGNKEY", err)
	}
}

func TestMigrationsApplied(t *testing.T) {
	d := newTestDB(t)
	ms, err := d.Migrations(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 {
		t.Fatal("no migrations")
	}
	if got, want := ms[0].Version, int64(1); got != want {
		t.Errorf("first migration version: got %d, want %d", got, want)
	}
	if got, want := ms[0].Name, "00001_init.sql"; got != want {
		t.Errorf("first migration name: got %q, want %q", got, want)
	}
	for _, m := range ms {
		if !m.Applied {
			t.Errorf("migration %d (%s) not applied", m.Version, m.Name)
		}
	}
}

// TestReopen opens a migrated file a second time, as every CLI command does
// next to a running server: migrations are idempotent and the data stays.
func TestReopen(t *testing.T) {
	path := t.TempDir() + "/journal.db"
	d1, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer d1.Close()
	u := newTestUser(t, d1, "alice")
	d2, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("second Open: %v", err)
	}
	defer d2.Close()
	got, err := d2.UserByName(t.Context(), "alice")
	if err != nil {
		t.Fatalf("UserByName through the second handle: %v", err)
	}
	if got != u {
		t.Errorf("user through the second handle: got %+v, want %+v", got, u)
	}
}
