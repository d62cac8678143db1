package cmd

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"tradejournal/db"
)

func newKeyCmd(cfg *globalConfig) *cobra.Command {
	c := &cobra.Command{Use: "key", Short: "Create, list and revoke API keys"}
	c.AddCommand(newKeyCreateCmd(cfg), newKeyListCmd(cfg), newKeyRevokeCmd(cfg))
	return c
}

func newKeyCreateCmd(cfg *globalConfig) *cobra.Command {
	var user, name, scopes string
	var legacy bool
	c := &cobra.Command{
		Use:   "create --user NAME",
		Short: "Create an API key; prints the key, alone, on the last line",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sc, err := db.ParseScopes(scopes)
			if err != nil {
				return err
			}
			d, err := openDataDir(cmd.Context(), cfg.dataDir)
			if err != nil {
				return err
			}
			defer d.Close()
			k, secret, err := d.db.CreateKey(cmd.Context(), user, name, sc, legacy)
			if err != nil {
				return err
			}
			fmt.Fprintf(out(cmd), "Created key %s for user %s (scopes: %s). It is shown only this once:\n",
				k.ID, k.UserName, strings.Join(k.Scopes, " "))
			fmt.Fprintln(out(cmd), secret)
			return nil
		},
	}
	c.Flags().StringVar(&user, "user", "", "user the key acts for (required)")
	c.Flags().StringVar(&name, "name", "", "label, to tell keys apart")
	c.Flags().StringVar(&scopes, "scopes", "write", "read, write, or a comma-separated list such as trades:write,tags:read")
	c.Flags().BoolVar(&legacy, "legacy", false, "issue a key in the legacy tjk_ format")
	c.MarkFlagRequired("user")
	return c
}

func newKeyListCmd(cfg *globalConfig) *cobra.Command {
	var user string
	c := &cobra.Command{
		Use:   "list",
		Short: "List API keys (never the keys themselves)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := openDataDir(cmd.Context(), cfg.dataDir)
			if err != nil {
				return err
			}
			defer d.Close()
			if user != "" {
				if _, err := d.db.UserByName(cmd.Context(), user); err != nil {
					return fmt.Errorf("user %s: %w", user, err)
				}
			}
			keys, err := d.db.Keys(cmd.Context(), user)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(out(cmd), 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tUSER\tNAME\tSCOPES\tPREFIX\tCREATED\tLAST USED\tREVOKED")
			for _, k := range keys {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.UserName, dash(k.Name),
					strings.Join(k.Scopes, ","), k.Prefix, k.CreatedAt, dash(k.LastUsedAt), dash(k.RevokedAt))
			}
			return tw.Flush()
		},
	}
	c.Flags().StringVar(&user, "user", "", "only this user's keys")
	return c
}

func newKeyRevokeCmd(cfg *globalConfig) *cobra.Command {
	return &cobra.Command{
		Use:   "revoke ID",
		Short: "Revoke an API key by id; its next request gets 401",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := openDataDir(cmd.Context(), cfg.dataDir)
			if err != nil {
				return err
			}
			defer d.Close()
			if err := d.db.RevokeKey(cmd.Context(), args[0]); err != nil {
				return fmt.Errorf("key %s: %w", args[0], err)
			}
			fmt.Fprintln(out(cmd), "revoked key", args[0])
			return nil
		},
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
