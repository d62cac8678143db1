package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"tradejournal/db"
	"tradejournal/files"
)

// inFlightAge is how old a temp file or an unused blob must be before a
// check counts it while a server runs: younger ones may belong to an
// upload in flight.
const inFlightAge = 10 * time.Minute

func newCheckCmd(cfg *globalConfig) *cobra.Command {
	var repair bool
	c := &cobra.Command{
		Use:   "check",
		Short: "Check the database, every stored file's hash, and files no row uses",
		Long: `check runs SQLite's integrity and foreign key checks, verifies every stored file against its
SHA-256 name, and finds rows whose file is missing, files no row uses and leftover temp files.
It exits non-zero on any finding. --repair removes unused files and temp files, never rows.
While a server runs on the directory, files younger than 10 minutes are left alone.
Thumbnails (files/thumbs/) are derived data, made again on request, so never a finding;
--repair removes those of files no longer stored.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := openExistingDataDir(cmd.Context(), cfg.dataDir)
			if err != nil {
				return err
			}
			defer d.Close()
			minAge := time.Duration(0)
			if serverRunning(cfg.dataDir) {
				minAge = inFlightAge
			}
			left, err := check(cmd.Context(), d, repair, minAge, time.Now(), out(cmd))
			if err != nil {
				return err
			}
			if left > 0 {
				return fmt.Errorf("%d problem(s) found", left)
			}
			fmt.Fprintln(out(cmd), "ok: database and files are sound")
			return nil
		},
	}
	c.Flags().BoolVar(&repair, "repair", false, "remove files no row uses and leftover temp files (never rows)")
	return c
}

// serverRunning reports whether a serve holds the data directory.
func serverRunning(dir string) bool {
	unlock, err := db.TryLock(filepath.Join(dir, "serve.lock"))
	if err != nil {
		return errors.Is(err, db.ErrLocked)
	}
	unlock()
	return false
}

// check reports every problem of the data directory to w and returns how
// many are left: with repair, unused blobs and temp files older than
// minAge are removed and not counted.
func check(ctx context.Context, d *dataDir, repair bool, minAge time.Duration, now time.Time, w io.Writer) (int, error) {
	problems, err := d.db.IntegrityCheck(ctx)
	if err != nil {
		return 0, err
	}
	for _, p := range problems {
		fmt.Fprintln(w, "database:", p)
	}
	left := len(problems)

	blobs, refs, err := blobsAndRefs(ctx, d)
	if err != nil {
		return 0, err
	}
	present := make(map[string]bool, len(blobs))
	for _, b := range blobs {
		if refs[b.Name] == 0 {
			if now.Sub(b.ModTime) >= minAge && stillUnused(ctx, d, b) {
				left += report(w, d.files, b, repair, "no document uses it")
			}
			continue
		}
		ok, err := d.files.Verify(b)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since the listing: the rows are looked at below
		}
		if err != nil {
			return 0, err
		}
		if !ok {
			fmt.Fprintf(w, "file %s: its content does not match its name: %d document(s) use a corrupt file\n", b.Path, refs[b.Name])
			left++
			continue
		}
		present[b.Name] = true
	}
	var missing []string
	for hash := range refs {
		if !present[hash] {
			// An upload may have placed it after the listing: look again.
			if ok, err := d.files.Has(hash); err != nil || ok {
				continue
			}
			missing = append(missing, hash)
		}
	}
	if len(missing) > 0 {
		// The documents may have been deleted, or given other files, since
		// the rows were read: a file is missing only if a row still uses it.
		if refs, err = d.db.BlobRefs(ctx); err != nil {
			return 0, err
		}
		slices.Sort(missing)
		for _, hash := range missing {
			if n := refs[hash]; n > 0 {
				fmt.Fprintf(w, "file %s is missing: %d document(s) use it\n", hash, n)
				left++
			}
		}
	}
	temps, err := d.files.Temps()
	if err != nil {
		return 0, err
	}
	for _, t := range temps {
		if now.Sub(t.ModTime) >= minAge {
			left += report(w, d.files, t, repair, "a temp file left by an interrupted upload")
		}
	}
	if repair {
		if err := removeStaleThumbnails(d.files, w); err != nil {
			return 0, err
		}
	}
	return left, nil
}

// removeStaleThumbnails removes the thumbnails whose blob is no longer
// stored, and any other file under thumbs/. Thumbnails are derived data,
// made again on request: never a finding, so only --repair looks at them,
// and a failure to remove one is said but not counted. Those of a blob
// still stored are kept, whatever uses it: the blob's own removal (above,
// or by a delete) takes its thumbnails with it.
func removeStaleThumbnails(store *files.Store, w io.Writer) error {
	thumbs, err := store.Thumbnails()
	if err != nil {
		return err
	}
	for _, t := range thumbs {
		if t.Name != "" {
			if ok, err := store.Has(t.Name); err != nil || ok {
				continue
			}
		}
		if err := store.RemovePath(t); err != nil {
			fmt.Fprintf(w, "thumbnail %s: its file is gone; removing it failed: %v\n", t.Path, err)
			continue
		}
		fmt.Fprintf(w, "removed %s: a thumbnail of a file no longer stored\n", t.Path)
	}
	return nil
}

// report writes a repairable finding and repairs it when asked; it returns
// 1 while the finding stands.
func report(w io.Writer, store *files.Store, e files.Entry, repair bool, what string) int {
	if !repair {
		fmt.Fprintf(w, "file %s: %s\n", e.Path, what)
		return 1
	}
	if err := store.RemovePath(e); err != nil {
		fmt.Fprintf(w, "file %s: %s; removing it failed: %v\n", e.Path, what, err)
		return 1
	}
	fmt.Fprintf(w, "removed %s: %s\n", e.Path, what)
	return 0
}

// stillUnused looks again, just before a blob is reported or removed, that
// no upload has since placed it (its file changed) or committed a row that
// uses it: a server may have started while the check ran.
func stillUnused(ctx context.Context, d *dataDir, b files.Entry) bool {
	now, err := d.files.Stat(b)
	if err != nil || !now.ModTime.Equal(b.ModTime) {
		return false
	}
	n, err := d.db.BlobUses(ctx, b.Name)
	return err == nil && n == 0
}

// removeUnusedBlobs removes the blobs no document uses: only a crash
// between placing a blob and committing its row, or a failed removal after
// a delete, leaves one. Call it while no upload can be in flight.
func removeUnusedBlobs(ctx context.Context, d *dataDir) (int, error) {
	blobs, refs, err := blobsAndRefs(ctx, d)
	if err != nil {
		return 0, err
	}
	if len(refs) == 0 && len(blobs) > 0 {
		// Files but not one document: a journal.db lost or replaced, not
		// a crash's leftover. Keep them for the user to look into.
		return 0, errNoDocuments
	}
	n := 0
	for _, b := range blobs {
		if refs[b.Name] == 0 {
			if err := d.files.RemovePath(b); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// errNoDocuments says the start-up sweep kept files that no document uses
// because there are no documents at all.
var errNoDocuments = errors.New("files/ holds files but the journal has no documents: " +
	"they are kept; if journal.db was replaced by mistake, restore it, else remove them with check --repair")

// blobsAndRefs lists the stored blobs, then counts the documents using
// each. In that order: a blob an upload places in between is young, and a
// young unused blob is left alone.
func blobsAndRefs(ctx context.Context, d *dataDir) ([]files.Entry, map[string]int, error) {
	blobs, err := d.files.Blobs()
	if err != nil {
		return nil, nil, err
	}
	refs, err := d.db.BlobRefs(ctx)
	return blobs, refs, err
}
