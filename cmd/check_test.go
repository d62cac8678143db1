package cmd

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tradejournal/files"
)

// docDir is a data directory with one uploaded document (and one trade),
// its server stopped.
type docDir struct {
	dir     string
	hash    string // of the document's file
	blob    string // its path
	key     string
	account string // id
}

func newDocDir(t *testing.T) docDir {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "data")
	srv := startServe(t, dir)
	c := newAPIClient(srv.base, firstRunKey(t, srv))
	accountID := mustCreateAccount(t, c, "A-1")
	pdf := readSamples(t)[0].content
	if status, b, err := c.upload(t.Context(), "A-1", "payout.pdf", pdf); err != nil || status != 201 {
		t.Fatalf("upload: got %d %s (%v), want 201", status, b, err)
	}
	if status, b, err := c.json(t.Context(), "POST", "/api/v1/trades", tradeBody(accountID, 2)); err != nil || status != 201 {
		t.Fatalf("create trade: got %d %s (%v), want 201", status, b, err)
	}
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(pdf)
	hash := hex.EncodeToString(sum[:])
	d := docDir{dir: dir, hash: hash, blob: filepath.Join(dir, "files", "sha256", hash[:2], hash), key: c.key, account: accountID}
	if _, err := os.Stat(d.blob); err != nil {
		t.Fatalf("the uploaded document's file: %v", err)
	}
	if out, err := run(t, "check", "--data", dir); err != nil {
		t.Fatalf("check on a sound directory: %v, want exit 0\n%s", err, out)
	}
	return d
}

// rows counts the directory's documents and trades.
func (d docDir) rows(t *testing.T) [2]int {
	t.Helper()
	s := openSQL(t, d.dir)
	defer s.Close()
	return [2]int{count(t, s, `SELECT count(*) FROM documents`), count(t, s, `SELECT count(*) FROM trades`)}
}

// writeFile writes a file, with its folders, aged by age.
func writeFile(t *testing.T, path string, content []byte, age time.Duration) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, content, 0o600); err != nil {
		t.Fatal(err)
	}
	if age > 0 {
		old := time.Now().Add(-age)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// orphanBlob is a well-named blob of content that no document uses.
func orphanBlob(dir string, content []byte) string {
	sum := sha256.Sum256(content)
	h := hex.EncodeToString(sum[:])
	return filepath.Join(dir, "files", "sha256", h[:2], h)
}

func wantFindings(t *testing.T, what, out string, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: check exited 0, want non-zero\n%s", what, out)
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s: check's output lacks %q:\n%s", what, w, out)
		}
	}
}

