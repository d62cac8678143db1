package db

import (
	"errors"
	"testing"
	"time"
)

// TestSessions: a session acts as its key, with its own CSRF token; it
// ends when it expires, when it signs out, when its key is revoked (it is
// then returned Revoked, for the caller to refuse), and with its key's row.
func TestSessions(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	t0 := time.Date(2026, 2, 5, 15, 0, 0, 0, time.UTC)
	pinClock(d, t0)
	u := newTestUser(t, d, "alice")
	k, _, err := d.CreateKey(ctx, "alice", "web", []string{"trades:read"}, false)
	if err != nil {
		t.Fatal(err)
	}
	id, csrf, err := d.CreateSession(ctx, k.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(id) != 43 || len(csrf) != 43 || id == csrf {
		t.Errorf("id %q, csrf %q: want two different 256-bit tokens", id, csrf)
	}
	s, err := d.Session(ctx, id)
	if err != nil || s.UserID != u.ID || s.KeyID != k.ID || s.CSRF != csrf || !s.Can("trades:read") || s.Can("trades:write") || s.Revoked {
		t.Fatalf("Session: %+v %v", s, err)
	}
	var stored int
	d.read.QueryRowContext(ctx, `SELECT count(*) FROM web_sessions WHERE id_hash = ?`, id).Scan(&stored)
	if stored != 0 {
		t.Error("the session id is stored as it is; want only its hash")
	}

	var nf *NotFoundError
	pinClock(d, t0.Add(SessionTTL))
	if _, err := d.Session(ctx, id); !errors.As(err, &nf) {
		t.Errorf("after 30 days: %v, want not found", err)
	}
	pinClock(d, t0.Add(time.Hour))
	if err := d.RevokeKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	if s, err := d.Session(ctx, id); err != nil || !s.Revoked {
		t.Errorf("with its key revoked: %+v %v, want Revoked", s, err)
	}
	if err := d.EndSession(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Session(ctx, id); !errors.As(err, &nf) {
		t.Errorf("after sign-out: %v, want not found", err)
	}

	// Deleting a key takes its sessions along.
	k2, _, _ := d.CreateKey(ctx, "alice", "web", []string{"trades:read"}, false)
	if _, _, err := d.CreateSession(ctx, k2.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := d.write.ExecContext(ctx, `DELETE FROM api_keys WHERE id = ?`, k2.ID); err != nil {
		t.Fatal(err)
	}
	var left int
	d.read.QueryRowContext(ctx, `SELECT count(*) FROM web_sessions`).Scan(&left)
	if left != 0 { // the first signed out; the second went with its key
		t.Errorf("sessions left after their key's delete: %d, want 0", left)
	}
}

// TestMigrateWebSessions: a schema-5 journal migrates with its keys whole,
// and a key of it signs in.
func TestMigrateWebSessions(t *testing.T) {
	path := oldJournal(t, 5,
		`INSERT INTO users (id, name, created_at) VALUES ('u1', 'alice', 'x')`,
		`INSERT INTO api_keys (id, user_id, name, prefix, hash, scopes, created_at)
			VALUES ('k1', 'u1', 'old', 'tj_abcde', x'00', 'trades:read', 'x')`,
	)
	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open migrates: %v", err)
	}
	defer d.Close()
	id, _, err := d.CreateSession(t.Context(), "k1")
	if err != nil {
		t.Fatal(err)
	}
	if s, err := d.Session(t.Context(), id); err != nil || s.UserID != "u1" || !s.Can("trades:read") {
		t.Errorf("a session of an old key: %+v %v", s, err)
	}
}
