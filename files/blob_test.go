package files

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var allowed = []string{"image/png", "application/pdf"}

// testPNG is the smallest prefix mimetype takes for a PNG.
var testPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")

func openStore(t *testing.T) (*Store, string) {
	t.Helper()
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s, dir
}

// entries lists the files under dir/sub, recursively, relative to it.
func entries(t *testing.T, dir, sub string) []string {
	t.Helper()
	var out []string
	root := filepath.Join(dir, sub)
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestReceivePlaceOpen(t *testing.T) {
	s, dir := openStore(t)
	content := append(append([]byte{}, testPNG...), bytes.Repeat([]byte("x"), 10000)...)
	sum := sha256.Sum256(content)
	want := hex.EncodeToString(sum[:])

	for i := range 2 { // the second time is the same blob
		tmp, err := s.Receive(bytes.NewReader(content), int64(len(content)), allowed)
		if err != nil {
			t.Fatalf("Receive: %v", err)
		}
		if tmp.Hash != want || tmp.Size != int64(len(content)) || tmp.MIME != "image/png" {
			t.Errorf("Receive: got %s %d %s, want %s %d image/png", tmp.Hash, tmp.Size, tmp.MIME, want, len(content))
		}
		if err := s.Exclusive(tmp.Place); err != nil {
			t.Fatalf("Place #%d: %v", i, err)
		}
		if err := tmp.Discard(); err != nil {
			t.Errorf("Discard after Place: %v", err)
		}
	}
	if got := entries(t, dir, "sha256"); len(got) != 1 || got[0] != filepath.Join(want[:2], want) {
		t.Errorf("blobs: got %v, want [%s/%s]", got, want[:2], want)
	}
	if got := entries(t, dir, "tmp"); len(got) != 0 {
		t.Errorf("temp files: got %v, want none", got)
	}
	f, err := s.Open(want)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	if !bytes.Equal(b, content) {
		t.Errorf("blob: got %d bytes, want the %d received", len(b), len(content))
	}
	if err := s.Remove(want); err != nil {
		t.Errorf("Remove: %v", err)
	}
	if err := s.Remove(want); err != nil {
		t.Errorf("Remove again: got %v, want nil", err)
	}
	if _, err := s.Open(want); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open after Remove: got %v, want ErrNotExist", err)
	}
}

func TestReceiveRefuses(t *testing.T) {
	const limit = 5000
	pdf := func(n int) io.Reader {
		return io.MultiReader(strings.NewReader("%PDF-1.4\n"), bytes.NewReader(bytes.Repeat([]byte(" "), n-9)))
	}
	tests := []struct {
		name     string
		in       io.Reader
		wantErr  error
		wantType string // of a *TypeError
		wantSize int64
	}{
		{"exactly the limit", pdf(limit), nil, "", limit},
		{"one byte over", pdf(limit + 1), ErrTooLarge, "", 0},
		{"far over", pdf(10 * limit), ErrTooLarge, "", 0},
		{"empty", strings.NewReader(""), ErrEmpty, "", 0},
		{"text", strings.NewReader("just words"), nil, "text/plain; charset=utf-8", 0},
		{"executable", strings.NewReader("MZ\x90\x00" + strings.Repeat("\x00", 100)), nil, "application/vnd.microsoft.portable-executable", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, dir := openStore(t)
			tmp, err := s.Receive(tt.in, limit, allowed)
			var te *TypeError
			switch {
			case tt.wantType != "":
				if !errors.As(err, &te) || te.Detected != tt.wantType {
					t.Errorf("Receive: got %v, want a TypeError for %s", err, tt.wantType)
				}
			case err != tt.wantErr:
				t.Errorf("Receive: got %v, want %v", err, tt.wantErr)
			case err == nil && tmp.Size != tt.wantSize:
				t.Errorf("Size: got %d, want %d", tmp.Size, tt.wantSize)
			}
			if err == nil {
				tmp.Discard()
			}
			if got := entries(t, dir, "tmp"); len(got) != 0 {
				t.Errorf("temp files: got %v, want none", got)
			}
		})
	}
}

func TestRemoveTemp(t *testing.T) {
	s, dir := openStore(t)
	for _, name := range []string{"upload-1", "upload-2"} {
		if err := os.WriteFile(filepath.Join(dir, "tmp", name), []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	n, err := s.RemoveTemp()
	if err != nil || n != 2 {
		t.Errorf("RemoveTemp: got %d, %v, want 2, nil", n, err)
	}
	if got := entries(t, dir, "tmp"); len(got) != 0 {
		t.Errorf("temp files: got %v, want none", got)
	}
}

func TestBlobPathRefusesMalformedHashes(t *testing.T) {
	s, _ := openStore(t)
	for _, h := range []string{"", "../../secret", strings.Repeat("A", 64), strings.Repeat("a", 63) + "/"} {
		if _, err := s.Open(h); err == nil || errors.Is(err, os.ErrNotExist) {
			t.Errorf("Open(%q): got %v, want a malformed-hash error", h, err)
		}
	}
}

// TestReceiveSniffsTestdata: the repository's sample files are told apart by
// their content alone, whatever their names say.
func TestReceiveSniffsTestdata(t *testing.T) {
	all := []string{"image/jpeg", "image/png", "image/webp", "application/pdf"}
	tests := []struct{ file, want string }{
		{"receipt.jpg", "image/jpeg"},
		{"certificate.png", "image/png"},
		{"pixel.webp", "image/webp"},
		{"payout.pdf", "application/pdf"},
		{"fake.exe", "refused"},
		{"not-an-image.png", "refused"},
	}
	s, _ := openStore(t)
	for _, tt := range tests {
		f, err := os.Open(filepath.Join("..", "testdata", tt.file))
		if err != nil {
			t.Fatal(err)
		}
		tmp, err := s.Receive(f, 1<<20, all)
		f.Close()
		got := "refused"
		if err == nil {
			got = tmp.MIME
			tmp.Discard()
		} else if te := (*TypeError)(nil); !errors.As(err, &te) {
			t.Fatalf("Receive(%s): %v", tt.file, err)
		}
		if got != tt.want {
			t.Errorf("Receive(%s): got %s, want %s", tt.file, got, tt.want)
		}
	}
}

// TestReceiveAPNGIsPNG: an animated PNG is sniffed as its own subtype and
// stored as the PNG it also is.
func TestReceiveAPNGIsPNG(t *testing.T) {
	apng := "\x89PNG\r\n\x1a\n" +
		"\x00\x00\x00\x0dIHDR" + "\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00" + "CRC!" +
		"\x00\x00\x00\x08acTL" + "\x00\x00\x00\x01\x00\x00\x00\x00" + "CRC!"
	s, _ := openStore(t)
	tmp, err := s.Receive(strings.NewReader(apng), 1<<20, allowed)
	if err != nil {
		t.Fatalf("Receive: got %v, want an image/png", err)
	}
	defer tmp.Discard()
	if tmp.MIME != "image/png" {
		t.Errorf("MIME: got %s, want image/png", tmp.MIME)
	}
}
