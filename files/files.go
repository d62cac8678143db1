// Package files is the journal's content-addressed blob store and the
// signing of download URLs.
package files

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Store keeps blobs at <dir>/sha256/<first two hex>/<hex sha256>, and the
// temp files of uploads in flight at <dir>/tmp.
type Store struct {
	dir string
	// mu orders the placing and removing of blobs with the commits of the
	// rows that use them; see Exclusive.
	mu sync.Mutex
}

// Open opens the store at dir, creating its folders.
func Open(dir string) (*Store, error) {
	for _, d := range []string{filepath.Join(dir, "sha256"), filepath.Join(dir, "tmp")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	return &Store{dir: dir}, nil
}

// Exclusive runs fn while no other Exclusive call runs. A change that
// places a blob and commits its row, or commits the removal of a row and
// then removes the blob no row uses any more, runs in one call: otherwise
// an upload of the same bytes could commit a row for the blob between the
// other's commit and its removal, leaving a row without its file.
func (s *Store) Exclusive(fn func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fn()
}

// RemoveTemp removes every temp file, leftovers of uploads that a crash or
// a stop cut off, and reports how many there were. Call it only while no
// upload is in flight (at start-up).
func (s *Store) RemoveTemp() (int, error) {
	entries, err := os.ReadDir(s.tmpDir())
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(s.tmpDir(), e.Name())); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func (s *Store) tmpDir() string { return filepath.Join(s.dir, "tmp") }

// SecretSize is the length of the URL-signing key.
const SecretSize = 32

// LoadSecret reads the URL-signing key at path, creating it (32 random
// bytes, mode 0600) on first start. The new key is written to a temp file
// and linked into place, so a concurrent reader never sees a partial key.
func LoadSecret(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if err := createSecret(path); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		b, err = os.ReadFile(path)
	}
	if err != nil {
		return nil, err
	}
	if len(b) != SecretSize {
		return nil, fmt.Errorf("%s: want %d bytes, found %d", path, SecretSize, len(b))
	}
	return b, nil
}

func createSecret(path string) error {
	b := make([]byte, SecretSize)
	rand.Read(b)
	return WriteSecret(path, b)
}

// WriteSecret writes a signing key to path durably, mode 0600: to a temp
// file, synced, then linked into place (failing with fs.ErrExist when path
// exists) and the directory synced, since links handed out depend on it.
func WriteSecret(path string, b []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".secret-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Link(f.Name(), path); errors.Is(err, fs.ErrExist) {
		return err // another process won
	} else if err != nil {
		// A file system without hard links (exFAT, some shares): rename,
		// unless the key appeared meanwhile.
		if _, serr := os.Stat(path); serr == nil {
			return fs.ErrExist
		}
		if err := os.Rename(f.Name(), path); err != nil {
			return err
		}
	}
	return syncDir(filepath.Dir(path))
}

// Sync flushes a file or a directory (its entries) to stable storage.
func Sync(path string) error { return syncDir(path) }
