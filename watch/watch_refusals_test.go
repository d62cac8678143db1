package watch_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tradejournal/db"
	"tradejournal/server"
	"tradejournal/watch"
)

// TestWatchRetriesBusyServer: a 503 of a server with every upload slot
// taken is not the file's fault: the file stays, and is tried again after
// the answer's Retry-After (5 s), not before.
func TestWatchRetriesBusyServer(t *testing.T) {
	e := newEnv(t, func(_ *watch.Config, sc *server.Config) {
		sc.MaxUploads, sc.UploadWait = 1, time.Millisecond
	})
	// Another client's upload holds the one slot while its body trickles.
	pr, pw := io.Pipe()
	req := httptest.NewRequest("POST", "/api/v1/imports", pr)
	req.Header.Set("Content-Type", "multipart/form-data; boundary=b")
	req.Header.Set("Authorization", "Bearer "+e.key)
	held := make(chan struct{})
	go func() {
		e.srv.ServeHTTP(httptest.NewRecorder(), req)
		close(held)
	}()
	pw.Write([]byte("--b\r\n")) // returns once the handler reads: it has its slot

	e.drop(t, "morning.csv", morning)
	e.tick(t, 0)
	e.tick(t, 2*time.Second)
	e.wantFiles(t, "", "failed", "imported", "morning.csv")
	if !strings.Contains(e.logs.String(), "status=503 code=UNAVAILABLE") {
		t.Errorf("the busy server is not logged:\n%s", e.logs.String())
	}
	pw.CloseWithError(io.ErrUnexpectedEOF)
	<-held

	e.tick(t, 4900*time.Millisecond)
	if n := e.count(t, "imports"); n != 0 {
		t.Fatalf("%d imports 4.9 s after a 503 with Retry-After 5, want 0", n)
	}
	e.tick(t, 100*time.Millisecond)
	e.wantFiles(t, "", "failed", "imported")
	e.wantFiles(t, "imported", prefix+"morning.csv")
}

// TestWatchInactiveSubscription: the folder's user is held to the API's
// rules: with her subscription inactive, a file is refused with the 403
// her key gets.
func TestWatchInactiveSubscription(t *testing.T) {
	e := newEnv(t, nil)
	if _, err := e.db.UpdateUser(t.Context(), "alice", db.UserUpdate{Subscription: db.Some(db.SubscriptionInactive)}); err != nil {
		t.Fatal(err)
	}
	status, want := e.postImport(t, e.key, "morning.csv", []byte(morning))
	if status != http.StatusForbidden {
		t.Fatalf("the API answers %d %s, want 403", status, want)
	}
	e.drop(t, "morning.csv", morning)
	e.tick(t, 0)
	e.tick(t, 2*time.Second)
	e.wantFiles(t, "failed", "morning.csv", "morning.csv.error.json")
	if got := read(t, filepath.Join(e.dir, "failed", "morning.csv.error.json")); !bytes.Equal(got, want) {
		t.Errorf("error.json = %s, want the API's %s", got, want)
	}
	if n := e.count(t, "imports"); n != 0 {
		t.Errorf("%d imports, want 0", n)
	}
}

// TestWatchCreateAccounts: a file naming an account number alice has none
// for is refused as the API refuses it without create_accounts, and with
// it (--watch-create-accounts) makes the account.
func TestWatchCreateAccounts(t *testing.T) {
	const other = header + "NEW-9,MNQZ5,buy,1,21000,0.62,2025-12-01T09:31:00-05:00,N1\n" +
		"NEW-9,MNQZ5,sell,1,21010,0.62,2025-12-01T09:40:00-05:00,N2\n"
	t.Run("without", func(t *testing.T) {
		e := newEnv(t, nil)
		_, want := e.postImport(t, e.key, "other.csv", []byte(other))
		e.drop(t, "other.csv", other)
		e.tick(t, 0)
		e.tick(t, 2*time.Second)
		if got := read(t, filepath.Join(e.dir, "failed", "other.csv.error.json")); !bytes.Equal(got, want) ||
			!strings.Contains(string(got), "rows[2].account_number") {
			t.Errorf("error.json = %s, want the API's %s, keyed by the account column", got, want)
		}
		if n := e.count(t, "accounts"); n != 1 {
			t.Errorf("%d accounts, want 1", n)
		}
	})
	t.Run("with", func(t *testing.T) {
		e := newEnv(t, func(wc *watch.Config, _ *server.Config) { wc.CreateAccounts = true })
		e.drop(t, "other.csv", other)
		e.tick(t, 0)
		e.tick(t, 2*time.Second)
		e.wantFiles(t, "imported", prefix+"other.csv")
		imps := e.imports(t)
		if len(imps) != 1 || len(imps[0].UnknownAccounts) != 1 || imps[0].UnknownAccounts[0] != "NEW-9" {
			t.Fatalf("imports = %+v, want one that made NEW-9", imps)
		}
		status, b := e.api(t, "GET", "/api/v1/accounts", "")
		if status != http.StatusOK || !strings.Contains(string(b), `"account_number":"NEW-9"`) {
			t.Errorf("accounts: %d %s", status, b)
		}
	})
}

