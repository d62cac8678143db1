package db

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCache keeps the journal's fixed queries prepared. Parsing a statement
// costs more than running one of the small queries here, and the driver
// keeps no cache of its own; database/sql keeps each prepared statement on
// every connection that runs it.
//
// A query is prepared the first time it is seen outside a transaction's
// connection: a transaction only records the queries it missed, and the
// next begin prepares them before taking a connection. Preparing from inside
// a transaction could wait forever for a second connection (the writer pool
// has one).
type stmtCache struct {
	pool    *sql.DB
	mu      sync.Mutex
	stmts   map[string]*sql.Stmt
	pending map[string]bool
}

func newStmtCache(pool *sql.DB) *stmtCache {
	return &stmtCache{pool: pool, stmts: make(map[string]*sql.Stmt), pending: make(map[string]bool)}
}

// lookup returns the prepared statement for query, or nil after noting it
// for the next prepare.
func (c *stmtCache) lookup(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stmts[query]
	if s == nil && len(c.stmts)+len(c.pending) < maxStmts {
		c.pending[query] = true
	}
	return s
}

// maxStmts bounds the cache: the journal's fixed queries fit many times
// over, while a query text built for each request (a filter with a varying
// number of terms) cannot make it grow without end; past it, queries run
// unprepared.
const maxStmts = 512

// preparePending prepares the queries lookups missed. The caller must hold
// no connection of the pool.
func (c *stmtCache) preparePending(ctx context.Context) {
	c.mu.Lock()
	queries := make([]string, 0, len(c.pending))
	for q := range c.pending {
		queries = append(queries, q)
	}
	clear(c.pending)
	c.mu.Unlock()
	for _, q := range queries {
		s, err := c.pool.PrepareContext(ctx, q)
		if err != nil {
			continue // the query keeps running unprepared and reports its own error
		}
		c.mu.Lock()
		if c.stmts[q] == nil {
			c.stmts[q] = s
		} else {
			s.Close()
		}
		c.mu.Unlock()
	}
}

// prepared returns query prepared, preparing it now if needed; the caller
// must hold no connection of the pool.
func (c *stmtCache) prepared(ctx context.Context, query string) (*sql.Stmt, error) {
	if s := c.lookup(query); s != nil {
		return s, nil
	}
	c.preparePending(ctx)
	if s := c.lookup(query); s != nil {
		return s, nil
	}
	return c.pool.PrepareContext(ctx, query) // report the error
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.stmts {
		s.Close()
	}
}

// txn is a transaction whose queries run as cached prepared statements:
// the journal's fixed texts, and the texts a list builds from its filters
// (a few shapes in practice; the cache's bound holds the rest off).
//
// A write transaction (m set) is one write of a group (see writer): its
// Commit waits for the group's, and once it has its turn it runs to its
// end, whatever becomes of its caller's context, since SQLite answers an
// interrupted write by rolling back the whole group's transaction.
type txn struct {
	*sql.Tx
	cache *stmtCache
	m     *member
}

// Commit commits the transaction; a write returns once its group has
// committed, with the group's outcome.
func (t txn) Commit() error {
	if t.m != nil {
		return t.m.commit()
	}
	return t.Tx.Commit()
}

// Rollback undoes the transaction; a write undoes only itself.
func (t txn) Rollback() error { return t.rollbackFor(nil) }

// rollbackFor is Rollback of a transaction that failed with cause, which a
// write's group may need to hear (see member.rollback).
func (t txn) rollbackFor(cause error) error {
	if t.m != nil {
		return t.m.rollback(cause)
	}
	return t.Tx.Rollback()
}

// ctx is the context a query of the transaction runs under.
func (t txn) ctx(ctx context.Context) context.Context {
	if t.m != nil {
		return context.WithoutCancel(ctx)
	}
	return ctx
}

func (t txn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	ctx = t.ctx(ctx)
	if s := t.prepared(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, query, args...)
}

func (t txn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	ctx = t.ctx(ctx)
	if s := t.prepared(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, query, args...)
}

func (t txn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx = t.ctx(ctx)
	if s := t.prepared(ctx, query); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, query, args...)
}

// maxTxStmts bounds the statements a write group prepares on its own
// transaction.
const maxTxStmts = 64

// prepared is query as a statement of the transaction: the cache's, or for
// a write, one prepared on the group's transaction the first time one of
// its writes runs it, so that a write running a query thousands of times
// (an import's trades) parses it once even before the cache has it. nil:
// run it unprepared (a read the cache has not prepared yet, or past the
// group's bound).
func (t txn) prepared(ctx context.Context, query string) *sql.Stmt {
	if s := t.cache.lookup(query); s != nil {
		return t.bind(ctx, query, s)
	}
	if t.m == nil {
		return nil
	}
	g := t.m.g
	if s := g.stmts[query]; s != nil {
		return s
	}
	if len(g.stmts) >= maxTxStmts {
		return nil
	}
	s, err := t.Tx.PrepareContext(ctx, query)
	if err != nil {
		return nil // run unprepared, to report the error where it is met
	}
	if g.stmts == nil {
		g.stmts = map[string]*sql.Stmt{}
	}
	g.stmts[query] = s
	return s
}

// bind is the cache's statement s of query bound to the transaction: for
// a write, once per group, since database/sql keeps each binding until the
// transaction ends (an import of a million fills ran its inserts hundreds
// of thousands of times, each binding 170 bytes kept); a read's are few.
func (t txn) bind(ctx context.Context, query string, s *sql.Stmt) *sql.Stmt {
	if t.m == nil {
		return t.Tx.StmtContext(ctx, s)
	}
	g := t.m.g
	if b := g.bound[query]; b != nil {
		return b
	}
	if g.bound == nil {
		g.bound = map[string]*sql.Stmt{}
	}
	g.bound[query] = t.Tx.StmtContext(ctx, s)
	return g.bound[query]
}

// stmt is query bound to the transaction, for running many times.
func (t txn) stmt(ctx context.Context, query string) (txStmt, error) {
	ctx = t.ctx(ctx)
	if s := t.cache.lookup(query); s != nil {
		return txStmt{t.bind(ctx, query, s), t}, nil
	}
	s, err := t.Tx.PrepareContext(ctx, query)
	return txStmt{s, t}, err
}

// txStmt is a statement of a transaction, run under the transaction's
// context rule.
type txStmt struct {
	*sql.Stmt
	tx txn
}

func (s txStmt) ExecContext(ctx context.Context, args ...any) (sql.Result, error) {
	return s.Stmt.ExecContext(s.tx.ctx(ctx), args...)
}

func (s txStmt) QueryRowContext(ctx context.Context, args ...any) *sql.Row {
	return s.Stmt.QueryRowContext(s.tx.ctx(ctx), args...)
}
