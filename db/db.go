// Package db holds the journal's records and rules: the schema's types, the
// queries and transactions over them, and the derived fields (P&L, status,
// asset class) computed when a record is saved. It never sees HTTP.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/google/uuid"
	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"tradejournal/schema"
)

// BusyTimeout is how long a connection waits for another writer (another
// process, such as a CLI command next to a running server) before giving up.
const BusyTimeout = 10 * time.Second

// TimeFormat is how every stored and served timestamp is written: RFC 3339 in
// UTC with milliseconds. Timestamps are stored as this text, never handed to
// the driver as time.Time, so what is stored is exactly what is served.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// DB is the journal's database: one writer connection, through which every
// write goes in a BEGIN IMMEDIATE transaction, and a pool of read-only
// connections for reads, so a read can never write.
type DB struct {
	write      *sql.DB
	read       *sql.DB
	writeStmts *stmtCache
	readStmts  *stmtCache
	// lookup is a pool of read-only connections for the key or session
	// every request starts with (see dsn).
	lookup      *sql.DB
	lookupStmts *stmtCache
	// shm is the journal's wal-index (the -shm file), opened once beside
	// SQLite's connections to read its header (the checkpointer, keys);
	// nil when it cannot be read. It is closed after the connections.
	shm *os.File
	// keys keeps authenticated keys while the journal is unchanged.
	keys   *keyCache
	writer *writer
	// checkpointer keeps the write-ahead log small (see checkpoint.go).
	checkpointer *checkpointer
	zones        zones
	// statuses keeps accounts' status walks (see statusMemo).
	statuses *statusMemo
	// settler rebuilds the statistics' stale days (see trade_days.go).
	settler *settler

	// Now is the clock; tests pin it.
	Now func() time.Time
	// NewID makes record ids; UUIDv7 by default (time-ordered, kind to B-trees).
	NewID func() string
}

// Open opens (creating if needed) the database at path and applies pending
// migrations, holding an exclusive lock on the .lock file beside it meanwhile
// so that a server and a CLI command never migrate at once.
func Open(ctx context.Context, path string) (*DB, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	unlock, err := lockFile(filepath.Join(filepath.Dir(abs), ".lock"))
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", filepath.Dir(abs), err)
	}
	defer unlock()

	write, err := sql.Open("sqlite", dsn(abs, writerConn))
	if err != nil {
		return nil, err
	}
	write.SetMaxOpenConns(1)
	write.SetConnMaxIdleTime(0)
	if err := migrate(ctx, write); err != nil {
		write.Close()
		return nil, err
	}
	read, err := openReadOnly(ctx, abs, readerConn)
	if err != nil {
		write.Close()
		return nil, err
	}
	lookup, err := openReadOnly(ctx, abs, lookupConn)
	if err != nil {
		write.Close()
		read.Close()
		return nil, err
	}
	ckpt, err := sql.Open("sqlite", checkpointDSN(abs))
	if err != nil {
		write.Close()
		read.Close()
		lookup.Close()
		return nil, err
	}
	ckpt.SetMaxOpenConns(1)
	ckpt.SetConnMaxIdleTime(0)
	writeStmts := newStmtCache(write)
	writer := newWriter(write, writeStmts)
	shm := openWALIndex(abs)
	checkpointer, err := newCheckpointer(ctx, ckpt, shm, writer)
	if err != nil {
		ckpt.Close()
		write.Close()
		read.Close()
		lookup.Close()
		closeWALIndex(shm)
		return nil, err
	}
	d := &DB{
		write:        write,
		read:         read,
		writeStmts:   writeStmts,
		readStmts:    newStmtCache(read),
		lookup:       lookup,
		lookupStmts:  newStmtCache(lookup),
		shm:          shm,
		keys:         &keyCache{shm: shm},
		writer:       writer,
		checkpointer: checkpointer,
		statuses:     newStatusMemo(),
		Now:          time.Now,
		NewID:        newUUIDv7,
	}
	d.settler = newSettler(d, settleIdle, settleDue)
	d.writer.committed = func() {
		d.checkpointer.committed()
		d.settler.committed()
	}
	// A journal from before schema 7 gets its trades' listings now, once.
	if _, err := d.FillListings(ctx); err != nil {
		d.Close()
		return nil, fmt.Errorf("list trades: %w", err)
	}
	return d, nil
}

