// Package watch is serve's watched folder (DESIGN §14): a file that appears
// in the folder is imported, once its size has settled, through the API's
// own import as the folder's user, then moved to imported/ or, refused, to
// failed/ beside the API's error body.
package watch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"tradejournal/db"
	"tradejournal/server"
)

// The defaults of Config.
const (
	DefaultSettle   = 2 * time.Second
	DefaultInterval = time.Second
	DefaultRetry    = 30 * time.Second
)

// The folders beside the watched files where they go once handled.
const (
	ImportedDir = "imported"
	FailedDir   = "failed"
)

// Config is a watched folder's settings.
type Config struct {
	Dir            string
	User           string // the name of the user the files are imported as
	CreateAccounts bool   // the imports' create_accounts
	// Settle is how long a file's size and modification time must stay
	// the same before it is read (default DefaultSettle): a file still
	// being written is left alone.
	Settle time.Duration
	// Interval is the time between looks at the folder (default
	// DefaultInterval).
	Interval time.Duration
	// Retry is how long a file waits after a refusal that is not the
	// file's fault (a busy or failing server) that names no Retry-After
	// (default DefaultRetry).
	Retry time.Duration
	// Now is the settle clock; nil is time.Now.
	Now func() time.Time
}

// Watcher imports the files of one folder.
type Watcher struct {
	cfg     Config
	userID  string
	srv     *server.Server
	log     *slog.Logger
	files   map[string]*seen // by name, the files of the folder last looked at
	readErr string           // the folder's last read error, logged once
}

// seen is what the watcher knows of one file of the folder.
type seen struct {
	size    int64
	mod     time.Time
	since   time.Time // when first seen at this size and time
	retryAt time.Time // not read again before
	// answered is the answer to a file that could not be moved after it:
	// the move is tried again, never the import, until the file changes.
	answered *server.FileImport
}

