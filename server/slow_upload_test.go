package server_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"tradejournal/files"
	"tradejournal/server"
)

// slowEnv is a test server behind a real listener, with the upload
// limits of cfg.
func slowEnv(t *testing.T, cfg server.Config) (*testServer, *httptest.Server, string) {
	t.Helper()
	ts := newTestServer(t)
	store, err := files.Open(ts.files)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Secret, cfg.PublicURL, cfg.AllowedHosts = []byte(testSecret), "http://journal.test", []string{testHost}
	ts.srv = server.New(cfg, ts.db, store, slog.New(slog.DiscardHandler))
	_, key := ts.newUser(t, "alice")
	ts.createAccount(t, key, `{"account_number": "A-1"}`)
	hs := httptest.NewServer(ts.srv)
	t.Cleanup(hs.Close)
	return ts, hs, key
}

// trickle starts an upload from the loopback address from (127.0.0.x)
// that asks to continue first (Expect: 100-continue). net/http answers 100
// Continue at the handler's first read of the body, which an upload makes
// only once it holds its slots: held is called then, and the file part
// starts. It arrives at 1 KiB every 20 ms until slow is
// closed, then a byte every 20 ms, and never ends. trickle returns the
// server's answer, status and code, or 0 when ctx ends first. header are
// more header lines ("X-Forwarded-For: 203.0.113.1").
func trickle(ctx context.Context, t *testing.T, hs *httptest.Server, key, from string, slow <-chan struct{}, held func(), header ...string) (status int, code string) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	conn, err := d.DialContext(ctx, "tcp", hs.Listener.Addr().String())
	if err != nil {
		t.Errorf("dial from %s: %v", from, err)
		return 0, ""
	}
	defer conn.Close()
	context.AfterFunc(ctx, func() { conn.Close() })
	var head bytes.Buffer
	mw := multipart.NewWriter(&head)
	mw.WriteField("document_name", "Slow")
	mw.WriteField("category", "receipt")
	mw.WriteField("account_number", "A-1")
	mw.CreateFormFile("file", "slow.pdf")
	head.WriteString("%PDF-1.4\n")
	const rest = 1 << 20 // the file's bytes after its first line, of which one never comes
	var more strings.Builder
	for _, h := range header {
		more.WriteString(h + "\r\n")
	}
	fmt.Fprintf(conn, "POST /api/v1/documents HTTP/1.1\r\nHost: journal.test\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: %s\r\nContent-Length: %d\r\nExpect: 100-continue\r\n%s\r\n", key, mw.FormDataContentType(), head.Len()+rest, more.String())
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return 0, ""
	}
	if resp.StatusCode == http.StatusContinue {
		held()
		answered := make(chan struct{})
		defer close(answered)
		go sendFile(conn, head.Bytes(), rest-1, slow, answered)
		if resp, err = http.ReadResponse(br, nil); err != nil {
			return 0, ""
		}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, decode[errBody](t, b).Code
}

// sendFile writes head, then at most n spaces every 20 ms: 1 KiB at a
// time (50 KiB a second) until slow is closed, then one at a time. It
// stops when answered is closed or a write fails.
func sendFile(conn net.Conn, head []byte, n int, slow, answered <-chan struct{}) {
	if _, err := conn.Write(head); err != nil {
		return
	}
	spaces := bytes.Repeat([]byte{' '}, 1<<10)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for n > 0 {
		select {
		case <-answered:
			return
		case <-tick.C:
		}
		k := len(spaces)
		select {
		case <-slow:
			k = 1
		default:
		}
		k = min(k, n)
		if _, err := conn.Write(spaces[:k]); err != nil {
			return
		}
		n -= k
	}
}

