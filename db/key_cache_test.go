package db

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestAuthenticateSeesEveryCommit: a key read twice is kept, and a change
// to it, its user or anything else, committed by this journal's writer or
// by another process's (a CLI beside serve), is seen by the next read.
func TestAuthenticateSeesEveryCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.db")
	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	// The CLI's own journal, as `tradejournal key revoke` opens it.
	cli, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}

	k, key := aliceReadKey(t, d)
	read := func(step string) Principal {
		t.Helper()
		// Twice: the second is the one a kept principal answers.
		first, err := d.Authenticate(t.Context(), key)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		again, err := d.Authenticate(t.Context(), key)
		if err != nil || !equalPrincipal(first, again) || first.Revoked != again.Revoked {
			t.Fatalf("%s: read again %+v, %v; first %+v", step, again, err, first)
		}
		return again
	}
	if p := read("new key"); p.Timezone != DefaultTimezone || p.Subscription != SubscriptionActive || p.Revoked {
		t.Fatalf("new key: %+v", p)
	}

	for _, step := range []struct {
		name  string
		write func() error
		check func(Principal) bool
	}{
		{"timezone set by the CLI", func() error {
			_, err := cli.UpdateUser(t.Context(), "alice", UserUpdate{Timezone: Some("Asia/Tokyo")})
			return err
		}, func(p Principal) bool { return p.Timezone == "Asia/Tokyo" }},
		{"timezone set by serve", func() error {
			_, err := d.UpdateUser(t.Context(), "alice", UserUpdate{Timezone: Some("Europe/Berlin")})
			return err
		}, func(p Principal) bool { return p.Timezone == "Europe/Berlin" }},
		{"subscription ended by the CLI", func() error {
			_, err := cli.UpdateUser(t.Context(), "alice", UserUpdate{Subscription: Some(SubscriptionInactive)})
			return err
		}, func(p Principal) bool { return p.Subscription == SubscriptionInactive }},
		{"subscription back by serve", func() error {
			_, err := d.UpdateUser(t.Context(), "alice", UserUpdate{Subscription: Some(SubscriptionActive)})
			return err
		}, func(p Principal) bool { return p.Subscription == SubscriptionActive && !p.Revoked }},
		{"revoked by the CLI", func() error { return cli.RevokeKey(t.Context(), k.ID) },
			func(p Principal) bool { return p.Revoked }},
	} {
		if err := step.write(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if p := read(step.name); !step.check(p) {
			t.Errorf("%s: read %+v", step.name, p)
		}
	}

	// The CLI's journal closing leaves serve's -shm file in place (serve's
	// connections hold the database), and the next CLI's commit is seen:
	// a key deleted outright is unknown at once.
	if err := cli.Close(); err != nil {
		t.Fatal(err)
	}
	read("after the CLI closed")
	cli, err = Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	if _, err := cli.write.Exec(`DELETE FROM api_keys WHERE id = ?`, k.ID); err != nil {
		t.Fatal(err)
	}
	var nf *NotFoundError
	if _, err := d.Authenticate(t.Context(), key); !errors.As(err, &nf) {
		t.Errorf("deleted key: got %v, want *NotFoundError", err)
	}
}

// aliceReadKey adds user alice and a read key of hers: its record and
// secret.
func aliceReadKey(t *testing.T, d *DB) (Key, string) {
	t.Helper()
	if _, err := d.CreateUser(t.Context(), "alice", ""); err != nil {
		t.Fatal(err)
	}
	scopes, _ := ParseScopes("read")
	k, key, err := d.CreateKey(t.Context(), "alice", "", scopes, false)
	if err != nil {
		t.Fatal(err)
	}
	return k, key
}

