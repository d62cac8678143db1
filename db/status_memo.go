package db

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"tradejournal/db/prop"
)

// statusMemo keeps each account's walk (prop.State), so that an account's
// status, and the Accounts page, goes on from the kept walk instead of
// walking every fill again (issue 31): a read walks again only from the
// first day a change since the kept walk can touch, and after no change
// reads the kept walk as it is.
//
// Which days changed is read in the status read's own snapshot, from the
// marks the schema's triggers leave (schema 00016): so a change another
// process commits (a CLI import next to the server) is seen as one of this
// process is. A kept walk remembers what its snapshot said of its user's
// days (walkMarks); a day changed since is then marked stale in the
// read's snapshot, or was settled since, in a later generation.
//
// Memory is bounded: the walks together keep at most maxMemoDays days (a
// day is a few words of a walk's state).
type statusMemo struct {
	mu    sync.Mutex
	walks map[memoKey]memoWalk
	days  int // the days the walks keep, together
	// How reads found their walks: walking every fill, going on from a
	// kept walk, or taking one as it is.
	walked, resumed, taken atomic.Int64
}

// maxMemoDays bounds the days the memo keeps: some tens of MB, the walks
// of dozens of accounts of years of trading each.
const maxMemoDays = 100_000

type memoKey struct{ userID, accountID string }

// memoWalk is an account's walk, and what it was walked from.
type memoWalk struct {
	rules   string // rulesKey of the rules and the user's timezone it was walked with
	state   *prop.State
	marks   walkMarks     // of the user's days, in its snapshot
	payouts []prop.Payout // the account's paid payouts, in paidPayouts' order
	spans   []tradeSpan   // the account's trades held longer than spanLimit
}

// walkMarks is what a snapshot says of a user's days: the highest
// generation of their settled days, and the earliest day marked stale
// ("" for none).
type walkMarks struct {
	gen   int64
	stale string
}

func newStatusMemo() *statusMemo {
	return &statusMemo{walks: map[memoKey]memoWalk{}}
}

// get is the account's kept walk.
func (m *statusMemo) get(k memoKey) (memoWalk, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	w, ok := m.walks[k]
	return w, ok
}

// put keeps the account's walk, unless the one kept is of a later
// generation (a read whose snapshot is newer kept it meanwhile).
func (m *statusMemo) put(k memoKey, w memoWalk) {
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.walks[k]
	if ok {
		if old.marks.gen > w.marks.gen {
			return
		}
		m.days -= old.state.Days()
	}
	if m.days+w.state.Days() > maxMemoDays {
		clear(m.walks)
		m.days = 0
	}
	m.walks[k] = w
	m.days += w.state.Days()
}

// walkMarksQuery reads, of user ?1, the highest generation of the settled
// days, the earliest stale day, and the earliest day settled after
// generation ?2: each from an index, a few rows.
const walkMarksQuery = `SELECT
	(SELECT coalesce(max(gen), 0) FROM trade_days_settled WHERE user_id = ?1),
	(SELECT min(day) FROM trade_days_stale WHERE user_id = ?1),
	(SELECT min(day) FROM trade_days_settled WHERE user_id = ?1 AND gen > ?2)`

// readWalkMarks reads what the transaction's snapshot says of the user's
// days, and the earliest of them settled after generation since ("" for
// none).
func readWalkMarks(ctx context.Context, tx txn, userID string, since int64) (walkMarks, string, error) {
	var m walkMarks
	var stale, settled *string
	err := tx.QueryRowContext(ctx, walkMarksQuery, userID, since).Scan(&m.gen, &stale, &settled)
	if err != nil {
		return walkMarks{}, "", err
	}
	if stale != nil {
		m.stale = *stale
	}
	if settled != nil {
		return m, *settled, nil
	}
	return m, "", nil
}

// changedFrom is the earliest instant the kept walk may have changed at
// since it was walked, read at marks (with settled, the earliest day
// settled since its generation) and payouts; changed is false when
// nothing it walked has changed. The kept walk's own stale days count:
// a snapshot of the same generation may be older than its.
func (w memoWalk) changedFrom(marks walkMarks, settled string, payouts []prop.Payout) (from time.Time, changed bool) {
	day := ""
	for _, d := range []string{marks.stale, settled, w.marks.stale, changedPayout(w.payouts, payouts)} {
		if d != "" && (day == "" || d < day) {
			day = d
		}
	}
	if day == "" {
		return time.Time{}, false
	}
	at, err := time.Parse(DateLayout, day)
	if err != nil {
		return time.Time{}, true // walk it all
	}
	return at.Add(-walkMargin), true
}

// changedPayout is the earliest day of a payout in one list and not the
// other ("" when they are the same).
func changedPayout(was, is []prop.Payout) string {
	left := map[prop.Payout]int{}
	for _, p := range was {
		left[p]++
	}
	for _, p := range is {
		left[p]--
	}
	day := ""
	for p, n := range left {
		if n != 0 && (day == "" || p.Day < day) {
			day = p.Day
		}
	}
	return day
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
