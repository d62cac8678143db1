package upload

import (
	"bytes"
	"mime/multipart"
	"slices"
	"strings"
	"testing"

	"tradejournal/db"
)

// formOf is a multipart form of one file part, and its reader.
func formOf(t *testing.T, file []byte) *multipart.Reader {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile("file", "big.csv")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(file)
	mw.Close()
	return multipart.NewReader(&body, mw.Boundary())
}

// TestImportFormKeepsUnreadWhole: the import page keeps a file whose header
// nothing reads whole, small (read to its end at once) or of many chunks,
// though reading a file lets each chunk but the first go.
func TestImportFormKeepsUnreadWhole(t *testing.T) {
	for _, size := range []int{100, 3*spoolChunk + 1000} {
		var b strings.Builder
		b.WriteString("Deal,Time,Kind,Volume,Price\n")
		for b.Len() < size {
			b.WriteString("1001,1733055065,buy,1.00,21000.25\n")
		}
		file := []byte(b.String())
		p := &db.Principal{UserID: "u1", Timezone: "UTC"}
		_, unread, err := ImportFormKeeping(formOf(t, file), p, nil)
		if err == nil || unread == nil || !bytes.Equal(unread.Content, file) || unread.FileName != "big.csv" {
			t.Fatalf("%d bytes: err %v, kept %v", len(file), err, unread)
		}
	}
}

// TestSpoolLetsGo: a spool lets each chunk but the first go once read, and
// is whole until it has let one go.
func TestSpoolLetsGo(t *testing.T) {
	file := bytes.Repeat([]byte("x\n"), 2*spoolChunk)
	s, err := receive(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.chunks) < 4 || s.lines != 2*spoolChunk {
		t.Fatalf("%d chunks, %d lines; want 4 of 1 MiB and %d lines", len(s.chunks), s.lines, 2*spoolChunk)
	}
	buf := make([]byte, 100)
	if n, _ := s.Read(buf); n != 100 || !bytes.Equal(s.whole(), file) {
		t.Fatalf("after %d bytes: whole %d bytes, want the file's %d", n, len(s.whole()), len(file))
	}
	rest := make([]byte, len(file))
	for {
		if _, err := s.Read(rest); err != nil {
			break
		}
	}
	if s.whole() != nil || slices.ContainsFunc(s.chunks[1:], func(c []byte) bool { return c != nil }) {
		t.Errorf("read through: whole %d bytes, a chunk held; want nil, every chunk but the first let go", len(s.whole()))
	}
}
