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
	"time"
)

// Entry is a file of the store: a blob, named by its hash, a temp file, or
// a thumbnail.
type Entry struct {
	Name    string // the hash of a blob; the base name of a temp file; the hash of a thumbnail's blob
	Path    string
	Size    int64
	ModTime time.Time
}

// Blobs lists every file under sha256/. A file whose name is not a
// well-formed hash, or that sits in the wrong folder, is listed too, so a
// check reports it rather than overlooking it.
func (s *Store) Blobs() ([]Entry, error) {
	var out []Entry
	root := filepath.Join(s.dir, "sha256")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed since the folder was read
		}
		if err != nil {
			return err
		}
		out = append(out, Entry{Name: d.Name(), Path: path, Size: info.Size(), ModTime: info.ModTime()})
		return nil
	})
	return out, err
}

// Temps lists the temp files of uploads, in flight or left by a crash.
func (s *Store) Temps() ([]Entry, error) {
	entries, err := os.ReadDir(s.tmpDir())
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			continue // gone meanwhile
		}
		out = append(out, Entry{Name: e.Name(), Path: filepath.Join(s.tmpDir(), e.Name()), Size: info.Size(), ModTime: info.ModTime()})
	}
	return out, nil
}

// Verify reports whether the blob at e holds the content its name says:
// its SHA-256 and its folder.
func (s *Store) Verify(e Entry) (bool, error) {
	want, err := s.blobPath(e.Name)
	if err != nil || want != e.Path {
		return false, nil
	}
	f, err := os.Open(e.Path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false, err
	}
	return hex.EncodeToString(h.Sum(nil)) == e.Name, nil
}

// Has reports whether the blob hash is stored.
func (s *Store) Has(hash string) (bool, error) {
	p, err := s.blobPath(hash)
	if err != nil {
		return false, err
	}
	_, err = os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// RemovePath removes a file of the store that Blobs, Temps or Thumbnails
// listed; removing a blob removes its thumbnails too.
func (s *Store) RemovePath(e Entry) error {
	if err := os.Remove(e.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if p, err := s.blobPath(e.Name); err == nil && p == e.Path {
		return s.RemoveThumbnails(e.Name)
	}
	return nil
}

// CopyInto puts the blob hash into the store dst, by a hard link where the
// file system allows (a backup then costs no space), else by a copy that
// is synced before it is renamed into place.
func (s *Store) CopyInto(dst *Store, hash string) error {
	from, err := s.blobPath(hash)
	if err != nil {
		return err
	}
	to, _ := dst.blobPath(hash)
	if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
		return err
	}
	if err := os.Link(from, to); err == nil || errors.Is(err, fs.ErrExist) {
		return syncDir(filepath.Dir(to))
	}
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	return WriteSynced(dst.tmpDir(), "copy-*", to, in)
}

// WriteSynced writes r to path durably: to a temp file named by pattern
// in tmpDir (on path's file system), synced, renamed into place, and
// path's folder synced. A failure leaves no temp file.
func WriteSynced(tmpDir, pattern, path string, r io.Reader) error {
	tmp, err := os.CreateTemp(tmpDir, pattern)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, there is nothing by that name
	if _, err := io.Copy(tmp, r); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// Stat reads a listed file's entry again, to see whether it changed since.
func (s *Store) Stat(e Entry) (Entry, error) {
	info, err := os.Stat(e.Path)
	if err != nil {
		return Entry{}, err
	}
	e.Size, e.ModTime = info.Size(), info.ModTime()
	return e, nil
}

// Put stores the content of r as the blob of hash, refusing content whose
// hash differs (a copy damaged on its way): for a restore, which fills a
// store from elsewhere.
func (s *Store) Put(hash string, r io.Reader) error {
	if _, err := s.blobPath(hash); err != nil {
		return err
	}
	t, err := s.Receive(r, 1<<40, []string{"application/octet-stream"})
	if err != nil {
		return err
	}
	defer t.Discard()
	if t.Hash != hash {
		return fmt.Errorf("files: content of %s hashes to %s", hash, t.Hash)
	}
	return t.Place()
}
