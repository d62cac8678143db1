package replica

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tradejournal/files"
)

// TestConnectRefuses names what is wrong with a replica URL.
func TestConnectRefuses(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"ftp://host/x", "scheme must be file, sftp or s3"},
		{"file://relative/path", "file:///absolute/path"},
		{"file:///", ""},
		{"s3:///prefix", "s3://bucket/prefix"},
		{"sftp://host/path", "sftp://user@host[:port]/path"},
		{"sftp://me@127.0.0.1:1/path", "known_hosts"},
	} {
		t.Run(tc.url, func(t *testing.T) {
			t.Setenv("HOME", t.TempDir()) // no known_hosts
			target, err := Connect(t.Context(), tc.url, Options{})
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Connect(%q): %v, want it accepted", tc.url, err)
				}
				target.Close()
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Connect(%q): %v, want an error saying %q", tc.url, err, tc.want)
			}
		})
	}
}

// TestStartRefusesAnotherJournalsReplica: a replica holding another
// secret belongs to another journal, and is left alone.
func TestStartRefusesAnotherJournalsReplica(t *testing.T) {
	ctx := t.Context()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "secret"), make([]byte, files.SecretSize), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	store, err := files.Open(filepath.Join(dir, "files"))
	if err != nil {
		t.Fatal(err)
	}
	target, err := Connect(ctx, "file://"+root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	mine := make([]byte, files.SecretSize)
	mine[0] = 1
	err = New(target, filepath.Join(dir, "journal.db"), mine, store, time.Second, slog.New(slog.NewTextHandler(io.Discard, nil))).Start(ctx)
	if err == nil || !strings.Contains(err.Error(), "holds another journal") {
		t.Fatalf("Start on another journal's replica: %v, want refused", err)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 1 {
		t.Errorf("the other journal's replica now holds %d entries, want its secret alone", len(entries))
	}
}
