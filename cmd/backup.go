package cmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"tradejournal/db"
	"tradejournal/files"
)

func newBackupCmd(cfg *globalConfig) *cobra.Command {
	return &cobra.Command{
		Use:   "backup DEST",
		Short: "Write a complete, consistent copy of the data directory to DEST (the server may run)",
		Long: `backup writes a complete data directory to DEST: a consistent copy of the database
(VACUUM INTO), every file a document uses (hard-linked where the file system allows), and the
secret that signs document links; not the thumbnails, derived data made again on request. It is
built under a temporary name beside DEST and renamed when whole, so DEST, once it exists, is
always complete. DEST must not exist or be an empty directory (a mount point, say: then the
copy is built inside it and journal.db moved in last).
Serve the copy with: tradejournal serve --data DEST`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dest := filepath.Clean(args[0])
			if err := usableDest(dest); err != nil {
				return err
			}
			d, err := openExistingDataDir(cmd.Context(), cfg.dataDir)
			if err != nil {
				return err
			}
			defer d.Close()
			// A document deleted between the copy of the database and the copy
			// of its file makes the copy lack that file: start again.
			var missing []string
			for attempt := 1; ; attempt++ {
				missing, err = backup(cmd.Context(), d, dest)
				if !errors.Is(err, errBlobGone) || attempt == 3 {
					break
				}
			}
			if db.IsStorageFull(err) {
				return fmt.Errorf("the disk that holds %s is full: no backup was kept; free some space there, or back up to another disk (%w)", dest, err)
			}
			if err != nil {
				return err
			}
			if len(missing) > 0 {
				// The journal had lost them before: the backup is as whole as
				// the journal, and says what it lacks.
				for _, hash := range missing {
					fmt.Fprintf(out(cmd), "missing in the journal, so in the backup too: file %s\n", hash)
				}
				return fmt.Errorf("backup written to %s, but %d file(s) documents use were already missing (see check)", dest, len(missing))
			}
			fmt.Fprintln(out(cmd), "backup written to", dest)
			return nil
		},
	}
}

var errBlobGone = errors.New("a file was removed while it was being copied")

// usableDest refuses a DEST that exists and is not an empty directory.
func usableDest(dest string) error {
	entries, err := os.ReadDir(dest)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("backup destination %s: %w", dest, err)
	case len(entries) > 0:
		return fmt.Errorf("backup destination %s exists and is not empty", dest)
	}
	return nil
}

// backup writes the copy and returns the files that documents of the copy
// use but that were already missing from the journal.
func backup(ctx context.Context, d *dataDir, dest string) (missing []string, err error) {
	// The copy is built beside DEST and renamed into place. A DEST that
	// exists (empty) may be a mount point, which cannot be renamed over:
	// then the copy is built inside it, and journal.db moved in last.
	parent, into := filepath.Dir(dest), false
	if info, err := os.Stat(dest); err == nil && info.IsDir() {
		parent, into = dest, true
	}
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dest)+".partial-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp) // a no-op once renamed

	if err := files.WriteSecret(filepath.Join(tmp, "secret"), d.secret); err != nil {
		return nil, err
	}
	dbPath := filepath.Join(tmp, "journal.db")
	if err := d.db.VacuumInto(ctx, dbPath); err != nil {
		return nil, fmt.Errorf("copy the database: %w", err)
	}
	if err := db.MakePrivate(dbPath); err != nil {
		return nil, err
	}
	if err := files.Sync(dbPath); err != nil {
		return nil, err
	}
	copied, err := db.Open(ctx, dbPath)
	if err != nil {
		return nil, err
	}
	refs, err := copied.BlobRefs(ctx)
	copied.Close()
	if err != nil {
		return nil, err
	}
	store, err := files.Open(filepath.Join(tmp, "files"))
	if err != nil {
		return nil, err
	}
	for hash := range refs {
		err := d.files.CopyInto(store, hash)
		if errors.Is(err, fs.ErrNotExist) {
			// Deleted since the snapshot (start again), or lost before it.
			if n, err := d.db.BlobUses(ctx, hash); err != nil || n == 0 {
				return nil, errBlobGone
			}
			missing = append(missing, hash)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("copy file %s: %w", hash, err)
		}
	}
	slices.Sort(missing)
	for _, dir := range []string{filepath.Join(tmp, "files", "sha256"), filepath.Join(tmp, "files"), tmp} {
		if err := files.Sync(dir); err != nil {
			return nil, err
		}
	}
	if into {
		for _, name := range []string{"secret", "files", "journal.db"} {
			if err := os.Rename(filepath.Join(tmp, name), filepath.Join(dest, name)); err != nil {
				return nil, err
			}
		}
		return missing, files.Sync(dest)
	}
	if err := usableDest(dest); err != nil { // it may have appeared meanwhile
		return nil, err
	}
	if err := os.Rename(tmp, dest); err != nil {
		return nil, err
	}
	return missing, files.Sync(parent)
}
