package db

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// TestLoginTokens: a sign-in token names its user and key without being
// spent, signs in once, lasts 15 minutes, dies with its key's revocation,
// and is stored only as a hash. Without --key it takes the user's newest
// live key among those with the most scopes.
func TestLoginTokens(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	t0 := time.Date(2026, 2, 5, 15, 0, 0, 0, time.UTC)
	pinClock(d, t0)
	newTestUser(t, d, "alice")
	newTestUser(t, d, "bob")
	read, _, _ := d.CreateKey(ctx, "alice", "phone", []string{"trades:read"}, false)
	full, _, _ := d.CreateKey(ctx, "alice", "laptop", []string{"trades:write", "tags:write"}, false)
	newer, _, _ := d.CreateKey(ctx, "alice", "desk", []string{"trades:write", "tags:write"}, false)
	wider, _, _ := d.CreateKey(ctx, "alice", "revoked", []string{"trades:write", "tags:write", "accounts:write"}, false)
	if err := d.RevokeKey(ctx, wider.ID); err != nil {
		t.Fatal(err)
	}

	token, lt, err := d.CreateLoginToken(ctx, "alice", "")
	if err != nil {
		t.Fatal(err)
	}
	if lt.KeyID != newer.ID || lt.UserName != "alice" || lt.KeyName != "desk" || lt.ExpiresAt != "2026-02-05T15:15:00.000Z" {
		t.Errorf("default key: %+v, want the newest of the widest live keys (%s)", lt, newer.ID)
	}
	var stored int
	d.read.QueryRowContext(ctx, `SELECT count(*) FROM login_tokens WHERE token_hash = ? OR token_hash = hex(?)`, token, token).Scan(&stored)
	if stored != 0 || len(token) != 43 {
		t.Errorf("token %q: stored as it is (%d), or not 256 bits", token, stored)
	}
	// Looking does not spend it; using it does, once.
	for range 2 {
		if got, err := d.LoginTokenFor(ctx, token); err != nil || got.KeyID != newer.ID || !slices.Equal(got.Scopes, []string{"trades:write", "tags:write"}) {
			t.Fatalf("LoginTokenFor: %+v %v", got, err)
		}
	}
	id, csrf, err := d.UseLoginToken(ctx, token)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := d.Session(ctx, id); err != nil || s.KeyID != newer.ID || s.CSRF != csrf {
		t.Errorf("the token's session: %+v %v", s, err)
	}
	var nf *NotFoundError
	if _, _, err := d.UseLoginToken(ctx, token); !errors.As(err, &nf) {
		t.Errorf("a token used twice: %v, want not found", err)
	}
	if _, err := d.LoginTokenFor(ctx, token); !errors.As(err, &nf) {
		t.Errorf("a used token looked at: %v, want not found", err)
	}

	// --key picks the key; another user's key, or a revoked one, is refused.
	token, lt, err = d.CreateLoginToken(ctx, "alice", read.ID)
	if err != nil || lt.KeyID != read.ID {
		t.Fatalf("with --key: %+v %v", lt, err)
	}
	var inv *InvalidError
	for _, k := range []string{wider.ID, "nope"} {
		if _, _, err := d.CreateLoginToken(ctx, "alice", k); !errors.As(err, &inv) || inv.Field != "key" {
			t.Errorf("--key %s: %v, want invalid key", k, err)
		}
	}
	if _, _, err := d.CreateLoginToken(ctx, "bob", full.ID); !errors.As(err, &inv) {
		t.Errorf("bob with alice's key: %v, want invalid key", err)
	}
	if _, _, err := d.CreateLoginToken(ctx, "bob", ""); !errors.As(err, &inv) {
		t.Errorf("a user without keys: %v, want invalid key", err)
	}

	// 15 minutes, not a millisecond more.
	pinClock(d, t0.Add(LoginTokenTTL-time.Millisecond))
	if _, err := d.LoginTokenFor(ctx, token); err != nil {
		t.Errorf("just before 15 minutes: %v", err)
	}
	pinClock(d, t0.Add(LoginTokenTTL))
	if _, err := d.LoginTokenFor(ctx, token); !errors.As(err, &nf) {
		t.Errorf("at 15 minutes: %v, want not found", err)
	}
	if _, _, err := d.UseLoginToken(ctx, token); !errors.As(err, &nf) {
		t.Errorf("used at 15 minutes: %v, want not found", err)
	}

	// A token whose key is revoked signs in as nobody; a new token clears
	// the expired ones away.
	pinClock(d, t0)
	token, _, _ = d.CreateLoginToken(ctx, "alice", full.ID)
	if err := d.RevokeKey(ctx, full.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := d.LoginTokenFor(ctx, token); !errors.As(err, &nf) {
		t.Errorf("key revoked, looked at: %v, want not found", err)
	}
	if _, _, err := d.UseLoginToken(ctx, token); !errors.As(err, &nf) {
		t.Errorf("key revoked, used: %v, want not found", err)
	}
	pinClock(d, t0.Add(time.Hour))
	if _, _, err := d.CreateLoginToken(ctx, "alice", ""); err != nil {
		t.Fatal(err)
	}
	d.read.QueryRowContext(ctx, `SELECT count(*) FROM login_tokens`).Scan(&stored)
	if stored != 1 {
		t.Errorf("%d tokens kept after an hour and a new one, want 1", stored)
	}
}

// TestMigrateLoginTokens: a journal of schema 7 opens under 8 with its
// users, keys and sessions as they were, and its keys make sign-in links.
func TestMigrateLoginTokens(t *testing.T) {
	path := oldJournal(t, 7,
		`INSERT INTO users (id, name, created_at) VALUES ('u1', 'alice', '2025-12-01T00:00:00.000Z')`,
		`INSERT INTO api_keys (id, user_id, name, prefix, hash, scopes, created_at)
			VALUES ('k1', 'u1', 'first run', 'tj_abcde', x'00', 'trades:write', '2025-12-01T00:00:00.000Z')`,
		`INSERT INTO web_sessions (id_hash, key_id, csrf, created_at, expires_at)
			VALUES (x'01', 'k1', 'c', '2025-12-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z')`,
	)
	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open migrates: %v", err)
	}
	defer d.Close()
	keys, err := d.Keys(t.Context(), "alice")
	if err != nil || len(keys) != 1 || keys[0].ID != "k1" || keys[0].Name != "first run" {
		t.Fatalf("keys after migrating: %+v %v", keys, err)
	}
	var sessions int
	if err := d.read.QueryRowContext(t.Context(), `SELECT count(*) FROM web_sessions WHERE key_id = 'k1'`).Scan(&sessions); err != nil || sessions != 1 {
		t.Errorf("sessions after migrating: %d %v", sessions, err)
	}
	if _, lt, err := d.CreateLoginToken(t.Context(), "alice", ""); err != nil || lt.KeyID != "k1" {
		t.Errorf("a sign-in link after migrating: %+v %v", lt, err)
	}
}
