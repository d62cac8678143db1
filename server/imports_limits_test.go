package server_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"tradejournal/db"
)

// genericRows is a generic file of valid fills (account APEX-1, MNQZ5, a
// second apart) of at least size bytes.
func genericRows(size int) []byte {
	var b bytes.Buffer
	b.WriteString(genericHeader)
	start := time.Date(2025, 12, 1, 14, 30, 0, 0, time.UTC)
	for i := 0; b.Len() < size; i++ {
		side := "buy"
		if i%2 == 1 {
			side = "sell"
		}
		fmt.Fprintf(&b, "APEX-1,MNQZ5,%s,1,21000,0.62,%s,L%d\n", side, start.Add(time.Duration(i)*time.Second).Format(time.RFC3339), i)
	}
	return b.Bytes()
}

// countingReader counts the bytes read from it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// importBody is a multipart import form whose file is content.
func importBody(t testing.TB, content []byte, fields ...string) (body []byte, contentType string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for i := 0; i+1 < len(fields); i += 2 {
		mw.WriteField(fields[i], fields[i+1])
	}
	fw, _ := mw.CreateFormFile("file", "fills.csv")
	fw.Write(content)
	mw.Close()
	return b.Bytes(), mw.FormDataContentType()
}

// TestImportOverLimitUnread: a file over 25 MiB is refused before the
// parser sees it. A body whose Content-Length is over the upload's limit
// is a 413 with not one byte read; a file part that turns out too large
// as it streams (no Content-Length) is the 400 naming the file, its
// reading stopped at the limit's byte plus one, and its rows, valid
// ones, never parsed: the request allocates about the file's size, where
// parsing it allocates many times that. Nothing is written either way.
func TestImportOverLimitUnread(t *testing.T) {
	e := newTradeEnv(t)

	content := genericRows(maxUpload + 1)[:maxUpload+1]
	body, contentType := importBody(t, content)

	// Content-Length says too large: refused unread.
	cr := &countingReader{r: bytes.NewReader(body)}
	req := httptest.NewRequest("POST", "/api/v1/imports", cr)
	req.ContentLength = 26<<20 + 1
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer "+e.key)
	w := e.send(t, req)
	want := `{"error":"Request body exceeds the limit of 26 MiB","code":"PAYLOAD_TOO_LARGE"}` + "\n"
	if w.Code != http.StatusRequestEntityTooLarge || w.Body.String() != want || cr.n != 0 {
		t.Errorf("Content-Length over the limit: %d %s after reading %d bytes, want 413 %s unread", w.Code, w.Body, cr.n, want)
	}

	// No Content-Length: the file part is cut at the limit plus one.
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	cr = &countingReader{r: bytes.NewReader(body)}
	req = httptest.NewRequest("POST", "/api/v1/imports", io.MultiReader(cr)) // no length
	req.ContentLength = -1
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer "+e.key)
	w = e.send(t, req)
	runtime.ReadMemStats(&after)
	allocated := after.TotalAlloc - before.TotalAlloc
	t.Logf("a %d-byte file over the limit: %d bytes read, %d allocated", len(content), cr.n, allocated)
	wantNested := `"file":"file must be at most 25 MiB (26214400 bytes)"`
	if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), wantNested) {
		t.Errorf("file over the limit: %d %s, want 400 with %s", w.Code, w.Body, wantNested)
	}
	if cr.n > int64(len(body)-len(content)+maxUpload+1+64<<10) {
		t.Errorf("read %d bytes of a %d-byte body, want the reading stopped at the file's limit", cr.n, len(body))
	}
	if allocated > 2*maxUpload {
		t.Errorf("allocated %d bytes for a %d-byte file refused, want under %d: it was parsed", allocated, len(content), 2*maxUpload)
	}
	if trades := e.tradesOf(t, e.key, ""); len(trades) != 0 {
		t.Errorf("trades after the refused files: %d, want none", len(trades))
	}
}

// heldImport is an import whose body the test holds open: its handler
// runs in its own goroutine until release sends the rest.
type heldImport struct {
	pw   *io.PipeWriter
	rest []byte
	done chan *httptest.ResponseRecorder
}

