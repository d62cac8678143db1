package cmd

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

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
secret that signs document links. It is built under a temporary name beside DEST and renamed
when whole, so DEST, once it exists, is always complete. DEST must not exist or be empty.
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
			for attempt := 1; ; attempt++ {
				err = backup(cmd.Context(), d, dest)
				if !errors.Is(err, errBlobGone) || attempt == 3 {
					break
				}
			}
			if err != nil {
				return err
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

func backup(ctx context.Context, d *dataDir, dest string) error {
	parent := filepath.Dir(dest)
	if err := os.MkdirAll(parent, 0o700); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dest)+".partial-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // a no-op once renamed

	if err := files.WriteSecret(filepath.Join(tmp, "secret"), d.secret); err != nil {
		return err
	}
	dbPath := filepath.Join(tmp, "journal.db")
	if err := d.db.VacuumInto(ctx, dbPath); err != nil {
		return fmt.Errorf("copy the database: %w", err)
	}
	if err := os.Chmod(dbPath, 0o600); err != nil {
		return err
	}
	if err := files.Sync(dbPath); err != nil {
		return err
	}
	copied, err := db.Open(ctx, dbPath)
	if err != nil {
		return err
	}
	refs, err := copied.BlobRefs(ctx)
	copied.Close()
	if err != nil {
		return err
	}
	store, err := files.Open(filepath.Join(tmp, "files"))
	if err != nil {
		return err
	}
	for hash := range refs {
		if err := d.files.CopyInto(store, hash); errors.Is(err, fs.ErrNotExist) {
			return errBlobGone
		} else if err != nil {
			return fmt.Errorf("copy file %s: %w", hash, err)
		}
	}
	for _, dir := range []string{filepath.Join(tmp, "files", "sha256"), filepath.Join(tmp, "files"), tmp} {
		if err := files.Sync(dir); err != nil {
			return err
		}
	}
	if err := usableDest(dest); err != nil { // it may have appeared meanwhile
		return err
	}
	os.Remove(dest) // an empty directory is replaced
	if err := os.Rename(tmp, dest); err != nil {
		return err
	}
	return files.Sync(parent)
}
