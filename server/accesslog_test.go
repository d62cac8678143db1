package server_test

import (
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"tradejournal/files"
	"tradejournal/internal/testkit"
	"tradejournal/server"
)

// TestAccessLogNeverHoldsTheKey: every request is logged with its id,
// method, path and status, and never with its API key, answered or not.
func TestAccessLogNeverHoldsTheKey(t *testing.T) {
	ts := newTestServer(t)
	var logs testkit.SyncBuffer
	store, err := files.Open(filepath.Join(t.TempDir(), "files"))
	if err != nil {
		t.Fatal(err)
	}
	ts.srv = server.New(server.Config{Secret: []byte(testSecret), AllowedHosts: []string{testHost}}, ts.db, store, slog.New(slog.NewTextHandler(&logs, nil)))
	_, key := ts.newUser(t, "alice")
	ok := ts.request(t, "GET", "/api/v1/accounts?limit=5", key, "")
	// Change the key's last character (to x, or to y when it already is x).
	last := "x"
	if strings.HasSuffix(key, last) {
		last = "y"
	}
	bad := ts.request(t, "GET", "/api/v1/accounts", key[:len(key)-1]+last, "")
	log := logs.String()
	for _, want := range []string{"request_id=" + ok.Header().Get("X-Request-Id"), "request_id=" + bad.Header().Get("X-Request-Id"),
		"method=GET path=/api/v1/accounts status=200", "status=401"} {
		if !strings.Contains(log, want) {
			t.Errorf("access log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, key[3:40]) {
		t.Errorf("access log holds the API key:\n%s", log)
	}
}
