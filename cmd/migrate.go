package cmd

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"
)

func newMigrateCmd(cfg *globalConfig) *cobra.Command {
	return &cobra.Command{
		Use:       "migrate [status]",
		Short:     "Apply pending database migrations, or show their status",
		Long:      "migrate applies pending migrations (every command does so when it opens the database); migrate status lists them.",
		Args:      cobra.MatchAll(cobra.MaximumNArgs(1), cobra.OnlyValidArgs),
		ValidArgs: []string{"status"},
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := openDataDir(cmd.Context(), cfg.dataDir)
			if err != nil {
				return err
			}
			defer d.Close()
			ms, err := d.db.Migrations(cmd.Context())
			if err != nil {
				return err
			}
			if len(args) == 0 {
				fmt.Fprintf(out(cmd), "database is at version %d\n", ms[len(ms)-1].Version)
				return nil
			}
			tw := tabwriter.NewWriter(out(cmd), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "VERSION\tNAME\tSTATE\tAPPLIED AT")
			for _, m := range ms {
				state, at := "pending", ""
				if m.Applied {
					state, at = "applied", m.AppliedAt.UTC().Format("2006-01-02 15:04:05Z")
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", m.Version, m.Name, state, at)
			}
			return tw.Flush()
		},
	}
}
