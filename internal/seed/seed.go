// Package seed fills a journal with many trades straight through SQL, for
// tests and benchmarks at scale: creating them one by one through the API
// would measure fsync, not the queries under test.
package seed

import (
	"database/sql"
	"fmt"
	"testing"

	"github.com/google/uuid"
)

// RawPage is the baseline the trade list is measured against: a page of 100
// of a user's trades in the list's order, every column of the trade (as of
// schema 6: not the listing kept for the list since, which would make the
// baseline read the same trades' fills a second time). Its parameters are
// the user's id and the offset.
const RawPage = `SELECT id, user_id, account_id, symbol, root, side, quantity, entry_price, exit_price,
	entry_date, entry_time, exit_date, exit_time, exit_date_set, gross_pnl, net_pnl, total_commission, status,
	status_override, asset_class, asset_class_set, point_value, star_rating, review_notes, stop_loss_levels,
	take_profit_levels, playbook_id, reviewed_at, r_ratio, has_violations, created_at, updated_at, day, hold_seconds
	FROM trades WHERE user_id = ? ORDER BY entry_date DESC, entry_time DESC, id DESC LIMIT 100 OFFSET ?`

// Trades writes n closed trades of 4 fills each (2 bought, 2 sold) for the
// user on one account, in one transaction, spread over ten years of
// entry dates and five futures roots, each held 7 minutes: of every 7
// trades 3 win, 3 lose and 1 breaks even.
func Trades(tb testing.TB, db *sql.DB, userID, accountID string, n int) {
	tb.Helper()
	trades(tb, db, userID, accountID, n, true)
}

// ClosedTrades is Trades without the fills: the same trades, for what reads
// only the trades (the statistics) at sizes where writing the fills would
// take most of the benchmark's time.
func ClosedTrades(tb testing.TB, db *sql.DB, userID, accountID string, n int) {
	tb.Helper()
	trades(tb, db, userID, accountID, n, false)
}

func trades(tb testing.TB, db *sql.DB, userID, accountID string, n int, fills bool) {
	tb.Helper()
	tx, err := db.Begin()
	if err != nil {
		tb.Fatal(err)
	}
	defer tx.Rollback()
	trade, err := tx.Prepare(`INSERT INTO trades (id, user_id, account_id, symbol, root, side, quantity, entry_price,
		exit_price, entry_date, entry_time, exit_date, exit_time, gross_pnl, net_pnl, total_commission, status,
		asset_class, point_value, created_at, updated_at, day, hold_seconds)
		VALUES (?, ?, ?, ?, ?, 'long', 2, 20000, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'futures', 20, ?, ?, ?, 420)`)
	if err != nil {
		tb.Fatal(err)
	}
	fill, err := tx.Prepare(`INSERT INTO executions (id, trade_id, position, side, price, quantity, commission,
		execution_date, execution_time, execution_type, execution_timestamp)
		VALUES (?, ?, ?, ?, ?, 1, 1, ?, ?, ?, ?)`)
	if err != nil {
		tb.Fatal(err)
	}
	roots := []string{"NQ", "ES", "CL", "GC", "MNQ"}
	for i := range n {
		id := newID()
		root := roots[i%len(roots)]
		date := fmt.Sprintf("20%02d-%02d-%02d", 16+i/(12*28*10)%10, 1+i/(28*10)%12, 1+i/10%28)
		clock := fmt.Sprintf("%02d:%02d:00", 9+i%7, i%53)
		exitClock := fmt.Sprintf("%02d:%02d:00", 9+i%7, i%53+7)
		// Points of 20 dollars on 2 contracts: gross -300 to 300 by 100.
		gross, commission := float64(i%7-3)*100, 4.0
		status := "win"
		switch {
		case gross == 0:
			commission, status = 0, "breakeven"
		case gross < 0:
			status = "loss"
		}
		exit := 20000 + gross/40
		if _, err := trade.Exec(id, userID, accountID, root+"Z5", root, exit, date, clock, date, exitClock,
			gross, gross-commission, commission, status, "x", "x", date); err != nil {
			tb.Fatal(err)
		}
		if !fills {
			continue
		}
		for k, side := range []string{"buy", "buy", "sell", "sell"} {
			typ := "scale_in"
			if side == "sell" {
				typ = "scale_out"
			}
			price := 20000.0
			if side == "sell" {
				price = exit
			}
			if _, err := fill.Exec(newID(), id, k, side, price, date, clock, typ, date+"T14:30:00+00:00"); err != nil {
				tb.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
}

func newID() string {
	return uuid.Must(uuid.NewV7()).String()
}
