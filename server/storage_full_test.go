package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestStorageFullDatabase fills the database for real (CapSize: SQLite's
// max_page_count, which fails a write with the same SQLITE_FULL as a full
// disk) and writes each kind of record until the file has no room for one
// more: that write is a 507 STORAGE_FULL with Retry-After and keeps nothing
// (no row, no file in the store, no temp file), reads answer, and once the
// cap is lifted the same write succeeds with no restart. cmd's
// TestStorageFullDisk fills a real filesystem under the whole data
// directory.
func TestStorageFullDatabase(t *testing.T) {
	e := newTradeEnv(t)
	kept, _ := e.create(t, e.tradeBody("ES", "long", fills(1, "buy 1@5000", "sell 1@5010")))
	note := strings.Repeat("x", 2000)
	n := 0
	pdf := func() []byte { // a new file each time, so each upload places a new blob
		n++
		return append(samplePDF(t), fmt.Sprintf("%%%d\n", n)...)
	}
	writes := []struct {
		name string
		do   func() (int, []byte)
	}{
		{"trade", func() (int, []byte) {
			return e.do(t, "POST", "/api/v1/trades", e.key, e.tradeBody("NQ", "short", fills(1, "sell 1@21000", "buy 1@20990")+`, "review_notes": {"type": "doc", "content": [{"type": "text", "text": "`+note+`"}]}`))
		}},
		{"trade update", func() (int, []byte) {
			n++
			return e.do(t, "PUT", "/api/v1/trades/"+kept.ID, e.key, fmt.Sprintf(`{"review_notes": {"type": "doc", "content": [{"type": "text", "text": "%d%s"}]}}`, n, strings.Repeat(note, 1+n%4)))
		}},
		{"import", func() (int, []byte) {
			n++
			return e.postImport(t, e.key, "fills.csv", genericHeader+fmt.Sprintf("APEX-1,MNQZ5,buy,1,21000,0.62,2025-12-01T09:31:00-05:00,X%d\n", n)+
				fmt.Sprintf("APEX-1,MNQZ5,sell,1,21010,0.62,2025-12-01T09:41:00-05:00,Y%d\n", n))
		}},
		{"document", func() (int, []byte) {
			w := e.upload(t, e.key, form("APEX-1", filePart("payout.pdf", pdf())))
			return w.Code, w.Body.Bytes()
		}},
		{"payout", func() (int, []byte) {
			return e.do(t, "POST", "/api/v1/payouts", e.key, fmt.Sprintf(`{"account_id": %q, "total_amount": 500, "notes": %q}`, e.accountID, note))
		}},
	}

	if err := e.db.CapSize(t.Context(), 1); err != nil { // no page past those there are
		t.Fatal(err)
	}
	for _, w := range writes {
		var status int
		var b []byte
		var before string
		var blobs []string
		i := 0
		for ; status != http.StatusInsufficientStorage; i++ {
			if i == 2000 {
				t.Fatalf("%s: the capped database never filled", w.name)
			}
			before, blobs = tableCounts(t, e), e.storeFiles(t, "sha256")
			if status, b = w.do(); status != http.StatusInsufficientStorage && status != http.StatusCreated && status != http.StatusOK {
				t.Fatalf("%s while filling: got %d %s", w.name, status, b)
			}
		}
		t.Logf("%s: the database was full after %d writes", w.name, i-1)
		if er := decode[errBody](t, b); er.Code != "STORAGE_FULL" || !strings.Contains(er.Error, "disk") {
			t.Errorf("%s on a full disk: %s, want code STORAGE_FULL and a message about the disk", w.name, b)
		}
		if after := tableCounts(t, e); after != before {
			t.Errorf("%s on a full disk kept rows:\nbefore %s\nafter  %s", w.name, before, after)
		}
		if after := e.storeFiles(t, "sha256"); !slices.Equal(after, blobs) {
			t.Errorf("%s on a full disk: store files %v, before %v", w.name, after, blobs)
		}
		e.noTempFiles(t)
	}
	w := e.request(t, "POST", "/api/v1/payouts", e.key, fmt.Sprintf(`{"account_id": %q, "total_amount": 500, "notes": %q}`, e.accountID, note))
	if w.Code != http.StatusInsufficientStorage || w.Header().Get("Retry-After") == "" {
		t.Errorf("a 507: %d, Retry-After %q; want 507 with Retry-After", w.Code, w.Header().Get("Retry-After"))
	}
	for _, target := range []string{"/api/v1/trades", "/api/v1/trades/" + kept.ID, "/api/v1/stats/summary",
		"/api/v1/accounts/" + e.accountID + "/status", "/api/v1/documents", "/api/v1/payouts"} {
		must200(t, e.testServer, target, e.key)
	}

	// Space is back: each write succeeds, no restart.
	if err := e.db.CapSize(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	for _, w := range writes {
		if status, b := w.do(); status != http.StatusCreated && status != http.StatusOK {
			t.Errorf("%s once space is back: got %d %s", w.name, status, b)
		}
	}
	e.noTempFiles(t)
	if problems, err := e.db.IntegrityCheck(t.Context()); err != nil || len(problems) > 0 {
		t.Errorf("integrity check: %v %v", problems, err)
	}
}
