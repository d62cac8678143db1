package server_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"tradejournal/files"
	"tradejournal/server"
)

// limitedServer is the real handler with rate limits and a clock the test
// moves by hand.
func limitedServer(t *testing.T, perSecond float64, authFailures int) (*testServer, *time.Time) {
	t.Helper()
	ts := newTestServer(t)
	now := time.Date(2026, 2, 5, 15, 0, 0, 0, time.UTC)
	store, err := files.Open(filepath.Join(t.TempDir(), "files"))
	if err != nil {
		t.Fatal(err)
	}
	ts.srv = server.New(server.Config{RateLimit: perSecond, AuthFailures: authFailures, Now: func() time.Time { return now }},
		ts.db, store, slog.New(slog.DiscardHandler))
	return ts, &now
}

func TestRateLimitPerKey(t *testing.T) {
	ts, now := limitedServer(t, 5, 0)
	_, alice := ts.newUser(t, "alice")
	_, bob := ts.newUser(t, "bob")
	// A burst of twice the rate passes, the next request waits.
	for i := range 10 {
		if status, b := ts.do(t, "GET", "/api/v1/accounts", alice, ""); status != 200 {
			t.Fatalf("request %d: got %d %s, want 200", i, status, b)
		}
	}
	w := ts.request(t, "GET", "/api/v1/accounts", alice, "")
	if got := decode[errBody](t, w.Body.Bytes()); w.Code != http.StatusTooManyRequests || got.Code != "RATE_LIMITED" || w.Header().Get("Retry-After") != "1" {
		t.Errorf("11th request: got %d %s Retry-After %q, want 429 RATE_LIMITED with Retry-After 1", w.Code, w.Body, w.Header().Get("Retry-After"))
	}
	// Another key has its own bucket.
	if status, _ := ts.do(t, "GET", "/api/v1/accounts", bob, ""); status != 200 {
		t.Errorf("bob: got %d, want 200", status)
	}
	// A fifth of a second later one token is back.
	*now = now.Add(200 * time.Millisecond)
	if status, _ := ts.do(t, "GET", "/api/v1/accounts", alice, ""); status != 200 {
		t.Errorf("after 200ms: got %d, want 200", status)
	}
	if status, _ := ts.do(t, "GET", "/api/v1/accounts", alice, ""); status != 429 {
		t.Errorf("second after 200ms: got %d, want 429", status)
	}
}

func TestRateLimitFailedAuth(t *testing.T) {
	ts, now := limitedServer(t, 0, 10)
	_, key := ts.newUser(t, "alice")
	bad := "tj_" + "0000000000000000000000000000000000000000000" + "000000"
	for i := range 10 {
		if status, _ := ts.do(t, "GET", "/api/v1/accounts", bad, ""); status != 401 {
			t.Fatalf("failure %d: got %d, want 401", i, status)
		}
	}
	// The address is now refused, even with a good key, until a token is back.
	w := ts.request(t, "GET", "/api/v1/accounts", key, "")
	if w.Code != 429 || w.Header().Get("Retry-After") != "6" {
		t.Errorf("after 10 failures: got %d Retry-After %q, want 429 and 6 (a minute / 10)", w.Code, w.Header().Get("Retry-After"))
	}
	// Another address is not affected.
	r := httptest.NewRequest("GET", "/api/v1/accounts", nil)
	r.Header.Set("Authorization", "Bearer "+key)
	r.RemoteAddr = "198.51.100.7:5000"
	if w := ts.send(r); w.Code != 200 {
		t.Errorf("other address: got %d, want 200", w.Code)
	}
	*now = now.Add(6 * time.Second)
	if status, _ := ts.do(t, "GET", "/api/v1/accounts", key, ""); status != 200 {
		t.Errorf("6s later with a good key: got %d, want 200", status)
	}
	// Successes do not spend failures: keys in use are never locked out.
	for range 20 {
		if status, _ := ts.do(t, "GET", "/api/v1/accounts", key, ""); status != 200 {
			t.Fatalf("good key after recovery: got %d", status)
		}
	}
}
