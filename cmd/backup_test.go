package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBackupUnderConcurrentWrites runs `backup DEST` (its own command, on
// the directory a server is writing to) while trades and uploads pour in.
// The copy must pass check and, served, hold every write acknowledged
// before the backup started, whole; a write acknowledged during it may be
// missing, but what is there is whole. The secret is copied, so a link the
// original signed verifies on the copy.
func TestBackupUnderConcurrentWrites(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	dest := filepath.Join(t.TempDir(), "backups", "copy")
	srv := startServe(t, dir, "--rate-limit", "0")
	c := newAPIClient(srv.base, firstRunKey(t, srv))
	w := &workload{t: t, c: c, account: "A-1", samples: readSamples(t)}
	w.accountID = mustCreateAccount(t, c, w.account)

	ctx, stopWrites := context.WithCancel(t.Context())
	wait := w.start(ctx, 4)
	w.waitAcked(t, 40)
	w.phase.Store(1) // from here on, a write may or may not make it into the copy
	out, err := run(t, "backup", dest, "--data", dir)
	w.waitAcked(t, w.acked.Load()+20) // writes went on while the backup ran, and after
	stopWrites()
	wait()
	if err != nil {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	if out, err := run(t, "check", "--data", dest); err != nil {
		t.Fatalf("check --data DEST: %v, want exit 0\n%s", err, out)
	}
	checkNoPartialTrades(t, dest)

	copySrv := startServe(t, dest, "--rate-limit", "0")
	if copySrv.stdout.String() != "" {
		t.Errorf("serving the backup printed a first-run key: the copy lacks the users\n%s", copySrv.stdout.String())
	}
	bc := newAPIClient(copySrv.base, c.key)
	trades, docs := w.snapshot()
	before, inCopy := 0, 0
	for _, tr := range trades {
		if tr.phase == 0 {
			before++
			orig := checkTradeWhole(t, c, tr)
			if got := checkTradeWhole(t, bc, tr); orig != nil && got != nil && !jsonEqual(got, orig) {
				t.Errorf("trade %s in the backup:\n%s\nwant as on the original:\n%s", tr.id, got, orig)
			}
			continue
		}
		// Acknowledged during the backup: there or not, but whole.
		status, _, err := bc.json(t.Context(), "GET", "/api/v1/trades/"+tr.id, "")
		switch {
		case err != nil:
			t.Fatal(err)
		case status == http.StatusOK:
			inCopy++
			if got, orig := checkTradeWhole(t, bc, tr), checkTradeWhole(t, c, tr); got != nil && !jsonEqual(got, orig) {
				t.Errorf("trade %s in the backup:\n%s\nwant as on the original:\n%s", tr.id, got, orig)
			}
		case status != http.StatusNotFound:
			t.Errorf("trade %s acknowledged during the backup: got %d from the copy, want 200 or 404", tr.id, status)
		}
	}
	for _, d := range docs {
		if d.phase == 0 {
			before++
			checkDocWhole(t, copySrv.base, d)
			continue
		}
		status, _, err := bc.json(t.Context(), "GET", "/api/v1/documents/"+d.id, "")
		switch {
		case err != nil:
			t.Fatal(err)
		case status == http.StatusOK:
			inCopy++
			checkDocWhole(t, copySrv.base, d)
		case status != http.StatusNotFound:
			t.Errorf("document %s acknowledged during the backup: got %d from the copy, want 200 or 404", d.id, status)
		}
	}
	t.Logf("%d writes acknowledged before the backup, %d during or after (%d of them in the copy)",
		before, len(trades)+len(docs)-before, inCopy)

	// A link the copy signs verifies on the copy too: the copy answers a
	// document acknowledged before the backup with a link to itself.
	i := slices.IndexFunc(docs, func(d ackedDoc) bool { return d.phase == 0 })
	if i < 0 {
		t.Fatal("no document was acknowledged before the backup")
	}
	status, b, err := bc.json(t.Context(), "GET", "/api/v1/documents/"+docs[i].id, "")
	if err != nil || status != http.StatusOK {
		t.Fatalf("document %s from the copy: got %d %s (%v), want 200", docs[i].id, status, b, err)
	}
	var got struct {
		Data struct {
			DocumentURL string `json:"document_url"`
		}
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("document %s from the copy: %s (%v)", docs[i].id, b, err)
	}
	fresh := docs[i]
	fresh.url, fresh.base = got.Data.DocumentURL, copySrv.base
	checkDocWhole(t, copySrv.base, fresh)

	// DEST now exists and is not empty: a second backup there is refused.
	if out, err := run(t, "backup", dest, "--data", dir); err == nil {
		t.Errorf("backup to a DEST that holds a backup: got success, want a refusal\n%s", out)
	}
}

// TestBackupAndCheckNeedAJournal: pointed at a directory that holds no
// journal (a mistyped --data), backup and check fail and create nothing,
// rather than back up or pass a new, empty journal.
func TestBackupAndCheckNeedAJournal(t *testing.T) {
	for _, name := range []string{"missing", "empty"} {
		dir := filepath.Join(t.TempDir(), "data")
		if name == "empty" {
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
		}
		dest := filepath.Join(t.TempDir(), "copy")
		if out, err := run(t, "backup", dest, "--data", dir); err == nil || !strings.Contains(err.Error(), "no journal") {
			t.Errorf("backup of a %s data directory: got %v, want a refusal naming the missing journal\n%s", name, err, out)
		}
		if out, err := run(t, "check", "--data", dir); err == nil || !strings.Contains(err.Error(), "no journal") {
			t.Errorf("check of a %s data directory: got %v, want a refusal naming the missing journal\n%s", name, err, out)
		}
		if exists(dest) {
			t.Errorf("backup of a %s data directory wrote %s", name, dest)
		}
		entries, _ := os.ReadDir(dir)
		if (name == "missing") != !exists(dir) || len(entries) > 0 {
			t.Errorf("backup and check of a %s data directory left it with %d entries (exists %v), want it as it was", name, len(entries), exists(dir))
		}
	}
}

// TestBackupLeavesThumbnails: backup copies no thumbnail (derived data);
// the copy passes check and makes the same thumbnail again on request.
func TestBackupLeavesThumbnails(t *testing.T) {
	dir, hash := newImageDoc(t)
	thumb := makeThumbnail(t, dir, hash, 320)
	dest := filepath.Join(t.TempDir(), "copy")
	mustRun(t, "backup", dest, "--data", dir)
	if exists(filepath.Join(dest, "files", "thumbs")) {
		t.Errorf("the backup holds files/thumbs, want no thumbnail copied")
	}
	if out, err := run(t, "check", "--data", dest); err != nil {
		t.Errorf("check --data DEST: %v, want exit 0\n%s", err, out)
	}
	again, err := os.ReadFile(makeThumbnail(t, dest, hash, 320))
	if err != nil {
		t.Fatal(err)
	}
	if orig, err := os.ReadFile(thumb); err != nil || !bytes.Equal(again, orig) {
		t.Errorf("the copy's thumbnail: %d bytes, want the original's %d (%v)", len(again), len(orig), err)
	}
}
