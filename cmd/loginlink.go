package cmd

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

func newLoginLinkCmd(cfg *globalConfig) *cobra.Command {
	var user, key, publicURL string
	c := &cobra.Command{
		Use:   "login-link --user NAME [--key ID]",
		Short: "Print a one-click sign-in link, single-use, valid 15 minutes; alone on the last line",
		Long: `Print a link that signs a browser in as the user, with the scopes of the key --key names,
or of the user's newest live key with the most scopes. The link works once, within 15 minutes;
the page it opens says whom it signs in as and signs in on a click. It carries no API key.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := openDataDir(cmd.Context(), cfg.dataDir)
			if err != nil {
				return err
			}
			defer d.Close()
			token, t, err := d.db.CreateLoginToken(cmd.Context(), user, key)
			if err != nil {
				return err
			}
			fmt.Fprintf(out(cmd), "Signs in as %s with key %s (scopes: %s), once, until %s:\n",
				t.UserName, t.KeyID, strings.Join(t.Scopes, " "), t.ExpiresAt)
			fmt.Fprintln(out(cmd), loginLink(publicURL, token))
			return nil
		},
	}
	c.Flags().StringVar(&user, "user", "", "user the link signs in as (required)")
	c.Flags().StringVar(&key, "key", "", "id of the key whose scopes the session has (default: the user's widest, newest)")
	c.Flags().StringVar(&publicURL, "public-url", "http://127.0.0.1:8080", "the server's URL, as serve's --public-url")
	c.MarkFlagRequired("user")
	return c
}

// loginLink is the sign-in page's address with a token in its fragment,
// which the browser never sends.
func loginLink(baseURL, token string) string {
	return strings.TrimRight(baseURL, "/") + "/login#token=" + token
}