// TestKeyCacheHeader: the cache trusts only a whole, initialized header
// with its checksum.
func TestKeyCacheHeader(t *testing.T) {
	d := newTestDB(t)
	c := d.keys
	h, ok := c.now()
	if !ok {
		t.Fatal("the live journal's header is not read")
	}
	if _, err := d.CreateUser(t.Context(), "alice", ""); err != nil {
		t.Fatal(err)
	}
	if after, ok := c.now(); !ok || after == h {
		t.Errorf("a commit left the header as it was (%v)", ok)
	}

	var both [2 * walHeaderSize]byte
	if _, err := c.shm.ReadAt(both[:], 0); err != nil {
		t.Fatal(err)
	}
	if !walHeaderValid(both[:]) {
		t.Fatal("the live header fails the check")
	}
	// sum writes a header's checksum into both copies, as SQLite would.
	sum := func(b []byte) {
		e := binary.NativeEndian
		var s1, s2 uint32
		for i := 0; i < 40; i += 8 {
			s1 += e.Uint32(b[i:]) + s2
			s2 += e.Uint32(b[i+4:]) + s1
		}
		e.PutUint32(b[40:], s1)
		e.PutUint32(b[44:], s2)
		copy(b[walHeaderSize:], b[:walHeaderSize])
	}
	for name, spoil := range map[string]func(b []byte){
		"first copy torn by a commit":     func(b []byte) { b[16]++ },
		"second copy not yet the first":   func(b []byte) { b[walHeaderSize+16]++ },
		"not initialized, checksum right": func(b []byte) { b[12] = 0; sum(b) },
		"checksum wrong in both copies":   func(b []byte) { b[40]++; b[walHeaderSize+40]++ },
		"a field changed in both copies":  func(b []byte) { b[20]++; b[walHeaderSize+20]++ },
	} {
		b := both
		spoil(b[:])
		if walHeaderValid(b[:]) {
			t.Errorf("%s: header trusted", name)
		}
	}
}

// TestKeyCacheKeepsUnderItsHeader: a principal read under an older header
// than the newest seen is not kept, and a newer header empties the cache.
func TestKeyCacheKeepsUnderItsHeader(t *testing.T) {
	var c keyCache
	h1, h2 := [walHeaderSize]byte{1}, [walHeaderSize]byte{2}
	alice := Principal{KeyID: "k1", Scopes: []string{"trades:read"}}
	if _, ok := c.get(h1, []byte("a")); ok {
		t.Fatal("empty cache answered")
	}
	c.put(h1, []byte("a"), alice)
	if p, ok := c.get(h1, []byte("a")); !ok || p.KeyID != "k1" {
		t.Fatalf("kept principal: %+v, %v", p, ok)
	}
	// A read that began under h1 ends after another saw h2: not kept.
	if _, ok := c.get(h2, []byte("a")); ok {
		t.Fatal("answered under a newer header")
	}
	c.put(h1, []byte("b"), alice)
	if _, ok := c.get(h2, []byte("b")); ok {
		t.Error("kept a principal read under an older header")
	}
	// The kept scopes are shared: an append must not write into them.
	c.put(h2, []byte("a"), alice)
	p, _ := c.get(h2, []byte("a"))
	_ = append(p.Scopes, "tags:write")
	if q, _ := c.get(h2, []byte("a")); len(q.Scopes) != 1 || cap(q.Scopes) != 1 {
		t.Errorf("kept scopes %v (cap %d)", q.Scopes, cap(q.Scopes))
	}
	for i := range keyCacheSize + 10 {
		c.put(h2, []byte{byte(i), byte(i >> 8)}, alice)
	}
	if len(c.keys) != keyCacheSize {
		t.Errorf("cache holds %d keys, want at most %d", len(c.keys), keyCacheSize)
	}
}

// TestKeyCacheThroughSymlink: a journal opened through a symbolic link has
// its wal-index beside the file the link names, as SQLite keeps it; a
// stale -shm file left beside the link (a journal moved and linked after a
// crash) must not be the one read, or its header would never change.
func TestKeyCacheThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "disk", "journal.db")
	if err := os.Mkdir(filepath.Dir(real), 0o700); err != nil {
		t.Fatal(err)
	}
	first, err := Open(t.Context(), real)
	if err != nil {
		t.Fatal(err)
	}
	var header [2 * walHeaderSize]byte
	if _, err := first.shm.ReadAt(header[:], 0); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "journal.db")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(link+"-shm", header[:], 0o600); err != nil { // the leftover, its header valid
		t.Fatal(err)
	}

	d, err := Open(t.Context(), link)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if got := d.shm.Name(); got != real+"-shm" {
		t.Fatalf("wal-index read from %s, want %s", got, real+"-shm")
	}
	k, key := aliceReadKey(t, d)
	for range 2 {
		if p, err := d.Authenticate(t.Context(), key); err != nil || p.Revoked {
			t.Fatalf("new key: %+v, %v", p, err)
		}
	}
	cli, err := Open(t.Context(), link)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	if err := cli.RevokeKey(t.Context(), k.ID); err != nil {
		t.Fatal(err)
	}
	if p, err := d.Authenticate(t.Context(), key); err != nil || !p.Revoked {
		t.Errorf("after the revoke: %+v, %v, want Revoked", p, err)
	}
}
