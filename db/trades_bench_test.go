package db

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"tradejournal/internal/seed"
)

// seedTrades writes n trades of 4 fills each for the user on one account.
func seedTrades(tb testing.TB, d *DB, userID, accountID string, n int) {
	tb.Helper()
	seed.Trades(tb, d.write, userID, accountID, n)
}

func newTradeFixture(tb testing.TB, d *DB) (userID, accountID string) {
	tb.Helper()
	ctx := context.Background()
	u, err := d.CreateUser(ctx, "bench", "")
	if err != nil {
		tb.Fatal(err)
	}
	a, err := d.CreateAccount(ctx, u.ID, AccountInput{AccountNumber: Some("B-1")})
	if err != nil {
		tb.Fatal(err)
	}
	return u.ID, a.ID
}

// TestTradeListPlans shows the list query for the default order and the
// symbol, account and date filters reads an index, never the whole table,
// and never sorts.
func TestTradeListPlans(t *testing.T) {
	d := newTestDB(t)
	userID, accountID := newTradeFixture(t, d)
	seedTrades(t, d, userID, accountID, 200)
	if _, err := d.write.Exec(`ANALYZE`); err != nil {
		t.Fatal(err)
	}
	for name, f := range map[string]TradeFilter{
		"default":         {},
		"root":            {Symbol: "NQ"},
		"contract":        {Symbol: "NQZ5"},
		"account":         {AccountID: accountID},
		"date range":      {StartDate: "2016-02-01", EndDate: "2016-03-01"},
		"account and day": {AccountID: accountID, StartDate: "2016-02-01", EndDate: "2016-02-01"},
	} {
		plan, err := d.QueryPlan(t.Context(), userID, f, Page{Limit: 20, Offset: 50})
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(plan, "; ")
		t.Logf("%s: %s", name, text)
		if strings.Contains(text, "SCAN t") && !strings.Contains(text, "COVERING INDEX") || strings.Contains(text, "TEMP B-TREE") {
			t.Errorf("%s: plan %q scans the table or sorts", name, text)
		}
	}
}

func BenchmarkTrades(b *testing.B) {
	d, err := Open(context.Background(), b.TempDir()+"/journal.db")
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	userID, accountID := newTradeFixture(b, d)
	seedTrades(b, d, userID, accountID, 100_000)
	ctx := context.Background()
	some, _, err := d.Trades(ctx, userID, TradeFilter{}, Page{Limit: 1, Offset: 40_000})
	if err != nil {
		b.Fatal(err)
	}
	in := TradeInput{
		AccountID: Some(accountID), Symbol: Some("NQZ5"), Side: Some("long"), EntryDate: Some("2026-02-05"),
		Executions: Some([]ExecutionInput{
			{Side: Some("buy"), Price: Some(20000.0), Quantity: Some(1.0), Commission: Some(1.0), ExecutionTime: Some("09:30:00")},
			{Side: Some("buy"), Price: Some(20001.0), Quantity: Some(1.0), Commission: Some(1.0), ExecutionTime: Some("09:31:00")},
			{Side: Some("sell"), Price: Some(20010.0), Quantity: Some(1.0), Commission: Some(1.0), ExecutionTime: Some("09:40:00")},
			{Side: Some("sell"), Price: Some(20012.0), Quantity: Some(1.0), Commission: Some(1.0), ExecutionTime: Some("09:45:00")},
		}),
	}
	b.Run("create", func(b *testing.B) {
		for b.Loop() {
			if _, err := d.CreateTrade(ctx, userID, in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("get", func(b *testing.B) {
		for b.Loop() {
			if _, err := d.Trade(ctx, userID, some[0].ID); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, offset := range []int{0, 50_000} {
		b.Run(fmt.Sprintf("list/offset=%d", offset), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := d.Trades(ctx, userID, TradeFilter{}, Page{Limit: 20, Offset: offset}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("list/symbol=NQ/offset=10000", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := d.Trades(ctx, userID, TradeFilter{Symbol: "NQ"}, Page{Limit: 20, Offset: 10_000}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
