package db

import (
	"bytes"
	"context"
	"reflect"
	"slices"
	"testing"
)

// checkListings fails t unless every page of every user's trade list, as
// TradeListing serves it from the stored listings, is byte for byte the
// encoding of the same page read from the trades' rows and fills (Trades),
// and the trade list page's rows of it (TradeRows) are the same trades'.
// newTestDB runs it before closing, so every test's writes are held to it.
func checkListings(t testing.TB, d *DB) {
	t.Helper()
	ctx := context.Background() // t's own is done by cleanup time
	rows, err := d.read.QueryContext(ctx, `SELECT id FROM users`)
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		users = append(users, id)
	}
	rows.Close()
	for _, user := range users {
		for page := (Page{Limit: 100}); ; page.Offset += page.Limit {
			listed, listedTotal, err := d.TradeListing(ctx, user, TradeFilter{}, page)
			if err != nil {
				t.Fatalf("TradeListing: %v", err)
			}
			trades, total, err := d.Trades(ctx, user, TradeFilter{}, page)
			if err != nil {
				t.Fatalf("Trades: %v", err)
			}
			if listedTotal != total || len(listed) != len(trades) {
				t.Fatalf("user %s at %d: listing total %d of %d, trades %d of %d", user, page.Offset,
					len(listed), listedTotal, len(trades), total)
			}
			checkTradeRows(t, d, user, TradeFilter{}, page, trades, total)
			for i := range trades {
				want, err := EncodeJSON(trades[i])
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(listed[i], want) {
					t.Errorf("trade %s listed as\n%s\nread from its rows as\n%s", trades[i].ID, listed[i], want)
				}
				checkTradeJSON(t, d, user, trades[i].ID)
			}
			if len(trades) < page.Limit {
				break
			}
		}
	}
}

// checkTradeRows fails t unless TradeRows of the filter's page are the
// trades Trades read for it (trades, total), column for column, with their
// tags.
func checkTradeRows(t testing.TB, d *DB, userID string, f TradeFilter, page Page, trades []Trade, total int) {
	t.Helper()
	rows, rowsTotal, err := d.TradeRows(context.Background(), userID, f, page)
	if err != nil {
		t.Fatalf("TradeRows: %v", err)
	}
	if rowsTotal != total || len(rows) != len(trades) {
		t.Fatalf("user %s at %d: rows %d of %d, trades %d of %d", userID, page.Offset, len(rows), rowsTotal, len(trades), total)
	}
	for i, tr := range trades {
		want := TradeRow{ID: tr.ID, AccountID: tr.AccountID, Symbol: tr.Symbol, Side: tr.Side, Quantity: tr.Quantity,
			EntryPrice: tr.EntryPrice, ExitPrice: tr.ExitPrice, EntryDate: tr.EntryDate, EntryTime: tr.EntryTime,
			NetPnL: tr.NetPnL, Status: tr.Status, Tags: tr.Tags}
		got := rows[i]
		if len(got.Tags) == 0 && len(want.Tags) == 0 { // nil or empty: no tags either way
			got.Tags, want.Tags = nil, nil
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("trade %s's row %+v, read whole %+v", tr.ID, got, want)
		}
	}
}

// checkTradeJSON fails t unless TradeJSON of the trade is the encoding of
// the whole single-trade read (Trade), or nil for a trade that links to
// something its row does not hold (tags, documents, strategies, rule
// evaluations, a playbook), which the server then reads with Trade.
func checkTradeJSON(t testing.TB, d *DB, userID, id string) {
	t.Helper()
	ctx := context.Background()
	got, err := d.TradeJSON(ctx, userID, id)
	if err != nil {
		t.Fatalf("TradeJSON(%s): %v", id, err)
	}
	e, err := d.Trade(ctx, userID, id)
	if err != nil {
		t.Fatalf("Trade(%s): %v", id, err)
	}
	links := len(e.Tags) > 0 || len(e.Documents) > 0 || len(e.TradeGroupRiskManagementStrategies) > 0 ||
		len(e.TradeRuleEvaluations) > 0 || e.PlaybookID != nil
	if got == nil {
		if !links && !unlistedTrade(t, d, id) {
			t.Errorf("TradeJSON(%s) is nil for a listed trade that links to nothing", id)
		}
		return
	}
	if links {
		t.Errorf("TradeJSON(%s) answered a trade with links from its listing:\n%s", id, got)
	}
	want, err := EncodeJSON(e)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("trade %s from its listing:\n%s\nread whole:\n%s", id, got, want)
	}
}