// MakePrivate sets the database at path, and its -wal and -shm files
// where they exist, to mode 0600: SQLite (or a restore) creates them with
// the process's umask, and the journal is private whatever the directory's
// mode.
func MakePrivate(path string) error {
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Chmod(path+suffix, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// openReadOnly opens a pool of read-only connections of the given kind, one
// or more a core, and makes sure it can read.
func openReadOnly(ctx context.Context, path string, kind conn) (*sql.DB, error) {
	pool, err := sql.Open("sqlite", dsn(path, kind))
	if err != nil {
		return nil, err
	}
	pool.SetMaxOpenConns(max(4, runtime.NumCPU()))
	pool.SetMaxIdleConns(max(4, runtime.NumCPU()))
	if err := pool.PingContext(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// checkpointDSN is the checkpointer's connection: a writer's settings with
// a short busy timeout (see checkpointer).
func checkpointDSN(path string) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", checkpointWait))
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "journal_mode(WAL)")
	u := url.URL{Scheme: "file", Path: path, RawQuery: q.Encode()}
	return u.String()
}

// conn is what a pool's connections are for.
type conn int

const (
	writerConn conn = iota
	readerConn
	// lookupConn reads the key or session every request starts with.
	lookupConn
)

// dsn builds a file: URI with every connection setting as a _pragma, so each
// connection the pool opens gets them, not only the first.
func dsn(path string, kind conn) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", BusyTimeout.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous(FULL)")
	// Reads come from the OS page cache through mmap rather than a read
	// call per page: a journal of up to 1 GiB (about 250,000 trades)
	// is read without copying pages into the process, and the OS can take
	// those pages back whenever it needs the memory. A connection's own
	// cache then holds the pages the writer changes, and, past the map,
	// the pages read: 16 MiB for the writer, 4 MiB for each reader.
	//
	// Not for the lookups: a connection with a map drops it at its first
	// read after any write, to map the file as it now is, and on 2 cores
	// that munmap cost a lookup of three pages more than the lookup itself
	// (40 of a write request's 100 us of authentication). Three read calls
	// cost less; their cache of 1 MiB holds the keys, sessions and users.
	switch kind {
	case lookupConn:
		q.Add("_pragma", "mmap_size(0)")
		q.Add("_pragma", "cache_size(-1024)")
	case readerConn:
		q.Add("_pragma", "mmap_size(1073741824)")
		q.Add("_pragma", "cache_size(-4096)")
	case writerConn:
		q.Add("_pragma", "mmap_size(1073741824)")
		q.Add("_pragma", "cache_size(-16384)")
	}
	if kind == writerConn {
		// A statement that fires a trigger keeps a journal of its own, so
		// that it can be undone alone; in memory, not a temp file.
		q.Add("_pragma", "temp_store(MEMORY)")
		q.Add("_pragma", "journal_mode(WAL)")
		// The checkpointer runs the checkpoints, off the commit path; a
		// log that starts over is cut back to walLimit.
		q.Add("_pragma", "wal_autocheckpoint(0)")
		q.Add("_pragma", fmt.Sprintf("journal_size_limit(%d)", walLimit))
		q.Set("_txlock", "immediate")
	} else {
		q.Set("mode", "ro")
		q.Add("_pragma", "query_only(1)")
	}
	u := url.URL{Scheme: "file", Path: path, RawQuery: q.Encode()}
	return u.String()
}

