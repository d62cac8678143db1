package db

import (
	"fmt"
	"testing"
)

// TestUpdateTradeIndexes: an update that changes a trade's indexed columns
// (account, symbol, entry date and time, playbook) moves it in every
// index, one that changes none leaves them, and the indexes always agree
// with the table.
func TestUpdateTradeIndexes(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, first := newTradeFixture(t, d)
	second, err := d.CreateAccount(ctx, userID, AccountInput{AccountNumber: Some("B-2")})
	if err != nil {
		t.Fatal(err)
	}
	pb, err := d.CreatePlaybook(ctx, userID, PlaybookInput{Title: Some("ORB")})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := d.CreateTrade(ctx, userID, TradeInput{AccountID: Some(first), Symbol: Some("NQZ5"), Side: Some("long"),
		EntryDate: Some("2026-02-05"), EntryTime: Some("09:30:00"), Quantity: Some(1.0), EntryPrice: Some(20000.0)})
	if err != nil {
		t.Fatal(err)
	}
	found := func(f TradeFilter) bool {
		t.Helper()
		trades, total, err := d.Trades(ctx, userID, f, Page{Limit: 10})
		if err != nil {
			t.Fatal(err)
		}
		return total == 1 && len(trades) == 1 && trades[0].ID == tr.ID
	}
	intact := func(step string) {
		t.Helper()
		var result string
		if err := d.write.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&result); err != nil || result != "ok" {
			t.Errorf("%s: integrity_check %q, %v", step, result, err)
		}
	}

	// A change to none of them: a rating.
	if _, err := d.UpdateTrade(ctx, userID, tr.ID, TradeInput{StarRating: Some(4)}); err != nil {
		t.Fatal(err)
	}
	intact("rating")
	if !found(TradeFilter{AccountID: first, Symbol: "NQ", StartDate: "2026-02-05", EndDate: "2026-02-05"}) {
		t.Error("after a rating: not found where it was")
	}

	if _, err := d.UpdateTrade(ctx, userID, tr.ID, TradeInput{AccountID: Some(second.ID), Symbol: Some("ESH6"),
		EntryDate: Some("2026-03-02"), EntryTime: Some("10:15:00"), PlaybookID: Some(pb.ID)}); err != nil {
		t.Fatal(err)
	}
	intact("move")
	for name, f := range map[string]TradeFilter{
		"new account": {AccountID: second.ID}, "new root": {Symbol: "ES"}, "new contract": {Symbol: "ESH6"},
		"new date": {StartDate: "2026-03-02", EndDate: "2026-03-02"}, "new playbook": {PlaybookID: pb.ID},
	} {
		if !found(f) {
			t.Errorf("after the move: not found by %s", name)
		}
	}
	for name, f := range map[string]TradeFilter{
		"old account": {AccountID: first}, "old root": {Symbol: "NQ"}, "old date": {StartDate: "2026-02-05", EndDate: "2026-02-05"},
	} {
		if found(f) {
			t.Errorf("after the move: still found by %s", name)
		}
	}
	got, err := d.Trade(ctx, userID, tr.ID)
	if err != nil || got.EntryTime == nil || *got.EntryTime != "10:15:00" || got.PlaybookID == nil || *got.PlaybookID != pb.ID {
		t.Errorf("after the move: %+v, %v", got, err)
	}

	// Clearing the time and the playbook is a change too.
	if _, err := d.UpdateTrade(ctx, userID, tr.ID, TradeInput{EntryTime: Optional[string]{Set: true, Null: true},
		PlaybookID: Optional[string]{Set: true, Null: true}}); err != nil {
		t.Fatal(err)
	}
	intact("clear")
	if found(TradeFilter{PlaybookID: pb.ID}) {
		t.Error("after clearing the playbook: still found by it")
	}
	if got, err := d.Trade(ctx, userID, tr.ID); err != nil || got.EntryTime != nil || got.PlaybookID != nil {
		t.Errorf("after clearing: time %v, playbook %v, %v", got.EntryTime, got.PlaybookID, err)
	}
}

// TestManyFills: a trade's fills go in eight to a statement; a trade of
// 17 (8 + 8 + 1) keeps every fill, in order, when created and when its
// fills are replaced by 9 (8 + 1), and the replaced ones are gone.
func TestManyFills(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	fills := func(n int, price float64) []ExecutionInput {
		in := make([]ExecutionInput, n)
		for i := range in {
			side := "buy"
			if i >= (n+1)/2 {
				side = "sell"
			}
			in[i] = ExecutionInput{Side: Some(side), Price: Some(price + float64(i)), Quantity: Some(1.0),
				Commission: Some(0.62), ExecutionDate: Some("2026-02-05"),
				ExecutionTime: Some(fmt.Sprintf("09:%02d:00", 10+i))}
		}
		return in
	}
	check := func(step string, id string, want []ExecutionInput) {
		t.Helper()
		got, err := d.Trade(ctx, userID, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Executions) != len(want) {
			t.Fatalf("%s: %d fills, want %d", step, len(got.Executions), len(want))
		}
		for i, e := range got.Executions {
			if e.Price != want[i].Price.Value || e.ExecutionTime != want[i].ExecutionTime.Value {
				t.Errorf("%s: fill %d is %v at %s, want %v at %s", step, i, e.Price, e.ExecutionTime,
					want[i].Price.Value, want[i].ExecutionTime.Value)
			}
		}
		var rows, positions int
		if err := d.write.QueryRowContext(ctx, `SELECT count(*), count(DISTINCT position) FROM executions WHERE trade_id = ?`,
			id).Scan(&rows, &positions); err != nil {
			t.Fatal(err)
		}
		if rows != len(want) || positions != len(want) {
			t.Errorf("%s: %d rows with %d positions, want %d", step, rows, positions, len(want))
		}
	}

	first := fills(17, 20000)
	tr, err := d.CreateTrade(ctx, userID, TradeInput{AccountID: Some(accountID), Symbol: Some("NQZ5"),
		Side: Some("long"), EntryDate: Some("2026-02-05"), Executions: Some(first)})
	if err != nil {
		t.Fatal(err)
	}
	check("created", tr.ID, first)

	second := fills(9, 21000)
	if _, err := d.UpdateTrade(ctx, userID, tr.ID, TradeInput{Executions: Some(second)}); err != nil {
		t.Fatal(err)
	}
	check("replaced", tr.ID, second)
}