// unlistedTrade is whether the trade has no listing.
func unlistedTrade(t testing.TB, d *DB, id string) bool {
	t.Helper()
	var none bool
	if err := d.read.QueryRowContext(context.Background(), `SELECT listing IS NULL FROM trades WHERE id = ?`, id).Scan(&none); err != nil {
		t.Fatal(err)
	}
	return none
}

// unlisted counts the trades without a listing.
func unlisted(t *testing.T, d *DB) int {
	t.Helper()
	var n int
	if err := d.read.QueryRowContext(t.Context(), `SELECT count(*) FROM trades WHERE listing IS NULL`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestListingFollowsEveryChange: a trade's listing is the trade as read from
// its rows after each kind of change, and tags (whose names and colours
// change without the trade) and document counts (a document deleted
// elsewhere unlinks itself) are read with the page.
func TestListingFollowsEveryChange(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	group, err := d.CreateTagGroup(ctx, userID, `Setups <A&B>`, "#ff0000")
	if err != nil {
		t.Fatal(err)
	}
	tag, err := d.CreateTag(ctx, userID, group.ID, `"ORB" & <fade>`)
	if err != nil {
		t.Fatal(err)
	}
	fill := func(side string, price float64, clock string) ExecutionInput {
		return ExecutionInput{Side: Some(side), Price: Some(price), Quantity: Some(1.0), Commission: Some(0.62),
			ExecutionDate: Some("2026-02-05"), ExecutionTime: Some(clock)}
	}
	withFills, err := d.CreateTrade(ctx, userID, TradeInput{AccountID: Some(accountID), Symbol: Some("NQZ5"),
		Side: Some("long"), EntryDate: Some("2026-02-05"), TagIDs: Some([]string{tag.ID}),
		Executions: Some([]ExecutionInput{fill("buy", 20000.25, "09:30:00"), fill("sell", 20010.5, "09:35:00")})})
	if err != nil {
		t.Fatal(err)
	}
	open, err := d.CreateTrade(ctx, userID, TradeInput{AccountID: Some(accountID), Symbol: Some("es"),
		Side: Some("short"), EntryDate: Some("2026-02-06"), Quantity: Some(2.0), EntryPrice: Some(6000.0)})
	if err != nil {
		t.Fatal(err)
	}
	var docs []string
	for _, hash := range []string{"a", "b"} {
		doc, err := d.CreateDocument(ctx, userID, upload("B-1", hashOf(hash)), func() error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc.ID)
	}
	checkListings(t, d)

	steps := []struct {
		name string
		do   func() error
	}{
		{"fields and the review", func() error {
			_, err := d.UpdateTrade(ctx, userID, open.ID, TradeInput{ExitPrice: Some(5990.0), ExitTime: Some("10:00:00"),
				StarRating: Some(5), Reviewed: Some(true)})
			return err
		}},
		{"fills replaced", func() error {
			_, err := d.UpdateTrade(ctx, userID, withFills.ID, TradeInput{Executions: Some([]ExecutionInput{
				fill("buy", 20000, "09:30:00"), fill("buy", 20002, "09:31:00"), fill("sell", 20001, "09:40:00")})})
			return err
		}},
		{"status overridden", func() error {
			_, err := d.UpdateTrade(ctx, userID, withFills.ID, TradeInput{Status: Some("breakeven")})
			return err
		}},
		{"tag renamed", func() error {
			_, err := d.UpdateTag(ctx, userID, tag.ID, TagUpdate{Name: Some("renamed </script>")})
			return err
		}},
		{"group recoloured", func() error {
			_, err := d.UpdateTagGroup(ctx, userID, group.ID, TagGroupUpdate{Color: Some("#00ff00")})
			return err
		}},
		{"point value overridden", func() error {
			_, _, err := d.SetInstrument(ctx, userID, "NQ", 5, "futures")
			return err
		}},
		{"documents linked", func() error {
			_, err := d.UpdateTrade(ctx, userID, withFills.ID, TradeInput{DocumentIDs: Some(docs)})
			return err
		}},
		{"a document uploaded for the trade", func() error {
			in := upload("", hashOf("c"))
			in.TradeID = withFills.ID
			_, err := d.CreateDocument(ctx, userID, in, func() error { return nil })
			return err
		}},
		{"a linked document deleted", func() error {
			_, err := d.DeleteDocument(ctx, userID, docs[0])
			return err
		}},
		{"tags cleared", func() error {
			_, err := d.UpdateTrade(ctx, userID, withFills.ID, TradeInput{TagIDs: Some([]string{})})
			return err
		}},
		{"documents cleared", func() error {
			_, err := d.UpdateTrade(ctx, userID, withFills.ID, TradeInput{DocumentIDs: Some([]string{})})
			return err
		}},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		checkListings(t, d)
		if t.Failed() {
			t.Fatalf("after %s", s.name)
		}
	}
	if n := unlisted(t, d); n != 0 {
		t.Errorf("%d trades without a listing", n)
	}
}

// TestMigrateListings: a journal of schema 6 opens with a listing for each
// of its trades, the same trades and fills as before, listed as read from
// their rows; a trade written straight through SQL later is listed from
// its rows until the next Open lists it.
func TestMigrateListings(t *testing.T) {
	path := oldJournal(t, 6,
		`INSERT INTO users (id, name, created_at) VALUES ('u1', 'alice', 'x'), ('u2', 'bob', 'x')`,
		`INSERT INTO accounts (id, user_id, account_number, account_type, created_at, updated_at)
			VALUES ('a1', 'u1', 'APEX-1', 'prop', 'x', 'x'), ('a2', 'u2', 'B', 'prop', 'x', 'x')`,
		`INSERT INTO tag_groups (id, user_id, name, color, sort_order, created_at, updated_at)
			VALUES ('g1', 'u1', 'Setups', '#123456', 0, 'x', 'x')`,
		`INSERT INTO tags (id, user_id, tag_group_id, name, sort_order, created_at, updated_at)
			VALUES ('tag1', 'u1', 'g1', 'ORB', 0, 'x', 'x')`,
		`INSERT INTO trades (id, user_id, account_id, symbol, root, side, quantity, entry_price, exit_price, entry_date,
			entry_time, exit_date, exit_time, gross_pnl, net_pnl, total_commission, status, asset_class, point_value,
			created_at, updated_at, day) VALUES
			('t1', 'u1', 'a1', 'MNQZ5', 'MNQ', 'long', 1, 21000, 21010, '2025-12-01', '09:31:00', '2025-12-01',
			'09:45:00', 20, 18.76, 1.24, 'win', 'futures', 2, '2025-12-01T00:00:00.000Z', '2025-12-01T00:00:00.000Z', '2025-12-01'),
			('t2', 'u1', 'a1', 'ESH6', 'ES', 'short', 2, 6000, NULL, '2025-12-02', NULL, NULL,
			NULL, 0, 0, 0, 'open', 'futures', 50, '2025-12-02T00:00:00.000Z', '2025-12-02T00:00:00.000Z', '2025-12-02'),
			('t3', 'u2', 'a2', 'CLF6', 'CL', 'long', 1, 70, 71, '2025-12-03', '10:00:00', '2025-12-03',
			'10:05:00', 1000, 1000, 0, 'win', 'futures', 1000, '2025-12-03T00:00:00.000Z', '2025-12-03T00:00:00.000Z', '2025-12-03')`,
		`INSERT INTO executions (id, trade_id, position, side, price, quantity, commission, execution_date, execution_time,
			execution_type, execution_timestamp) VALUES
			('e1', 't1', 0, 'buy', 21000, 1, 0.62, '2025-12-01', '09:31:00', 'scale_in', '2025-12-01T14:31:00+00:00'),
			('e2', 't1', 1, 'sell', 21010, 1, 0.62, '2025-12-01', '09:45:00', 'scale_out', '2025-12-01T14:45:00+00:00')`,
		`INSERT INTO trade_tags (trade_id, tag_id) VALUES ('t1', 'tag1')`,
	)
	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open migrates: %v", err)
	}
	defer d.Close()
	if n := unlisted(t, d); n != 0 {
		t.Errorf("after Open: %d trades without a listing", n)
	}
	checkListings(t, d)
	listed, total, err := d.TradeListing(t.Context(), "u1", TradeFilter{}, Page{Limit: 10})
	if err != nil || total != 2 || len(listed) != 2 {
		t.Fatalf("u1's list: %d of %d, %v", len(listed), total, err)
	}
	for _, want := range []string{`"id":"t1"`, `"executions":[{"id":"e1"`, `"tags":[{"id":"tag1","name":"ORB"`, `"net_pnl":18.76`} {
		if !bytes.Contains(listed[1], []byte(want)) {
			t.Errorf("t1 listed as %s; want %s in it", listed[1], want)
		}
	}

	// Straight through SQL, as the benchmarks' seed writes: listed from
	// its rows meanwhile.
	if _, err := d.write.ExecContext(t.Context(), `UPDATE trades SET listing = NULL WHERE id = 't2'`); err != nil {
		t.Fatal(err)
	}
	checkListings(t, d)
	if n, err := d.FillListings(t.Context()); err != nil || n != 1 {
		t.Errorf("FillListings: %d, %v; want 1", n, err)
	}
	if n := unlisted(t, d); n != 0 {
		t.Errorf("after FillListings: %d trades without a listing", n)
	}
	checkListings(t, d)
}

// TestCheckFindsStaleListing: a stored listing that is not the trade as
// read from its rows is a finding of IntegrityCheck (tradejournal check);
// a trade without one is not.
func TestCheckFindsStaleListing(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	var ids []string
	for _, symbol := range []string{"NQZ5", "ESZ5", "CLF6"} {
		tr, err := d.CreateTrade(ctx, userID, TradeInput{AccountID: Some(accountID), Symbol: Some(symbol),
			Side: Some("long"), EntryDate: Some("2026-02-05"), Quantity: Some(1.0), EntryPrice: Some(100.0)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tr.ID)
	}
	if problems, err := d.IntegrityCheck(ctx); err != nil || len(problems) != 0 {
		t.Fatalf("a sound journal: %q, %v", problems, err)
	}
	if _, err := d.write.ExecContext(ctx, `UPDATE trades SET listing = CAST(replace(listing, '"quantity":1', '"quantity":2') AS BLOB)
		WHERE id = ?`, ids[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := d.write.ExecContext(ctx, `UPDATE trades SET listing = NULL WHERE id = ?`, ids[1]); err != nil {
		t.Fatal(err)
	}
	problems, err := d.IntegrityCheck(ctx)
	want := []string{"trades: trade " + ids[0] + "'s listing differs from its rows"}
	if err != nil || !slices.Equal(problems, want) {
		t.Errorf("IntegrityCheck: %q, %v; want %q", problems, err, want)
	}
	// Put right, so that the test's own closing check passes.
	if _, err := d.write.ExecContext(ctx, `UPDATE trades SET listing = NULL WHERE id = ?`, ids[0]); err != nil {
		t.Fatal(err)
	}
}

// TestListingDeepPages: past deferFrom, where a page's ids are found on the
// index first, the listed pages are still the trades' own, in order.
func TestListingDeepPages(t *testing.T) {
	d := newTestDB(t)
	userID, accountID := newTradeFixture(t, d)
	seedTrades(t, d, userID, accountID, deferFrom+150)
	checkListings(t, d) // pages of 100 up to offset deferFrom+100
	listed, total, err := d.TradeListing(t.Context(), userID, TradeFilter{}, Page{Limit: 100, Offset: deferFrom + 100})
	if err != nil || total != deferFrom+150 || len(listed) != 50 {
		t.Errorf("the last page: %d of %d, %v; want 50 of %d", len(listed), total, err, deferFrom+150)
	}
}
