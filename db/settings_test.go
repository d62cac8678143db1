package db

import (
	"errors"
	"testing"
)

// TestRevokeUserKeyAndEndSessions: a user revokes only their own keys, and
// signing out everywhere ends every session of every key of theirs, no one
// else's.
func TestRevokeUserKeyAndEndSessions(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	alice, bob := newTestUser(t, d, "alice"), newTestUser(t, d, "bob")
	k1, _, _ := d.CreateKey(ctx, "alice", "laptop", []string{"trades:write"}, false)
	k2, _, _ := d.CreateKey(ctx, "alice", "phone", []string{"trades:read"}, false)
	kb, _, _ := d.CreateKey(ctx, "bob", "bob", []string{"trades:read"}, false)
	var nf *NotFoundError
	if err := d.RevokeUserKey(ctx, bob.ID, k1.ID); !errors.As(err, &nf) {
		t.Errorf("bob revoking alice's key: %v, want not found", err)
	}
	if err := d.RevokeUserKey(ctx, alice.ID, "nope"); !errors.As(err, &nf) {
		t.Errorf("an unknown key: %v, want not found", err)
	}
	if err := d.RevokeUserKey(ctx, alice.ID, k2.ID); err != nil {
		t.Fatal(err)
	}
	keys, _ := d.Keys(ctx, "alice")
	for _, k := range keys {
		if (k.ID == k2.ID) != (k.RevokedAt != "") {
			t.Errorf("key %s revoked at %q", k.Name, k.RevokedAt)
		}
	}

	s1, _, _ := d.CreateSession(ctx, k1.ID)
	s2, _, _ := d.CreateSession(ctx, k1.ID)
	sb, _, _ := d.CreateSession(ctx, kb.ID)
	if n, err := d.EndUserSessions(ctx, alice.ID); err != nil || n != 2 {
		t.Fatalf("EndUserSessions: %d %v, want 2", n, err)
	}
	for _, id := range []string{s1, s2} {
		if _, err := d.Session(ctx, id); !errors.As(err, &nf) {
			t.Errorf("alice's session after signing out everywhere: %v", err)
		}
	}
	if _, err := d.Session(ctx, sb); err != nil {
		t.Errorf("bob's session ended with alice's: %v", err)
	}
}
