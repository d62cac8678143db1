package db

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// flipLast changes a key's last character to another base62 character.
func flipLast(key string) string {
	last := byte('a')
	if key[len(key)-1] == 'a' {
		last = 'b'
	}
	return key[:len(key)-1] + string(last)
}

func TestWellFormedKey(t *testing.T) {
	cur, legacy := NewKey(false), NewKey(true)
	tests := []struct {
		name string
		key  string
		want bool
	}{
		{"current", cur, true},
		{"legacy", legacy, true},
		{"empty", "", false},
		{"bad checksum", flipLast(cur), false},
		{"secret changed", flipLast(cur[:10]) + cur[10:], false},
		{"too short", cur[:len(cur)-1], false},
		{"too long", cur + "0", false},
		{"unknown prefix", "tx_" + cur[3:], false},
		{"legacy prefix on current body", "tjk_" + cur[3:], false},
		{"legacy too long", legacy + "0", false},
		{"legacy too short", legacy[:len(legacy)-1], false},
		{"not base62", cur[:10] + "-" + cur[11:], false},
		{"legacy not base62", legacy[:10] + "_" + legacy[11:], false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := WellFormedKey(tt.key); got != tt.want {
				t.Errorf("WellFormedKey(%q) = %v, want %v", tt.key, got, tt.want)
			}
		})
	}
}

func TestNewKeyShape(t *testing.T) {
	cur := NewKey(false)
	if got, want := len(cur), 3+43+6; got != want {
		t.Errorf("len(NewKey(false)) = %d, want %d", got, want)
	}
	if !strings.HasPrefix(cur, "tj_") {
		t.Errorf("NewKey(false) = %q, want prefix tj_", cur)
	}
	legacy := NewKey(true)
	if got, want := len(legacy), 4+43; got != want {
		t.Errorf("len(NewKey(true)) = %d, want %d", got, want)
	}
	if !strings.HasPrefix(legacy, "tjk_") {
		t.Errorf("NewKey(true) = %q, want prefix tjk_", legacy)
	}
	if NewKey(false) == cur {
		t.Error("two NewKey calls gave the same key")
	}
}

