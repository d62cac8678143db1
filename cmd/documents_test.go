package cmd

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tradejournal/db"
)

// firstRunKey is the key a first serve printed.
func firstRunKey(t *testing.T, p *serveProc) string {
	t.Helper()
	for _, line := range strings.Split(p.stdout.String(), "\n") {
		if db.WellFormedKey(line) {
			return line
		}
	}
	t.Fatalf("first run printed no key:\n%s", p.stdout.String())
	return ""
}

// TestDocumentLinkSurvivesRestart: a document uploaded over HTTP downloads
// through its signed link after serve restarts (the secret lives in the
// data directory), and the restart removed a temp file left behind.
func TestDocumentLinkSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	srv := startServe(t, dir)
	key := firstRunKey(t, srv)
	if status, body := call(t, "POST", srv.base+"/api/v1/accounts", key, `{"account_number":"A-1"}`); status != 201 {
		t.Fatalf("create account: got %d %s", status, body)
	}
	pdf, err := os.ReadFile(filepath.Join("..", "testdata", "payout.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range map[string]string{"document_name": "Payout", "category": "receipt", "account_number": "A-1"} {
		mw.WriteField(k, v)
	}
	fw, _ := mw.CreateFormFile("file", "payout.pdf")
	fw.Write(pdf)
	mw.Close()
	req, _ := http.NewRequestWithContext(t.Context(), "POST", srv.base+"/api/v1/documents", &body)
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Data struct {
			DocumentURL string `json:"document_url"`
		}
	}
	err = json.NewDecoder(resp.Body).Decode(&doc)
	resp.Body.Close()
	if resp.StatusCode != 201 || err != nil {
		t.Fatalf("upload: got %d (%v), want 201", resp.StatusCode, err)
	}
	link, ok := strings.CutPrefix(doc.Data.DocumentURL, srv.base)
	if !ok {
		t.Fatalf("document_url %s is not on the default public URL %s", doc.Data.DocumentURL, srv.base)
	}
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}

	leftover := filepath.Join(dir, "files", "tmp", "upload-123")
	if err := os.WriteFile(leftover, []byte("half an upload"), 0o600); err != nil {
		t.Fatal(err)
	}
	again := startServe(t, dir)
	if _, err := os.Stat(leftover); !os.IsNotExist(err) {
		t.Errorf("leftover temp file after a restart: got %v, want it gone", err)
	}
	resp, err = http.Get(again.base + link) // no API key
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Equal(got, pdf) {
		t.Errorf("download after a restart: got %d, %d bytes, want 200 and the %d uploaded", resp.StatusCode, len(got), len(pdf))
	}
}
