package server_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"tradejournal/files"
	"tradejournal/internal/testkit"
	"tradejournal/server"
)

// TestHostCheck walks every route, the API's, the pages', the static
// files' and the signed download's: with Host evil.example each is a 421
// MISDIRECTED_REQUEST in the standard error body, though the request
// carries a valid key (or a valid signed link); with an allowed Host none
// is. localhost, 127.0.0.1 and [::1] with the port, the public URL's host
// and an --allowed-host are served.
func TestHostCheck(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	a := ts.createAccount(t, key, `{"account_number": "A-1"}`)
	doc := ts.mustUpload(t, key, form("A-1", filePart("payout.pdf", testdata(t, "payout.pdf"))), http.StatusCreated)
	link, err := url.Parse(doc.DocumentURL)
	if err != nil {
		t.Fatal(err)
	}
	store, err := files.Open(ts.files)
	if err != nil {
		t.Fatal(err)
	}
	ts.srv = server.New(server.Config{ListenAddr: "127.0.0.1:8080", PublicURL: "https://journal.example.com",
		AllowedHosts: []string{"notes.lan"}, Secret: []byte(testSecret)}, ts.db, store, slog.New(slog.DiscardHandler))

	send := func(method, target, host string) *httptest.ResponseRecorder {
		t.Helper()
		req := httptest.NewRequest(method, target, nil)
		req.Host = host
		req.Header.Set("Authorization", "Bearer "+key)
		return ts.send(t, req)
	}
	fill := strings.NewReplacer("{id}", a.ID, "{root}", "ES", "{name}", "x.pdf", "{date}", "2026-02-05", "{$}", "")
	targets := map[string]string{} // pattern → a request for it
	for _, pattern := range append(ts.srv.RoutePatterns(), ts.srv.PagePatterns()...) {
		targets[pattern] = fill.Replace(pattern)
	}
	download := "GET /api/v1/files/{id}/{name}"
	targets[download] = "GET " + link.RequestURI()
	if w := send("GET", link.RequestURI(), "journal.example.com"); w.Code != http.StatusOK {
		t.Fatalf("the signed link on the public URL's host: %d %s", w.Code, w.Body)
	}
	for pattern, target := range targets {
		method, path, _ := strings.Cut(target, " ")
		w := send(method, path, "evil.example")
		if w.Code != http.StatusMisdirectedRequest || w.Header().Get("X-Request-Id") == "" ||
			w.Body.String() != `{"error":"This server does not answer to that host name; use its address or public URL, or allow the name with serve --allowed-host","code":"MISDIRECTED_REQUEST"}`+"\n" {
			t.Errorf("%s with Host evil.example: %d %s, want 421 MISDIRECTED_REQUEST", pattern, w.Code, w.Body)
		}
		if w := send(method, path, "localhost:8080"); w.Code == http.StatusMisdirectedRequest {
			t.Errorf("%s with Host localhost:8080: 421", pattern)
		}
	}

	for _, host := range []string{"localhost:8080", "127.0.0.1:8080", "[::1]:8080", "journal.example.com",
		"JOURNAL.example.com.:443", "notes.lan:8080", "192.168.1.20:8080"} {
		if w := send("GET", "/api/v1/accounts", host); w.Code != http.StatusOK {
			t.Errorf("Host %s: %d %s, want 200", host, w.Code, w.Body)
		}
	}
	for _, host := range []string{"evil.example:8080", "journal.example.com.evil.example", "localhost.evil.example", "example.com", ""} {
		if w := send("GET", "/api/v1/accounts", host); w.Code != http.StatusMisdirectedRequest {
			t.Errorf("Host %q: %d %s, want 421", host, w.Code, w.Body)
		}
	}
}

