// Package replica carries a data directory off the machine as it changes
// (DESIGN §15): Litestream, embedded as a library, streams the database's
// write-ahead log to a file path, an SFTP server or S3-compatible storage,
// and the files beside the database (the secret that signs document links,
// and every document's blob, each copied once) go to the same place.
// Restore makes a data directory from such a replica.
//
// At the replica's URL, Litestream keeps the database under db/, the blobs
// are under files/ as in the data directory, and the secret is secret.
package replica

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/benbjohnson/litestream"
	lsfile "github.com/benbjohnson/litestream/file"
	lss3 "github.com/benbjohnson/litestream/s3"
	lssftp "github.com/benbjohnson/litestream/sftp"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"tradejournal/db"
	"tradejournal/files"
)

// DefaultSync is how soon an acknowledged write is at the replica.
const DefaultSync = time.Second

// Options are how to reach a replica beyond its URL.
type Options struct {
	// KeyFile is the SSH private key of an sftp:// replica.
	KeyFile string
	// KnownHosts is the file an SFTP server's host key is checked
	// against; ~/.ssh/known_hosts when empty.
	KnownHosts string
}

// Target is a replica's place, connected: Litestream's client for the
// database and the store of the files beside it.
type Target struct {
	url     string // for messages; without a password
	client  litestream.ReplicaClient
	objects objects
}

// Connect parses a replica URL (file:///path, sftp://user@host[:port]/path,
// s3://bucket/prefix[?endpoint=URL&region=R]) and connects to it.
func Connect(ctx context.Context, raw string, opt Options) (*Target, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("replica URL: %w", err)
	}
	shown := u.Redacted()
	switch u.Scheme {
	case "file":
		if u.Host != "" && u.Host != "localhost" || u.Path == "" || !path.IsAbs(u.Path) {
			return nil, fmt.Errorf("replica URL %s: a file replica is file:///absolute/path", shown)
		}
		root := filepath.FromSlash(u.Path)
		return &Target{url: shown, client: lsfile.NewReplicaClient(filepath.Join(root, "db")), objects: fileObjects{root: root}}, nil
	case "sftp":
		return connectSFTP(u, opt)
	case "s3":
		if u.Host == "" {
			return nil, fmt.Errorf("replica URL %s: an S3 replica is s3://bucket/prefix", shown)
		}
		q := u.Query()
		c := lss3.NewReplicaClient()
		c.Bucket = u.Host
		c.Path = path.Join(strings.Trim(u.Path, "/"), "db")
		c.Region = q.Get("region")
		if endpoint := q.Get("endpoint"); endpoint != "" {
			c.Endpoint = endpoint
			c.ForcePathStyle = true // what MinIO, B2 and R2 take
		}
		o, err := newS3Objects(ctx, c.Bucket, strings.Trim(u.Path, "/"), c.Region, c.Endpoint, c.ForcePathStyle)
		if err != nil {
			return nil, err
		}
		return &Target{url: shown, client: c, objects: o}, nil
	}
	return nil, fmt.Errorf("replica URL %s: the scheme must be file, sftp or s3", shown)
}

