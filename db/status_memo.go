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
// The journal has changed when any connection has committed, this
// process's writer or another process's (a CLI import next to the server):
// SQLite's data_version, read in the status's own read transaction, says
// whether a commit came between that connection's snapshot and its last
// one. The memo folds those per-connection counters into one epoch, bumped
// whenever a read connection sees its counter move (or is seen for the
// first time), and keeps a walk only with the epoch it was read under. A
// commit after a walk's snapshot moves the counter of every connection
// that reads after it, so the next read on any of them bumps the epoch
// past the walk's: the walk is never read again. A read whose epoch moved
// for another read between its start and its snapshot (the bump may then
// be for a commit after its own snapshot) neither reads nor keeps a walk.
//
// Memory is bounded: the walks are dropped at every bump, and together
// they keep at most maxMemoDays days (a day is a map entry of the walk).
type statusMemo struct {
	mu    sync.Mutex
	epoch uint64
	seen  map[any]int64 // a read connection's data_version at its last snapshot
	walks map[memoKey]memoWalk
	days  int // the days the walks keep, together
}

// maxMemoDays bounds the days the memo keeps: a few MB, the walks of
// dozens of accounts of years of trading each.
const maxMemoDays = 100_000

// maxMemoConns bounds the connections remembered; the read pool has a few.
const maxMemoConns = 64

type memoKey struct{ userID, accountID string }

// memoWalk is an account's ended walk, read under epoch with rules.
type memoWalk struct {
	epoch uint64
	rules string // rulesKey of the rules and the user's timezone it was walked with
	state *prop.State
}

// memoView is one read transaction's standing with the memo.
type memoView struct {
	epoch uint64
	// trusted: no other read moved the epoch between this one's start
	// and its snapshot; only then may it read or keep a walk.
	trusted bool
}

func newStatusMemo() *statusMemo {
	return &statusMemo{seen: map[any]int64{}, walks: map[memoKey]memoWalk{}}
}

// start is the epoch as a read transaction begins, before its snapshot.
func (m *statusMemo) start() uint64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.epoch
}

// observe is the read's view once its snapshot is taken on connection conn,
// whose data_version is dv; began is what start said before.
func (m *statusMemo) observe(conn any, dv int64, began uint64) memoView {
	m.mu.Lock()
	defer m.mu.Unlock()
	trusted := m.epoch == began
	if last, ok := m.seen[conn]; !ok || last != dv {
		if len(m.seen) >= maxMemoConns {
			clear(m.seen) // each is seen anew: a bump, never a missed one
		}
		m.seen[conn] = dv
		m.epoch++
		clear(m.walks)
		m.days = 0
	}
	return memoView{epoch: m.epoch, trusted: trusted}
}

// get is the account's kept walk under the view with those rules, or nil.
func (m *statusMemo) get(v memoView, k memoKey, rules string) *prop.State {
	if !v.trusted {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	w, ok := m.walks[k]
	if !ok || w.epoch != v.epoch || w.rules != rules {
		return nil
	}
	return w.state
}

// put keeps the account's walk, read under the view with those rules,
// unless the epoch has moved since (it would never be read) or the view
// is not trusted.
func (m *statusMemo) put(v memoView, k memoKey, rules string, st *prop.State) {
	if !v.trusted {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.epoch != v.epoch {
		return
	}
	if old, ok := m.walks[k]; ok {
		m.days -= old.state.Days()
	}
	if m.days+st.Days() > maxMemoDays {
		clear(m.walks)
		m.days = 0
	}
	m.walks[k] = memoWalk{epoch: v.epoch, rules: rules, state: st}
	m.days += st.Days()
}

// inStatusTx runs fn in a read transaction as beginRead does, on a
// connection of its own so that its data_version can be told from the
// others', with the transaction's view of the memo.
func (db *DB) inStatusTx(ctx context.Context, fn func(txn, memoView) error) error {
	began := db.statuses.start()
	c, err := db.read.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	var id any
	if err := c.Raw(func(driverConn any) error { id = driverConn; return nil }); err != nil {
		return err
	}
	db.readStmts.preparePending(ctx)
	tx, err := c.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	return inTxDo(ctx, func(context.Context) (txn, error) { return txn{Tx: tx, cache: db.readStmts}, nil }, func(t txn) error {
		// data_version takes the transaction's snapshot: it is read first.
		var dv int64
		if err := t.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&dv); err != nil {
			return err
		}
		return fn(t, db.statuses.observe(id, dv, began))
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
