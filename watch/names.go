package watch

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tradejournal/db"
)

// importPrefix names an imported file by its import's time in the import's
// zone (the user's): 20251112-153000-. A time that does not read is now's,
// a zone that does not load UTC.
func importPrefix(imp db.Import, now time.Time) string {
	at, err := time.Parse(db.TimeFormat, imp.CreatedAt)
	if err != nil {
		at = now
	}
	loc, err := time.LoadLocation(imp.Timezone)
	if err != nil {
		loc = time.UTC
	}
	return at.In(loc).Format("20060102-150405-")
}

// move renames the folder's file name into sub as want, or, when that name
// (or its .error.json) is taken, as want-2, want-3...: nothing there is
// ever overwritten. It returns the new path.
func (w *Watcher) move(name, sub, want string) (string, error) {
	dir := filepath.Join(w.cfg.Dir, sub)
	ext := filepath.Ext(want)
	stem := strings.TrimSuffix(want, ext)
	for n := 1; ; n++ {
		to := filepath.Join(dir, want)
		if n > 1 {
			to = filepath.Join(dir, stem+"-"+strconv.Itoa(n)+ext)
		}
		free, err := freeName(to)
		if err == nil && free {
			free, err = freeName(to + ".error.json")
		}
		if err != nil {
			return "", err
		}
		if free {
			return to, os.Rename(filepath.Join(w.cfg.Dir, name), to)
		}
	}
}

// freeName reports whether nothing is at path.
func freeName(path string) (bool, error) {
	_, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	return false, err
}

// writeNew writes a file that must not exist yet.
func writeNew(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
