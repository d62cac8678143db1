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
	cfg.Secret = []byte(testSecret)
	ts.srv = server.New(cfg, ts.db, store, slog.New(slog.DiscardHandler))
	_, key := ts.newUser(t, "alice")
	ts.createAccount(t, key, `{"account_number": "A-1"}`)
	hs := httptest.NewServer(ts.srv)
	t.Cleanup(hs.Close)
	return ts, hs, key
}

// trickle starts an upload from the loopback address from (127.0.0.x)
// whose file part then arrives a byte every 20 ms; it returns the
// response's status and code once the server answers, or 0 when ctx ends
// first.
func trickle(ctx context.Context, t *testing.T, hs *httptest.Server, key, from string) (status int, code string) {
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
	fmt.Fprintf(conn, "POST /api/v1/documents HTTP/1.1\r\nHost: journal.test\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: %s\r\nContent-Length: %d\r\n\r\n", key, mw.FormDataContentType(), head.Len()+1<<20)
	conn.Write(head.Bytes())
	conn.Write([]byte("%PDF-1.4\n"))
	answered := make(chan struct{})
	go func() {
		for {
			select {
			case <-answered:
				return
			case <-time.After(20 * time.Millisecond):
				if _, err := conn.Write([]byte{' '}); err != nil {
					return
				}
			}
		}
	}()
	defer close(answered)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, decode[errBody](t, b).Code
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

// TestSlowUploadsCut: eight clients trickling uploads (the rate floor and
// its window set small) are each cut with a 408 REQUEST_TIMEOUT and leave
// no temp file and no document, while a normal 1 MiB upload beside them
// succeeds.
func TestSlowUploadsCut(t *testing.T) {
	ts, hs, key := slowEnv(t, server.Config{UploadMinRate: 4 << 10, UploadRateWindow: 300 * time.Millisecond})
	// A bound for a server that never cuts them, so the test fails, not hangs.
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	results := make([]string, 8)
	for i := range results {
		wg.Go(func() {
			status, code := trickle(ctx, t, hs, key, fmt.Sprintf("127.0.0.%d", i+2))
			results[i] = fmt.Sprint(status, " ", code)
		})
	}
	time.Sleep(100 * time.Millisecond) // they hold their slots
	if status, body := normalUpload(t, hs, key); status != http.StatusCreated {
		t.Errorf("a normal upload beside eight slow ones: %d %s", status, body)
	}
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
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	var refused sync.Map
	for i := range 8 {
		wg.Go(func() {
			if status, code := trickle(ctx, t, hs, key, "127.0.0.2"); status != 0 {
				refused.Store(i, fmt.Sprint(status, " ", code))
			}
		})
	}
	time.Sleep(600 * time.Millisecond) // past UploadWait: six of them were refused
	if status, body := normalUpload(t, hs, key); status != http.StatusCreated {
		t.Errorf("an upload from another client: %d %s", status, body)
	}
	cancel()
	wg.Wait()
	hs.Close() // waits for the handlers, and their cleanup, to end
	n := 0
	refused.Range(func(_, v any) bool {
		if n++; !strings.HasPrefix(v.(string), "503 UNAVAILABLE") {
			t.Errorf("a slow upload past the client's slots: %s, want 503 UNAVAILABLE", v)
		}
		return true
	})
	if n != 6 {
		t.Errorf("%d of eight uploads from one client refused, want 6 (it holds 2 slots)", n)
	}
	ts.noTempFiles(t)
}