func TestCheckFindings(t *testing.T) {
	t.Run("corrupt file", func(t *testing.T) {
		d := newDocDir(t)
		b, err := os.ReadFile(d.blob)
		if err != nil {
			t.Fatal(err)
		}
		b[len(b)/2] ^= 0x01
		writeFile(t, d.blob, b, 0)
		out, err := run(t, "check", "--data", d.dir)
		wantFindings(t, "one byte flipped", out, err, d.blob)
		rows := d.rows(t)
		out, err = run(t, "check", "--repair", "--data", d.dir)
		wantFindings(t, "one byte flipped, --repair", out, err, d.blob)
		if got := d.rows(t); got != rows || !exists(d.blob) {
			t.Errorf("--repair on a corrupt file: rows %v → %v, file kept %v; want rows and file untouched", rows, got, exists(d.blob))
		}
	})

	t.Run("missing file", func(t *testing.T) {
		d := newDocDir(t)
		if err := os.Remove(d.blob); err != nil {
			t.Fatal(err)
		}
		out, err := run(t, "check", "--data", d.dir)
		wantFindings(t, "file deleted", out, err, d.hash+" is missing: 1 document(s)")
		rows := d.rows(t)
		out, err = run(t, "check", "--repair", "--data", d.dir)
		wantFindings(t, "file deleted, --repair", out, err, d.hash+" is missing")
		if got := d.rows(t); got != rows {
			t.Errorf("--repair on a missing file: rows %v → %v, want them untouched", rows, got)
		}
	})

	t.Run("orphans and temps", func(t *testing.T) {
		d := newDocDir(t)
		orphan := orphanBlob(d.dir, []byte("%PDF-1.4 bytes no document uses"))
		junk := filepath.Join(d.dir, "files", "sha256", "junk.txt")
		misplaced := filepath.Join(d.dir, "files", "sha256", "00", "not-a-hash")
		temp := filepath.Join(d.dir, "files", "tmp", "upload-4242")
		writeFile(t, orphan, []byte("%PDF-1.4 bytes no document uses"), 0)
		writeFile(t, junk, []byte("junk"), 0)
		writeFile(t, misplaced, []byte("junk"), 0)
		writeFile(t, temp, []byte("half an upload"), 0)
		all := []string{orphan, junk, misplaced, temp}

		out, err := run(t, "check", "--data", d.dir)
		wantFindings(t, "orphans and a temp file", out, err, all...)
		if strings.Contains(out, d.blob) {
			t.Errorf("check names the document's sound file:\n%s", out)
		}
		rows := d.rows(t)
		out, err = run(t, "check", "--repair", "--data", d.dir)
		if err != nil {
			t.Errorf("check --repair: %v, want exit 0 once everything is repaired\n%s", err, out)
		}
		for _, p := range all {
			if exists(p) {
				t.Errorf("after --repair, %s is still there", p)
			}
		}
		if got := d.rows(t); got != rows || !exists(d.blob) {
			t.Errorf("--repair: rows %v → %v, document's file kept %v; want rows and file untouched", rows, got, exists(d.blob))
		}
		if out, err := run(t, "check", "--data", d.dir); err != nil {
			t.Errorf("check after --repair: %v, want exit 0\n%s", err, out)
		}
		// The repaired directory still serves its document.
		srv := startServe(t, d.dir)
		if status, b, err := newAPIClient(srv.base, d.key).json(t.Context(), "GET", "/api/v1/documents", ""); err != nil || status != 200 || !strings.Contains(string(b), d.account) {
			t.Errorf("documents after --repair: got %d %s (%v)", status, b, err)
		}
	})

	t.Run("trade count", func(t *testing.T) {
		d := newDocDir(t)
		raw := openSQL(t, d.dir)
		if _, err := raw.Exec(`UPDATE trade_counts SET trades = 7 WHERE account_id = ?`, d.account); err != nil {
			t.Fatal(err)
		}
		raw.Close()
		out, err := run(t, "check", "--data", d.dir)
		wantFindings(t, "a count set by hand", out, err, "trade_counts: account "+d.account+" is counted as 7 trades but holds 1")
	})

	t.Run("trade day", func(t *testing.T) {
		d := newDocDir(t)
		raw := openSQL(t, d.dir)
		var id, day string
		if err := raw.QueryRow(`UPDATE trades SET day = '1999-01-01' RETURNING id, coalesce(exit_date, entry_date)`).Scan(&id, &day); err != nil {
			t.Fatal(err)
		}
		raw.Close()
		out, err := run(t, "check", "--data", d.dir)
		wantFindings(t, "a day set by hand", out, err, "trades: trade "+id+" counts on 1999-01-01 but its day is "+day)
	})

	t.Run("server running", func(t *testing.T) {
		d := newDocDir(t)
		startServe(t, d.dir) // holds serve.lock; it cleaned up at start, so what follows is new
		freshBlob := orphanBlob(d.dir, []byte("%PDF-1.4 an upload in flight"))
		freshTemp := filepath.Join(d.dir, "files", "tmp", "upload-fresh")
		oldBlob := orphanBlob(d.dir, []byte("%PDF-1.4 an old orphan"))
		oldTemp := filepath.Join(d.dir, "files", "tmp", "upload-old")
		writeFile(t, freshBlob, []byte("%PDF-1.4 an upload in flight"), 0)
		writeFile(t, freshTemp, []byte("half an upload"), 0)

		out, err := run(t, "check", "--data", d.dir)
		if err != nil || strings.Contains(out, freshBlob) || strings.Contains(out, freshTemp) {
			t.Errorf("check with a server running and files younger than 10 minutes: %v, want exit 0 and neither named\n%s", err, out)
		}

		writeFile(t, oldBlob, []byte("%PDF-1.4 an old orphan"), 11*time.Minute)
		writeFile(t, oldTemp, []byte("an old half upload"), 11*time.Minute)
		out, err = run(t, "check", "--data", d.dir)
		wantFindings(t, "files 11 minutes old, server running", out, err, oldBlob, oldTemp)
		if strings.Contains(out, freshBlob) || strings.Contains(out, freshTemp) {
			t.Errorf("check with a server running names a young file:\n%s", out)
		}
		out, err = run(t, "check", "--repair", "--data", d.dir)
		if err != nil {
			t.Errorf("check --repair with a server running: %v, want exit 0\n%s", err, out)
		}
		if exists(oldBlob) || exists(oldTemp) || !exists(freshBlob) || !exists(freshTemp) || !exists(d.blob) {
			t.Errorf("--repair with a server running: old blob %v, old temp %v, young blob %v, young temp %v, document's file %v; want only the young ones and the document's left",
				exists(oldBlob), exists(oldTemp), exists(freshBlob), exists(freshTemp), exists(d.blob))
		}
	})
}