// TestHostCheckComesFirst: a misdirected request is refused before
// anything else: its bad key spends none of the address's failed sign-ins,
// its body is never read, and it writes nothing.
func TestHostCheckComesFirst(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	store, err := files.Open(ts.files)
	if err != nil {
		t.Fatal(err)
	}
	ts.srv = server.New(server.Config{ListenAddr: "127.0.0.1:8080", AuthFailures: 3, Secret: []byte(testSecret)},
		ts.db, store, slog.New(slog.DiscardHandler))
	for range 10 {
		req := httptest.NewRequest("GET", "/api/v1/accounts", nil)
		req.Host = "evil.example"
		req.Header.Set("Authorization", "Bearer tj_nope")
		if w := ts.send(t, req); w.Code != http.StatusMisdirectedRequest {
			t.Fatalf("a bad key with Host evil.example: %d, want 421", w.Code)
		}
	}
	req := httptest.NewRequest("GET", "/api/v1/accounts", nil)
	req.Host = "localhost:8080"
	req.Header.Set("Authorization", "Bearer tj_nope")
	if w := ts.send(t, req); w.Code != http.StatusUnauthorized {
		t.Errorf("a bad key on the right host after ten misdirected ones: %d, want 401 (the budget untouched)", w.Code)
	}

	body := &countingReader{r: strings.NewReader(`{"account_number": "A-1"}`)}
	req = httptest.NewRequest("POST", "/api/v1/accounts", body)
	req.Host = "evil.example"
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	if w := ts.send(t, req); w.Code != http.StatusMisdirectedRequest || body.n != 0 {
		t.Errorf("a misdirected create: %d, %d bytes of its body read; want 421 and none", w.Code, body.n)
	}
	req = httptest.NewRequest("GET", "/api/v1/accounts", nil)
	req.Host = "localhost:8080"
	req.Header.Set("Authorization", "Bearer "+key)
	if w := ts.send(t, req); !strings.Contains(w.Body.String(), `"total":0`) {
		t.Errorf("accounts after a misdirected create: %s, want none", w.Body)
	}
}

// proxiedServer is the real handler with the failed sign-in budget, behind
// a proxy on 127.0.0.1 when trusted, and its access log.
func proxiedServer(t *testing.T, trusted bool) (*testServer, *testkit.SyncBuffer) {
	t.Helper()
	ts := newTestServer(t)
	store, err := files.Open(ts.files)
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.Config{AllowedHosts: []string{testHost}, Secret: []byte(testSecret), AuthFailures: 3,
		Now: func() time.Time { return t0 }}
	if trusted {
		cfg.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	}
	var logs testkit.SyncBuffer
	ts.srv = server.New(cfg, ts.db, store, slog.New(slog.NewTextHandler(&logs, nil)))
	return ts, &logs
}

// badKeyFrom sends a request with a bad key from peer, with the
// X-Forwarded-For header xff unless it is "".
func badKeyFrom(t *testing.T, ts *testServer, peer, xff string) int {
	t.Helper()
	req := httptest.NewRequest("GET", "/api/v1/accounts", nil)
	req.RemoteAddr = peer + ":5000"
	req.Header.Set("Authorization", "Bearer tj_nope")
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	return ts.send(t, req).Code
}

