package db

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
)

// writer runs the journal's write transactions one at a time on the one
// writer connection, and commits them in groups: a write that finds others
// waiting for their turn leaves the transaction open for them, and the last
// of a group commits it, so one fsync makes many writes durable. Each write
// is still its own all-or-nothing unit (a savepoint inside the group's
// transaction, unless it is the first), and none is acknowledged before the
// group's commit has returned.
type writer struct {
	pool  *sql.DB
	stmts *stmtCache
	// turn is held (a value in it) by the one write running.
	turn chan struct{}
	// waiting counts the writes waiting for their turn.
	waiting atomic.Int64
	// open is the group the next write joins, nil when none is open; only
	// the write holding turn touches it.
	open *group
	// commits counts the groups committed.
	commits atomic.Int64
	// committed, when set, is called after each commit; it must not wait.
	committed func()
}

// maxGroup bounds the writes of one group, so that under a steady stream
// the first of them waits for a bounded time.
const maxGroup = 64

// group is one transaction shared by several writes.
type group struct {
	tx      *sql.Tx
	members int           // writes finished into it, waiting for its commit
	alone   bool          // a long write's own: committed as soon as it ends
	done    chan struct{} // closed once it has committed or failed
	// stmts are the queries its writes ran that the cache had not
	// prepared yet, prepared on its transaction (see txn.prepared).
	stmts map[string]*sql.Stmt
	// bound are the cache's statements its writes ran, bound to its
	// transaction once each: database/sql keeps every binding until the
	// transaction ends, and an import's runs a statement a million times.
	bound map[string]*sql.Stmt
	err   error // its commit's error, set before done closes
}

// member is one write's part of a group.
type member struct {
	w        *writer
	g        *group
	first    bool // the group's first write, which needs no savepoint: nothing is before it
	finished bool
}

func newWriter(pool *sql.DB, stmts *stmtCache) *writer {
	return &writer{pool: pool, stmts: stmts, turn: make(chan struct{}, 1)}
}

// begin waits for the write's turn and joins the open group, or opens one.
// A write that may run long (an import of thousands of fills) begins alone:
// the open group is committed first, and its own is committed when it ends,
// so that no short write's acknowledgement waits for it.
func (w *writer) begin(ctx context.Context, alone bool) (txn, error) {
	w.waiting.Add(1)
	w.turn <- struct{}{} // never given up on: a group may be waiting for this write to commit it
	w.waiting.Add(-1)
	if err := ctx.Err(); err != nil {
		w.release()
		return txn{}, err
	}
	if alone && w.open != nil {
		w.close()
	}
	m := &member{w: w, first: w.open == nil}
	if m.first {
		// No transaction holds the connection: statements noted since the
		// last group can be prepared now.
		w.stmts.preparePending(ctx)
		tx, err := w.pool.BeginTx(context.Background(), nil)
		if err != nil {
			w.release()
			return txn{}, err
		}
		w.open = &group{tx: tx, alone: alone, done: make(chan struct{})}
	} else if _, err := w.open.tx.Exec(`SAVEPOINT w`); err != nil {
		w.fail(fmt.Errorf("savepoint: %w", err))
		w.release()
		return txn{}, err
	}
	m.g = w.open
	return txn{Tx: m.g.tx, cache: w.stmts, m: m}, nil
}

// between runs fn while no write runs and no group is open: it waits for
// the turn as a write does, and commits the open group first.
func (w *writer) between(fn func()) {
	w.waiting.Add(1)
	w.turn <- struct{}{}
	w.waiting.Add(-1)
	if w.open != nil {
		w.close()
	}
	fn()
	<-w.turn
}

// commit adds the write to its group, and waits for the group's commit.
func (m *member) commit() error {
	if m.finished {
		return sql.ErrTxDone
	}
	m.finished = true
	g := m.g
	if !m.first {
		if _, err := g.tx.Exec(`RELEASE w`); err != nil {
			m.w.fail(fmt.Errorf("release savepoint: %w", err))
			m.w.release()
			return err
		}
	}
	if g == m.w.open { // still open: a failure of an earlier write may have ended it
		g.members++
	}
	m.w.release()
	<-g.done
	return g.err
}

// rollback undoes the write alone; the rest of its group stays. cause is
// why the write failed (nil when unknown): when it made SQLite roll the
// whole group back, the writes before this one hear it too.
func (m *member) rollback(cause error) error {
	if m.finished {
		return sql.ErrTxDone
	}
	m.finished = true
	w := m.w
	switch {
	case m.g != w.open:
		// The group has already ended.
	case m.first:
		// Alone in the group so far: the whole transaction is this write.
		err := m.g.tx.Rollback()
		w.end(sql.ErrTxDone)
		if err != nil && err != sql.ErrTxDone {
			w.release()
			return err
		}
	default:
		_, err := m.g.tx.Exec(`ROLLBACK TO w`)
		if err == nil {
			_, err = m.g.tx.Exec(`RELEASE w`)
		}
		if err != nil {
			// SQLite rolled the whole transaction back (a full disk, an
			// I/O error): the writes before this one are lost with it,
			// and their callers must hear so, and why when it is a full
			// disk (a 507, the same as this write's, not a 500).
			w.fail(groupLost(cause, err))
		}
	}
	w.release()
	return nil
}

// release ends the write's turn. The open group is committed when no write
// waits to join it, when it is full, or when it is a long write's own.
func (w *writer) release() {
	if g := w.open; g != nil && (w.waiting.Load() == 0 || g.members >= maxGroup || g.alone) {
		w.close()
	}
	<-w.turn
}

// close commits the open group, or rolls it back when no write is in it.
func (w *writer) close() {
	g := w.open
	if g.members == 0 {
		g.tx.Rollback()
		w.end(sql.ErrTxDone)
		return
	}
	w.commits.Add(1)
	w.end(g.tx.Commit())
	if w.committed != nil {
		w.committed()
	}
}

// fail rolls back the open group and tells its writes err.
func (w *writer) fail(err error) {
	if w.open != nil {
		w.open.tx.Rollback()
		w.end(err)
	}
}

// end closes the open group with its outcome.
func (w *writer) end(err error) {
	g := w.open
	w.open = nil
	g.err = err
	close(g.done)
}

// groupLost is the error of the writes of a group that SQLite rolled back
// when a later write of the group failed with cause (err is what undoing
// that write alone then met). Only a full disk is passed on: another cause
// (a conflict, a missing record) is that write's own, not the group's.
func groupLost(cause, err error) error {
	if IsStorageFull(cause) {
		return fmt.Errorf("the group of writes this one joined was rolled back when a later write met a full disk: %w (%w)", cause, err)
	}
	return fmt.Errorf("the group of writes this one joined was rolled back: %w", err)
}
