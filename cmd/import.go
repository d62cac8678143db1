package cmd

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"tradejournal/db"
	"tradejournal/db/brokers"
)

// importConfig is the import command's flags.
type importConfig struct {
	user, account, format, timezone, dateOrder, decimal string
	dryRun                                              bool
}

func newImportCmd(cfg *globalConfig) *cobra.Command {
	var ic importConfig
	c := &cobra.Command{
		Use:   "import --user NAME FILE...",
		Short: "Import broker export files into a user's trades (each file all or nothing)",
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := openDataDir(cmd.Context(), cfg.dataDir)
			if err != nil {
				return err
			}
			defer d.Close()
			u, err := d.db.UserByName(cmd.Context(), ic.user)
			if err != nil {
				return fmt.Errorf("user %q: %w", ic.user, err)
			}
			failed := 0
			for _, path := range args {
				imp, err := importFile(cmd, d.db, u, ic, path)
				if err != nil {
					failed++
					fmt.Fprintf(cmd.ErrOrStderr(), "%s: %s\n", path, describeImportError(err))
					continue
				}
				printImport(out(cmd), path, imp)
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d files not imported", failed, len(args))
			}
			return nil
		},
	}
	c.Flags().StringVar(&ic.user, "user", "", "the user whose journal the files go into (required)")
	c.Flags().StringVar(&ic.account, "account", "", "account number every fill goes to (default: each row's account column)")
	c.Flags().StringVar(&ic.format, "format", "auto", "auto, or one of "+strings.Join(brokers.Formats, ", "))
	c.Flags().StringVar(&ic.timezone, "timezone", "", "IANA zone of timestamps that carry none (default: the user's)")
	c.Flags().StringVar(&ic.dateOrder, "date-order", "auto", "auto, mdy, dmy or ymd, for dates written with digits only")
	c.Flags().StringVar(&ic.decimal, "decimal", "point", "point (1,234.56) or comma (1.234,56)")
	c.Flags().BoolVar(&ic.dryRun, "dry-run", false, "read and group the files, write nothing")
	c.MarkFlagRequired("user")
	return c
}

// importFile reads and imports one file.
func importFile(cmd *cobra.Command, d *db.DB, u db.User, ic importConfig, path string) (db.Import, error) {
	if ic.format != "auto" && !slices.Contains(brokers.Formats, ic.format) {
		return db.Import{}, fmt.Errorf("unknown --format %q: use auto or one of %s", ic.format, strings.Join(brokers.Formats, ", "))
	}
	zone := cmp.Or(ic.timezone, u.Timezone)
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return db.Import{}, fmt.Errorf("--timezone %q is not an IANA zone name", zone)
	}
	f, err := os.Open(path)
	if err != nil {
		return db.Import{}, err
	}
	defer f.Close()
	opts := brokers.Options{Format: ic.format, Location: loc, Decimal: ic.decimal, DateOrder: ic.dateOrder}
	if ic.format == "auto" { // the user's column mappings after the formats (DESIGN §14)
		if opts.Mappings, err = d.BrokerMappings(cmd.Context(), u.ID); err != nil {
			return db.Import{}, err
		}
	}
	file, err := brokers.Read(io.Reader(f), opts)
	if err != nil {
		return db.Import{}, err
	}
	return d.Import(cmd.Context(), u.ID, db.ImportInput{File: file, FileName: filepath.Base(path), Timezone: zone,
		AccountNumber: ic.account, DryRun: ic.dryRun})
}

// printImport is one file's summary.
func printImport(w io.Writer, path string, imp db.Import) {
	id := "dry run, nothing written"
	if imp.ID != nil {
		id = "import " + *imp.ID
	}
	fmt.Fprintf(w, "%s: %s (%s): %d rows, %d fills, %d skipped, %d duplicates; %d trades created, %d continued\n",
		path, imp.Format, id, imp.Rows, imp.Fills, imp.Skipped, imp.Duplicates, imp.TradesCreated, imp.TradesUpdated)
	for _, warning := range imp.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", warning)
	}
}

// describeImportError names the rows of a file that cannot be read.
func describeImportError(err error) string {
	var rows *brokers.Error
	var field *brokers.FieldError
	var inv *db.InvalidError
	var nf *db.NotFoundError
	switch {
	case errors.As(err, &rows):
		var b strings.Builder
		b.WriteString("rows that cannot be read, nothing imported:")
		for _, r := range rows.Rows {
			fmt.Fprintf(&b, "\n  line %d, %s: %s", r.Line, r.Column, r.Message)
		}
		return b.String()
	case errors.As(err, &field):
		return field.Message
	case errors.As(err, &inv):
		return inv.Message
	case errors.As(err, &nf):
		return "no account has that --account number"
	}
	return err.Error()
}
