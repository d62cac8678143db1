package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"tradejournal/db"
	"tradejournal/replica"
	"tradejournal/server"
	"tradejournal/watch"
)

// serveConfig holds the flags of serve.
type serveConfig struct {
	addr           string
	publicURL      string
	rateLimit      float64
	allowedHosts   []string
	trustedProxies []string
	watch          watch.Config // Dir "": no watched folder
	// replica is --replica's URL; empty: no copy off the machine.
	replica     string
	replicaKey  string
	replicaSync time.Duration
}

// Server timeouts. Uploads and downloads extend their own deadlines, so
// these bound idle and slow clients, not large files.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 60 * time.Second
	writeTimeout      = 60 * time.Second
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 64 << 10
	shutdownTimeout   = 30 * time.Second
	keyUsageInterval  = time.Minute
)

func newServeCmd(cfg *globalConfig) *cobra.Command {
	sc := serveConfig{}
	c := &cobra.Command{
		Use:   "serve",
		Short: "Serve the API (first run creates the data directory, user me and a key)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if sc.rateLimit < 0 {
				return fmt.Errorf("--rate-limit must be 0 (off) or more")
			}
			if err := checkWatchFlags(sc.watch); err != nil {
				return err
			}
			if sc.replicaSync <= 0 {
				return fmt.Errorf("--replica-sync must be more than 0")
			}
			proxies, err := parseTrustedProxies(sc.trustedProxies)
			if err != nil {
				return err
			}
			if err := checkAllowedHosts(sc.allowedHosts); err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGINT, syscall.SIGTERM)
			defer stop()
			return serve(ctx, cfg, sc, proxies, out(cmd), cmd.ErrOrStderr())
		},
	}
	c.Flags().StringVar(&sc.addr, "addr", "127.0.0.1:8080", "address to listen on")
	c.Flags().StringVar(&sc.publicURL, "public-url", "", "base URL of document links (default http:// + the listen address)")
	c.Flags().Float64Var(&sc.rateLimit, "rate-limit", server.DefaultRateLimit, "requests per second per API key (0, the default, is no limit)")
	c.Flags().StringVar(&sc.watch.Dir, "watch", "", "a folder whose files are imported as they appear (README, \"Watched folder\")")
	c.Flags().StringVar(&sc.watch.User, "watch-user", "", "the user the watched folder's files are imported as (required with --watch)")
	c.Flags().BoolVar(&sc.watch.CreateAccounts, "watch-create-accounts", false, "the watched folder's imports make accounts for unknown account numbers")
	c.Flags().StringVar(&sc.replica, "replica", "", "stream the journal to file:///path, sftp://user@host/path or s3://bucket/prefix (README, \"Copies off the machine\")")
	c.Flags().StringVar(&sc.replicaKey, "replica-key", "", "SSH private key of an sftp:// replica")
	c.Flags().DurationVar(&sc.replicaSync, "replica-sync", replica.DefaultSync, "how soon an acknowledged write is at the replica")
	c.Flags().StringSliceVar(&sc.trustedProxies, "trusted-proxy", nil,
		"CIDR (or address) of a reverse proxy whose X-Forwarded-For names the client; repeatable or comma-separated")
	c.Flags().StringArrayVar(&sc.allowedHosts, "allowed-host", nil,
		"a host name the server answers to besides localhost, its address and --public-url's host; repeatable")
	return c
}

// checkWatchFlags refuses a watched folder without its user, and its user
// or accounts flag without a folder.
func checkWatchFlags(wc watch.Config) error {
	switch {
	case wc.Dir != "" && wc.User == "":
		return fmt.Errorf("--watch needs --watch-user NAME: the user whose journal the files go into")
	case wc.Dir == "" && (wc.User != "" || wc.CreateAccounts):
		return fmt.Errorf("--watch-user and --watch-create-accounts go with --watch DIR")
	}
	return nil
}

