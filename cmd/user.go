package cmd

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"tradejournal/db"
)

func newUserCmd(cfg *globalConfig) *cobra.Command {
	c := &cobra.Command{Use: "user", Short: "Add, list and change users"}
	c.AddCommand(newUserAddCmd(cfg), newUserListCmd(cfg), newUserSetCmd(cfg))
	return c
}

func newUserAddCmd(cfg *globalConfig) *cobra.Command {
	var timezone string
	c := &cobra.Command{
		Use:   "add NAME",
		Short: "Add a user (subscription active); prints the new user's id",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := openDataDir(cmd.Context(), cfg.dataDir)
			if err != nil {
				return err
			}
			defer d.Close()
			u, err := d.db.CreateUser(cmd.Context(), args[0], timezone)
			if err != nil {
				return err
			}
			fmt.Fprintln(out(cmd), u.ID)
			return nil
		},
	}
	c.Flags().StringVar(&timezone, "timezone", db.DefaultTimezone, "IANA timezone of the user's dates and times")
	return c
}

func newUserListCmd(cfg *globalConfig) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List users",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := openDataDir(cmd.Context(), cfg.dataDir)
			if err != nil {
				return err
			}
			defer d.Close()
			users, err := d.db.Users(cmd.Context())
			if err != nil {
				return err
			}
			return printUsers(out(cmd), users...)
		},
	}
}

func newUserSetCmd(cfg *globalConfig) *cobra.Command {
	var subscription, timezone string
	c := &cobra.Command{
		Use:   "set NAME",
		Short: "Change a user's subscription or timezone",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var upd db.UserUpdate
			if cmd.Flags().Changed("subscription") {
				upd.Subscription = db.Some(subscription)
			}
			if cmd.Flags().Changed("timezone") {
				upd.Timezone = db.Some(timezone)
			}
			if !upd.Subscription.Set && !upd.Timezone.Set {
				return fmt.Errorf("nothing to change: give --subscription or --timezone")
			}
			d, err := openDataDir(cmd.Context(), cfg.dataDir)
			if err != nil {
				return err
			}
			defer d.Close()
			u, err := d.db.UpdateUser(cmd.Context(), args[0], upd)
			if err != nil {
				return err
			}
			return printUsers(out(cmd), u)
		},
	}
	c.Flags().StringVar(&subscription, "subscription", "", "active or inactive (an inactive user's keys get 403)")
	c.Flags().StringVar(&timezone, "timezone", "", "IANA timezone; changes no stored date or time")
	return c
}

func printUsers(w io.Writer, users ...db.User) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tTIMEZONE\tSUBSCRIPTION\tCREATED")
	for _, u := range users {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", u.ID, u.Name, u.Timezone, u.Subscription, u.CreatedAt)
	}
	return tw.Flush()
}