// TestTrustedProxySignInBudgets: behind --trusted-proxy 127.0.0.1/32, two
// clients the proxy names apart have a failed sign-in budget each, and the
// access log names them; without the flag the header changes nothing, so
// a client cannot escape its spent budget by sending it.
func TestTrustedProxySignInBudgets(t *testing.T) {
	t.Run("trusted", func(t *testing.T) {
		ts, logs := proxiedServer(t, true)
		for i := range 3 {
			if got := badKeyFrom(t, ts, "127.0.0.1", "203.0.113.1"); got != http.StatusUnauthorized {
				t.Fatalf("client 1, failure %d: %d, want 401", i+1, got)
			}
		}
		if got := badKeyFrom(t, ts, "127.0.0.1", "203.0.113.1"); got != http.StatusTooManyRequests {
			t.Errorf("client 1 past its budget: %d, want 429", got)
		}
		if got := badKeyFrom(t, ts, "127.0.0.1", "203.0.113.2"); got != http.StatusUnauthorized {
			t.Errorf("client 2 through the same proxy: %d, want 401 (a budget of its own)", got)
		}
		if got := badKeyFrom(t, ts, "127.0.0.1", "198.51.100.1, 203.0.113.1"); got != http.StatusTooManyRequests {
			t.Errorf("client 1 putting another address left of its own: %d, want 429", got)
		}
		if got := badKeyFrom(t, ts, "198.51.100.9", "203.0.113.3"); got != http.StatusUnauthorized {
			t.Fatalf("an untrusted peer: %d, want 401", got)
		}
		for range 2 {
			badKeyFrom(t, ts, "198.51.100.9", "203.0.113.4")
		}
		if got := badKeyFrom(t, ts, "198.51.100.9", "203.0.113.5"); got != http.StatusTooManyRequests {
			t.Errorf("an untrusted peer sending new X-Forwarded-For each time: %d, want 429 (the header ignored)", got)
		}
		// A malformed entry counts as the proxy itself.
		for range 3 {
			badKeyFrom(t, ts, "127.0.0.1", "not-an-address")
		}
		if got := badKeyFrom(t, ts, "127.0.0.1", ""); got != http.StatusTooManyRequests {
			t.Errorf("the proxy itself after three malformed entries: %d, want 429", got)
		}
		if got := badKeyFrom(t, ts, "127.0.0.1", "203.0.113.2"); got != http.StatusUnauthorized {
			t.Errorf("client 2 after the malformed entries: %d, want 401", got)
		}
		if log := logs.String(); !strings.Contains(log, "client=203.0.113.1 ") || !strings.Contains(log, "client=203.0.113.2 ") {
			t.Errorf("the access log does not name the proxied clients:\n%s", log)
		}
	})
	t.Run("not trusted", func(t *testing.T) {
		ts, logs := proxiedServer(t, false)
		for i := range 3 {
			if got := badKeyFrom(t, ts, "127.0.0.1", "203.0.113.1"); got != http.StatusUnauthorized {
				t.Fatalf("failure %d: %d, want 401", i+1, got)
			}
		}
		for _, xff := range []string{"203.0.113.2", "203.0.113.1", ""} {
			if got := badKeyFrom(t, ts, "127.0.0.1", xff); got != http.StatusTooManyRequests {
				t.Errorf("X-Forwarded-For %q past the budget: %d, want 429", xff, got)
			}
		}
		if log := logs.String(); strings.Contains(log, "203.0.113") || !strings.Contains(log, "client=127.0.0.1 ") {
			t.Errorf("the access log should name the peer only:\n%s", log)
		}
	})
}

// TestTrustedProxyUploadSlots: behind --trusted-proxy 127.0.0.1/32, two
// clients the proxy names apart hold upload slots each (two a client):
// the second client's upload gets a slot while the first holds both of
// its own, and the first's third is refused. Without the flag both are the
// proxy's address, and the second client's upload is refused too.
func TestTrustedProxyUploadSlots(t *testing.T) {
	for _, trusted := range []bool{true, false} {
		t.Run(fmt.Sprint("trusted ", trusted), func(t *testing.T) {
			cfg := server.Config{MaxUploads: 8, UploadWait: 300 * time.Millisecond}
			if trusted {
				cfg.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
			}
			_, hs, key := slowEnv(t, cfg)
			ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
			var wg sync.WaitGroup
			defer wg.Wait()
			defer cancel()
			slow := make(chan struct{})
			close(slow)
			// upload starts a trickling upload for client; its outcome is
			// "held" once it holds a slot, or its answer.
			upload := func(client string) <-chan string {
				out := make(chan string, 2)
				wg.Go(func() {
					status, code := trickle(ctx, t, hs, key, "127.0.0.1", slow, func() { out <- "held" }, "X-Forwarded-For: "+client)
					if status != 0 {
						out <- fmt.Sprint(status, " ", code)
					}
				})
				return out
			}
			for i := range 2 {
				if got := <-upload("203.0.113.1"); got != "held" {
					t.Fatalf("client 1, upload %d: %s, want a slot", i+1, got)
				}
			}
			if got := <-upload("203.0.113.1"); got != "503 UNAVAILABLE" {
				t.Errorf("client 1's third upload: %s, want 503 UNAVAILABLE", got)
			}
			want := "held"
			if !trusted {
				want = "503 UNAVAILABLE"
			}
			if got := <-upload("203.0.113.2"); got != want {
				t.Errorf("client 2's first upload: %s, want %s", got, want)
			}
		})
	}
}
