package server_test

import (
	"context"
	"database/sql"
	"net/http"
	"testing"
	"time"

	"tradejournal/db"
)

// lastUsed reads api_keys.last_used_at straight from the file; "NULL" when
// it is null.
func lastUsed(t *testing.T, raw *sql.DB, keyID string) string {
	t.Helper()
	var v sql.NullString
	if err := raw.QueryRowContext(t.Context(), `SELECT last_used_at FROM api_keys WHERE id = ?`, keyID).Scan(&v); err != nil {
		t.Fatal(err)
	}
	if !v.Valid {
		return "NULL"
	}
	return v.String
}

func TestLastUsedWrittenOnlyByFlush(t *testing.T) {
	ts := newTestServer(t)
	ts.pinClock(t0)
	ts.newUser(t, "alice")
	used, key := ts.newKey(t, "alice", "write", false)
	idle, _ := ts.newKey(t, "alice", "write", false)
	raw := ts.sql(t)

	for range 3 {
		if status, body := ts.do(t, "GET", "/api/v1/accounts", key, ""); status != 200 {
			t.Fatalf("GET: got %d %s, want 200", status, body)
		}
	}
	ts.createAccount(t, key, `{"account_number":"A1"}`)
	if got := lastUsed(t, raw, used.ID); got != "NULL" {
		t.Errorf("last_used_at after 4 requests, before a flush: got %s, want NULL", got)
	}
	keys, err := ts.db.Keys(t.Context(), "alice")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if k.LastUsedAt != "" {
			t.Errorf("db.Keys before a flush: key %s LastUsedAt = %q, want empty", k.ID, k.LastUsedAt)
		}
	}

	if err := ts.srv.FlushKeyUsage(t.Context()); err != nil {
		t.Fatalf("FlushKeyUsage: %v", err)
	}
	if got := lastUsed(t, raw, used.ID); got != t0Text {
		t.Errorf("last_used_at after flush: got %s, want %s", got, t0Text)
	}
	if got := lastUsed(t, raw, idle.ID); got != "NULL" {
		t.Errorf("unused key's last_used_at after flush: got %s, want NULL", got)
	}

	// Nothing pending: a second flush writes nothing, even with the clock on.
	t1 := t0.Add(90 * time.Second)
	ts.pinClock(t1)
	if err := ts.srv.FlushKeyUsage(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := lastUsed(t, raw, used.ID); got != t0Text {
		t.Errorf("last_used_at after an empty flush: got %s, want %s", got, t0Text)
	}
	ts.do(t, "GET", "/api/v1/accounts", key, "")
	if err := ts.srv.FlushKeyUsage(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got, want := lastUsed(t, raw, used.ID), "2026-02-05T15:19:24.123Z"; got != want {
		t.Errorf("last_used_at after a later request and flush: got %s, want %s", got, want)
	}
}

// TestRecordKeyUsageFlushesOnStop: serve stops the recorder on shutdown, and
// the recorder flushes once more on its way out, so no use is lost.
func TestRecordKeyUsageFlushesOnStop(t *testing.T) {
	ts := newTestServer(t)
	ts.pinClock(t0)
	ts.newUser(t, "alice")
	k, key := ts.newKey(t, "alice", "read", false)
	raw := ts.sql(t)

	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		ts.srv.RecordKeyUsage(ctx, time.Hour) // the ticker never fires in this test
		close(done)
	}()
	ts.do(t, "GET", "/api/v1/accounts", key, "")
	if got := lastUsed(t, raw, k.ID); got != "NULL" {
		t.Errorf("last_used_at while recording: got %s, want NULL", got)
	}
	cancel()
	<-done
	if got := lastUsed(t, raw, k.ID); got != t0Text {
		t.Errorf("last_used_at after the recorder stopped: got %s, want %s", got, t0Text)
	}
}

// dataVersion reads PRAGMA data_version on one connection held apart from
// the server: it changes exactly when another connection commits a change.
func dataVersion(t *testing.T, c *sql.Conn) int {
	t.Helper()
	var v int
	if err := c.QueryRowContext(t.Context(), "PRAGMA data_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestReadRequestsNeverWrite(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	a := ts.createAccount(t, key, `{"account_number":"A1"}`)
	conn, err := ts.sql(t).Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	before := dataVersion(t, conn)
	// Each read must answer as it should, or it proves nothing: a read that
	// failed before it reached the journal writes nothing either.
	reads := []struct {
		target, key string
		wantStatus  int
	}{
		{"/api/v1/accounts", key, http.StatusOK},
		{"/api/v1/accounts?limit=1&offset=0", key, http.StatusOK},
		{"/api/v1/accounts/" + a.ID, key, http.StatusOK},
		{"/api/v1/accounts/" + db.NewKey(false)[:36], key, http.StatusNotFound},
		{"/api/v1/accounts?limit=0", key, http.StatusBadRequest},        // refused, yet a use of the key
		{"/api/v1/accounts", db.NewKey(false), http.StatusUnauthorized}, // unknown key
	}
	for _, r := range reads {
		if status, body := ts.do(t, "GET", r.target, r.key, ""); status != r.wantStatus {
			t.Errorf("GET %s: got %d %s, want %d", r.target, status, body, r.wantStatus)
		}
	}
	if after := dataVersion(t, conn); after != before {
		t.Errorf("data_version after %d reads: got %d, want %d (a read wrote)", len(reads), after, before)
	}

	// The probe sees writes: a create and a flush each change it.
	ts.createAccount(t, key, `{"account_number":"A2"}`)
	afterWrite := dataVersion(t, conn)
	if afterWrite == before {
		t.Errorf("data_version after a create: got %d, want a change from %d", afterWrite, before)
	}
	if err := ts.srv.FlushKeyUsage(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := dataVersion(t, conn); got == afterWrite {
		t.Errorf("data_version after a flush: got %d, want a change", got)
	}
}
