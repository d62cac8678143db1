package db

import (
	"errors"
	"slices"
	"testing"
)

// TestTradeRemoval: what a delete's confirm step counts is what the
// delete's warnings then say went, for one trade (DeleteTrade) and for
// several (BulkTrades); a document two trades link to counts once; the
// count changes nothing; another user's trade, or an unknown one, is a
// *NotFoundError naming its place in the list.
func TestTradeRemoval(t *testing.T) {
	f := newDocFixture(t)
	ctx := t.Context()
	group, err := f.d.CreateTagGroup(ctx, f.alice, "Setups", "#336699")
	if err != nil {
		t.Fatal(err)
	}
	var tags []string
	for _, name := range []string{"ORB", "Fade"} {
		tag, err := f.d.CreateTag(ctx, f.alice, group.ID, name)
		if err != nil {
			t.Fatal(err)
		}
		tags = append(tags, tag.ID)
	}
	fill := func(side string, price float64, at string) ExecutionInput {
		return ExecutionInput{Side: Some(side), Price: Some(price), Quantity: Some(1.0), Commission: Some(0.5), ExecutionTime: Some(at)}
	}
	newTrade := func(fills []ExecutionInput, tagIDs, docs []string) string {
		in := TradeInput{AccountID: Some(f.account), Symbol: Some("ESZ5"), Side: Some("long"),
			EntryDate: Some("2025-12-01"), Executions: Some(fills), TagIDs: Some(tagIDs), DocumentIDs: Some(docs)}
		if len(fills) == 0 {
			in.EntryPrice, in.Quantity = Some(5000.0), Some(1.0)
		}
		tr, err := f.d.CreateTrade(ctx, f.alice, in)
		if err != nil {
			t.Fatal(err)
		}
		return tr.ID
	}
	one := newTrade([]ExecutionInput{fill("buy", 5000, "09:30:00"), fill("sell", 5001, "09:31:00")}, tags, []string{f.one, f.two})
	two := newTrade([]ExecutionInput{fill("buy", 5000, "10:30:00"), fill("buy", 4999, "10:31:00"), fill("sell", 5002, "10:32:00")},
		tags[:1], []string{f.two})
	three := newTrade(nil, nil, nil)
	if _, err := f.d.WriteUps().Create(ctx, f.alice, WriteUpInput{TradeID: Some(one), Title: Some("Why")}); err != nil {
		t.Fatal(err)
	}

	warnings := func(n TradeRemoval) []string {
		d := Deleted{Warnings: []string{}}
		d.note("Deleted", n.Fills, "execution")
		d.note("Deleted", n.WriteUps, "trade write-up")
		d.note("Removed", n.TagLinks, "tag association")
		d.note("Kept", n.Documents, "document")
		return d.Warnings
	}
	n, err := f.d.TradeRemoval(ctx, f.alice, []string{one, two, one})
	if want := (TradeRemoval{Trades: 2, Fills: 5, WriteUps: 1, TagLinks: 3, Documents: 2}); err != nil || n != want {
		t.Fatalf("TradeRemoval(one, two, one): %+v, %v; want %+v", n, err, want)
	}
	if n, err := f.d.TradeRemoval(ctx, f.alice, []string{three}); err != nil || n != (TradeRemoval{Trades: 1}) {
		t.Errorf("TradeRemoval(a trade with nothing): %+v, %v", n, err)
	}
	var nf *NotFoundError
	if _, err := f.d.TradeRemoval(ctx, f.bob, []string{one}); !errors.As(err, &nf) || nf.Field != "trade_ids[0]" {
		t.Errorf("bob counting alice's trade: %v, want not found naming trade_ids[0]", err)
	}
	if _, err := f.d.TradeRemoval(ctx, f.alice, []string{one, "01a21c97-0000-7000-8000-000000000000"}); !errors.As(err, &nf) || nf.Field != "trade_ids[1]" {
		t.Errorf("an unknown trade: %v, want not found naming trade_ids[1]", err)
	}

	alone, err := f.d.TradeRemoval(ctx, f.alice, []string{two})
	if err != nil {
		t.Fatal(err)
	}
	del, err := f.d.DeleteTrade(ctx, f.alice, two)
	if want := warnings(alone); err != nil || !slices.Equal(del.Warnings, want) {
		t.Errorf("DeleteTrade says %q, %v; its count said %q", del.Warnings, err, want)
	}
	rest, err := f.d.TradeRemoval(ctx, f.alice, []string{one, three})
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.d.BulkTrades(ctx, f.alice, TradeBulk{TradeIDs: []string{one, three}, Delete: true})
	if want := warnings(rest); err != nil || res.Deleted != rest.Trades || !slices.Equal(res.Warnings, want) {
		t.Errorf("BulkTrades deleted %d and says %q, %v; its count said %d and %q", res.Deleted, res.Warnings, err, rest.Trades, want)
	}
}
