package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// smallBuffers makes a connection's socket buffers small, so a slow peer
// is felt at once rather than after the kernel has queued megabytes.
func smallBuffers(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.SetReadBuffer(16 << 10)
		tc.SetWriteBuffer(16 << 10)
	}
}

type smallBufferListener struct{ net.Listener }

func (l smallBufferListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		smallBuffers(c)
	}
	return c, err
}

// TestSlowTransfersOutliveServerTimeouts runs the handler behind a real
// http.Server whose read and write timeouts are far shorter than a slow
// upload and a slow download take: both still complete, because the
// handlers move their own deadlines while bytes flow.
func TestSlowTransfersOutliveServerTimeouts(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	ts.createAccount(t, key, `{"account_number":"A-1"}`)
	hs := httptest.NewUnstartedServer(ts.srv)
	hs.Listener = smallBufferListener{hs.Listener}
	hs.Config.ReadTimeout = 300 * time.Millisecond
	hs.Config.WriteTimeout = 300 * time.Millisecond
	hs.Start()
	defer hs.Close()
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err == nil {
			smallBuffers(c)
		}
		return c, err
	}}}

	// Upload: 512 KiB sent in 32 KiB pieces, 100 ms apart.
	content, _ := io.ReadAll(bigPDF(t, 512<<10))
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		for _, f := range [][2]string{{"document_name", "Slow"}, {"category", "receipt"}, {"account_number", "A-1"}} {
			mw.WriteField(f[0], f[1])
		}
		fw, _ := mw.CreateFormFile("file", "slow.pdf")
		for rest := content; len(rest) > 0; rest = rest[min(len(rest), 32<<10):] {
			time.Sleep(100 * time.Millisecond)
			if _, err := fw.Write(rest[:min(len(rest), 32<<10)]); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(mw.Close())
	}()
	req, _ := http.NewRequest("POST", hs.URL+"/api/v1/documents", pr)
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("slow upload: %v", err)
	}
	var doc struct{ Data docJSON }
	err = json.NewDecoder(resp.Body).Decode(&doc)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || err != nil {
		t.Fatalf("slow upload: got %d (%v), want 201", resp.StatusCode, err)
	}

	// Download: read in 32 KiB pieces, 100 ms apart.
	resp, err = client.Get(hs.URL + strings.TrimPrefix(doc.Data.DocumentURL, "http://journal.test"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got bytes.Buffer
	for {
		time.Sleep(100 * time.Millisecond)
		if _, err := io.CopyN(&got, resp.Body, 32<<10); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("slow download after %d bytes: %v", got.Len(), err)
		}
	}
	if !bytes.Equal(got.Bytes(), content) {
		t.Errorf("slow download: got %d bytes, want the %d uploaded", got.Len(), len(content))
	}
}