// connectSFTP checks the server's host key against known_hosts, then
// hands Litestream the key it checked.
func connectSFTP(u *url.URL, opt Options) (*Target, error) {
	shown := u.Redacted()
	if u.User == nil || u.User.Username() == "" || u.Path == "" {
		return nil, fmt.Errorf("replica URL %s: an SFTP replica is sftp://user@host[:port]/path", shown)
	}
	known := opt.KnownHosts
	if known == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, err
		}
		known = filepath.Join(home, ".ssh", "known_hosts")
	}
	check, err := knownhosts.New(known)
	if err != nil {
		return nil, fmt.Errorf("sftp replica: host keys: %w", err)
	}
	var hostKey ssh.PublicKey
	config := &ssh.ClientConfig{
		User: u.User.Username(),
		HostKeyCallback: func(host string, remote net.Addr, key ssh.PublicKey) error {
			if err := check(host, remote, key); err != nil {
				return fmt.Errorf("%s: %w (add the server's key with ssh-keyscan)", known, err)
			}
			hostKey = key
			return nil
		},
		Timeout: 30 * time.Second,
	}
	password, hasPassword := u.User.Password()
	if hasPassword {
		config.Auth = append(config.Auth, ssh.Password(password))
	}
	if opt.KeyFile != "" {
		pem, err := os.ReadFile(opt.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("--replica-key: %w", err)
		}
		signer, err := ssh.ParsePrivateKey(pem)
		if err != nil {
			return nil, fmt.Errorf("--replica-key %s: %w", opt.KeyFile, err)
		}
		config.Auth = append(config.Auth, ssh.PublicKeys(signer))
	}
	if len(config.Auth) == 0 {
		return nil, fmt.Errorf("sftp replica %s: give the SSH key with --replica-key", shown)
	}
	addr := u.Host
	if u.Port() == "" {
		addr = net.JoinHostPort(u.Hostname(), "22")
	}
	o, err := dialSFTP(addr, config, u.Path)
	if err != nil {
		return nil, fmt.Errorf("sftp replica %s: %w", shown, err)
	}
	c := lssftp.NewReplicaClient()
	c.Host = addr
	c.User = u.User.Username()
	c.Password = password
	c.KeyPath = opt.KeyFile
	c.HostKey = string(ssh.MarshalAuthorizedKey(hostKey))
	c.Path = path.Join(u.Path, "db")
	return &Target{url: shown, client: c, objects: o}, nil
}

// String is the replica's URL, without a password.
func (t *Target) String() string { return t.url }

// Close ends the target's connections.
func (t *Target) Close() error { return t.objects.close() }

// blobName is where the blob of hash sits at a replica, as in the data
// directory.
func blobName(hash string) string { return "files/sha256/" + hash[:2] + "/" + hash }

// secretName is where the signing secret sits at a replica.
const secretName = "secret"

// Replicator streams one data directory to its target while serve runs.
type Replicator struct {
	target *Target
	dbPath string
	secret []byte
	files  *files.Store
	every  time.Duration
	log    *slog.Logger

	db      *litestream.DB
	store   *litestream.Store
	started atomic.Bool // Start has opened store and not yet closed it

	mu     sync.Mutex      // held by a pass over the blobs
	copied map[string]bool // blobs the replica holds
	// held is closed once the replica holds the journal (HoldsJournal).
	held  chan struct{}
	since time.Time // when Start began
	stop  chan struct{}
	done  chan struct{}
}

// New prepares the replication of the journal at dbPath, the secret and
// the blobs of store to t; every is --replica-sync. Hand the journal's
// checkpoints to its Checkpoint, then Start it.
func New(t *Target, dbPath string, secret []byte, store *files.Store, every time.Duration, log *slog.Logger) *Replicator {
	return &Replicator{target: t, dbPath: dbPath, secret: secret, files: store, every: every, log: log,
		copied: map[string]bool{}, held: make(chan struct{}), stop: make(chan struct{}), done: make(chan struct{})}
}