// TestCheckWhileServing runs check and check --repair next to a server that
// uploads, replaces and deletes documents all the while: each must exit 0
// (a file removed with its row since check listed the files is no
// finding, nor a reason to fail), and --repair must remove no file a
// document uses. The writers count the writes the server acknowledged:
// checks that ran beside an idle server (every request refused, say)
// would prove nothing, so writes must have been acknowledged before the
// first check and while the checks ran.
func TestCheckWhileServing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	srv := startServe(t, dir, "--rate-limit", "0")
	c := newAPIClient(srv.base, firstRunKey(t, srv))
	mustCreateAccount(t, c, "A-1")
	pdf := readSamples(t)[0].content
	unique := func(tag string) []byte { return append(bytes.Clone(pdf), "\n% "+tag+"\n"...) }
	for i := range 100 { // files for check to read, so that it takes a while
		if status, b, err := c.upload(t.Context(), "A-1", "kept.pdf", unique(fmt.Sprint("kept ", i))); err != nil || status != 201 {
			t.Fatalf("upload: got %d %s (%v)", status, b, err)
		}
	}

	const warmUp = 8 // writes acknowledged before the first check
	var acked atomic.Int64
	flowing := make(chan struct{})
	ctx, stop := context.WithCancel(t.Context())
	// write sends one request until the server takes it in (a 503, too
	// many uploads from this client at once, stores nothing: it is sent
	// again) and counts it when the answer is want. It reports false once
	// the test is ending or after a wrong answer, which fails the test.
	write := func(what string, want int, do func() (int, []byte, error)) ([]byte, bool) {
		for {
			status, b, err := do()
			switch {
			case ctx.Err() != nil:
				return nil, false
			case err == nil && status == http.StatusServiceUnavailable:
				continue
			case err == nil && status == want:
				if acked.Add(1) == warmUp {
					close(flowing)
				}
				return b, true
			}
			t.Errorf("%s next to check: got %d %s (%v), want %d", what, status, b, err, want)
			return nil, false
		}
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				b, ok := write("upload", http.StatusCreated, func() (int, []byte, error) {
					return c.upload(ctx, "A-1", "churn.pdf", unique(fmt.Sprintf("writer %d upload %d", w, i)))
				})
				if !ok {
					return
				}
				var d struct{ Data struct{ ID string } }
				if err := json.Unmarshal(b, &d); err != nil || d.Data.ID == "" {
					t.Errorf("upload: answer %s (%v)", b, err)
					return
				}
				if _, ok := write("replace", http.StatusOK, func() (int, []byte, error) {
					var body bytes.Buffer
					mw := multipart.NewWriter(&body)
					mw.WriteField("replace", "true")
					mw.WriteField("document_id", d.Data.ID)
					fw, _ := mw.CreateFormFile("file", "replaced.pdf")
					fw.Write(unique(fmt.Sprintf("writer %d replace %d", w, i)))
					mw.Close()
					return c.do(ctx, "POST", "/api/v1/documents", &body, mw.FormDataContentType())
				}); !ok {
					return
				}
				if _, ok := write("delete", http.StatusOK, func() (int, []byte, error) {
					return c.json(ctx, "DELETE", "/api/v1/documents/"+d.Data.ID, "")
				}); !ok {
					return
				}
			}
		})
	}
	writersDone := make(chan struct{})
	go func() { wg.Wait(); close(writersDone) }()
	defer func() { stop(); <-writersDone }() // no writer outlives the test
	select {
	case <-flowing:
	case <-writersDone:
		t.Fatalf("the writers stopped after %d acknowledged writes, before the first check", acked.Load())
	case <-time.After(time.Minute): // a safety net only
		t.Fatalf("the writers made %d acknowledged writes in a minute, want %d before the first check", acked.Load(), warmUp)
	}
	var during int64 // writes acknowledged while a check ran
	checksBeside := 0
	for i := range 20 {
		args := []string{"check", "--data", dir}
		if i%2 == 1 {
			args = append(args, "--repair")
		}
		before := acked.Load()
		out, err := run(t, args...)
		if err != nil {
			t.Errorf("%s next to a busy server: %v, want exit 0\n%s", strings.Join(args, " "), err, out)
		}
		if n := acked.Load() - before; n > 0 {
			during += n
			checksBeside++
		}
	}
	stop()
	<-writersDone
	t.Logf("%d writes acknowledged in all, %d while the checks ran, beside %d of the 20 checks", acked.Load(), during, checksBeside)
	if checksBeside < 10 {
		t.Errorf("writes were acknowledged while %d of the 20 checks ran (%d writes), want at least 10: check ran beside an idle server", checksBeside, during)
	}
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	if out, err := run(t, "check", "--data", dir); err != nil {
		t.Errorf("check once the server stopped: %v, want exit 0\n%s", err, out)
	}
}

