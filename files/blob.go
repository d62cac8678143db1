package files

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/gabriel-vasile/mimetype"
)

// sniffLen is how much of a file the type is sniffed from: all that
// mimetype reads.
const sniffLen = 4096

// Errors of Receive, besides *TypeError and those of reading and writing.
var (
	ErrTooLarge = errors.New("files: the file exceeds the size limit")
	ErrEmpty    = errors.New("files: the file is empty")
)

// TypeError says a file's content is of a type the caller does not allow.
type TypeError struct {
	Detected string // the type sniffed from the content
}

func (e *TypeError) Error() string { return "files: content of type " + e.Detected + " is not allowed" }

// Temp is a received file in the store's tmp folder, not yet a blob: Place
// makes it one, Discard removes it.
type Temp struct {
	Hash string // hex SHA-256 of the content
	Size int64
	MIME string // the allowed type the content was sniffed as

	path   string
	store  *Store
	placed bool
}

// Receive streams r into a temp file while hashing it, and syncs it. Its
// type is sniffed from the content alone (never a client's word for it)
// before anything is written: content that is neither one of allowed nor a
// subtype of one (an APNG is a PNG) is a *TypeError, more than limit bytes
// ErrTooLarge, none ErrEmpty; any error leaves no temp file. Memory use does
// not grow with the file.
func (s *Store) Receive(r io.Reader, limit int64, allowed []string) (*Temp, error) {
	lr := &io.LimitedReader{R: r, N: limit + 1}
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(lr, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	head = head[:n]
	if n == 0 {
		return nil, ErrEmpty
	}
	mime, ok := allowedType(mimetype.Detect(head), allowed)
	if !ok {
		return nil, &TypeError{Detected: mime}
	}

	f, err := os.CreateTemp(s.tmpDir(), "upload-*")
	if err != nil {
		return nil, err
	}
	t := &Temp{MIME: mime, path: f.Name(), store: s}
	h := sha256.New()
	w := io.MultiWriter(f, h)
	if _, err = w.Write(head); err == nil {
		_, err = io.Copy(w, lr)
	}
	size := limit + 1 - lr.N // bytes read, head included
	switch {
	case err != nil:
	case size > limit:
		err = ErrTooLarge
	default:
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(t.path)
		return nil, err
	}
	t.Hash = hex.EncodeToString(h.Sum(nil))
	t.Size = size
	return t, nil
}

// allowedType finds the first type of m's family (m, its parent, …) that is
// allowed; when none is, it returns m's own type.
func allowedType(m *mimetype.MIME, allowed []string) (string, bool) {
	for p := m; p != nil; p = p.Parent() {
		if slices.Contains(allowed, p.String()) {
			return p.String(), true
		}
	}
	return m.String(), false
}

// Place moves the temp file into the store as the blob of its hash and
// syncs the folders it changed, so the blob survives a crash once Place
// returns. Identical content is the same blob: placing it again replaces
// the file with the same bytes. Call it inside Exclusive, before the
// commit of the row that uses the blob.
func (t *Temp) Place() error {
	top := filepath.Join(t.store.dir, "sha256")
	dir := filepath.Join(top, t.Hash[:2])
	switch err := os.Mkdir(dir, 0o700); {
	case err == nil:
		if err := syncDir(top); err != nil {
			return err
		}
	case !errors.Is(err, fs.ErrExist):
		return err
	}
	if err := os.Rename(t.path, filepath.Join(dir, t.Hash)); err != nil {
		return err
	}
	t.placed = true
	return syncDir(dir)
}

// Placed reports whether Place has made the temp file a blob.
func (t *Temp) Placed() bool { return t.placed }

// Discard removes the temp file unless Place has made it a blob; it is
// safe to defer right after Receive.
func (t *Temp) Discard() error {
	if t.placed {
		return nil
	}
	err := os.Remove(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// Open opens the blob of hash for reading.
func (s *Store) Open(hash string) (*os.File, error) {
	p, err := s.blobPath(hash)
	if err != nil {
		return nil, err
	}
	return os.Open(p)
}

// Remove removes the blob of hash; a blob already gone is not an error.
// Call it inside Exclusive, after the commit that left no row using it.
func (s *Store) Remove(hash string) error {
	p, err := s.blobPath(hash)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	// A thumbnail shows what the blob showed: it goes with it, not at the
	// next check --repair.
	return s.RemoveThumbnails(hash)
}

// blobPath is where the blob of hash lives. A hash that is not 64 lower-case
// hex digits is refused, so no value can point outside the store.
func (s *Store) blobPath(hash string) (string, error) {
	if len(hash) != sha256.Size*2 {
		return "", fmt.Errorf("files: malformed hash %q", hash)
	}
	for _, c := range hash {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return "", fmt.Errorf("files: malformed hash %q", hash)
		}
	}
	return filepath.Join(s.dir, "sha256", hash[:2], hash), nil
}

// syncDir makes the entries of dir (a rename, a new folder) durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
