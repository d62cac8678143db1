package db

import (
	"context"
	"testing"
	"time"
)

// BenchmarkAccountStatus: the prop-account walk over 10,000 fills (2,500
// trades of 4) beside a raw read of those fills, joined to their trades,
// through a prepared statement in the same run. x-raw is how many times the
// raw read's time the status takes: issue 15 asks at most 3.
func BenchmarkAccountStatus(b *testing.B) {
	d := newTestDB(b)
	userID, accountID := newTradeFixture(b, d)
	seedTrades(b, d, userID, accountID, 2_500)
	ctx := context.Background()
	if _, err := d.UpdateAccount(ctx, userID, accountID, AccountInput{StartingBalance: Some(50000.0),
		MaxDrawdown: Some(2000.0), DrawdownMode: Some("eod_trailing"), MaxDailyLoss: Some(1000.0),
		MaxContracts: Some(10), ProfitTarget: Some(3000.0), ConsistencyPct: Some(30.0), MinTradingDays: Some(5)}); err != nil {
		b.Fatal(err)
	}
	if _, err := d.CreatePayout(ctx, userID, PayoutInput{AccountID: Some(accountID), TotalAmount: Some(1000.0),
		Status: Some("paid"), Date: Some("2020-01-02")}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		s, err := d.AccountStatus(ctx, userID, accountID)
		if err != nil {
			b.Fatal(err)
		}
		if s.TradingDays == 0 {
			b.Fatal("no trading days")
		}
	}
	ours := b.Elapsed() / time.Duration(b.N)
	raw := rawAccountFills(b, d, userID, accountID, b.N)
	b.ReportMetric(float64(raw.Nanoseconds()), "raw-ns/op")
	b.ReportMetric(float64(ours)/float64(raw), "x-raw")
}

// rawAccountFills times n raw reads of the account's fills and returns the time
// per read.
func rawAccountFills(b *testing.B, d *DB, userID, accountID string, n int) time.Duration {
	stmt, err := d.read.Prepare(`SELECT e.execution_timestamp, e.side, e.price, e.quantity, e.commission
		FROM trades t JOIN executions e ON e.trade_id = t.id WHERE t.user_id = ? AND t.account_id = ?`)
	if err != nil {
		b.Fatal(err)
	}
	defer stmt.Close()
	start := time.Now()
	for range n {
		rows, err := stmt.Query(userID, accountID)
		if err != nil {
			b.Fatal(err)
		}
		var ts, side string
		var price, qty, commission float64
		fills := 0
		for rows.Next() {
			if err := rows.Scan(&ts, &side, &price, &qty, &commission); err != nil {
				b.Fatal(err)
			}
			fills++
		}
		rows.Close()
		if fills != 10_000 {
			b.Fatalf("raw read %d fills, want 10,000", fills)
		}
	}
	return time.Since(start) / time.Duration(n)
}
