package cmd

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"tradejournal/internal/testkit"
)

// TestStorageFullDisk puts the whole data directory on a small tmpfs,
// serves it, and fills the filesystem for real: a trade, a document, an
// import and a backup on the full disk are refused (507 STORAGE_FULL over
// HTTP, a clear error from backup), reads answer, nothing half-written or
// temporary stays; once space is freed the same writes succeed without a
// restart and check passes. It needs root to mount (see testkit.MountTmpfs).
func TestStorageFullDisk(t *testing.T) {
	mnt := testkit.MountTmpfs(t, "16m")
	dir := filepath.Join(mnt, "data")
	srv := startServe(t, dir)
	key := firstRunKey(t, srv)
	if status, body := call(t, "POST", srv.base+"/api/v1/accounts", key, `{"account_number": "A-1"}`); status != 201 {
		t.Fatalf("create account: %d %s", status, body)
	}
	n := 0
	trade := func() (int, []byte) {
		n++
		return call(t, "POST", srv.base+"/api/v1/trades", key, fmt.Sprintf(`{"account_number": "A-1", "symbol": "ES", "side": "long",
			"entry_date": "2026-02-05", "entry_price": 5000, "quantity": 1, "exit_price": 5010, "account_id": %q}`, accountID(t, srv, key)))
	}
	pdf, err := os.ReadFile(filepath.Join("..", "testdata", "payout.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	upload := func() (int, []byte) {
		n++
		return post(t, srv.base+"/api/v1/documents", key, map[string]string{"document_name": "Payout", "category": "receipt", "account_number": "A-1"},
			"payout.pdf", append(bytes.Clone(pdf), fmt.Sprintf("%%%d\n", n)...))
	}
	importFile := func() (int, []byte) {
		n++
		csv := "account_number,symbol,side,quantity,price,commission,timestamp,exec_id\n" +
			fmt.Sprintf("A-1,MNQZ5,buy,1,21000,0.62,2025-12-01T09:31:00-05:00,B%d\nA-1,MNQZ5,sell,1,21010,0.62,2025-12-01T09:41:00-05:00,S%d\n", n, n)
		return post(t, srv.base+"/api/v1/imports", key, nil, "fills.csv", []byte(csv))
	}
	if status, body := trade(); status != 201 {
		t.Fatalf("trade: %d %s", status, body)
	}

	filler := testkit.FillDisk(t, mnt)
	for _, w := range []struct {
		name string
		do   func() (int, []byte)
	}{{"trade", trade}, {"document", upload}, {"import", importFile}} {
		// A write may still fit in space SQLite's WAL already holds: write
		// until the disk refuses one.
		var status int
		var body []byte
		i := 0
		for ; status != http.StatusInsufficientStorage; i++ {
			if i == 200 {
				t.Fatalf("%s on a full disk never got a 507: %d %s", w.name, status, body)
			}
			if status, body = w.do(); status >= 300 && status != http.StatusInsufficientStorage {
				t.Fatalf("%s on a full disk: %d %s, want 507", w.name, status, body)
			}
		}
		t.Logf("%s: the disk refused it after %d more", w.name, i-1)
		if code := errorCode(t, body); code != "STORAGE_FULL" || !strings.Contains(string(body), "disk") {
			t.Errorf("%s on a full disk: %s", w.name, body)
		}
	}
	backupDir := filepath.Join(mnt, "backup")
	if out, err := run(t, "--data", dir, "backup", backupDir); err == nil || !strings.Contains(err.Error(), "is full") {
		t.Errorf("backup on a full disk: %v %s, want an error saying the disk is full", err, out)
	}
	if entries, err := os.ReadDir(mnt); err != nil || len(entries) != 2 { // data and the filler
		t.Errorf("after the refused backup, %s holds %v (%v), want data and the filler", mnt, entries, err)
	}
	for _, target := range []string{"/api/v1/trades", "/api/v1/documents", "/api/v1/imports", "/api/v1/stats/summary"} {
		if status, body := call(t, "GET", srv.base+target, key, ""); status != 200 {
			t.Errorf("GET %s on a full disk: %d %s", target, status, body)
		}
	}

	// Space is back: the same writes succeed, without a restart.
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	for name, do := range map[string]func() (int, []byte){"trade": trade, "document": upload, "import": importFile} {
		if status, body := do(); status != 201 {
			t.Errorf("%s once space is back: %d %s", name, status, body)
		}
	}
	if out, err := run(t, "--data", dir, "backup", backupDir); err != nil {
		t.Errorf("backup once space is back: %v %s", err, out)
	}
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	if out, err := run(t, "--data", dir, "check"); err != nil {
		t.Errorf("check after the full disk: %v\n%s", err, out)
	}
	if temps, err := os.ReadDir(filepath.Join(dir, "files", "tmp")); err != nil || len(temps) != 0 {
		t.Errorf("temp files left: %v (%v)", temps, err)
	}
}

// accountID is the id of the first account.
func accountID(t *testing.T, srv *serveProc, key string) string {
	t.Helper()
	_, body := call(t, "GET", srv.base+"/api/v1/accounts", key, "")
	i := bytes.Index(body, []byte(`"id":"`))
	if i < 0 {
		t.Fatalf("no account: %s", body)
	}
	return string(body[i+6 : i+42])
}

// post sends a multipart form with fields and one file.
func post(t *testing.T, url, key string, fields map[string]string, fileName string, content []byte) (int, []byte) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	fw, _ := mw.CreateFormFile("file", fileName)
	fw.Write(content)
	mw.Close()
	req, _ := http.NewRequestWithContext(t.Context(), "POST", url, &body)
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out bytes.Buffer
	out.ReadFrom(resp.Body)
	return resp.StatusCode, out.Bytes()
}