// holdImport starts an import from addr and returns once its handler has
// read well past the form's first bytes (so it is inside the import slot),
// with the file's end still unsent.
func holdImport(t *testing.T, e *tradeEnv, target, addr string, header http.Header, fields ...string) *heldImport {
	t.Helper()
	body, contentType := importBody(t, genericRows(256<<10), fields...)
	pr, pw := io.Pipe()
	req := httptest.NewRequest("POST", target, pr)
	req.RemoteAddr = addr
	req.Header = header.Clone()
	req.Header.Set("Content-Type", contentType)
	h := &heldImport{pw: pw, done: make(chan *httptest.ResponseRecorder, 1)}
	go func() {
		w := httptest.NewRecorder()
		e.srv.ServeHTTP(w, req)
		h.done <- w
	}()
	// A pipe's write returns once the handler has read it all: 128 KiB is
	// more than any buffer before the file (multipart's 4 KiB), so the
	// handler is receiving the file.
	cut := len(body) / 2
	if _, err := pw.Write(body[:cut]); err != nil {
		t.Fatalf("hold import: %v", err)
	}
	h.rest = body[cut:]
	return h
}

// release sends the rest of the body and returns the answer.
func (h *heldImport) release(t *testing.T) *httptest.ResponseRecorder {
	t.Helper()
	go func() {
		h.pw.Write(h.rest)
		h.pw.Close()
	}()
	return <-h.done
}

// TestImportSlots: at most two imports are read at once, whatever way
// they come in; a third, from another address, through the API or the
// page, is a 503 with Retry-After at once, and the two held finish. Their
// slots come back: the next import is read.
func TestImportSlots(t *testing.T) {
	e := newTradeEnv(t)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	csrf := csrfOf(t, b, "/import")
	api := http.Header{"Authorization": {"Bearer " + e.key}}
	page := http.Header{"Cookie": {b.cookie.String()}, "Origin": {"http://example.com"}}

	held := []*heldImport{
		holdImport(t, e, "/api/v1/imports", "192.0.2.1:1000", api, "dry_run", "true"),
		holdImport(t, e, "/import?preview", "192.0.2.2:1000", page, "csrf", csrf, "account_id", e.accountID),
	}

	small, contentType := importBody(t, []byte(morning))
	req := httptest.NewRequest("POST", "/api/v1/imports", bytes.NewReader(small))
	req.RemoteAddr = "192.0.2.3:1000"
	req.Header = api.Clone()
	req.Header.Set("Content-Type", contentType)
	w := e.send(t, req)
	want := `{"error":"The server is already reading 2 imports, as many as it takes at once; retry after 10 seconds","code":"UNAVAILABLE"}` + "\n"
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "10" || w.Body.String() != want {
		t.Errorf("a third import: %d Retry-After %q %s, want 503 Retry-After 10 %s", w.Code, w.Header().Get("Retry-After"), w.Body, want)
	}

	small, contentType = importBody(t, []byte(morning), "csrf", csrf)
	req = httptest.NewRequest("POST", "/import", bytes.NewReader(small))
	req.RemoteAddr = "192.0.2.4:1000"
	req.Header = page.Clone()
	req.Header.Set("Content-Type", contentType)
	w = e.send(t, req)
	if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "10" ||
		!strings.Contains(w.Body.String(), "The server is already reading 2 imports") {
		t.Errorf("a third import through the page: %d Retry-After %q %.300s, want 503 saying why", w.Code, w.Header().Get("Retry-After"), w.Body)
	}

	var wg sync.WaitGroup
	answers := make([]*httptest.ResponseRecorder, len(held))
	for i, h := range held {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = h.release(t)
		}()
	}
	wg.Wait()
	if answers[0].Code != http.StatusOK || !strings.Contains(answers[0].Body.String(), `"id":null`) {
		t.Errorf("held API dry run: %d %.300s, want 200", answers[0].Code, answers[0].Body)
	}
	if answers[1].Code != http.StatusOK || !strings.Contains(answers[1].Body.String(), "MNQZ5") {
		t.Errorf("held page preview: %d %.300s, want 200 with the preview", answers[1].Code, answers[1].Body)
	}

	imp := e.mustImport(t, e.key, morning, http.StatusCreated)
	if imp.TradesCreated != 3 {
		t.Errorf("an import after the held ones: %+v, want 3 trades", imp)
	}
	var _ db.Import = imp
}