// parseTrustedProxies reads --trusted-proxy: CIDRs such as 10.0.0.0/8, or
// single addresses.
func parseTrustedProxies(values []string) ([]netip.Prefix, error) {
	var prefixes []netip.Prefix
	for _, v := range values {
		v = strings.TrimSpace(v)
		p, err := netip.ParsePrefix(v)
		if err != nil {
			a, aerr := netip.ParseAddr(v)
			if aerr != nil {
				return nil, fmt.Errorf("--trusted-proxy %q is not a CIDR such as 127.0.0.1/32 or 10.0.0.0/8, nor an IP address", v)
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		if p.Addr().Is4In6() && p.Bits() >= 96 { // ::ffff:10.0.0.0/104 is 10.0.0.0/8
			p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
		}
		prefixes = append(prefixes, p.Masked())
	}
	return prefixes, nil
}

// checkAllowedHosts refuses an --allowed-host that is not a host name: a
// URL, a port or a path would never match a request's Host.
func checkAllowedHosts(names []string) error {
	for _, n := range names {
		if n == "" || strings.ContainsAny(n, ":/ @?#[]") {
			return fmt.Errorf("--allowed-host %q is not a host name (such as journal.example.com, without scheme or port)", n)
		}
	}
	return nil
}

func serve(ctx context.Context, cfg *globalConfig, sc serveConfig, proxies []netip.Prefix, stdout, stderr io.Writer) error {
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	defer server.TuneGC()()
	if err := mkdirData(cfg.dataDir); err != nil {
		return err
	}
	unlock, err := db.TryLock(filepath.Join(cfg.dataDir, "serve.lock"))
	if errors.Is(err, db.ErrLocked) {
		return fmt.Errorf("another tradejournal serve is running on %s", cfg.dataDir)
	}
	if err != nil {
		return err
	}
	defer unlock()

	if exists(filepath.Join(cfg.dataDir, "journal.db")) && !exists(filepath.Join(cfg.dataDir, "secret")) {
		logger.Warn("the journal has no secret: making a new one; document links handed out before no longer verify")
	}
	d, err := openDataDir(ctx, cfg.dataDir)
	if err != nil {
		return err
	}
	defer d.Close()
	if sc.replica != "" {
		stopReplica, err := startReplica(ctx, d, sc, logger)
		if err != nil {
			return err
		}
		// Before the journal closes: the last of the log is shipped first.
		defer stopReplica()
	}
	// serve.lock is held: no upload of another server is in flight, so
	// every temp file is a leftover of a crash or a stop.
	if n, err := d.files.RemoveTemp(); err != nil {
		return fmt.Errorf("remove leftover temp files: %w", err)
	} else if n > 0 {
		logger.Info("removed leftover temp files", "count", n)
	}
	if n, err := removeUnusedBlobs(ctx, d); errors.Is(err, errNoDocuments) {
		logger.Warn(err.Error())
	} else if err != nil {
		return fmt.Errorf("remove files no document uses: %w", err)
	} else if n > 0 {
		logger.Info("removed files no document uses", "count", n)
	}
	ln, err := net.Listen("tcp", sc.addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	publicURL := sc.publicURL
	if publicURL == "" {
		publicURL = "http://" + ln.Addr().String()
	}
	if err := firstRun(ctx, d.db, "http://"+ln.Addr().String(), stdout); err != nil {
		return err
	}
	srv := server.New(server.Config{
		PublicURL:      publicURL,
		Secret:         d.secret,
		RateLimit:      sc.rateLimit,
		AuthFailures:   server.DefaultAuthFailures,
		ListenAddr:     sc.addr, // as given: a name in it is one the server answers to
		AllowedHosts:   sc.allowedHosts,
		TrustedProxies: proxies,
		ImportsAtWork:  server.ImportsAtWork,
	}, d.db, d.files, logger)
	var watcher *watch.Watcher
	if sc.watch.Dir != "" {
		if watcher, err = watch.New(ctx, sc.watch, d.db, srv, logger); err != nil {
			return err
		}
	}
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	usageCtx, stopUsage := context.WithCancel(context.WithoutCancel(ctx))
	usageDone := make(chan struct{})
	go func() {
		srv.RecordKeyUsage(usageCtx, keyUsageInterval)
		close(usageDone)
	}()

	watchCtx, stopWatch := context.WithCancel(ctx)
	watchDone := make(chan struct{})
	go func() {
		if watcher != nil {
			watcher.Run(watchCtx)
		}
		close(watchDone)
	}()

	serveErr := make(chan error, 1)
	go func() { serveErr <- hs.Serve(ln) }()
	logger.Info("listening", "addr", ln.Addr().String(), "data", cfg.dataDir, "public_url", publicURL,
		"allowed_hosts", sc.allowedHosts, "trusted_proxies", proxies)
	if !loopback(ln.Addr()) {
		logger.Warn("listening beyond this machine: API keys and journal data travel in clear text over the network; "+
			"serve on 127.0.0.1 behind a reverse proxy that adds TLS (README, \"Behind a reverse proxy\")", "addr", ln.Addr().String())
	}

	select {
	case err = <-serveErr:
	case <-ctx.Done():
		logger.Info("shutting down: finishing requests in flight")
		sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		err = hs.Shutdown(sctx)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			// A transfer on a slow link may run for minutes: cut it off. It
			// was not acknowledged, so nothing acknowledged is lost.
			logger.Warn("requests still running after the shutdown timeout: closing their connections", "timeout", shutdownTimeout)
			err = hs.Close()
		}
	}
	stopWatch()
	<-watchDone // an import under way finishes
	stopUsage()
	<-usageDone
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// startReplica has Litestream run the journal's checkpoints and starts
// streaming the data directory to --replica; the function it returns
// ships what is left and stops.
func startReplica(ctx context.Context, d *dataDir, sc serveConfig, logger *slog.Logger) (func(), error) {
	target, err := replica.Connect(ctx, sc.replica, replica.Options{KeyFile: sc.replicaKey})
	if err != nil {
		return nil, err
	}
	r := replica.New(target, filepath.Join(d.path, "journal.db"), d.secret, d.files, sc.replicaSync, logger)
	d.db.HandOverCheckpoints(r.Checkpoint)
	if err := r.Start(ctx); err != nil {
		target.Close()
		return nil, err
	}
	logger.Info("replicating", "replica", target.String(), "sync", sc.replicaSync)
	return func() {
		sctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		if err := r.Close(sctx); err != nil {
			logger.Error("replica: the last changes may not have been copied", "replica", target.String(), "err", err)
		}
		target.Close()
	}, nil
}

// firstRun gives a new data directory a user "me" with a write key, and
// shows the key once, so that `serve` alone is the whole set-up.
func firstRun(ctx context.Context, d *db.DB, baseURL string, stdout io.Writer) error {
	users, err := d.Users(ctx)
	if err != nil || len(users) > 0 {
		return err
	}
	scopes, _ := db.ParseScopes("write")
	_, _, key, err := d.CreateUserWithKey(ctx, "me", db.DefaultTimezone, "first run", scopes)
	if err != nil {
		return err
	}
	token, _, err := d.CreateLoginToken(ctx, "me", "")
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, `
First run: created user "me" and an API key with full (write) access.
The key is shown only this once; keep it somewhere safe:

%s

Open the journal in a browser (this link signs in once, within 15 minutes;
tradejournal login-link --user me prints a new one):  %s
Use the key as:  curl -H 'Authorization: Bearer %s' %s/api/v1/accounts
More users and keys: tradejournal user add NAME; tradejournal key create --user NAME

`, key, loginLink(baseURL, token), key, baseURL)
	return nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// loopback reports whether addr is a loopback address, which only this
// machine can reach; 0.0.0.0 and :: (every interface) are not.
func loopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