// New checks the folder and the user and makes the folder's imported/ and
// failed/: serve refuses to start on a missing folder or an unknown user.
func New(ctx context.Context, cfg Config, d *db.DB, srv *server.Server, logger *slog.Logger) (*Watcher, error) {
	info, err := os.Stat(cfg.Dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("--watch %s: no such folder; create it first", cfg.Dir)
	case err != nil:
		return nil, fmt.Errorf("--watch %s: %w", cfg.Dir, err)
	case !info.IsDir():
		return nil, fmt.Errorf("--watch %s: not a folder", cfg.Dir)
	}
	u, err := d.UserByName(ctx, cfg.User)
	var nf *db.NotFoundError
	if errors.As(err, &nf) {
		return nil, fmt.Errorf("--watch-user %q: no such user (tradejournal user add %s creates one)", cfg.User, cfg.User)
	}
	if err != nil {
		return nil, err
	}
	for _, sub := range []string{ImportedDir, FailedDir} {
		// The umask decides the mode, as for mkdir: the folder is the
		// trader's, not the journal's.
		if err := os.Mkdir(filepath.Join(cfg.Dir, sub), 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("--watch %s: %w", cfg.Dir, err)
		}
	}
	if cfg.Settle <= 0 {
		cfg.Settle = DefaultSettle
	}
	if cfg.Interval <= 0 {
		cfg.Interval = DefaultInterval
	}
	if cfg.Retry <= 0 {
		cfg.Retry = DefaultRetry
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Watcher{cfg: cfg, userID: u.ID, srv: srv, log: logger, files: map[string]*seen{}}, nil
}

// Run looks at the folder every Interval until ctx ends. An import under
// way then finishes first, as a request in flight does.
func (w *Watcher) Run(ctx context.Context) {
	w.log.Info("watching folder", "dir", w.cfg.Dir, "user", w.cfg.User, "create_accounts", w.cfg.CreateAccounts)
	t := time.NewTicker(w.cfg.Interval)
	defer t.Stop()
	for {
		w.Poll(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Poll looks at the folder once: it notes each file's size and time, and
// imports those that have kept both for Settle, in name order.
func (w *Watcher) Poll(ctx context.Context) {
	entries, err := os.ReadDir(w.cfg.Dir)
	if err != nil {
		if err.Error() != w.readErr {
			w.log.Error("the watched folder cannot be read", "dir", w.cfg.Dir, "err", err)
			w.readErr = err.Error()
		}
		return
	}
	w.readErr = ""
	now := w.cfg.Now()
	present := map[string]bool{}
	for _, e := range entries {
		if !e.Type().IsRegular() || Ignored(e.Name()) || e.Name() == ImportedDir || e.Name() == FailedDir {
			continue // imported and failed, even as files, are the watcher's
		}
		info, err := e.Info()
		if err != nil {
			continue // gone since the listing
		}
		name := e.Name()
		present[name] = true
		f := w.files[name]
		if f == nil || f.size != info.Size() || !f.mod.Equal(info.ModTime()) {
			w.files[name] = &seen{size: info.Size(), mod: info.ModTime(), since: now}
			continue
		}
		if now.Sub(f.since) < w.cfg.Settle || now.Before(f.retryAt) || ctx.Err() != nil {
			continue
		}
		if f.answered != nil {
			w.settle(name, f, now, *f.answered)
			continue
		}
		w.handle(ctx, name, f, now)
	}
	for name := range w.files {
		if !present[name] {
			delete(w.files, name)
		}
	}
}

// Ignored reports whether a file of the folder is left alone whatever its
// age: a hidden file, or one a program is still writing under a temporary
// name (.tmp, a browser's .part or .crdownload).
func Ignored(name string) bool {
	lower := strings.ToLower(name)
	return strings.HasPrefix(name, ".") || strings.HasSuffix(lower, ".tmp") || strings.HasSuffix(lower, ".part") ||
		strings.HasSuffix(lower, ".crdownload")
}

// handle imports one settled file and moves it by the answer.
func (w *Watcher) handle(ctx context.Context, name string, f *seen, now time.Time) {
	path := filepath.Join(w.cfg.Dir, name)
	file, err := os.Open(path)
	if err == nil {
		var info fs.FileInfo
		if info, err = file.Stat(); err == nil {
			// The import is not cut short by a stop: it finishes, as a
			// request in flight does, so the file is handled whole.
			ans := w.srv.ImportFile(context.WithoutCancel(ctx), w.userID, name, file, info.Size(), w.cfg.CreateAccounts)
			file.Close()
			w.settle(name, f, now, ans)
			return
		}
		file.Close()
	}
	f.retryAt = now.Add(w.cfg.Retry)
	w.log.Warn("watched file cannot be read; retrying later", "file", name, "err", err, "retry_in", w.cfg.Retry)
}

// settle moves a file the API answered, and logs the outcome. A file that
// cannot be moved stays, and the move is tried again after Retry.
func (w *Watcher) settle(name string, f *seen, now time.Time, ans server.FileImport) {
	unmoved := func(err error) {
		f.answered, f.retryAt = &ans, now.Add(w.cfg.Retry)
		w.log.Error("watched file not moved; trying again later", "file", name, "status", ans.Status,
			"import_id", deref(ans.Import.ID), "err", err, "retry_in", w.cfg.Retry)
	}
	switch {
	case ans.Status >= 200 && ans.Status < 300:
		imp := ans.Import
		to, err := w.move(name, ImportedDir, importPrefix(imp, now)+name)
		if err != nil {
			unmoved(err)
			return
		}
		w.log.Info("watched file imported", "file", name, "import_id", deref(imp.ID), "format", imp.Format,
			"fills", imp.Fills, "duplicates", imp.Duplicates, "trades_created", imp.TradesCreated,
			"trades_updated", imp.TradesUpdated, "warnings", len(imp.Warnings), "moved_to", to)
	case transient(ans.Status):
		wait := w.cfg.Retry
		if secs, err := strconv.Atoi(ans.RetryAfter); err == nil && secs > 0 {
			wait = time.Duration(secs) * time.Second
		}
		f.retryAt = now.Add(wait)
		code, msg := errorOf(ans.Body)
		w.log.Warn("watched file not imported: the server could not take it now; retrying later", "file", name,
			"status", ans.Status, "code", code, "error", msg, "request_id", ans.RequestID, "retry_in", wait)
	default:
		code, msg := errorOf(ans.Body)
		to, err := w.move(name, FailedDir, name)
		if err != nil {
			unmoved(err)
			return
		}
		if err := writeNew(to+".error.json", ans.Body); err != nil {
			w.log.Error("watched file refused; its error body not written", "file", name, "err", err)
		}
		w.log.Warn("watched file refused", "file", name, "status", ans.Status, "code", code, "error", msg,
			"moved_to", to)
	}
}

// transient reports whether an answer refuses the file for now rather
// than for what it holds: a busy or failing server, which a later try may
// find well.
func transient(status int) bool {
	return status >= 500 || status == http.StatusRequestTimeout || status == http.StatusTooManyRequests
}

// errorOf reads the code and message of an API error body, for the log.
func errorOf(body []byte) (code, message string) {
	var e struct{ Error, Code string }
	json.Unmarshal(body, &e)
	return e.Code, e.Error
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
