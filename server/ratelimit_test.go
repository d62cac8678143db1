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
	ts.srv = server.New(server.Config{AllowedHosts: []string{testHost}, RateLimit: perSecond, AuthFailures: authFailures, Now: func() time.Time { return now }},
		ts.db, store, slog.New(slog.DiscardHandler))
	return ts, &now
}

// TestRateLimitPerKey: with --rate-limit 5 a key makes 5 requests a
// second; the sixth within the second is a 429 telling when to retry.
func TestRateLimitPerKey(t *testing.T) {
	ts, now := limitedServer(t, 5, 0)
	_, alice := ts.newUser(t, "alice")
	_, bob := ts.newUser(t, "bob")
	for i := range 5 {
		if status, b := ts.do(t, "GET", "/api/v1/accounts", alice, ""); status != 200 {
			t.Fatalf("request %d: got %d %s, want 200", i+1, status, b)
		}
	}
	w := ts.request(t, "GET", "/api/v1/accounts", alice, "")
	if got := decode[errBody](t, w.Body.Bytes()); w.Code != http.StatusTooManyRequests || got.Code != "RATE_LIMITED" || w.Header().Get("Retry-After") != "1" {
		t.Errorf("6th request: got %d %s Retry-After %q, want 429 RATE_LIMITED with Retry-After 1", w.Code, w.Body, w.Header().Get("Retry-After"))
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

// TestRateLimitOffByDefault: the server's default throttles no key.
func TestRateLimitOffByDefault(t *testing.T) {
	ts, _ := limitedServer(t, server.DefaultRateLimit, server.DefaultAuthFailures)
	_, key := ts.newUser(t, "alice")
	for i := range 500 {
		if status, b := ts.do(t, "GET", "/api/v1/accounts", key, ""); status != 200 {
			t.Fatalf("request %d in the same instant: got %d %s, want 200", i+1, status, b)
		}
	}
}

// TestRateLimitFailedAuth: an address may fail 10 times a minute; past
// that its failing requests are 429s, while a valid key from the same
// address is always served.
func TestRateLimitFailedAuth(t *testing.T) {
	ts, now := limitedServer(t, 0, 10)
	_, key := ts.newUser(t, "alice")
	bad := "tj_" + "0000000000000000000000000000000000000000000" + "000000"
	for i := range 20 {
		w := ts.request(t, "GET", "/api/v1/accounts", bad, "")
		want := 401
		if i >= 10 {
			want = 429
		}
		if w.Code != want {
			t.Fatalf("failure %d: got %d %s, want %d", i+1, w.Code, w.Body, want)
		}
		if want == 429 {
			if got := decode[errBody](t, w.Body.Bytes()); got.Code != "RATE_LIMITED" || w.Header().Get("Retry-After") != "6" {
				t.Errorf("failure %d: %s Retry-After %q, want RATE_LIMITED and 6 (a minute / 10)", i+1, w.Body, w.Header().Get("Retry-After"))
			}
		}
	}
	// The owner's working key, from the address that just failed 20 times.
	for i := range 3 {
		if status, b := ts.do(t, "GET", "/api/v1/accounts", key, ""); status != 200 {
			t.Errorf("valid key after the failures, request %d: got %d %s, want 200", i+1, status, b)
		}
	}
	// A revoked or unknown key stays refused the same way: the address is
	// still over its budget.
	if w := ts.request(t, "GET", "/api/v1/accounts", "", ""); w.Code != 429 {
		t.Errorf("no key from the blocked address: got %d, want 429", w.Code)
	}
	// Another address has its own budget.
	r := httptest.NewRequest("GET", "/api/v1/accounts", nil)
	r.Header.Set("Authorization", "Bearer "+bad)
	r.RemoteAddr = "198.51.100.7:5000"
	if w := ts.send(t, r); w.Code != 401 {
		t.Errorf("other address, bad key: got %d, want 401", w.Code)
	}
	// Six seconds later one failure is back: a 401, then 429 again.
	*now = now.Add(6 * time.Second)
	for _, want := range []int{401, 429} {
		if status, _ := ts.do(t, "GET", "/api/v1/accounts", bad, ""); status != want {
			t.Errorf("6s later, bad key: got %d, want %d", status, want)
		}
	}
}
