package db

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"tradejournal/db/prop"
	"tradejournal/db/trading"
)

// AccountStatus walks one of the user's accounts' fills and paid payouts in
// time order against its rules (DESIGN §10), as of now. Realised P&L only:
// the journal has no market prices. The walk is kept while the journal is
// unchanged (statusMemo): a read after no commit takes the kept walk to
// now.
func (db *DB) AccountStatus(ctx context.Context, userID, id string) (prop.Status, error) {
	var s prop.Status
	err := db.inStatusTx(ctx, func(tx txn, v memoView) error {
		a, err := oneAccount(ctx, tx, userID, id)
		if err != nil {
			return err
		}
		loc, err := db.userLocation(ctx, tx, userID)
		if err != nil {
			return err
		}
		s, err = db.accountStatus(ctx, tx, v, userID, a, loc)
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
	err := db.inStatusTx(ctx, func(tx txn, v memoView) error {
		loc, err := db.userLocation(ctx, tx, userID)
		if err != nil {
			return err
		}
		for i, a := range accounts {
			if out[i], err = db.accountStatus(ctx, tx, v, userID, a, loc); err != nil {
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
// loc: from the walk the memo kept under the transaction's view v, else
// from a walk of every fill, which the memo then keeps.
func (db *DB) accountStatus(ctx context.Context, tx txn, v memoView, userID string, a Account, loc *time.Location) (prop.Status, error) {
	rules, err := db.accountRules(a)
	if err != nil {
		return prop.Status{}, err
	}
	key, rk := memoKey{userID, a.ID}, rulesKey(rules, loc.String())
	st := db.statuses.get(v, key, rk)
	if st == nil {
		if st, err = walkAccount(ctx, tx, userID, a.ID, rules, loc); err != nil {
			return prop.Status{}, err
		}
		db.statuses.put(v, key, rk, st)
	}
	now := db.Now()
	s := st.Status(now)
	s.EvaluatedAt = now.UTC().Format(TimeFormat) // the API's one timestamp form
	return s, nil
}

// walkAccount walks every fill and paid payout of the account, whose
// rules are r, of the user, whose timezone is loc.
func walkAccount(ctx context.Context, tx txn, userID, accountID string, r prop.Rules, loc *time.Location) (*prop.State, error) {
	fills, err := accountFills(ctx, tx, userID, accountID, r.Session, loc)
	if err != nil {
		return nil, err
	}
	payouts, err := paidPayouts(ctx, tx, accountID)
	if err != nil {
		return nil, err
	}
	return prop.Replay(r, fills, payouts)
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

// accountFills reads the account's trades with their fills, then the few
// typed without fills, and turns each into what the walk reads: a fill's realised P&L comes from
// the trading math's FIFO, as the trade's own P&L does. A trade without
// fills is an opening fill at its entry and a closing one at its exit, in
// the user's timezone (loc); a date without a time is the start of that
// trading day.
func accountFills(ctx context.Context, tx txn, userID, accountID string, s prop.Session, loc *time.Location) ([]prop.Fill, error) {
	rows, err := tx.QueryContext(ctx, `SELECT t.id, t.side, t.point_value,
		e.position, e.side, e.price, e.quantity, e.commission, e.execution_timestamp
		FROM trades t LEFT JOIN executions e ON e.trade_id = t.id
		WHERE t.user_id = ? AND t.account_id = ?`, userID, accountID)
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
		WHERE account_id = ? AND status = 'paid'`, accountID)
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