// Start puts the secret and the blobs the replica lacks, then starts
// Litestream and the copying of new blobs.
func (r *Replicator) Start(ctx context.Context) error {
	r.since = time.Now()
	t := r.target
	if err := putSecret(ctx, t, r.secret); err != nil {
		return err
	}
	held, err := t.objects.list(ctx, "files/")
	if err != nil {
		return fmt.Errorf("replica %s: list files: %w", t.url, err)
	}
	for _, name := range held {
		r.copied[path.Base(name)] = true
	}
	if err := r.copyBlobs(ctx); err != nil {
		return err
	}

	r.db = litestream.NewDB(r.dbPath)
	r.db.Logger = r.log.With("replica", t.url)
	r.db.MonitorInterval = r.every
	// Litestream's own TRUNCATE checkpoint is left at its default (about
	// 500 MB of log), a last resort: it copies the whole database to the
	// replica while it holds the write lock, which on a journal of 100,000
	// trades held writes off for 20 s (past their busy timeout: 500s). The
	// journal's checkpointer starts the log over long before (Checkpoint).
	rep := litestream.NewReplicaWithClient(r.db, t.client)
	rep.SyncInterval = r.every
	r.db.Replica = rep
	if c, ok := t.client.(*lsfile.ReplicaClient); ok {
		c.Replica = rep
	}
	r.store = litestream.NewStore([]*litestream.DB{r.db}, litestream.DefaultCompactionLevels)
	r.store.Logger = r.db.Logger
	if err := r.store.Open(ctx); err != nil {
		return fmt.Errorf("replica %s: %w", t.url, err)
	}
	r.started.Store(true)
	go r.run()
	return nil
}

// Checkpoint runs a checkpoint of the journal (PASSIVE or TRUNCATE)
// through Litestream, which first copies what the log holds; before Start
// and after Close, none is run.
func (r *Replicator) Checkpoint(ctx context.Context, mode string) error {
	if !r.started.Load() {
		return nil
	}
	if mode == "TRUNCATE" {
		// RESTART, not TRUNCATE: both wait for the readers on the log, so
		// that the next write starts it over, but Litestream follows a
		// TRUNCATE with a copy of the whole database, holding the write
		// lock (see Start). A restarted log is not cut back (Litestream's
		// own write starts it over, and its connection keeps no
		// journal_size_limit): the file keeps the largest size it reached.
		mode = "RESTART"
	}
	return r.db.Checkpoint(ctx, mode)
}

// putSecret puts the secret at the replica, unless it is there: a replica
// holding another secret is another journal's, and is left alone.
func putSecret(ctx context.Context, t *Target, secret []byte) error {
	held, err := readSecret(ctx, t)
	if errors.Is(err, fs.ErrNotExist) {
		if err := t.objects.put(ctx, secretName, bytes.NewReader(secret), int64(len(secret))); err != nil {
			return fmt.Errorf("replica %s: put the secret: %w", t.url, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("replica %s: read its secret: %w", t.url, err)
	}
	if !bytes.Equal(held, secret) {
		return fmt.Errorf("replica %s holds another journal (its secret differs): give this journal a place of its own", t.url)
	}
	return nil
}

// readSecret reads the secret a replica holds (a byte past its size, to
// tell one too long); fs.ErrNotExist when it holds none.
func readSecret(ctx context.Context, t *Target) ([]byte, error) {
	rc, err := t.objects.get(ctx, secretName)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(io.LimitReader(rc, files.SecretSize+1))
}

// HoldsJournal is closed once the replica holds the journal: at the first
// start, after Litestream's first copy of the whole database, which takes
// as long as sending the file does. Until then Litestream runs no
// checkpoint, so the log grows with every write.
func (r *Replicator) HoldsJournal() <-chan struct{} { return r.held }

func (r *Replicator) run() {
	defer close(r.done)
	tick := time.NewTicker(r.every)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			if err := r.copyBlobs(context.Background()); err != nil {
				r.log.Warn("replica: copying files failed; trying again", "replica", r.target.url, "err", err)
			}
			r.noticeHeld()
		case <-r.stop:
			return
		}
	}
}

// noticeHeld closes held, and says so, once the replica holds a position
// of the journal.
func (r *Replicator) noticeHeld() {
	select {
	case <-r.held:
		return
	default:
	}
	if r.db.Replica.Pos().IsZero() {
		return
	}
	close(r.held)
	r.log.Info("replica: holds the journal", "replica", r.target.url, "after", time.Since(r.since).Round(time.Millisecond))
}

