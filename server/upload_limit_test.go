package server_test

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"os"
	"testing"
	"time"

	"tradejournal/files"
	"tradejournal/server"
)

// TestUploadsInFlightLimited holds the only upload slot with an upload
// whose body has not finished arriving: the next upload waits briefly,
// then gets 503 with Retry-After; once the first is done, uploads go on.
func TestUploadsInFlightLimited(t *testing.T) {
	ts := newTestServer(t)
	store, err := files.Open(ts.files)
	if err != nil {
		t.Fatal(err)
	}
	ts.srv = server.New(server.Config{Secret: []byte(testSecret), AllowedHosts: []string{testHost}, MaxUploads: 1, UploadWait: 20 * time.Millisecond},
		ts.db, store, slog.New(slog.DiscardHandler))
	_, key := ts.newUser(t, "alice")
	ts.createAccount(t, key, `{"account_number": "A-1"}`)
	pdf, err := os.ReadFile("../testdata/payout.pdf")
	if err != nil {
		t.Fatal(err)
	}

	// The slow upload: its file part stops after a few bytes until released.
	gate := make(chan struct{})
	slow := part{name: "file", fileName: "slow.pdf", content: io.MultiReader(
		io.LimitReader(bytes.NewReader(pdf), 10), gatedReader{gate}, bytes.NewReader(pdf[10:]))}
	done := make(chan int)
	go func() { done <- ts.upload(t, key, form("A-1", slow)).Code }()

	// Wait until the slow upload holds the slot: a second one is refused.
	deadline := time.Now().Add(10 * time.Second)
	var w interface{ Header() http.Header }
	var code int
	for time.Now().Before(deadline) {
		r := ts.upload(t, key, form("A-1", filePart("x.pdf", pdf)))
		if code, w = r.Code, r; code == http.StatusServiceUnavailable {
			if got := decode[errBody](t, r.Body.Bytes()); got.Code != "UNAVAILABLE" {
				t.Errorf("503 body code %q, want UNAVAILABLE", got.Code)
			}
			break
		}
		if code != http.StatusCreated {
			t.Fatalf("upload while the slow one starts: got %d %s", code, r.Body)
		}
		time.Sleep(time.Millisecond)
	}
	if code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "5" {
		t.Fatalf("upload beside the slow one: got %d Retry-After %q, want 503 and 5", code, w.Header().Get("Retry-After"))
	}
	close(gate)
	if got := <-done; got != http.StatusCreated {
		t.Errorf("slow upload: got %d, want 201", got)
	}
	ts.mustUpload(t, key, form("A-1", filePart("after.pdf", pdf)), http.StatusCreated)
}

// gatedReader blocks until its gate closes, then reads as empty.
type gatedReader struct{ gate chan struct{} }

func (g gatedReader) Read([]byte) (int, error) {
	<-g.gate
	return 0, io.EOF
}
