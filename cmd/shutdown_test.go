package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// bigPDF is payout.pdf grown to about 1 MB with PDF comments after its end.
func bigPDF(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "payout.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	buf.Write(b)
	for i := 0; buf.Len() < 1<<20; i++ {
		fmt.Fprintf(&buf, "%% padding line %06d to make a large file\n", i)
	}
	return buf.Bytes()
}

// TestGracefulShutdown sends SIGTERM to the real server while an upload
// trickles in: the upload finishes with 201, a new connection is refused
// meanwhile, the process exits 0, and the document is there after a
// restart.
func TestGracefulShutdown(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	key := setUpUser(t, dir)
	srv := startBinary(t, dir)
	c := newAPIClient(srv.base, key)
	mustCreateAccount(t, c, "A-1")
	pdf := bigPDF(t)

	// The body trickles through a pipe: the fields, then the file in 40
	// pieces 50 ms apart, about 2 s in all.
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	signalled := make(chan struct{})
	go func() {
		mw.WriteField("document_name", "Large payout")
		mw.WriteField("category", "payout-confirmation")
		mw.WriteField("account_number", "A-1")
		fw, err := mw.CreateFormFile("file", "large.pdf")
		if err != nil {
			pw.CloseWithError(err)
			return
		}
		const pieces = 40
		size := (len(pdf) + pieces - 1) / pieces
		for i := 0; i < len(pdf); i += size {
			if i == 2*size {
				<-signalled // the rest goes after SIGTERM
			}
			if _, err := fw.Write(pdf[i:min(i+size, len(pdf))]); err != nil {
				pw.CloseWithError(err)
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
		pw.CloseWithError(mw.Close())
	}()
	type result struct {
		status int
		body   []byte
		err    error
	}
	done := make(chan result, 1)
	go func() {
		status, body, err := c.do(t.Context(), "POST", "/api/v1/documents", pr, mw.FormDataContentType())
		done <- result{status, body, err}
	}()

	// The server is receiving the file once its temp file exists.
	tmp := filepath.Join(dir, "files", "tmp")
	for i := 0; ; i++ {
		if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
			break
		}
		if i == 2000 { // a safety net only
			t.Fatalf("the upload never reached the server\n%s", srv.stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	close(signalled)

	// Once it says it is shutting down, it takes no new connection. Its
	// listener closes just after the log line: the loop is a safety net.
	for i := 0; !strings.Contains(srv.stderr.String(), "shutting down"); i++ {
		if i == 2000 {
			t.Fatalf("serve never logged its shutdown\n%s", srv.stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	addr := strings.TrimPrefix(srv.base, "http://")
	var dialErr error
	for range 100 {
		var conn net.Conn
		if conn, dialErr = net.Dial("tcp", addr); dialErr != nil {
			break
		}
		conn.Close()
		time.Sleep(10 * time.Millisecond)
	}
	if !errors.Is(dialErr, syscall.ECONNREFUSED) {
		t.Errorf("a new connection during the shutdown: got %v, want connection refused", dialErr)
	}
	select {
	case <-srv.exited:
		t.Errorf("serve exited while an upload was in flight: %v\n%s", srv.err, srv.stderr.String())
	default:
	}

	res := <-done
	if res.err != nil || res.status != http.StatusCreated {
		t.Fatalf("the upload in flight at SIGTERM: got %d %s (%v), want 201\n%s", res.status, res.body, res.err, srv.stderr.String())
	}
	<-srv.exited
	if srv.err != nil {
		t.Fatalf("serve after SIGTERM: %v, want exit status 0\n%s", srv.err, srv.stderr.String())
	}
	var doc struct {
		Data struct {
			ID          string
			DocumentURL string `json:"document_url"`
		}
	}
	if err := json.Unmarshal(res.body, &doc); err != nil {
		t.Fatal(err)
	}

	again := startBinary(t, dir)
	checkDocWhole(t, again.base, ackedDoc{id: doc.Data.ID, url: doc.Data.DocumentURL, base: srv.base, content: pdf})
	if err := again.terminate(t); err != nil {
		t.Fatalf("serve after SIGTERM: %v, want exit status 0", err)
	}
	if out, err := runBinary(t, "check", "--data", dir); err != nil {
		t.Errorf("check after the shutdown: %v, want exit 0\n%s", err, out)
	}
}
