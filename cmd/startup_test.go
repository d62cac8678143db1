package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStartupKeepsFilesOfALostJournal: files but no document at all means
// journal.db was lost or replaced, not a crash's leftover; serve keeps the
// files and says so. The journal's own files are private.
func TestStartupKeepsFilesOfALostJournal(t *testing.T) {
	dir := t.TempDir()
	hash := strings.Repeat("ab", 32)
	blob := filepath.Join(dir, "files", "sha256", "ab", hash)
	if err := os.MkdirAll(filepath.Dir(blob), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(blob, []byte("a payout confirmation"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := startServe(t, dir)
	if _, err := os.Stat(blob); err != nil {
		t.Errorf("the file of a lost journal was removed: %v", err)
	}
	if err := p.stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.stderr.String(), "the journal has no documents") {
		t.Errorf("serve did not warn about the kept files:\n%s", p.stderr.String())
	}
	info, err := os.Stat(filepath.Join(dir, "journal.db"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("journal.db mode %v (%v), want 0600", info.Mode().Perm(), err)
	}
}