// normalUpload sends a 1 MiB PDF at full speed from 127.0.0.1.
func normalUpload(t *testing.T, hs *httptest.Server, key string) (int, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if err := writeParts(mw, form("A-1", part{name: "file", fileName: "normal.pdf", content: bigPDF(t, 1<<20)})); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequestWithContext(t.Context(), "POST", hs.URL+"/api/v1/documents", &body)
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := hs.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestSlowUploadsCut: eight clients whose uploads slow to a trickle (the
// rate floor and its window set small) are each cut with a 408
// REQUEST_TIMEOUT and leave no temp file and no document, while a normal
// 1 MiB upload beside them succeeds. The normal upload is sent once the
// server has asked each of the eight for its body (they hold their slots)
// and while they still arrive above the floor; they slow down after it.
func TestSlowUploadsCut(t *testing.T) {
	ts, hs, key := slowEnv(t, server.Config{UploadMinRate: 4 << 10, UploadRateWindow: time.Second})
	// A bound for a server that never cuts them, so the test fails, not hangs.
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	results := make([]string, 8)
	held := make(chan struct{}, len(results))
	answered := make(chan int, len(results))
	slow := make(chan struct{})
	for i := range results {
		wg.Go(func() {
			status, code := trickle(ctx, t, hs, key, fmt.Sprintf("127.0.0.%d", i+2), slow, func() { held <- struct{}{} })
			results[i] = fmt.Sprint(status, " ", code)
			answered <- i
		})
	}
	for range results {
		select {
		case <-held:
		case i := <-answered:
			t.Fatalf("slow client %d: answered %s before it held a slot", i, results[i])
		case <-ctx.Done():
			t.Fatal("after 20 s, the slow uploads did not all hold a slot")
		}
	}
	if status, body := normalUpload(t, hs, key); status != http.StatusCreated {
		t.Errorf("a normal upload beside eight slow ones: %d %s", status, body)
	}
	if n := len(answered); n != 0 {
		t.Errorf("%d slow uploads were answered before the normal one: it did not run beside them", n)
	}
	close(slow)
	wg.Wait()
	hs.Close() // waits for the handlers, and their cleanup, to end
	for i, got := range results {
		if got != "408 REQUEST_TIMEOUT" {
			t.Errorf("slow client %d: got %s, want 408 REQUEST_TIMEOUT", i, got)
		}
	}
	ts.noTempFiles(t)
	if n := count(t, ts.sql(t), `SELECT count(*) FROM documents`); n != 1 {
		t.Errorf("documents: %d, want only the normal one", n)
	}
}

// TestSlowClientHoldsOnlyItsSlots: one client with eight trickling
// uploads holds at most its own two slots (the others are refused with
// 503); an upload from another client gets a slot, though the rate floor
// (10 s, the default) has cut nothing yet. Were the four slots one pool,
// the trickling uploads would hold them all.
func TestSlowClientHoldsOnlyItsSlots(t *testing.T) {
	ts, hs, key := slowEnv(t, server.Config{MaxUploads: 4, UploadWait: 300 * time.Millisecond})
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	slow := make(chan struct{})
	close(slow) // a byte every 20 ms from the start
	held := make(chan struct{}, 8)
	answers := make(chan string, 8)
	for range 8 {
		wg.Go(func() {
			if status, code := trickle(ctx, t, hs, key, "127.0.0.2", slow, func() { held <- struct{}{} }); status != 0 {
				answers <- fmt.Sprint(status, " ", code)
			}
		})
	}
	// Each upload is asked for its body (it holds a slot) or, past
	// UploadWait, refused.
	holding, refused := 0, 0
	for holding+refused < 8 {
		select {
		case <-held:
			holding++
		case got := <-answers:
			if refused++; !strings.HasPrefix(got, "503 UNAVAILABLE") {
				t.Errorf("a slow upload past the client's slots: %s, want 503 UNAVAILABLE", got)
			}
		case <-ctx.Done():
			t.Fatalf("after 20 s, of eight uploads from one client %d hold a slot and %d were refused", holding, refused)
		}
	}
	if holding != 2 || refused != 6 {
		t.Fatalf("of eight uploads from one client %d hold a slot and %d were refused, want 2 and 6", holding, refused)
	}
	if status, body := normalUpload(t, hs, key); status != http.StatusCreated {
		t.Errorf("an upload from another client: %d %s", status, body)
	}
	if n := len(answers); n != 0 {
		t.Errorf("%d of the two holding uploads were answered before the upload from another client", n)
	}
	cancel()
	wg.Wait()
	hs.Close() // waits for the handlers, and their cleanup, to end
	ts.noTempFiles(t)
}