func TestParseScopes(t *testing.T) {
	all := func(mode string) []string {
		var out []string
		for _, r := range []string{"accounts", "content", "documents", "playbooks", "tags", "trades"} {
			out = append(out, r+":"+mode)
		}
		return out
	}
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{"write", all("write"), false},
		{"read", all("read"), false},
		{"accounts:read", []string{"accounts:read"}, false},
		{"trades:write, tags:read,trades:write", []string{"tags:read", "trades:write"}, false},
		{"", nil, true},
		{"admin", nil, true},
		{"accounts:delete", nil, true},
		{"money:read", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseScopes(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseScopes(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("ParseScopes(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestPrincipalCan(t *testing.T) {
	tests := []struct {
		scopes []string
		scope  string
		want   bool
	}{
		{[]string{"accounts:read"}, "accounts:read", true},
		{[]string{"accounts:read"}, "accounts:write", false},
		{[]string{"accounts:write"}, "accounts:read", true}, // :write implies :read
		{[]string{"accounts:write"}, "accounts:write", true},
		{[]string{"trades:write"}, "accounts:read", false},
		{[]string{"trades:write"}, "accounts:write", false},
		{nil, "accounts:read", false},
	}
	for _, tt := range tests {
		p := Principal{Scopes: tt.scopes}
		if got := p.Can(tt.scope); got != tt.want {
			t.Errorf("Principal{Scopes: %v}.Can(%q) = %v, want %v", tt.scopes, tt.scope, got, tt.want)
		}
	}
}

// TestCreateKeyStoresOnlyHash reads the row back with SQL: the key itself is
// nowhere in it, its SHA-256 and first 8 characters are.
func TestCreateKeyStoresOnlyHash(t *testing.T) {
	d := newTestDB(t)
	pinClock(d, time.Date(2026, 2, 5, 15, 17, 54, 123e6, time.UTC))
	newTestUser(t, d, "alice")
	scopes, _ := ParseScopes("accounts:read")
	k, key, err := d.CreateKey(t.Context(), "alice", "laptop", scopes, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := "2026-02-05T15:17:54.123Z"; k.CreatedAt != want {
		t.Errorf("CreatedAt: got %q, want %q", k.CreatedAt, want)
	}
	var prefix, scopeText, row string
	var hash []byte
	err = d.read.QueryRowContext(t.Context(), `SELECT prefix, hash, scopes,
		id || user_id || name || prefix || scopes || created_at FROM api_keys WHERE id = ?`, k.ID).
		Scan(&prefix, &hash, &scopeText, &row)
	if err != nil {
		t.Fatal(err)
	}
	if want := sha256.Sum256([]byte(key)); !bytes.Equal(hash, want[:]) {
		t.Errorf("stored hash: got %x, want %x", hash, want)
	}
	if prefix != key[:8] {
		t.Errorf("stored prefix: got %q, want %q", prefix, key[:8])
	}
	if scopeText != "accounts:read" {
		t.Errorf("stored scopes: got %q, want %q", scopeText, "accounts:read")
	}
	if strings.Contains(row, key[3:]) {
		t.Errorf("a text column holds the key's secret: %q", row)
	}
}

func TestCreateKeyUnknownUser(t *testing.T) {
	d := newTestDB(t)
	_, _, err := d.CreateKey(t.Context(), "nobody", "", []string{"accounts:read"}, false)
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.Kind != "User" {
		t.Errorf("CreateKey for unknown user: got %v, want User not found", err)
	}
}

func TestAuthenticate(t *testing.T) {
	d := newTestDB(t)
	u := newTestUser(t, d, "alice")
	scopes, _ := ParseScopes("read")
	k, key, err := d.CreateKey(t.Context(), "alice", "", scopes, false)
	if err != nil {
		t.Fatal(err)
	}
	_, legacyKey, err := d.CreateKey(t.Context(), "alice", "", scopes, true)
	if err != nil {
		t.Fatal(err)
	}

	p, err := d.Authenticate(t.Context(), key)
	if err != nil {
		t.Fatalf("Authenticate(current key): %v", err)
	}
	want := Principal{KeyID: k.ID, UserID: u.ID, Timezone: DefaultTimezone,
		Subscription: SubscriptionActive, Scopes: scopes}
	if !equalPrincipal(p, want) {
		t.Errorf("Authenticate: got %+v, want %+v", p, want)
	}
	if _, err := d.Authenticate(t.Context(), legacyKey); err != nil {
		t.Errorf("Authenticate(legacy key): %v", err)
	}
	var nf *NotFoundError
	if _, err := d.Authenticate(t.Context(), NewKey(false)); !errors.As(err, &nf) {
		t.Errorf("Authenticate(unknown key): got %v, want *NotFoundError", err)
	}

	if err := d.RevokeKey(t.Context(), k.ID); err != nil {
		t.Fatal(err)
	}
	p, err = d.Authenticate(t.Context(), key)
	if err != nil || !p.Revoked {
		t.Errorf("Authenticate(revoked key): got %+v, %v, want Revoked", p, err)
	}
	if err := d.RevokeKey(t.Context(), "no-such-key"); !errors.As(err, &nf) {
		t.Errorf("RevokeKey(unknown): got %v, want *NotFoundError", err)
	}
}

func equalPrincipal(a, b Principal) bool {
	return a.KeyID == b.KeyID && a.UserID == b.UserID && a.Timezone == b.Timezone &&
		a.Subscription == b.Subscription && a.Revoked == b.Revoked && slices.Equal(a.Scopes, b.Scopes)
}

// TestTouchKeys writes last_used_at and never moves it backwards, so a late
// flush of an older batch cannot undo a newer one.
func TestTouchKeys(t *testing.T) {
	d := newTestDB(t)
	newTestUser(t, d, "alice")
	k1, _, _ := d.CreateKey(t.Context(), "alice", "one", []string{"accounts:read"}, false)
	k2, _, _ := d.CreateKey(t.Context(), "alice", "two", []string{"accounts:read"}, false)
	t1 := time.Date(2026, 2, 5, 15, 17, 54, 123e6, time.UTC)
	t0 := t1.Add(-time.Hour)

	steps := []struct {
		used map[string]time.Time
		want string
	}{
		{nil, ""},
		{map[string]time.Time{k1.ID: t1}, "2026-02-05T15:17:54.123Z"},
		{map[string]time.Time{k1.ID: t0}, "2026-02-05T15:17:54.123Z"},
	}
	for i, s := range steps {
		if err := d.TouchKeys(t.Context(), s.used); err != nil {
			t.Fatalf("step %d: TouchKeys: %v", i, err)
		}
		keys, err := d.Keys(t.Context(), "alice")
		if err != nil {
			t.Fatal(err)
		}
		lastUsed := map[string]string{}
		for _, k := range keys {
			lastUsed[k.ID] = k.LastUsedAt
		}
		if got := lastUsed[k1.ID]; got != s.want {
			t.Errorf("step %d: key one last_used_at = %q, want %q", i, got, s.want)
		}
		if got := lastUsed[k2.ID]; got != "" {
			t.Errorf("step %d: untouched key two last_used_at = %q, want empty", i, got)
		}
	}
}
