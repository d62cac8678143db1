package cmd

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"tradejournal/db"
)

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// keyRow finds the `key list` row of the key that starts with prefix and
// returns its columns: id, user, name, scopes, prefix, created, last used,
// revoked.
func keyRow(t *testing.T, list, prefix string) []string {
	t.Helper()
	for _, line := range strings.Split(list, "\n")[1:] {
		if f := strings.Fields(line); len(f) == 8 && f[4] == prefix {
			return f
		}
	}
	t.Fatalf("key list has no row with prefix %s:\n%s", prefix, list)
	return nil
}

// TestCLIAgainstRunningServer drives the commands next to a running serve on
// the same directory, as DESIGN.md §4 says they must work.
func TestCLIAgainstRunningServer(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	out := mustRun(t, "user", "add", "alice", "--data", dir)
	userID := lastLine(out)
	if !uuidPattern.MatchString(userID) {
		t.Fatalf("user add: last line %q, want a UUIDv7", userID)
	}
	key := lastLine(mustRun(t, "key", "create", "--user", "alice", "--name", "laptop", "--data", dir))
	if !strings.HasPrefix(key, "tj_") || !db.WellFormedKey(key) {
		t.Fatalf("key create: last line %q, want a tj_ key alone", key)
	}
	legacy := lastLine(mustRun(t, "key", "create", "--user", "alice", "--legacy", "--data", dir))
	if !strings.HasPrefix(legacy, "tjk_") || !db.WellFormedKey(legacy) {
		t.Fatalf("key create --legacy: last line %q, want a tjk_ key alone", legacy)
	}
	readOnly := lastLine(mustRun(t, "key", "create", "--user", "alice", "--scopes", "read", "--data", dir))

	srv := startServe(t, dir)
	accounts := srv.base + "/api/v1/accounts"
	for name, k := range map[string]string{"current": key, "legacy": legacy, "read-only": readOnly} {
		if status, body := call(t, "GET", accounts, k, ""); status != 200 {
			t.Errorf("GET with the %s key: got %d %s, want 200", name, status, body)
		}
	}
	if status, body := call(t, "POST", accounts, key, `{"account_number":"A-1"}`); status != 201 {
		t.Errorf("POST with the write key: got %d %s, want 201", status, body)
	}
	if status, body := call(t, "POST", accounts, readOnly, `{"account_number":"A-2"}`); status != 403 || errorCode(t, body) != "FORBIDDEN" {
		t.Errorf("POST with the read key: got %d %s, want 403 FORBIDDEN", status, body)
	}

	list := mustRun(t, "key", "list", "--data", dir)
	sum := sha256.Sum256([]byte(key))
	for _, secret := range []string{key, legacy, readOnly, key[8:], hex.EncodeToString(sum[:]), strings.ToUpper(hex.EncodeToString(sum[:]))} {
		if strings.Contains(list, secret) {
			t.Errorf("key list shows %q:\n%s", secret, list)
		}
	}
	row := keyRow(t, list, key[:8])
	if row[1] != "alice" || row[2] != "laptop" || row[7] != "-" {
		t.Errorf("key list row: got %v, want user alice, name laptop, not revoked", row)
	}

	// serve keeps a key it has read while nothing is committed; the
	// revoke below, through a journal of its own (another process in
	// TestRevokeBesideServeProcess), is a commit it must see.
	for range 2 {
		if status, body := call(t, "GET", accounts, key, ""); status != 200 {
			t.Fatalf("GET before the revoke: got %d %s, want 200", status, body)
		}
	}
	out = mustRun(t, "key", "revoke", row[0], "--data", dir)
	if want := "revoked key " + row[0]; lastLine(out) != want {
		t.Errorf("key revoke: got %q, want %q", out, want)
	}
	if status, body := call(t, "GET", accounts, key, ""); status != 401 || errorCode(t, body) != "UNAUTHORIZED" {
		t.Errorf("GET with the revoked key: got %d %s, want 401 UNAUTHORIZED", status, body)
	}
	if status, body := call(t, "GET", accounts, legacy, ""); status != 200 {
		t.Errorf("GET with another key of the same user after a revoke: got %d %s, want 200", status, body)
	}
	if row := keyRow(t, mustRun(t, "key", "list", "--user", "alice", "--data", dir), key[:8]); row[7] == "-" {
		t.Errorf("key list after revoke: got %v, want a revoked time", row)
	}

	mustRun(t, "user", "set", "alice", "--subscription", "inactive", "--data", dir)
	if status, body := call(t, "GET", accounts, legacy, ""); status != 403 || errorCode(t, body) != "SUBSCRIPTION_REQUIRED" {
		t.Errorf("GET after user set --subscription inactive: got %d %s, want 403 SUBSCRIPTION_REQUIRED", status, body)
	}
	mustRun(t, "user", "set", "alice", "--subscription", "active", "--data", dir)
	if status, body := call(t, "GET", accounts, legacy, ""); status != 200 {
		t.Errorf("GET after user set --subscription active: got %d %s, want 200", status, body)
	}

	_, err := run(t, "serve", "--data", dir, "--addr", freeAddr(t))
	if err == nil || !strings.Contains(err.Error(), "another tradejournal serve is running") {
		t.Errorf("second serve on the same directory: got %v, want a refusal", err)
	}
	if status, _ := call(t, "GET", accounts, legacy, ""); status != 200 {
		t.Errorf("first server after the second was refused: got %d, want 200", status)
	}

	if err := srv.stop(); err != nil {
		t.Errorf("serve after its context ended: got %v, want nil\n%s", err, srv.stderr.String())
	}
	// Shutdown flushed the key use it had kept in memory.
	list = mustRun(t, "key", "list", "--data", dir)
	if row := keyRow(t, list, legacy[:8]); row[6] == "-" {
		t.Errorf("legacy key's last used after shutdown: got %v, want a time", row)
	}
	if users := mustRun(t, "user", "list", "--data", dir); !strings.Contains(users, userID) {
		t.Errorf("user list lacks %s:\n%s", userID, users)
	}
}