// copyBlobs copies the blobs the replica does not hold yet. A blob is
// immutable: once copied, it is never copied again.
func (r *Replicator) copyBlobs(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	blobs, err := r.files.Blobs()
	if err != nil {
		return err
	}
	for _, b := range blobs {
		if r.copied[b.Name] {
			continue
		}
		f, err := r.files.Open(b.Name)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since listed
		}
		if err != nil {
			continue // a malformed name: check reports it; nothing to copy
		}
		err = r.target.objects.put(ctx, blobName(b.Name), f, b.Size)
		f.Close()
		if err != nil {
			return fmt.Errorf("copy %s: %w", b.Name, err)
		}
		r.copied[b.Name] = true
	}
	return nil
}

// Close copies what is left, then stops: the last blobs, and the log
// Litestream has not yet shipped.
func (r *Replicator) Close(ctx context.Context) error {
	r.started.Store(false)
	close(r.stop)
	<-r.done
	err := r.copyBlobs(ctx)
	if cerr := r.store.Close(ctx); err == nil {
		err = cerr
	}
	return err
}

// Restore makes dir (absent or empty) a data directory from the replica:
// the database at its latest point, or with every write the replica
// received by the end of the second at (when not zero); the secret; and
// the blobs that database's documents use, each checked against its hash.
// On any failure dir is left as it was found.
func Restore(ctx context.Context, t *Target, dir string, at time.Time) (err error) {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		defer func() {
			if err != nil {
				os.RemoveAll(dir)
			}
		}()
	case err != nil:
		return err
	case len(entries) > 0:
		return fmt.Errorf("%s is not empty: restore makes a new data directory; give it an empty or new one", dir)
	default:
		defer func() {
			if err != nil {
				emptyDir(dir)
			}
		}()
	}

	opt := litestream.NewRestoreOptions()
	opt.OutputPath = filepath.Join(dir, "journal.db")
	opt.IntegrityCheck = litestream.IntegrityCheckQuick
	if !at.IsZero() {
		opt.Timestamp = at.Truncate(time.Second).Add(time.Second)
	}
	rep := litestream.NewReplicaWithClient(nil, t.client)
	if err := rep.Restore(ctx, opt); err != nil {
		return fmt.Errorf("restore the database from %s: %w", t.url, err)
	}
	if err := db.MakePrivate(opt.OutputPath); err != nil {
		return err
	}

	secret, err := readSecret(ctx, t)
	if err != nil {
		return fmt.Errorf("restore the secret from %s: %w", t.url, err)
	}
	if len(secret) != files.SecretSize {
		return fmt.Errorf("the secret at %s is %d bytes, not %d", t.url, len(secret), files.SecretSize)
	}
	if err := files.WriteSecret(filepath.Join(dir, "secret"), secret); err != nil {
		return err
	}

	refs, err := blobRefs(ctx, opt.OutputPath)
	if err != nil {
		return err
	}
	store, err := files.Open(filepath.Join(dir, "files"))
	if err != nil {
		return err
	}
	var missing []string
	for hash := range refs {
		rc, err := t.objects.get(ctx, blobName(hash))
		if errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, hash)
			continue
		}
		if err != nil {
			return fmt.Errorf("restore file %s: %w", hash, err)
		}
		err = store.Put(hash, rc)
		rc.Close()
		if err != nil {
			return fmt.Errorf("restore file %s: %w", hash, err)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s lacks %d of the files the journal's documents use (the first: %s); restore at an earlier --timestamp", t.url, len(missing), missing[0])
	}
	return files.Sync(dir)
}

// blobRefs opens the restored journal (migrating it, as serve would) and
// lists the blobs its documents use.
func blobRefs(ctx context.Context, dbPath string) (map[string]int, error) {
	d, err := db.Open(ctx, dbPath)
	if err != nil {
		return nil, fmt.Errorf("open the restored journal: %w", err)
	}
	defer d.Close()
	return d.BlobRefs(ctx)
}

// emptyDir removes what dir holds, leaving dir.
func emptyDir(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}
