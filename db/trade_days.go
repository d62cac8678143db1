package db

import (
	"cmp"
	"context"
	"database/sql"
	"math"

	"tradejournal/db/stats"
)

// The statistics' days (schema 00013): one row per user, day and account,
// and one per user and day for all the user's accounts (account ''),
// holding what summary, daily and equity read of the day's closed trades
// (stats.DayRow). A trade saved after its day's last is added by a trigger;
// any other change marks the day stale, and settleDays rebuilds it from the
// day's trades before the write commits. The statistics read the days when
// the filter is the account and dates alone and no day of the user is
// stale, else the trades.

// settleDays rebuilds every stale day from its closed trades. Each write
// runs it before it commits (txn.Commit), so the days its changes marked
// are right in the same transaction.
func settleDays(ctx context.Context, tx txn) error {
	rows, err := tx.QueryContext(ctx, `SELECT user_id, day FROM trade_days_stale`)
	if err != nil {
		return err
	}
	var stale [][2]string
	for rows.Next() {
		var k [2]string
		if err := rows.Scan(&k[0], &k[1]); err != nil {
			rows.Close()
			return err
		}
		stale = append(stale, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(stale) == 0 {
		return err
	}
	for _, k := range stale {
		if err := rebuildDay(ctx, tx, k[0], k[1]); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM trade_days_stale`)
	return err
}

// rebuildDay replaces the user's rows of day with ones made from its closed
// trades in order.
func rebuildDay(ctx context.Context, tx txn, userID, day string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM trade_days WHERE user_id = ? AND day = ?
		AND account_id IN (SELECT '' UNION ALL SELECT id FROM accounts WHERE user_id = ?)`, userID, day, userID); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT t.account_id, t.id, coalesce(t.exit_time, ''), t.status, t.gross_pnl,
		t.total_commission, t.net_pnl, t.r_ratio, t.hold_seconds
		FROM trades t WHERE t.user_id = ? AND t.day = ? AND `+closed+` ORDER BY `+statsOrder, userID, day)
	if err != nil {
		return err
	}
	all := stats.DayRow{Day: day}
	var accounts []string
	byAccount := map[string]*stats.DayRow{}
	for rows.Next() {
		var account string
		var t stats.DayTrade
		var gross, commission, net float64
		var r sql.NullFloat64
		var hold sql.NullInt64
		if err := rows.Scan(&account, &t.ID, &t.Exit, &t.Status, &gross, &commission, &net, &r, &hold); err != nil {
			rows.Close()
			return err
		}
		t.Gross, t.Commission, t.Net, t.NetPnL = units(gross), units(commission), units(net), net
		if r.Valid {
			t.R = &r.Float64
		}
		if hold.Valid {
			t.Hold = &hold.Int64
		}
		all.Add(t)
		a := byAccount[account]
		if a == nil {
			a = &stats.DayRow{Day: day}
			byAccount[account] = a
			accounts = append(accounts, account)
		}
		a.Add(t)
	}
	rows.Close()
	if err := rows.Err(); err != nil || all.Trades == 0 {
		return err
	}
	insert, err := tx.stmt(ctx, `INSERT INTO trade_days (user_id, account_id, day, trades, wins, losses, breakeven,
		gross, commissions, net, win_sum, loss_sum, largest_win, largest_loss, r_sum, r_count, hold_sum, hold_count,
		win_first, win_last, win_max, loss_first, loss_last, loss_max, high, low, fall, last_exit, last_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	put := func(account string, d *stats.DayRow) error {
		_, err := insert.ExecContext(ctx, userID, account, day, d.Trades, d.Wins, d.Losses, d.Breakeven,
			d.Gross, d.Commissions, d.Net, d.WinSum, d.LossSum, d.LargestWin, d.LargestLoss, d.RSum, d.RCount,
			d.HoldSum, d.HoldCount, d.WinFirst, d.WinLast, d.WinMax, d.LossFirst, d.LossLast, d.LossMax,
			d.High, d.Low, d.Fall, d.LastExit, d.LastID)
		return err
	}
	if err := put("", &all); err != nil {
		return err
	}
	for _, a := range accounts {
		if err := put(a, byAccount[a]); err != nil {
			return err
		}
	}
	return nil
}

// units is an amount rounded to 8 decimals in units of 1e-8, as the days
// hold it.
func units(x float64) int64 {
	return int64(math.Round(x * 1e8))
}

// SettleDays rebuilds the statistics' stale days: those of a journal from
// before schema 13, or of trades written straight through SQL. Open calls
// it.
func (db *DB) SettleDays(ctx context.Context) error {
	return inTxDo(ctx, db.beginAlone, func(tx txn) error { return settleDays(ctx, tx) })
}

// byDays says whether the statistics of filter f can be read from the
// days: it names at most an account and dates.
func (f TradeFilter) byDays() bool {
	rest := f
	rest.AccountID, rest.StartDate, rest.EndDate = "", "", ""
	return rest.isZero()
}

// isZero says whether the filter sets nothing.
func (f TradeFilter) isZero() bool {
	return f.Symbol == "" && f.TagIDs == nil && f.AccountID == "" && f.StartDate == "" && f.EndDate == "" &&
		f.Status == "" && f.Side == "" && f.AssetClass == "" && f.PlaybookID == "" && f.MinPnL == nil &&
		f.MaxPnL == nil && f.Reviewed == nil && f.MinRating == nil && f.HasViolations == nil && f.ImportID == "" &&
		f.Day == "" && !f.Closed && f.IDs == nil
}

// What a statistic reads of each day (statDays).
type dayColumns int

const (
	orderColumns dayColumns = iota // what stats.Fold reads
	dailyColumns                   // a day of /stats/daily
	netColumns                     // the day and its net
)

// daysCondition is the condition on trade_days of filter f (byDays), with
// its arguments.
func daysCondition(userID string, f TradeFilter) (string, []any) {
	return `user_id = ? AND account_id = ? AND day >= ? AND day <= ?`,
		[]any{userID, f.AccountID, f.StartDate, cmp.Or(f.EndDate, "9999-99-99")}
}

// statDays reads the given columns of the days of the user's closed
// trades matching f, in order, when f allows (byDays) and no day of the
// user is stale; ok is false otherwise, and the caller reads the trades.
func statDays(ctx context.Context, tx txn, userID string, f TradeFilter, cols dayColumns) (days []stats.DayRow, ok bool, err error) {
	if !f.byDays() {
		return nil, false, nil
	}
	var stale bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM trade_days_stale WHERE user_id = ?)`, userID).
		Scan(&stale); err != nil || stale {
		return nil, false, err
	}
	var d stats.DayRow
	var columns string
	var into []any
	switch cols {
	case orderColumns:
		columns = `day, net, wins, losses, win_first, win_last, win_max, loss_first, loss_last, loss_max, high, low, fall`
		into = []any{&d.Day, &d.Net, &d.Wins, &d.Losses, &d.WinFirst, &d.WinLast, &d.WinMax, &d.LossFirst, &d.LossLast,
			&d.LossMax, &d.High, &d.Low, &d.Fall}
	case dailyColumns:
		columns = `day, net, trades, wins, losses, breakeven, gross, commissions`
		into = []any{&d.Day, &d.Net, &d.Trades, &d.Wins, &d.Losses, &d.Breakeven, &d.Gross, &d.Commissions}
	default:
		columns = `day, net`
		into = []any{&d.Day, &d.Net}
	}
	where, args := daysCondition(userID, f)
	rows, err := tx.QueryContext(ctx, `SELECT `+columns+` FROM trade_days WHERE `+where+` ORDER BY day`, args...)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	for rows.Next() {
		if err := rows.Scan(into...); err != nil {
			return nil, false, err
		}
		days = append(days, d)
	}
	return days, true, rows.Err()
}