// migrate brings the journal to this build's schema. A journal at a
// later schema than this build knows was written by a newer build, whose
// tables and triggers this one would write around (an older settler
// clearing marks a newer walk reads): it is refused.
func migrate(ctx context.Context, db *sql.DB) error {
	p, err := provider(db)
	if err != nil {
		return err
	}
	at, err := p.GetDBVersion(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	sources := p.ListSources()
	if known := sources[len(sources)-1].Version; at > known {
		return fmt.Errorf("the journal is at schema %d, and this tradejournal knows schemas up to %d: "+
			"it was opened by a newer tradejournal; run that one (or a newer one) on it", at, known)
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

func provider(db *sql.DB) (*goose.Provider, error) {
	fsys, err := fs.Sub(schema.FS, ".")
	if err != nil {
		return nil, err
	}
	return goose.NewProvider(goose.DialectSQLite3, db, fsys)
}

// MigrationStatus is one migration and whether it has been applied.
type MigrationStatus struct {
	Version   int64
	Name      string
	Applied   bool
	AppliedAt time.Time
}

// Migrations reports every known migration; Open has applied them all.
func (db *DB) Migrations(ctx context.Context) ([]MigrationStatus, error) {
	p, err := provider(db.write)
	if err != nil {
		return nil, err
	}
	st, err := p.Status(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]MigrationStatus, 0, len(st))
	for _, s := range st {
		out = append(out, MigrationStatus{
			Version:   s.Source.Version,
			Name:      filepath.Base(s.Source.Path),
			Applied:   s.State == goose.StateApplied,
			AppliedAt: s.AppliedAt,
		})
	}
	return out, nil
}

// Close stops the settler and the checkpointer and closes the pools.
func (db *DB) Close() error {
	db.settler.close()
	db.readStmts.close()
	db.lookupStmts.close()
	db.writeStmts.close()
	return errors.Join(db.checkpointer.close(), db.read.Close(), db.lookup.Close(), db.write.Close(), closeWALIndex(db.shm))
}

// openWALIndex opens the wal-index of the journal at path for reading its
// header, or is nil. The connections have created it; it is beside the
// file the path names once symbolic links are followed, as SQLite finds
// it.
func openWALIndex(path string) *os.File {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	shm, err := os.Open(path + "-shm")
	if err != nil {
		return nil
	}
	return shm
}

// closeWALIndex closes the wal-index opened by openWALIndex, after every
// connection of the DB: a descriptor closed drops all of the process's
// POSIX locks on the file, the connections' own included.
func closeWALIndex(shm *os.File) error {
	if shm == nil {
		return nil
	}
	return shm.Close()
}

// Pragma reads one pragma from a reader (readOnly) or the writer connection;
// tests use it to show every connection carries its settings.
func (db *DB) Pragma(ctx context.Context, name string, readOnly bool) (string, error) {
	pool := db.write
	if readOnly {
		pool = db.read
	}
	var v string
	err := pool.QueryRowContext(ctx, "PRAGMA "+name).Scan(&v)
	return v, err
}

// CapSize caps the database file at about maxBytes (PRAGMA max_page_count
// on the writer connection; at least its current size): a write that would
// grow it further fails as on a full disk (IsStorageFull). 0 lifts the
// cap. It lasts while the DB is open. Tests use it to fill the disk for
// real without a filesystem of their own.
func (db *DB) CapSize(ctx context.Context, maxBytes int64) error {
	return inTxDo(ctx, db.begin, func(tx txn) error {
		pages := int64(4294967294) // SQLite's own limit
		if maxBytes > 0 {
			var pageSize int64
			if err := tx.QueryRowContext(ctx, `PRAGMA page_size`).Scan(&pageSize); err != nil {
				return err
			}
			pages = max(1, maxBytes/pageSize)
		}
		_, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA max_page_count = %d`, pages))
		return err
	})
}

// now is the current time as stored text.
func (db *DB) now() string {
	return db.Now().UTC().Format(TimeFormat)
}

// begin starts a write: its turn on the one writer connection, in a group
// of writes committed together (BEGIN IMMEDIATE; see writer).
func (db *DB) begin(ctx context.Context) (txn, error) {
	return db.writer.begin(ctx, false)
}

// beginAlone starts a write that may run long, in a transaction of its own
// (see writer.begin).
func (db *DB) beginAlone(ctx context.Context) (txn, error) {
	return db.writer.begin(ctx, true)
}

// beginRead starts a read transaction on a read-only connection, so that a
// request's several queries see one snapshot.
func (db *DB) beginRead(ctx context.Context) (txn, error) {
	db.readStmts.preparePending(ctx)
	tx, err := db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	return txn{Tx: tx, cache: db.readStmts}, err
}

// inTx runs fn in a transaction from begin (db.begin, db.beginAlone or
// db.beginRead) and commits it when fn succeeds. When fn fails, the
// transaction rolls back and the result is R's zero value; when the commit
// fails, fn's result comes back with the commit's error.
func inTx[R any](ctx context.Context, begin func(context.Context) (txn, error), fn func(txn) (R, error)) (R, error) {
	var zero R
	tx, err := begin(ctx)
	if err != nil {
		return zero, err
	}
	defer tx.Rollback() // after a panic; a no-op once the transaction has ended
	r, err := fn(tx)
	if err != nil {
		tx.rollbackFor(err)
		return zero, err
	}
	return r, tx.Commit()
}

// inTxDo is inTx for work that returns nothing but its error.
func inTxDo(ctx context.Context, begin func(context.Context) (txn, error), fn func(txn) error) error {
	_, err := inTx(ctx, begin, func(tx txn) (struct{}, error) { return struct{}{}, fn(tx) })
	return err
}

func newUUIDv7() string {
	return uuid.Must(uuid.NewV7()).String()
}
