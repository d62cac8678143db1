package server

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"tradejournal/db"
	"tradejournal/files"
)

// TestOnlyTheDownloadAndTheDocumentArePublic walks the route table: every
// route but the signed download and the OpenAPI document has a scope and
// answers a request without a key with 401; the download answers it with
// the 403 of a link that does not verify, the document with itself.
func TestOnlyTheDownloadAndTheDocumentArePublic(t *testing.T) {
	dir := t.TempDir()
	d, err := db.Open(t.Context(), filepath.Join(dir, "journal.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	store, err := files.Open(filepath.Join(dir, "files"))
	if err != nil {
		t.Fatal(err)
	}
	// example.com is httptest.NewRequest's Host.
	s := New(Config{AllowedHosts: []string{"example.com"}}, d, store, slog.New(slog.DiscardHandler))
	const download, document = "GET /api/v1/files/{id}/{name}", "GET /api/v1/openapi.json"
	fill := strings.NewReplacer("{id}", "0194d2f0-0000-7000-8000-000000000001", "{root}", "ES", "{name}", "x.pdf")
	for _, rt := range s.routes() {
		if public := rt.scope == ""; public != (rt.pattern == download || rt.pattern == document) {
			t.Errorf("%s: public %v, want %v", rt.pattern, public, !public)
		}
		method, pattern, _ := strings.Cut(rt.pattern, " ")
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(method, fill.Replace(pattern), nil))
		want := http.StatusUnauthorized
		switch rt.pattern {
		case download:
			want = http.StatusForbidden
		case document:
			want = http.StatusOK
		}
		if w.Code != want {
			t.Errorf("%s without a key: got %d %s, want %d", rt.pattern, w.Code, w.Body, want)
		}
		h := w.Header()
		if h.Get("Cache-Control") != "no-store" || h.Get("X-Content-Type-Options") != "nosniff" ||
			want == http.StatusUnauthorized && h.Get("WWW-Authenticate") != "Bearer" ||
			rt.pattern == download && h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%s without a key: headers %v", rt.pattern, h)
		}
	}
}
