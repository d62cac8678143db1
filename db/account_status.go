package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"tradejournal/db/prop"
	"tradejournal/db/trading"
)

// AccountStatus walks one of the user's accounts' fills and paid payouts in
// time order against its rules (DESIGN §10), as of now. Realised P&L only:
// the journal has no market prices.
func (db *DB) AccountStatus(ctx context.Context, userID, id string) (prop.Status, error) {
	return inTx(ctx, db.beginRead, func(tx txn) (prop.Status, error) {
		a, err := scanAccount(tx.QueryRowContext(ctx,
			`SELECT `+accountColumns+` FROM accounts WHERE user_id = ? AND id = ?`, userID, id))
		if errors.Is(err, sql.ErrNoRows) {
			return prop.Status{}, notFound("Account")
		}
		if err != nil {
			return prop.Status{}, err
		}
		rules, err := accountRules(a)
		if err != nil {
			return prop.Status{}, err
		}
		loc, err := userLocation(ctx, tx, userID)
		if err != nil {
			return prop.Status{}, err
		}
		fills, err := accountFills(ctx, tx, userID, id, rules.Session, loc)
		if err != nil {
			return prop.Status{}, err
		}
		payouts, err := paidPayouts(ctx, tx, id)
		if err != nil {
			return prop.Status{}, err
		}
		return prop.Walk(rules, fills, payouts, db.Now())
	})
}

// accountRules are the account's rules as the walk reads them.
func accountRules(a Account) (prop.Rules, error) {
	r := a.AccountRules
	loc, err := time.LoadLocation(r.DayTimezone)
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

// statusTrade is one trade of the account as the walk needs it: its own
// columns, and its fills in their stored order.
type statusTrade struct {
	id, side, status, entryDate string
	entryTime, exitDate         *string
	exitTime                    *string
	exitPrice                   *float64
	quantity, pointValue        float64
	gross, commission           float64
	fills                       []trading.Fill
	positions                   []int
}

// accountFills reads the account's trades with their fills in one query and
// turns each fill into what the walk reads: its realised P&L from the
// trading math's FIFO, as the trade's own P&L is computed. A trade without
// fills is an opening fill at its entry and a closing one at its exit, in
// the user's timezone (loc); a date without a time is the start of that
// trading day.
func accountFills(ctx context.Context, tx txn, userID, accountID string, s prop.Session, loc *time.Location) ([]prop.Fill, error) {
	rows, err := tx.QueryContext(ctx, `SELECT t.id, t.side, t.status, t.entry_date, t.entry_time, t.exit_date,
		t.exit_time, t.exit_price, t.quantity, t.point_value, t.gross_pnl, t.total_commission,
		e.position, e.side, e.price, e.quantity, e.commission, e.execution_timestamp
		FROM trades t LEFT JOIN executions e ON e.trade_id = t.id
		WHERE t.user_id = ? AND t.account_id = ?`, userID, accountID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var trades []*statusTrade
	byID := map[string]*statusTrade{}
	for rows.Next() {
		var (
			t        statusTrade
			position *int
			side, ts *string
			fill     trading.Fill
		)
		var price, qty, commission *float64
		if err := rows.Scan(&t.id, &t.side, &t.status, &t.entryDate, &t.entryTime, &t.exitDate, &t.exitTime,
			&t.exitPrice, &t.quantity, &t.pointValue, &t.gross, &t.commission,
			&position, &side, &price, &qty, &commission, &ts); err != nil {
			return nil, err
		}
		tr := byID[t.id]
		if tr == nil {
			tr = &t
			byID[t.id] = tr
			trades = append(trades, tr)
		}
		if position == nil {
			continue // no fills
		}
		at, err := time.Parse(time.RFC3339Nano, *ts)
		if err != nil {
			return nil, fmt.Errorf("trade %s: %w", t.id, err)
		}
		fill = trading.Fill{Side: *side, Price: *price, Quantity: *qty, Commission: *commission, At: at}
		tr.fills = append(tr.fills, fill)
		tr.positions = append(tr.positions, *position)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}

	var out []prop.Fill
	for _, t := range trades {
		if len(t.fills) == 0 {
			f, err := t.withoutFills(s, loc)
			if err != nil {
				return nil, err
			}
			out = append(out, f...)
			continue
		}
		f, err := t.walkFills()
		if err != nil {
			return nil, err
		}
		out = append(out, f...)
	}
	return out, nil
}

// walkFills is the trade's fills with what each realised, in time order
// (ties in their stored order, as the trade's own math takes them).
func (t *statusTrade) walkFills() ([]prop.Fill, error) {
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
	opening := "buy"
	if t.side == "short" {
		opening = "sell"
	}
	out := make([]prop.Fill, len(pos.Order))
	for k, i := range pos.Order {
		f := t.fills[i]
		open := f.Quantity
		if f.Side != opening {
			open = -open
		}
		out[k] = prop.Fill{At: f.At, TradeID: t.id, Realized: pos.Realized[i], Commission: f.Commission, Open: open}
	}
	return out, nil
}

// withoutFills is a trade typed without fills as the walk sees it: an
// opening fill at its entry and a closing one realising its gross P&L, with
// its commission, at its exit. While it is open the commission is charged
// at the entry; a trade closed by hand without an exit closes at its entry.
func (t *statusTrade) withoutFills(s prop.Session, loc *time.Location) ([]prop.Fill, error) {
	entry, err := instant(t.entryDate, t.entryTime, s, loc)
	if err != nil {
		return nil, fmt.Errorf("trade %s: %w", t.id, err)
	}
	open := prop.Fill{At: entry, TradeID: t.id, Open: t.quantity}
	closing := prop.Fill{At: entry, TradeID: t.id, Realized: t.gross, Commission: t.commission, Open: -t.quantity}
	switch {
	case t.exitPrice != nil && t.exitDate != nil:
		if closing.At, err = instant(*t.exitDate, t.exitTime, s, loc); err != nil {
			return nil, fmt.Errorf("trade %s: %w", t.id, err)
		}
	case t.status == "open":
		open.Commission = t.commission
		return []prop.Fill{open}, nil
	}
	return []prop.Fill{open, closing}, nil
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