func TestServeFirstRunInProcess(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b", "data")
	srv := startServe(t, dir)
	var key string
	for _, line := range strings.Split(srv.stdout.String(), "\n") {
		if strings.HasPrefix(line, "tj_") {
			key = line
		}
	}
	if !db.WellFormedKey(key) {
		t.Fatalf("first run printed no key alone on a line:\n%s", srv.stdout.String())
	}
	if status, body := call(t, "GET", srv.base+"/api/v1/accounts", key, ""); status != 200 {
		t.Errorf("GET with the first-run key: got %d %s, want 200", status, body)
	}
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	again := startServe(t, dir)
	if strings.Contains(again.stdout.String(), "tj_") {
		t.Errorf("second start printed a key again:\n%s", again.stdout.String())
	}
	if status, _ := call(t, "GET", again.base+"/api/v1/accounts", key, ""); status != 200 {
		t.Errorf("first-run key after a restart: got %d, want 200", status)
	}
	again.stop()
	if users := mustRun(t, "user", "list", "--data", dir); strings.Count(users, "\n") != 2 || !strings.Contains(users, " me ") {
		t.Errorf("users after two starts: got\n%s\nwant only me", users)
	}
}

func TestMigrateStatus(t *testing.T) {
	dir := t.TempDir()
	if out := mustRun(t, "migrate", "--data", dir); out != "database is at version 16\n" {
		t.Errorf("migrate: got %q, want %q", out, "database is at version 16\n")
	}
	out := mustRun(t, "migrate", "status", "--data", dir)
	for _, want := range []string{`(?m)^1\s+00001_init\.sql\s+applied\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$`,
		`(?m)^2\s+00002_imports\.sql\s+applied\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("migrate status: got\n%s\nwant a line matching %s", out, want)
		}
	}
}

func TestVersion(t *testing.T) {
	out := mustRun(t, "version")
	if !strings.HasPrefix(out, "tradejournal ") || !strings.Contains(out, runtime.Version()) {
		t.Errorf("version: got %q, want tradejournal and the Go version", out)
	}
}

func TestCommandErrors(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, "user", "add", "alice", "--data", dir)
	tests := []struct {
		args    []string
		wantErr string
	}{
		{[]string{"user", "add", "alice"}, "already exists"},
		{[]string{"user", "add", "bob", "--timezone", "Mars/Olympus"}, "unknown timezone"},
		{[]string{"user", "add"}, "accepts 1 arg"},
		{[]string{"user", "set", "alice"}, "nothing to change"},
		{[]string{"user", "set", "alice", "--subscription", "maybe"}, "active or inactive"},
		{[]string{"user", "set", "nobody", "--subscription", "inactive"}, "not found"},
		{[]string{"key", "create"}, `"user" not set`},
		{[]string{"key", "create", "--user", "nobody"}, "not found"},
		{[]string{"key", "create", "--user", "alice", "--scopes", "admin"}, "unknown scope"},
		{[]string{"key", "list", "--user", "nobody"}, "not found"},
		{[]string{"key", "revoke", "no-such-id"}, "not found"},
		{[]string{"migrate", "sideways"}, "invalid argument"},
	}
	for _, tt := range tests {
		out, err := run(t, append(tt.args, "--data", dir)...)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: got error %v, want one containing %q (output %q)", strings.Join(tt.args, " "), err, tt.wantErr, out)
		}
	}
	if users := mustRun(t, "user", "list", "--data", dir); strings.Count(users, "\n") != 2 {
		t.Errorf("users after failed commands: got\n%s\nwant only alice", users)
	}
}

// TestRevokeBesideServeProcess: serve and the CLI as two processes of the
// built binary. serve keeps a key it has read while nothing is committed;
// `key revoke` in another process is a commit the next request sees.
func TestRevokeBesideServeProcess(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	key := setUpUser(t, dir)
	other := lastLine(mustRun(t, "key", "create", "--user", "me", "--data", dir))
	srv := startBinary(t, dir)
	accounts := srv.base + "/api/v1/accounts"
	for round := range 3 {
		for range 3 {
			if status, body := call(t, "GET", accounts, key, ""); status != 200 {
				t.Fatalf("GET: got %d %s, want 200", status, body)
			}
		}
		if round == 1 { // a commit of serve's own between the rounds
			if status, body := call(t, "POST", accounts, other, `{"account_number":"A-9"}`); status != 201 {
				t.Fatalf("POST: got %d %s, want 201", status, body)
			}
		}
	}
	list, err := runBinary(t, "key", "list", "--data", dir)
	if err != nil {
		t.Fatal(err, list)
	}
	row := keyRow(t, list, key[:8])
	if out, err := runBinary(t, "key", "revoke", row[0], "--data", dir); err != nil || !strings.Contains(out, "revoked key") {
		t.Fatalf("key revoke: %v %s", err, out)
	}
	if status, body := call(t, "GET", accounts, key, ""); status != 401 || errorCode(t, body) != "UNAUTHORIZED" {
		t.Errorf("GET with the key revoked by another process: got %d %s, want 401 UNAUTHORIZED", status, body)
	}
	if status, body := call(t, "GET", accounts, other, ""); status != 200 {
		t.Errorf("GET with another key: got %d %s, want 200", status, body)
	}
}
