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
)

// Store keeps blobs at <dir>/sha256/<first two hex>/<hex sha256>, and the
// temp files of uploads in flight at <dir>/tmp.
type Store struct {
	dir string
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
	return os.Link(f.Name(), path) // fails with ErrExist if another process won
}