// TestWatchTooLargeFile: a file over the import limit (25 MiB) is refused
// as the API refuses it, into failed/, nothing written.
func TestWatchTooLargeFile(t *testing.T) {
	e := newEnv(t, nil)
	big := make([]byte, 25<<20+1)
	copy(big, header)
	for i := len(header); i < len(big); i++ {
		big[i] = 'x'
	}
	status, want := e.postImport(t, e.key, "big.csv", big)
	if status < 400 || status >= 500 {
		t.Fatalf("the API answers %d %s, want a refusal", status, want)
	}
	if err := os.WriteFile(filepath.Join(e.dir, "big.csv"), big, 0o600); err != nil {
		t.Fatal(err)
	}
	e.tick(t, 0)
	e.tick(t, 2*time.Second)
	t.Logf("the API answers %d %s", status, want)
	e.wantFiles(t, "failed", "big.csv", "big.csv.error.json")
	if got := read(t, filepath.Join(e.dir, "failed", "big.csv.error.json")); !bytes.Equal(got, want) {
		t.Errorf("error.json = %s, want the API's %s", got, want)
	}
	if n := e.count(t, "imports"); n != 0 {
		t.Errorf("%d imports, want 0", n)
	}
}

// TestWatchNewRefuses: serve does not start on a folder that is missing or
// not a folder, nor for a user who does not exist; it makes imported/ and
// failed/ itself.
func TestWatchNewRefuses(t *testing.T) {
	e := newEnv(t, nil)
	missing := filepath.Join(t.TempDir(), "missing")
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	for _, tt := range []struct {
		dir, user, want string
	}{
		{missing, "alice", "no such folder; create it first"},
		{file, "alice", "not a folder"},
		{t.TempDir(), "bob", `--watch-user "bob": no such user (tradejournal user add bob creates one)`},
	} {
		_, err := watch.New(t.Context(), watch.Config{Dir: tt.dir, User: tt.user}, e.db, e.srv, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%s, %s) = %v, want an error saying %q", tt.dir, tt.user, err, tt.want)
		}
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("the missing folder was made")
	}
	for _, sub := range []string{"imported", "failed"} {
		if info, err := os.Stat(filepath.Join(e.dir, sub)); err != nil || !info.IsDir() {
			t.Errorf("%s/ not made: %v", sub, err)
		}
	}
}

// TestWatchUnmovableFile: a file imported but not moved (imported/ is not
// a folder any more) stays where it is and is never imported again; the
// move is tried again after Retry (30 s) and succeeds once imported/ is
// back.
func TestWatchUnmovableFile(t *testing.T) {
	e := newEnv(t, nil)
	imported := filepath.Join(e.dir, "imported")
	os.Remove(imported)
	os.WriteFile(imported, nil, 0o600)
	e.drop(t, "morning.csv", morning)
	e.tick(t, 0)
	e.tick(t, 2*time.Second)
	if !strings.Contains(e.logs.String(), `msg="watched file not moved; trying again later" file=morning.csv status=201`) {
		t.Errorf("the failed move is not logged:\n%s", e.logs.String())
	}
	for range 40 {
		e.tick(t, time.Second)
	}
	if n := e.count(t, "imports"); n != 1 {
		t.Fatalf("%d imports, want 1: the file must not be imported again", n)
	}
	e.wantFiles(t, "", "failed", "imported", "morning.csv")

	os.Remove(imported)
	os.Mkdir(imported, 0o700)
	for range 30 {
		e.tick(t, time.Second)
	}
	e.wantFiles(t, "", "failed", "imported")
	e.wantFiles(t, "imported", prefix+"morning.csv")
	if n := e.count(t, "imports"); n != 1 {
		t.Errorf("%d imports, want 1", n)
	}
}
