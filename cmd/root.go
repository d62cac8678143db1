// Package cmd is tradejournal's command line: it reads flags and the
// environment, opens the data directory and wires the server. Nothing else.
package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"tradejournal/db"
	"tradejournal/files"
)

// Execute runs the command line and returns the process's exit status.
func Execute() int {
	root := newRootCmd()
	if err := root.ExecuteContext(context.Background()); err != nil {
		fmt.Fprintln(root.ErrOrStderr(), "tradejournal:", err)
		return 1
	}
	return 0
}

// globalConfig holds the flags every command takes.
type globalConfig struct {
	dataDir string
}

func newRootCmd() *cobra.Command {
	cfg := &globalConfig{}
	root := &cobra.Command{
		Use:           "tradejournal",
		Short:         "A self-hosted trading journal server",
		Long:          "tradejournal serves a trading journal's HTTP/JSON API from one data directory.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.PersistentFlags().StringVar(&cfg.dataDir, "data", defaultDataDir(),
		"data directory (env TRADEJOURNAL_DATA)")
	root.AddCommand(
		newServeCmd(cfg),
		newUserCmd(cfg),
		newKeyCmd(cfg),
		newLoginLinkCmd(cfg),
		newMigrateCmd(cfg),
		newCheckCmd(cfg),
		newBackupCmd(cfg),
		newImportCmd(cfg),
		newRestoreCmd(),
		newVersionCmd(),
	)
	return root
}

// defaultDataDir is $TRADEJOURNAL_DATA, else $XDG_DATA_HOME/tradejournal,
// else ~/.local/share/tradejournal.
func defaultDataDir() string {
	if d := os.Getenv("TRADEJOURNAL_DATA"); d != "" {
		return d
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "tradejournal")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "share", "tradejournal")
	}
	return "tradejournal-data"
}

// dataDir is an opened data directory: its database, file store and
// URL-signing secret.
type dataDir struct {
	path   string
	db     *db.DB
	files  *files.Store
	secret []byte
}

// openDataDir opens (creating, with parents, if needed) the data directory
// and migrates its database.
func openDataDir(ctx context.Context, path string) (*dataDir, error) {
	if err := mkdirData(path); err != nil {
		return nil, err
	}
	secret, err := files.LoadSecret(filepath.Join(path, "secret"))
	if err != nil {
		return nil, err
	}
	store, err := files.Open(filepath.Join(path, "files"))
	if err != nil {
		return nil, err
	}
	d, err := db.Open(ctx, filepath.Join(path, "journal.db"))
	if err == nil {
		// SQLite creates its files with the process's umask: the journal
		// is private whatever the directory's mode.
		if err := db.MakePrivate(filepath.Join(path, "journal.db")); err != nil {
			d.Close()
			return nil, err
		}
	}
	if err != nil {
		return nil, err
	}
	return &dataDir{path: path, db: d, files: store, secret: secret}, nil
}

// openExistingDataDir opens a data directory that already holds a journal:
// for the commands that read one (backup, check), a mistyped --data must
// not silently make, then back up or pass, a new empty journal.
func openExistingDataDir(ctx context.Context, path string) (*dataDir, error) {
	if _, err := os.Stat(filepath.Join(path, "journal.db")); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no journal in %s (is --data right?)", path)
		}
		return nil, err
	}
	// A new secret would quietly invalidate every link handed out: only
	// serve makes one, and says so.
	if _, err := os.Stat(filepath.Join(path, "secret")); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s has a journal but no secret: document links signed with it can no longer verify; "+
				"restore it from a backup, or start serve to make a new one", path)
		}
		return nil, err
	}
	return openDataDir(ctx, path)
}

func mkdirData(path string) error { return os.MkdirAll(path, 0o700) }

func (d *dataDir) Close() error { return d.db.Close() }

// out is where a command prints for its user.
func out(cmd *cobra.Command) io.Writer { return cmd.OutOrStdout() }