// TestAbandonedUploadsLeaveNoOrphans: clients that give up on their
// uploads at any moment leave neither a temp file nor an unused blob
// behind: once the server has stopped gracefully, check (which then counts
// every unused file, whatever its age) exits 0.
func TestAbandonedUploadsLeaveNoOrphans(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	srv := startServe(t, dir, "--rate-limit", "0")
	c := newAPIClient(srv.base, firstRunKey(t, srv))
	mustCreateAccount(t, c, "A-1")
	pdf := readSamples(t)[0].content
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := range 50 {
				// The client gives up after 0.5 to 8 ms: before, during or
				// after the server's work on the upload.
				ctx, cancel := context.WithTimeout(t.Context(), time.Duration(500+rand.IntN(7500))*time.Microsecond)
				c.upload(ctx, "A-1", "given-up.pdf", append(bytes.Clone(pdf), fmt.Sprintf("\n%% writer %d upload %d\n", w, i)...))
				cancel()
			}
		})
	}
	wg.Wait()
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	if out, err := run(t, "check", "--data", dir); err != nil {
		t.Errorf("check after abandoned uploads and a graceful stop: %v, want exit 0\n%s", err, out)
	}
}

// newImageDoc makes a data directory with one uploaded PNG document, its server
// stopped, and returns it with the hash of the document's file.
func newImageDoc(t *testing.T) (dir, hash string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "data")
	srv := startServe(t, dir)
	c := newAPIClient(srv.base, firstRunKey(t, srv))
	mustCreateAccount(t, c, "A-1")
	content := testPNG(t, 600, 300)
	if status, b, err := c.upload(t.Context(), "A-1", "chart.png", content); err != nil || status != 201 {
		t.Fatalf("upload: got %d %s (%v), want 201", status, b, err)
	}
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(content)
	return dir, hex.EncodeToString(sum[:])
}

