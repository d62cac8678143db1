package db

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"sync"

	"tradejournal/db/prop"
)

// statusMemo keeps each account's ended walk (prop.State) while the
// journal stays unchanged, so that an account's status, and the Accounts
// page, reads it instead of walking every fill again (issue 31): the walk
// grows with fills, the kept state only with trading days.
//
// Unchanged means no connection has committed, this process's writer or
// another process's (a CLI import next to the server). The journal's
// version says so (see probe); a status read takes the version, then its
// snapshot, then the version again, and only when the two are the same is
// its snapshot the journal as it was at that version: only then does it
// read or keep a walk, and only walks kept at that same version.
//
// Memory is bounded: the walks of one version are kept, those of any
// other dropped, and together they keep at most maxMemoDays days (a day is
// a map entry of the walk).
type statusMemo struct {
	mu    sync.Mutex
	at    version // the version the walks were read at
	walks map[memoKey]memoWalk
	days  int // the days the walks keep, together
}

// maxMemoDays bounds the days the memo keeps: a few MB, the walks of
// dozens of accounts of years of trading each.
const maxMemoDays = 100_000

type memoKey struct{ userID, accountID string }

// memoWalk is an account's ended walk.
type memoWalk struct {
	rules string // rulesKey of the rules and the user's timezone it was walked with
	state *prop.State
}

// memoView is one read transaction's standing with the memo: the version
// its snapshot is of, when it is known.
type memoView struct {
	at    version
	known bool
}

func newStatusMemo() *statusMemo {
	return &statusMemo{walks: map[memoKey]memoWalk{}}
}

// bracket is the view of a snapshot taken between two reads of the
// version: known only when nothing was committed between them.
func bracket(before, after version, ok bool) memoView {
	return memoView{at: after, known: ok && before == after}
}

// get is the account's kept walk with those rules at the view's version,
// or nil.
func (m *statusMemo) get(v memoView, k memoKey, rules string) *prop.State {
	if !v.known {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	w, ok := m.walks[k]
	if !ok || m.at != v.at || w.rules != rules {
		return nil
	}
	return w.state
}

// put keeps the account's walk, read at the view's version with those
// rules; the walks of another version are dropped.
func (m *statusMemo) put(v memoView, k memoKey, rules string, st *prop.State) {
	if !v.known {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.at != v.at {
		m.at = v.at
		clear(m.walks)
		m.days = 0
	}
	if old, ok := m.walks[k]; ok {
		m.days -= old.state.Days()
	}
	if m.days+st.Days() > maxMemoDays {
		clear(m.walks)
		m.days = 0
	}
	m.walks[k] = memoWalk{rules: rules, state: st}
	m.days += st.Days()
}

// version is the journal's version as the probe reads it: the same value
// twice means no connection committed between the two reads.
type version struct {
	conn uint64 // which of the probe's connections read it
	data int64  // its data_version
}

// probe reads the journal's version on one read-only connection of its
// own: SQLite's data_version moves on a connection whenever another
// connection, in this process or another, has committed since its last
// read, and never goes back, so reads on one connection, one after the
// other, order every commit. A connection that fails is replaced, and its
// successor's versions are told from its own.
type probe struct {
	mu    sync.Mutex
	pool  *sql.DB
	conn  *sql.Conn
	conns uint64
}

func newProbe(pool *sql.DB) *probe {
	pool.SetMaxOpenConns(1)
	pool.SetMaxIdleConns(1)
	return &probe{pool: pool}
}

// read is the journal's version now; ok is false when it cannot be read
// (the status then walks, as it would without the memo).
func (p *probe) read(ctx context.Context) (v version, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn == nil {
		c, err := p.pool.Conn(ctx)
		if err != nil {
			return version{}, false
		}
		p.conn = c
		p.conns++
	}
	if err := p.conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v.data); err != nil {
		p.conn.Close()
		p.conn = nil
		return version{}, false
	}
	v.conn = p.conns
	return v, true
}

func (p *probe) close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn != nil {
		p.conn.Close()
		p.conn = nil
	}
	return p.pool.Close()
}

// inStatusTx runs fn in a read transaction with its view of the memo: the
// version is read before and after the transaction takes its snapshot.
func (db *DB) inStatusTx(ctx context.Context, fn func(txn, memoView) error) error {
	before, ok := db.probe.read(ctx)
	return inTxDo(ctx, db.beginRead, func(tx txn) error {
		// The transaction's first read takes its snapshot: this one.
		var dv int64
		if err := tx.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&dv); err != nil {
			return err
		}
		after, okAfter := db.probe.read(ctx)
		return fn(tx, bracket(before, after, ok && okAfter))
	})
}

// rulesKey is everything a walk reads besides the journal's rows: the
// account's rules and the user's timezone (which places the fills of
// trades typed without them).
func rulesKey(r prop.Rules, userLoc string) string {
	return fmt.Sprint(r.StartingBalance, "|", opt(r.ProfitTarget), "|", opt(r.MaxDailyLoss), "|",
		opt(r.MaxDrawdown), "|", r.DrawdownMode, "|", opt(r.DrawdownLockAt), "|", opt(r.MinTradingDays), "|",
		opt(r.ConsistencyPct), "|", opt(r.MaxContracts), "|", strconv.Itoa(r.Session.Start), "|",
		r.Session.Loc.String(), "|", userLoc)
}

// opt is an optional rule as rulesKey writes it: its value, or "-".
func opt[T any](p *T) string {
	if p == nil {
		return "-"
	}
	return fmt.Sprint(*p)
}
