package cmd

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"tradejournal/replica"
)

func newRestoreCmd() *cobra.Command {
	var key, at string
	c := &cobra.Command{
		Use:   "restore URL DIR",
		Short: "Make DIR (absent or empty) a data directory from a replica that serve --replica keeps",
		Long: `restore makes DIR a data directory from the replica at URL (file:///path, sftp://user@host/path,
s3://bucket/prefix?endpoint=URL&region=R): the database at its latest point, or with --timestamp
the database with every write the replica had received by the end of that second; the secret that
signs document links; and every file the journal's documents use, checked against its hash.
DIR must be absent or empty; on any failure it is left as it was.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			var when time.Time
			if at != "" {
				t, err := time.Parse(time.RFC3339, at)
				if err != nil {
					return fmt.Errorf("--timestamp %q: want RFC 3339, to the second (2025-11-12T15:30:00Z)", at)
				}
				when = t
			}
			target, err := replica.Connect(cmd.Context(), args[0], replica.Options{KeyFile: key})
			if err != nil {
				return err
			}
			defer target.Close()
			if err := replica.Restore(cmd.Context(), target, args[1], when); err != nil {
				return err
			}
			fmt.Fprintf(out(cmd), "restored %s into %s; start it with: tradejournal serve --data %s\n", target, args[1], args[1])
			return nil
		},
	}
	c.Flags().StringVar(&at, "timestamp", "", "restore the journal as it was at this time (RFC 3339, to the second)")
	c.Flags().StringVar(&key, "replica-key", "", "SSH private key of an sftp:// replica")
	return c
}