// testPNG is a w x h PNG of a gradient.
func testPNG(t *testing.T, w, h int) []byte {
	t.Helper()
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), 90, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// makeThumbnail makes the thumbnail of hash at width, as the download
// route does, and returns where it is kept.
func makeThumbnail(t *testing.T, dir, hash string, width int) string {
	t.Helper()
	store, err := files.Open(filepath.Join(dir, "files"))
	if err != nil {
		t.Fatal(err)
	}
	f, _, ok, err := store.Thumbnail(hash, "image/png", width)
	if err != nil || !ok {
		t.Fatalf("Thumbnail(%d): got ok %v, %v; want a thumbnail", width, ok, err)
	}
	f.Close()
	return filepath.Join(dir, "files", "thumbs", strconv.Itoa(width), hash+".png")
}

// TestCheckThumbnails: thumbnails are derived data, never a finding nor an
// unused file; --repair removes those whose file is gone (and anything
// else under thumbs/), keeps those of stored files, and removing an unused
// file takes its thumbnails with it.
func TestCheckThumbnails(t *testing.T) {
	dir, hash := newImageDoc(t)
	live := []string{makeThumbnail(t, dir, hash, 160), makeThumbnail(t, dir, hash, 320)}
	gone := strings.Repeat("ab", 32)
	stale := filepath.Join(dir, "files", "thumbs", "640", gone+".jpg")
	junk := filepath.Join(dir, "files", "thumbs", "notes.txt")
	writeFile(t, stale, []byte("a thumbnail of a file deleted since"), time.Hour)
	writeFile(t, junk, []byte("junk"), time.Hour)

	out, err := run(t, "check", "--data", dir)
	if err != nil || strings.Contains(out, "thumbs") {
		t.Errorf("check with thumbnails, stale ones too: %v, want exit 0 naming none\n%s", err, out)
	}

	// An unused file, old enough to count, with a thumbnail of its own.
	content := testPNG(t, 500, 100)
	orphan := orphanBlob(dir, content)
	writeFile(t, orphan, content, time.Hour)
	sum := sha256.Sum256(content)
	orphanThumb := makeThumbnail(t, dir, hex.EncodeToString(sum[:]), 160)
	out, err = run(t, "check", "--data", dir)
	wantFindings(t, "an unused file with a thumbnail", out, err, orphan)
	if strings.Contains(out, "thumbs") {
		t.Errorf("check names a thumbnail as a finding:\n%s", out)
	}

	out, err = run(t, "check", "--repair", "--data", dir)
	if err != nil {
		t.Errorf("check --repair: %v, want exit 0\n%s", err, out)
	}
	for _, p := range []string{stale, junk} {
		if !strings.Contains(out, "removed "+p) {
			t.Errorf("check --repair's output lacks the removal of %s:\n%s", p, out)
		}
	}
	for _, p := range []string{stale, junk, orphan, orphanThumb} {
		if exists(p) {
			t.Errorf("after --repair, %s is still there", p)
		}
	}
	for _, p := range live {
		if !exists(p) {
			t.Errorf("after --repair, the thumbnail %s of a document's file is gone", p)
		}
	}
	if out, err := run(t, "check", "--data", dir); err != nil {
		t.Errorf("check after --repair: %v, want exit 0\n%s", err, out)
	}
}
