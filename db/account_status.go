package db

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"time"

	"tradejournal/db/prop"
	"tradejournal/db/trading"
)

// AccountStatus walks one of the user's accounts' fills and paid payouts in
// time order against its rules (DESIGN §10), as of now. Realised P&L only:
// the journal has no market prices. The walk is kept (statusMemo): a read
// goes on from the first day changed since, or after no change takes the
// kept walk to now.
func (db *DB) AccountStatus(ctx context.Context, userID, id string) (prop.Status, error) {
	var s prop.Status
	err := inTxDo(ctx, db.beginRead, func(tx txn) error {
		a, err := oneAccount(ctx, tx, userID, id)
		if err != nil {
			return err
		}
		loc, err := db.userLocation(ctx, tx, userID)
		if err != nil {
			return err
		}
		s, err = db.accountStatus(ctx, tx, userID, a, loc)
		return err
	})
	if err != nil {
		return prop.Status{}, err
	}
	return s, nil
}

// AccountStatuses is AccountStatus of each of the user's accounts given,
// in one read transaction.
func (db *DB) AccountStatuses(ctx context.Context, userID string, accounts []Account) ([]prop.Status, error) {
	out := make([]prop.Status, len(accounts))
	err := inTxDo(ctx, db.beginRead, func(tx txn) error {
		loc, err := db.userLocation(ctx, tx, userID)
		if err != nil {
			return err
		}
		for i, a := range accounts {
			if out[i], err = db.accountStatus(ctx, tx, userID, a, loc); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// accountStatus is the status of account a of the user, whose timezone is
// loc, read in tx: from the walk the memo kept, gone on from the first day
// changed since (or as it is), else from a walk of every fill; the memo
// then keeps the walk.
func (db *DB) accountStatus(ctx context.Context, tx txn, userID string, a Account, loc *time.Location) (prop.Status, error) {
	rules, err := db.accountRules(a)
	if err != nil {
		return prop.Status{}, err
	}
	key := memoKey{userID, a.ID}
	w, err := db.walkAccount(ctx, tx, key, rules, loc)
	if err != nil {
		return prop.Status{}, err
	}
	db.statuses.put(key, w)
	now := db.Now()
	s := w.state.Status(now)
	s.EvaluatedAt = now.UTC().Format(TimeFormat) // the API's one timestamp form
	return s, nil
}

// walkMargin is how long before the UTC midnight of a day marked changed
// a change can touch the walk: a trade's entry date is the date of its
// first fill in the user's zone, UTC+14 at the most, and a trade typed
// with a date alone happens at the start of that trading day, which for a
// day starting at noon or later is the afternoon before, in the account's
// zone: 14 + 12 hours before.
const walkMargin = 26 * time.Hour

// walkAccount is the walk of the user's account (key), whose rules are r,
// the user's timezone being loc, read in tx: the walk the memo kept under
// those rules gone on from the first day changed since it was walked, or
// a walk of every fill and paid payout.
func (db *DB) walkAccount(ctx context.Context, tx txn, key memoKey, r prop.Rules, loc *time.Location) (memoWalk, error) {
	userID, accountID := key.userID, key.accountID
	rk := rulesKey(r, loc.String())
	kept, ok := db.statuses.get(key)
	ok = ok && kept.rules == rk
	since := int64(math.MaxInt64) // no kept walk: no day settled since it
	if ok {
		since = kept.marks.gen
	}
	marks, settled, err := readWalkMarks(ctx, tx, userID, since)
	if err != nil {
		return memoWalk{}, err
	}
	payouts, err := paidPayouts(ctx, tx, accountID)
	if err != nil {
		return memoWalk{}, err
	}
	if marks.stale != "" {
		db.settler.staleSeen()
	}
	w := memoWalk{rules: rk, marks: marks, payouts: payouts}
	// A snapshot of an earlier generation than the kept walk's is older
	// than it: it walks everything.
	if ok && marks.gen >= kept.marks.gen {
		from, changed := kept.changedFrom(marks, settled, payouts)
		if !changed {
			db.statuses.taken.Add(1)
			w.state, w.spans = kept.state, kept.spans
			return w, nil
		}
		if cut, ok := kept.state.Since(from); ok {
			fills, err := accountFills(ctx, tx, userID, accountID, r.Session, loc, fillsSince(cut, kept.spans))
			if err != nil {
				return memoWalk{}, err
			}
			if w.state, err = kept.state.Resume(cut, fills, payouts); err != nil {
				return memoWalk{}, err
			}
			w.spans = spansSince(cut, kept.spans, fills)
			db.statuses.resumed.Add(1)
			return w, nil
		}
	}
	fills, err := accountFills(ctx, tx, userID, accountID, r.Session, loc, fillScope{})
	if err != nil {
		return memoWalk{}, err
	}
	if w.state, err = prop.Replay(r, fills, payouts); err != nil {
		return memoWalk{}, err
	}
	w.spans = spansSince(time.Time{}, nil, fills)
	db.statuses.walked.Add(1)
	return w, nil
}

// accountFillsQuery reads the fills of an account's trades in a fillScope:
// ?1 the user, ?2 the account, ?3 the scope's date, ?4 its trades held
// (JSON), read from the list, not by a scan of the trades before ?3.
const accountFillsQuery = `SELECT ` + accountFillsColumns + `
	FROM trades t LEFT JOIN executions e ON e.trade_id = t.id
	WHERE t.user_id = ?1 AND t.account_id = ?2 AND t.entry_date >= ?3
	UNION ALL SELECT ` + accountFillsColumns + `
	FROM json_each(?4) held CROSS JOIN trades t ON t.id = held.value LEFT JOIN executions e ON e.trade_id = t.id
	WHERE t.user_id = ?1 AND t.account_id = ?2 AND t.entry_date < ?3`

const accountFillsColumns = `t.id, t.side, t.point_value,
	e.position, e.side, e.price, e.quantity, e.commission, e.execution_timestamp`

// fillScope is which of an account's trades a walk reads: those entered
// on or after a date ("" for all), and those given, entered before it.
type fillScope struct {
	entered string
	held    []string
}

// spanLimit: a trade whose fills span longer is kept in a walk's spans.
// A walk going on from cut reads the trades entered from the day before
// cut's UTC date on (fillsSince). A trade entered before that has its first
// fill more than 12 hours before cut (its entry date is the date of that
// fill in a zone UTC−12 at the least), so one with a fill after cut spans
// longer than spanLimit, and the spans name it.
const spanLimit = 12 * time.Hour

// tradeSpan is a trade of the walk held longer than spanLimit: its first
// and last fill.
type tradeSpan struct {
	id          string
	first, last time.Time
}

// fillsSince is what a walk going on from cut reads: the trades entered
// from the day before its UTC date on, and those the kept spans hold
// across it.
func fillsSince(cut time.Time, spans []tradeSpan) fillScope {
	scope := fillScope{entered: cut.UTC().AddDate(0, 0, -1).Format(DateLayout)}
	for _, s := range spans {
		if s.first.Before(cut) && !s.last.Before(cut) {
			scope.held = append(scope.held, s.id)
		}
	}
	return scope
}

// spansSince is the spans of a walk gone on from cut: the kept ones begun
// before cut (trades no change since can have touched: a changed trade's
// fills are all after cut), and those of the trades read (fills, a trade's
// together) begun at or after it.
func spansSince(cut time.Time, kept []tradeSpan, fills []prop.Fill) []tradeSpan {
	var out []tradeSpan
	for _, s := range kept {
		if s.first.Before(cut) {
			out = append(out, s)
		}
	}
	for i := 0; i < len(fills); {
		s := tradeSpan{id: fills[i].TradeID, first: fills[i].At, last: fills[i].At}
		j := i + 1
		for ; j < len(fills) && fills[j].TradeID == s.id; j++ {
			if fills[j].At.Before(s.first) {
				s.first = fills[j].At
			}
			if fills[j].At.After(s.last) {
				s.last = fills[j].At
			}
		}
		if !s.first.Before(cut) && s.last.Sub(s.first) > spanLimit {
			out = append(out, s)
		}
		i = j
	}
	return out
}

// accountRules are the account's rules as the walk reads them, its day's zone from the
// journal's cache.
func (db *DB) accountRules(a Account) (prop.Rules, error) {
	r := a.AccountRules
	loc, err := db.zones.load(r.DayTimezone)
	if err != nil {
		return prop.Rules{}, fmt.Errorf("account %s: day_timezone: %w", a.ID, err)
	}
	start, err := time.Parse("15:04", r.DayStartsAt)
	if err != nil {
		return prop.Rules{}, fmt.Errorf("account %s: day_starts_at: %w", a.ID, err)
	}
	out := prop.Rules{
		ProfitTarget:   r.ProfitTarget,
		MaxDailyLoss:   r.MaxDailyLoss,
		MaxDrawdown:    r.MaxDrawdown,
		DrawdownLockAt: r.DrawdownLockAt,
		MinTradingDays: r.MinTradingDays,
		ConsistencyPct: r.ConsistencyPct,
		Session:        prop.Session{Start: start.Hour()*60 + start.Minute(), Loc: loc},
	}
	if a.StartingBalance != nil {
		out.StartingBalance = *a.StartingBalance
	}
	if r.DrawdownMode != nil {
		out.DrawdownMode = *r.DrawdownMode
	}
	if r.MaxContracts != nil {
		n := float64(*r.MaxContracts)
		out.MaxContracts = &n
	}
	return out, nil
}

// fillTrade is a trade with fills as the walk needs it: its fills in their
// stored order.
type fillTrade struct {
	id, side   string
	pointValue float64
	fills      []trading.Fill
	positions  []int
}

// accountFills reads the account's trades in scope with their fills, then
// the few typed without fills, and turns each into what the walk reads: a
// fill's realised P&L comes from the trading math's FIFO, as the trade's
// own P&L does. A trade's fills come together. A trade without fills is an
// opening fill at its entry and a closing one at its exit, in the user's
// timezone (loc); a date without a time is the start of that trading day.
func accountFills(ctx context.Context, tx txn, userID, accountID string, s prop.Session, loc *time.Location,
	scope fillScope) ([]prop.Fill, error) {
	rows, err := tx.QueryContext(ctx, accountFillsQuery,
		userID, accountID, scope.entered, jsonList(scope.held))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var trades []*fillTrade
	var bare []string // trades without fills
	byID := map[string]*fillTrade{}
	var cur *fillTrade
	for rows.Next() {
		var (
			id, side       string
			fillSide, ts   sql.NullString
			pv             float64
			position       sql.NullInt64
			price, qty, fc sql.NullFloat64
		)
		if err := rows.Scan(&id, &side, &pv, &position, &fillSide, &price, &qty, &fc, &ts); err != nil {
			return nil, err
		}
		if !position.Valid {
			bare = append(bare, id)
			continue
		}
		// A trade's fills come together; the map is for a plan that
		// does not keep them so.
		if cur == nil || cur.id != id {
			if cur = byID[id]; cur == nil {
				cur = &fillTrade{id: id, side: side, pointValue: pv,
					fills: make([]trading.Fill, 0, 4), positions: make([]int, 0, 4)} // most trades have a few
				byID[id] = cur
				trades = append(trades, cur)
			}
		}
		at, err := parseFillTimestamp(ts.String)
		if err != nil {
			return nil, fmt.Errorf("trade %s: %w", id, err)
		}
		cur.fills = append(cur.fills, trading.Fill{Side: fillSide.String, Price: price.Float64, Quantity: qty.Float64,
			Commission: fc.Float64, At: at})
		cur.positions = append(cur.positions, int(position.Int64))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	n := 0
	for _, t := range trades {
		n += len(t.fills)
	}
	out := make([]prop.Fill, 0, n)
	for _, t := range trades {
		if out, err = t.walkFills(out); err != nil {
			return nil, err
		}
	}
	if len(bare) == 0 {
		return out, nil
	}
	return withoutFills(ctx, tx, userID, bare, s, loc, out)
}

// walkFills is the trade's fills with what each realised, in time order
// (ties in their stored order, as the trade's own math takes them).
func (t *fillTrade) walkFills(out []prop.Fill) ([]prop.Fill, error) {
	if !slices.IsSorted(t.positions) {
		order := make([]int, len(t.fills))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return t.positions[a] - t.positions[b] })
		sorted := make([]trading.Fill, len(order))
		for k, i := range order {
			sorted[k] = t.fills[i]
		}
		t.fills = sorted
	}
	pos, err := trading.Derive(t.side, t.fills, t.pointValue)
	if err != nil {
		return nil, fmt.Errorf("trade %s: %w", t.id, err)
	}
	opening := trading.Opening(t.side)
	for _, i := range pos.Order {
		f := t.fills[i]
		open := f.Quantity
		if f.Side != opening {
			open = -open
		}
		out = append(out, prop.Fill{At: f.At, TradeID: t.id, Realized: pos.Realized[i], Commission: f.Commission, Open: open})
	}
	return out, nil
}

// withoutFills appends the trades typed without fills (ids) to out,
// as the walk sees them: an opening fill at the entry and a closing one
// realising the gross P&L, with the commission, at the exit (never before
// the entry). While such a
// trade is open its commission is charged at the entry; one closed by hand
// without an exit closes at its entry.
func withoutFills(ctx context.Context, tx txn, userID string, ids []string, s prop.Session, loc *time.Location, out []prop.Fill) ([]prop.Fill, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, status, entry_date, entry_time, exit_date, exit_time, exit_price,
		quantity, gross_pnl, total_commission FROM trades
		WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))`, userID, jsonList(ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			id, status, entryDate         string
			entryTime, exitDate, exitTime *string
			exitPrice                     *float64
			quantity, gross, commission   float64
		)
		if err := rows.Scan(&id, &status, &entryDate, &entryTime, &exitDate, &exitTime, &exitPrice,
			&quantity, &gross, &commission); err != nil {
			return nil, err
		}
		entry, err := instant(entryDate, entryTime, s, loc)
		if err != nil {
			return nil, fmt.Errorf("trade %s: %w", id, err)
		}
		open := prop.Fill{At: entry, TradeID: id, Open: quantity}
		closing := prop.Fill{At: entry, TradeID: id, Realized: gross, Commission: commission, Open: -quantity}
		switch {
		case exitPrice != nil && exitDate != nil:
			exit, err := instant(*exitDate, exitTime, s, loc)
			if err != nil {
				return nil, fmt.Errorf("trade %s: %w", id, err)
			}
			// Never before the entry: an exit typed without a time on the
			// entry's date is at the entry, not at the day's start.
			closing.At = later(exit, entry)
		case status == "open":
			open.Commission = commission
			out = append(out, open)
			continue
		}
		out = append(out, open, closing)
	}
	return out, rows.Err()
}

func later(a, b time.Time) time.Time {
	if a.Before(b) {
		return b
	}
	return a
}

// instant is a stored date and time in the user's timezone; a date without
// a time is the start of the trading day it labels.
func instant(date string, clock *string, s prop.Session, loc *time.Location) (time.Time, error) {
	if clock == nil {
		return s.Begins(date)
	}
	return time.ParseInLocation(DateLayout+" "+TimeLayout, date+" "+*clock, loc)
}

// paidPayouts are the account's paid payouts as the walk reads them.
func paidPayouts(ctx context.Context, tx txn, accountID string) ([]prop.Payout, error) {
	rows, err := tx.QueryContext(ctx, `SELECT date, total_amount FROM payouts
		WHERE account_id = ? AND status = 'paid' ORDER BY date, id`, accountID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []prop.Payout
	for rows.Next() {
		var p prop.Payout
		if err := rows.Scan(&p.Day, &p.Amount); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
