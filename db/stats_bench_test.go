package db

import (
	"context"
	"testing"
	"time"
)

// BenchmarkStats: summary, daily and equity at 100,000 closed trades, each
// beside the raw read of the same trades' day (their exit date) and net P&L
// through a prepared statement in the same run. x-raw is how many times the
// raw read's time each takes: DESIGN §9 asks at most 3, and at most 6 for
// the dashboard's three together.
func BenchmarkStats(b *testing.B) {
	d, userID, accountID := newScaleJournal(b)
	ctx := context.Background()
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"summary", func() error { _, err := d.StatsSummary(ctx, userID, TradeFilter{}); return err }},
		{"daily", func() error { _, err := d.StatsDaily(ctx, userID, TradeFilter{}); return err }},
		{"equity", func() error { _, err := d.StatsEquity(ctx, userID, TradeFilter{}, false); return err }},
		{"equity/trade", func() error { _, err := d.StatsEquity(ctx, userID, TradeFilter{}, true); return err }},
		{"dashboard", func() error { // summary, daily and equity, one after the other
			if _, err := d.StatsSummary(ctx, userID, TradeFilter{}); err != nil {
				return err
			}
			if _, err := d.StatsDaily(ctx, userID, TradeFilter{}); err != nil {
				return err
			}
			_, err := d.StatsEquity(ctx, userID, TradeFilter{}, false)
			return err
		}},
		{"summary/account", func() error { _, err := d.StatsSummary(ctx, userID, TradeFilter{AccountID: accountID}); return err }},
		{"breakdown/weekday", func() error { _, err := d.StatsBreakdown(ctx, userID, TradeFilter{}, "weekday"); return err }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
			}
			ours := b.Elapsed() / time.Duration(b.N)
			raw := rawClosed(b, d, userID, b.N)
			b.ReportMetric(float64(raw.Nanoseconds()), "raw-ns/op")
			b.ReportMetric(float64(ours)/float64(raw), "x-raw")
		})
	}
}

// rawClosed times n raw reads of the user's closed trades' day and net
// P&L, and returns the time per read.
func rawClosed(b *testing.B, d *DB, userID string, n int) time.Duration {
	stmt, err := d.read.Prepare(`SELECT day, net_pnl FROM trades WHERE user_id = ? AND status <> 'open'`)
	if err != nil {
		b.Fatal(err)
	}
	defer stmt.Close()
	start := time.Now()
	for range n {
		rows, err := stmt.Query(userID)
		if err != nil {
			b.Fatal(err)
		}
		var day string
		var net float64
		for rows.Next() {
			if err := rows.Scan(&day, &net); err != nil {
				b.Fatal(err)
			}
		}
		rows.Close()
	}
	return time.Since(start) / time.Duration(n)
}
