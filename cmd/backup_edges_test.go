package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBackupEdges: a journal that already lost a file still backs up (and
// says what it lacks); an existing empty DEST, such as a mount point, is
// filled in place; a journal without its secret is refused, not re-keyed.
func TestBackupEdges(t *testing.T) {
	d := newDocDir(t)

	t.Run("a file already missing", func(t *testing.T) {
		if err := os.Remove(d.blob); err != nil {
			t.Fatal(err)
		}
		defer restoreBlob(t, d)
		dest := filepath.Join(t.TempDir(), "bk")
		out, err := run(t, "backup", "--data", d.dir, dest)
		if err == nil || !strings.Contains(out, d.hash) || !strings.Contains(err.Error(), "already missing") {
			t.Fatalf("backup of a journal missing a file: %v\n%s", err, out)
		}
		if !exists(filepath.Join(dest, "journal.db")) || !exists(filepath.Join(dest, "secret")) {
			t.Errorf("no backup was written")
		}
		if out, err := run(t, "check", "--data", dest); err == nil || !strings.Contains(out, d.hash+" is missing") {
			t.Errorf("check of that backup: %v\n%s", err, out)
		}
	})

	t.Run("into an existing empty directory", func(t *testing.T) {
		dest := t.TempDir()
		if out, err := run(t, "backup", "--data", d.dir, dest); err != nil {
			t.Fatalf("backup into an empty directory: %v\n%s", err, out)
		}
		entries, _ := os.ReadDir(dest)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if strings.Join(names, ",") != "files,journal.db,secret" {
			t.Errorf("DEST holds %v, want files, journal.db and secret only", names)
		}
		if out, err := run(t, "check", "--data", dest); err != nil {
			t.Errorf("check of the backup: %v\n%s", err, out)
		}
	})

	t.Run("a journal without its secret", func(t *testing.T) {
		secret := filepath.Join(d.dir, "secret")
		key, _ := os.ReadFile(secret)
		os.Remove(secret)
		defer os.WriteFile(secret, key, 0o600)
		for _, args := range [][]string{{"check"}, {"backup", filepath.Join(t.TempDir(), "bk")}} {
			out, err := run(t, append(args, "--data", d.dir)...)
			if err == nil || !strings.Contains(err.Error(), "no secret") {
				t.Errorf("%s without a secret: %v\n%s", args[0], err, out)
			}
		}
		if exists(secret) {
			t.Errorf("a new secret was made")
		}
	})
}

func restoreBlob(t *testing.T, d docDir) {
	t.Helper()
	pdf := readSamples(t)[0].content
	if err := os.WriteFile(d.blob, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
}
