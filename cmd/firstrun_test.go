package cmd

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"tradejournal/db"
	"tradejournal/internal/testkit"
)

// TestFirstRunBinary is DESIGN.md's promise that `serve` alone gives a
// working server, checked on the real binary: a fresh nested directory, the
// printed key works, SIGTERM exits 0 and flushes the key's last use.
func TestFirstRunBinary(t *testing.T) {
	bin := binary(t)
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "fresh", "nested", "data")
	addr := freeAddr(t)
	proc := exec.Command(bin, "serve", "--data", dir, "--addr", addr)
	var stderr testkit.SyncBuffer
	proc.Stderr = &stderr
	stdout, err := proc.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := proc.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if proc.ProcessState == nil {
			proc.Process.Kill()
			proc.Wait()
		}
	})

	// Read stdout to its end, handing over the first line that is a key.
	var printed testkit.SyncBuffer
	keys, eof := make(chan string, 1), make(chan struct{})
	go func() {
		defer close(eof)
		sc := bufio.NewScanner(stdout)
		sent := false
		for sc.Scan() {
			printed.Write([]byte(sc.Text() + "\n"))
			if strings.HasPrefix(sc.Text(), "tj_") && !sent {
				keys <- sc.Text()
				sent = true
			}
		}
	}()
	var key string
	select {
	case key = <-keys:
	case <-eof:
		t.Fatalf("serve ended without printing a key:\n%s\n%s", printed.String(), stderr.String())
	}
	if !db.WellFormedKey(key) {
		t.Fatalf("printed key line %q is not a key alone", key)
	}

	base := "http://" + addr
	waitReady(t, base, eof, stderr.String)
	if status, body := call(t, "GET", base+"/api/v1/accounts", key, ""); status != 200 {
		t.Fatalf("GET with the printed key: got %d %s, want 200", status, body)
	}

	if err := proc.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-eof
	// The sign-in link carries a single-use token, not the key, in its
	// fragment, which a browser never sends.
	link := regexp.MustCompile(regexp.QuoteMeta(base+"/login#token=") + `([A-Za-z0-9_-]{43})\s`).FindStringSubmatch(printed.String())
	if link == nil || strings.Contains(link[0], key) {
		t.Fatalf("the first run printed no sign-in link %s/login#token=…:\n%s", base, printed.String())
	}
	if err := proc.Wait(); err != nil {
		t.Fatalf("serve after SIGTERM: %v, want exit status 0\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "shutting down") {
		t.Errorf("serve's log lacks the shutdown:\n%s", stderr.String())
	}

	d, err := db.Open(t.Context(), filepath.Join(dir, "journal.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ks, err := d.Keys(t.Context(), "me")
	if err != nil {
		t.Fatal(err)
	}
	if as, err := d.LoginTokenFor(t.Context(), link[1]); err != nil || as.UserName != "me" || as.KeyID != ks[0].ID {
		t.Errorf("the link's token signs in as %+v (%v), want me with the first key", as, err)
	}
	if len(ks) != 1 || ks[0].Prefix != key[:8] {
		t.Fatalf("keys of me: got %+v, want the one printed", ks)
	}
	if ks[0].LastUsedAt == "" {
		t.Errorf("last_used_at after shutdown: empty, want the flushed use")
	}

	info, err := os.Stat(filepath.Join(dir, "secret"))
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() != 32 || info.Mode().Perm() != 0o600 {
		t.Errorf("secret: got %d bytes mode %v, want 32 bytes mode 0600", info.Size(), info.Mode().Perm())
	}
	for _, sub := range []string{"files/sha256", "files/tmp"} {
		if info, err := os.Stat(filepath.Join(dir, sub)); err != nil || !info.IsDir() {
			t.Errorf("%s: %v, want a directory", sub, err)
		}
	}
}
