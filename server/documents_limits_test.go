package server_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"runtime"
	"testing"
)

const maxUpload = 26_214_400 // 25 MiB

// padByte is an endless source of one byte, allocating nothing.
type padByte byte

func (b padByte) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// bigPDF streams a valid PDF of exactly size bytes: the sample PDF with a
// comment line before startxref (which moves no offset) padding it out.
func bigPDF(t *testing.T, size int) io.Reader {
	t.Helper()
	pdf := testdata(t, "payout.pdf")
	i := bytes.LastIndex(pdf, []byte("startxref"))
	head, tail := append(pdf[:i:i], '%'), append([]byte("\n"), pdf[i:]...)
	pad := size - len(head) - len(tail)
	return io.MultiReader(bytes.NewReader(head), io.LimitReader(padByte(' '), int64(pad)), bytes.NewReader(tail))
}

// TestUploadSizeLimit: 25 MiB is accepted, one byte more refused with
// nothing left behind.
func TestUploadSizeLimit(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	ts.createAccount(t, key, `{"account_number":"A-1"}`)

	over := part{name: "file", fileName: "big.pdf", content: bigPDF(t, maxUpload+1)}
	wantNested(t, ts.upload(t, key, form("A-1", over)), http.StatusBadRequest, "VALIDATION_ERROR", "", "file")
	ts.noTempFiles(t)
	if got := ts.storeFiles(t, "sha256"); len(got) != 0 {
		t.Errorf("blobs after the refused upload: got %v, want none", got)
	}

	h := sha256.New()
	io.Copy(h, bigPDF(t, maxUpload))
	hash := hex.EncodeToString(h.Sum(nil))
	exact := part{name: "file", fileName: "big.pdf", content: bigPDF(t, maxUpload)}
	d := ts.mustUpload(t, key, form("A-1", exact), http.StatusCreated)
	if d.FileSize != maxUpload || d.MIMEType != "application/pdf" {
		t.Errorf("exactly 25 MiB: got %d bytes of %s, want %d of application/pdf", d.FileSize, d.MIMEType, maxUpload)
	}
	if got := ts.storeFiles(t, "sha256"); len(got) != 1 || got[0] != hash[:2]+"/"+hash {
		t.Errorf("blobs: got %v, want [%s/%s]", got, hash[:2], hash)
	}
	ts.noTempFiles(t)
}

// TestUploadMemoryIsFlat: a 25 MiB upload streams to disk; the heap does
// not hold the file, so the bytes allocated while it runs are a small
// fraction of its size.
func TestUploadMemoryIsFlat(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	ts.createAccount(t, key, `{"account_number":"A-1"}`)
	req := uploadRequest(t, key, form("A-1", part{name: "file", fileName: "big.pdf", content: bigPDF(t, maxUpload)}))

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	w := ts.send(t, req)
	runtime.ReadMemStats(&after)

	if w.Code != http.StatusCreated {
		t.Fatalf("upload: got %d %s, want 201", w.Code, w.Body)
	}
	const limit = 2 << 20
	allocated := after.TotalAlloc - before.TotalAlloc
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("a %d-byte upload allocated %d bytes; the heap grew by %d", maxUpload, allocated, grown)
	if allocated > limit || grown > limit {
		t.Errorf("allocated %d bytes, heap grew by %d: want both under %d for a %d-byte file",
			allocated, grown, limit, maxUpload)
	}
}
