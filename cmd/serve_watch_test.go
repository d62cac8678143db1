package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestServeWatch: serve --watch imports, as the --watch-user, a file that
// was in the folder at start and one moved in while it runs, making their
// account (--watch-create-accounts); a file with a bad row goes to failed/.
// The imports read back through the API.
func TestServeWatch(t *testing.T) {
	data, inbox := filepath.Join(t.TempDir(), "data"), t.TempDir()
	const header = "account_number,symbol,side,quantity,price,commission,timestamp,exec_id\n"
	os.WriteFile(filepath.Join(inbox, "early.csv"), []byte(header+
		"APEX-1,MNQZ5,buy,1,21000,0.62,2025-12-01T09:31:00-05:00,E1\n"+
		"APEX-1,MNQZ5,sell,1,21010,0.62,2025-12-01T09:40:00-05:00,E2\n"), 0o600)
	srv := startServe(t, data, "--watch", inbox, "--watch-user", "me", "--watch-create-accounts")
	var key string
	for _, line := range strings.Split(srv.stdout.String(), "\n") {
		if strings.HasPrefix(line, "tj_") {
			key = line
		}
	}
	waitFiles(t, srv, filepath.Join(inbox, "imported"), 1)

	later := filepath.Join(t.TempDir(), "later.csv")
	os.WriteFile(later, []byte(header+
		"APEX-1,MNQZ5,buy,1,21020,0.62,2025-12-02T09:31:00-05:00,L1\n"+
		"APEX-1,MNQZ5,sell,1,21000,0.62,2025-12-02T09:40:00-05:00,L2\n"), 0o600)
	bad := filepath.Join(t.TempDir(), "bad.csv")
	os.WriteFile(bad, []byte(header+"APEX-1,MNQZ5,hold,1,21000,0.62,2025-12-02T10:31:00-05:00,B1\n"), 0o600)
	for _, path := range []string{later, bad} {
		if err := os.Rename(path, filepath.Join(inbox, filepath.Base(path))); err != nil {
			t.Fatal(err)
		}
	}
	waitFiles(t, srv, filepath.Join(inbox, "imported"), 2)
	waitFiles(t, srv, filepath.Join(inbox, "failed"), 2)

	status, body := call(t, "GET", srv.base+"/api/v1/imports", key, "")
	var imps struct {
		Data []struct {
			FileName      string `json:"file_name"`
			TradesCreated int    `json:"trades_created"`
		}
	}
	json.Unmarshal(body, &imps)
	var names []string
	for _, imp := range imps.Data {
		if imp.TradesCreated == 1 {
			names = append(names, imp.FileName)
		}
	}
	slices.Sort(names)
	if status != 200 || !slices.Equal(names, []string{"early.csv", "later.csv"}) {
		t.Errorf("imports: %d %s", status, body)
	}
	if err := srv.stop(); err != nil {
		t.Fatalf("serve: %v", err)
	}
	logs := srv.stderr.String()
	for _, want := range []string{`msg="watching folder" dir=` + inbox + " user=me create_accounts=true",
		`msg="watched file imported" file=early.csv`, `msg="watched file imported" file=later.csv`,
		`msg="watched file refused" file=bad.csv status=400`} {
		if !strings.Contains(logs, want) {
			t.Errorf("the logs lack %s:\n%s", want, logs)
		}
	}
}

// waitFiles waits until dir holds n entries. The bound only keeps a broken
// build from hanging: the folder is looked at every second.
func waitFiles(t *testing.T, srv *serveProc, dir string, n int) {
	t.Helper()
	for range 300 {
		if entries, _ := os.ReadDir(dir); len(entries) >= n {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("%s never held %d files:\n%s", dir, n, srv.stderr.String())
}

// TestServeWatchRefuses: serve does not start with a watched folder it
// cannot use: no user, an unknown user, a missing folder; nor with the
// folder's flags and no folder.
func TestServeWatchRefuses(t *testing.T) {
	inbox := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--watch", inbox}, "--watch needs --watch-user NAME"},
		{[]string{"--watch-user", "me"}, "--watch-user and --watch-create-accounts go with --watch DIR"},
		{[]string{"--watch-create-accounts"}, "--watch-user and --watch-create-accounts go with --watch DIR"},
		{[]string{"--watch", inbox, "--watch-user", "bob"}, `--watch-user "bob": no such user`},
		{[]string{"--watch", filepath.Join(inbox, "missing"), "--watch-user", "me"}, "no such folder; create it first"},
	} {
		args := append([]string{"serve", "--data", t.TempDir(), "--addr", freeAddr(t)}, tt.args...)
		out, err := run(t, args...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("serve %s: err %v, want %q\n%s", strings.Join(tt.args, " "), err, tt.want, out)
		}
	}
}
