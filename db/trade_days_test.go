package db

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"tradejournal/db/brokers"
	"tradejournal/db/stats"
	"tradejournal/db/trading"
)

// checkTradeDays fails t unless every day of the statistics that is not
// stale holds what a rebuild from its trades gives, and no day without
// closed trades has rows. newTestDB runs it after every test.
func checkTradeDays(t testing.TB, d *DB) {
	t.Helper()
	ctx := context.Background()
	// One snapshot: the settler may commit meanwhile.
	tx, err := d.beginRead(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT t.user_id, t.account_id, t.id, coalesce(t.exit_time, ''), t.status,
		t.gross_pnl, t.total_commission, t.net_pnl, t.r_ratio, t.hold_seconds, t.day
		FROM trades t WHERE `+closed+` AND (t.user_id, t.day) NOT IN (SELECT user_id, day FROM trade_days_stale)
		ORDER BY t.user_id, `+statsOrder)
	if err != nil {
		t.Fatal(err)
	}
	want := map[[3]string]*stats.DayRow{}
	for rows.Next() {
		var user, account, day string
		var tr stats.DayTrade
		var gross, commission, net float64
		var r sql.NullFloat64
		var hold sql.NullInt64
		if err := rows.Scan(&user, &account, &tr.ID, &tr.Exit, &tr.Status, &gross, &commission, &net, &r, &hold, &day); err != nil {
			t.Fatal(err)
		}
		tr.Gross, tr.Commission, tr.Net, tr.NetPnL = units(gross), units(commission), units(net), net
		if r.Valid {
			tr.R = &r.Float64
		}
		if hold.Valid {
			tr.Hold = &hold.Int64
		}
		for _, k := range [][3]string{{user, "", day}, {user, account, day}} {
			if want[k] == nil {
				want[k] = &stats.DayRow{Day: day}
			}
			want[k].Add(tr)
		}
	}
	rows.Close()
	rows, err = tx.QueryContext(ctx, `SELECT user_id, account_id, day, trades, wins, losses, breakeven, gross,
		commissions, net, win_sum, loss_sum, largest_win, largest_loss, r_sum, r_count, hold_sum, hold_count,
		win_first, win_last, win_max, loss_first, loss_last, loss_max, high, low, fall, last_exit, last_id
		FROM trade_days WHERE (user_id, day) NOT IN (SELECT user_id, day FROM trade_days_stale)`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := 0
	for rows.Next() {
		var k [3]string
		var g stats.DayRow
		if err := rows.Scan(&k[0], &k[1], &k[2], &g.Trades, &g.Wins, &g.Losses, &g.Breakeven, &g.Gross, &g.Commissions,
			&g.Net, &g.WinSum, &g.LossSum, &g.LargestWin, &g.LargestLoss, &g.RSum, &g.RCount, &g.HoldSum, &g.HoldCount,
			&g.WinFirst, &g.WinLast, &g.WinMax, &g.LossFirst, &g.LossLast, &g.LossMax, &g.High, &g.Low, &g.Fall,
			&g.LastExit, &g.LastID); err != nil {
			t.Fatal(err)
		}
		g.Day = k[2]
		got++
		w := want[k]
		if w == nil {
			t.Errorf("trade_days %v: a row for a day without closed trades: %+v", k, g)
			continue
		}
		if !reflect.DeepEqual(&g, w) {
			t.Errorf("trade_days %v:\n got %+v\nwant %+v", k, g, *w)
		}
	}
	if got != len(want) {
		t.Errorf("trade_days: %d rows, want %d", got, len(want))
	}
}

// TestStatsDaysMatchTrades: on many generated journals (several accounts,
// many trades a day, equal exit times, trades without exit times, open
// trades, R multiples, fills with commissions; trades created, replaced,
// moved between accounts and days, and deleted), summary, daily and equity
// read from the days equal, figure for figure, what the trades give read one
// by one, over the whole journal, each account, and dates. The days are
// settled at random moments between the writes, and the figures compared
// halfway, at the end, and once every day is settled: so reads meet every
// day stale (folded from its trades), every day settled (read from its
// rows), and both at once.
// Mutations tried: the trigger's fall without the day's high (max(fall,
// high - net) in place of the new high), Fold's equal falls taken as from
// the peak before without the walk, the win runs carried across a day with
// losses: each fails it (perfdays). Here: the stale days merged before the
// settled ones whatever their dates; the settled sums read without leaving
// out the stale days (a day counted twice); the stale fold without the
// account's condition; the update trigger's WHEN without the net P&L; the
// largest loss of stale days taken as the largest win: each fails it.
func TestStatsDaysMatchTrades(t *testing.T) {
	days := []string{"2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05", "2026-03-06"}
	var exacts, mixed, allStale, allSettled int
	for seed := range 30 {
		r := rand.New(rand.NewPCG(uint64(seed), 31))
		d := newTestDB(t)
		ctx := t.Context()
		user := newTestUser(t, d, "trader")
		var accounts []string
		for i := range 1 + r.IntN(3) {
			a, err := d.CreateAccount(ctx, user.ID, AccountInput{AccountNumber: Some(fmt.Sprintf("A-%d", i))})
			if err != nil {
				t.Fatal(err)
			}
			accounts = append(accounts, a.ID)
		}
		filters := []TradeFilter{{}, {StartDate: days[1]}, {EndDate: days[2]}, {StartDate: days[1], EndDate: days[3]},
			{StartDate: "2027-01-01"}, {AccountID: "no-such-account"}}
		for _, a := range accounts {
			filters = append(filters, TradeFilter{AccountID: a}, TradeFilter{AccountID: a, StartDate: days[2], EndDate: days[4]})
		}
		compareAll := func() {
			for _, f := range filters {
				e, stale, settled := compareStats(t, d, user.ID, f, seed)
				exacts += e
				switch {
				case stale > 0 && settled > 0:
					mixed++
				case stale > 0:
					allStale++
				case settled > 0:
					allSettled++
				}
			}
		}
		var ids []string
		ops := 20 + r.IntN(60)
		for n := range ops {
			if n == ops/2 {
				compareAll()
			}
			if r.IntN(12) == 0 {
				if err := d.SettleDays(ctx); err != nil {
					t.Fatal(err)
				}
			}
			in := randomTrade(r, accounts, days)
			switch op := r.IntN(10); {
			case op < 7 || len(ids) == 0:
				tr, err := d.CreateTrade(ctx, user.ID, in)
				if err != nil {
					t.Fatalf("seed %d: CreateTrade: %v", seed, err)
				}
				ids = append(ids, tr.ID)
			case op < 9:
				if _, err := d.UpdateTrade(ctx, user.ID, ids[r.IntN(len(ids))], in); err != nil {
					t.Fatalf("seed %d: UpdateTrade: %v", seed, err)
				}
			default:
				k := r.IntN(len(ids))
				if _, err := d.DeleteTrade(ctx, user.ID, ids[k]); err != nil {
					t.Fatalf("seed %d: DeleteTrade: %v", seed, err)
				}
				ids = append(ids[:k], ids[k+1:]...)
			}
		}
		compareAll()
		if err := d.SettleDays(ctx); err != nil {
			t.Fatal(err)
		}
		compareAll()
	}
	if exacts == 0 {
		t.Error("no day set the largest fall with equal falls from before and within: the journals miss the case")
	}
	if mixed == 0 || allStale == 0 || allSettled == 0 {
		t.Errorf("reads met stale and settled days together %d times, only stale ones %d, only settled ones %d: "+
			"the journals miss a case", mixed, allStale, allSettled)
	}
}

// compareStats fails t unless the statistics of f read from the days equal
// those read from the trades; it says how many days set the largest fall
// with a fall from the peak before them equal to their own, and how many of
// f's days were stale (folded from their trades) and settled (read from
// their rows).
func compareStats(t *testing.T, d *DB, userID string, f TradeFilter, seed int) (exacts, stale, settled int) {
	t.Helper()
	ctx := t.Context()
	tx, err := d.beginRead(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	rows, staleRows, ok, err := d.statDays(ctx, tx, userID, f, orderColumns)
	if err != nil || !ok {
		t.Fatalf("seed %d %+v: statDays: ok %v, %v", seed, f, ok, err)
	}
	stale, settled = len(staleRows), len(rows)-len(staleRows)
	got, err := summaryOfDays(ctx, tx, userID, f, rows, staleRows)
	if err != nil {
		t.Fatal(err)
	}
	want, err := summaryOfTrades(ctx, tx, userID, f)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("seed %d %+v (%d days stale, %d settled): summary from days\n%s\nfrom trades\n%s", seed, f, stale, settled,
			jsonOf(got), jsonOf(want))
	}
	exacts = equalFalls(rows)
	gotDaily, err := d.statsDaily(ctx, tx, userID, f)
	if err != nil {
		t.Fatal(err)
	}
	wantDaily, err := dailyOfTrades(ctx, tx, userID, f)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotDaily, wantDaily) {
		t.Errorf("seed %d %+v (%d days stale, %d settled): daily from days\n%s\nfrom trades\n%s", seed, f, stale, settled,
			jsonOf(gotDaily), jsonOf(wantDaily))
	}
	where, args := f.statsWhere(userID)
	wantPoints, err := closedDays(ctx, tx, where, args)
	if err != nil {
		t.Fatal(err)
	}
	tx.Rollback()
	gotEquity, err := d.StatsEquity(ctx, userID, f, false)
	if err != nil {
		t.Fatal(err)
	}
	wantEquity := []EquityPoint{}
	for _, p := range stats.Curve(wantPoints) {
		wantEquity = append(wantEquity, EquityPoint{Date: p.Day, NetPnL: p.NetPnL, Equity: p.Equity, Drawdown: p.Drawdown})
	}
	if !reflect.DeepEqual(gotEquity, wantEquity) {
		t.Errorf("seed %d %+v: equity from days\n%s\nfrom trades\n%s", seed, f, jsonOf(gotEquity), jsonOf(wantEquity))
	}
	return exacts, stale, settled
}

// randomTrade is a trade on one of days in one of accounts: a stock trade
// typed without fills (gross whole dollars from -300 to 300, so that days
// and falls often come out equal), sometimes open, sometimes without an
// exit time, sometimes with a stop (an R multiple), or one with fills and
// commissions.
func randomTrade(r *rand.Rand, accounts, days []string) TradeInput {
	day := days[r.IntN(len(days))]
	side := []string{"long", "short"}[r.IntN(2)]
	in := TradeInput{AccountID: Some(accounts[r.IntN(len(accounts))]), Symbol: Some("AAPL"), Side: Some(side),
		EntryDate: Some(day), StopLossLevels: Some([]trading.Level{})}
	clock := func() string { return fmt.Sprintf("%02d:%02d:00", 9+r.IntN(2), r.IntN(4)*15) }
	if r.IntN(4) == 0 {
		// With fills: in and out at times of the day, a commission each.
		in.Executions = Some([]ExecutionInput{
			{Side: Some(map[string]string{"long": "buy", "short": "sell"}[side]), Price: Some(1000.0), Quantity: Some(2.0),
				Commission: Some(float64(r.IntN(3)) * 0.62), ExecutionTime: Some("08:00:00")},
			{Side: Some(map[string]string{"long": "sell", "short": "buy"}[side]), Price: Some(1000 + float64(r.IntN(5)-2)*0.5),
				Quantity: Some(2.0), Commission: Some(float64(r.IntN(3)) * 0.62), ExecutionTime: Some(clock())},
		})
		return in
	}
	in.Quantity, in.EntryPrice, in.Executions = Some(1.0), Some(1000.0), Some([]ExecutionInput{})
	if r.IntN(8) > 0 {
		in.ExitPrice = Some(1000 + float64(r.IntN(7)-3)*100)
		if r.IntN(5) > 0 {
			in.EntryTime, in.ExitTime = Some("08:30:00"), Some(clock())
		}
	}
	if r.IntN(3) == 0 {
		in.StopLossLevels = Some([]trading.Level{{Price: map[string]float64{"long": 900, "short": 1100}[side]}})
	}
	return in
}

// jsonOf is v as indented JSON, for a failure's message.
func jsonOf(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

// equalFalls counts the days that set a new largest fall with their fall
// from the peak before them equal to their own (the case Fold decides by
// which comes first).
func equalFalls(days []stats.DayRow) int {
	n := 0
	var equity, peak, fall int64
	for _, d := range days {
		if before := peak - equity - d.Low; before == d.Fall && before > fall {
			n++
		}
		fall = max(fall, peak-equity-d.Low, d.Fall)
		peak = max(peak, equity+d.High)
		equity += d.Net
	}
	return n
}

// TestMigrateTradeDays: a journal of schema 14 opens with every day of its
// closed trades marked stale, nothing lost: its trades all there, and the
// figures (folded from the trades while the days are stale, read from the
// rows once settled, as the settler does when the journal is idle) equal
// those read from the trades, as worked by hand below.
// Mutation tried: the migration not marking the days stale (the reads then
// find no rows and no stale days): it fails.
func TestMigrateTradeDays(t *testing.T) {
	statements := []string{
		`INSERT INTO users (id, name, created_at) VALUES ('u1', 'alice', 'x'), ('u2', 'bob', 'x')`,
		`INSERT INTO accounts (id, user_id, account_number, account_type, created_at, updated_at)
			VALUES ('a1', 'u1', 'A', 'prop', 'x', 'x'), ('a2', 'u1', 'B', 'prop', 'x', 'x'), ('a3', 'u2', 'C', 'prop', 'x', 'x')`,
	}
	for _, tr := range []struct {
		id, user, account, day, exit, status string
		net                                  float64
	}{
		{"t1", "u1", "a1", "2025-12-01", "09:40:00", "win", 100},
		{"t2", "u1", "a2", "2025-12-01", "09:50:00", "loss", -50},
		{"t3", "u1", "a1", "2025-12-01", "10:00:00", "loss", -80},
		{"t4", "u1", "a2", "2025-12-02", "09:30:00", "win", 200},
		{"t5", "u1", "a1", "2025-12-02", "11:00:00", "breakeven", 0},
		{"t6", "u1", "a1", "2025-12-03", "09:10:00", "loss", -300},
		{"t7", "u1", "a1", "2025-12-03", "", "open", 0},
		{"t8", "u2", "a3", "2025-12-01", "09:40:00", "win", 10},
	} {
		exit := "'" + tr.day + "', '" + tr.exit + "', 1010"
		if tr.status == "open" {
			exit = "NULL, NULL, NULL"
		}
		statements = append(statements, fmt.Sprintf(`INSERT INTO trades (id, user_id, account_id, symbol, root, side,
			quantity, entry_price, exit_date, exit_time, exit_price, entry_date, entry_time, gross_pnl, net_pnl,
			total_commission, status, asset_class, point_value, created_at, updated_at, day, hold_seconds)
			VALUES ('%s', '%s', '%s', 'AAPL', 'AAPL', 'long', 1, 1000, %s, '%s', '09:00:00', %v, %v, 0, '%s',
			'stocks', 1, 'x', 'x', '%s', 60)`, tr.id, tr.user, tr.account, exit, tr.day, tr.net, tr.net, tr.status, tr.day))
	}
	path := oldJournal(t, 14, statements...)

	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open migrates: %v", err)
	}
	defer d.Close()
	var trades, stale int
	if err := d.read.QueryRow(`SELECT (SELECT count(*) FROM trades), (SELECT count(*) FROM trade_days_stale)`).
		Scan(&trades, &stale); err != nil || trades != 8 {
		t.Fatalf("after migrating: %d trades, %v; want 8", trades, err)
	}
	t.Logf("%d days stale after Open", stale) // 4 unless the settler ran already
	for settled := range 2 {
		if settled == 1 {
			if err := d.SettleDays(t.Context()); err != nil {
				t.Fatal(err)
			}
			if err := d.read.QueryRow(`SELECT count(*) FROM trade_days_stale`).Scan(&stale); err != nil || stale != 0 {
				t.Fatalf("after settling: %d stale days, %v", stale, err)
			}
		}
		checkTradeDays(t, d)
		for _, f := range []TradeFilter{{}, {AccountID: "a1"}, {AccountID: "a2"}, {StartDate: "2025-12-02"}} {
			compareStats(t, d, "u1", f, 0)
		}
		compareStats(t, d, "u2", TradeFilter{}, 0)
		migratedFigures(t, d)
	}
}

// migratedFigures checks TestMigrateTradeDays' summaries, worked by hand.
func migratedFigures(t *testing.T, d *DB) {
	t.Helper()
	// By trade: 100, 50, -30 (peak 100 on 12-01), 170 (a peak on 12-02),
	// 170, -130: the largest fall is 170 - -130 = 300, from 12-02 to
	// 12-03. Win, loss, loss, win, breakeven, loss: runs of 1 and 2. Days:
	// -30, +200, -300.
	s, err := d.StatsSummary(t.Context(), "u1", TradeFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Trades != 6 || s.Wins != 2 || s.Losses != 3 || s.Breakeven != 1 || s.OpenTrades != 1 || s.NetPnL != -130 ||
		s.MaxDrawdown != 300 || *s.MaxDrawdownStart != "2025-12-02" || *s.MaxDrawdownEnd != "2025-12-03" ||
		s.MaxConsecutiveWins != 1 || s.MaxConsecutiveLosses != 2 || s.TradingDays != 3 || s.WinningDays != 1 ||
		*s.BestDay != (DayPnL{"2025-12-02", 200}) || *s.WorstDay != (DayPnL{"2025-12-03", -300}) || *s.LargestLoss != -300 {
		t.Errorf("summary after migrating: %s", jsonOf(s))
	}
	// Account a1: 100, 20, 20, -280: a fall of 380 from 12-01 to 12-03;
	// win, loss, breakeven, loss: a run of 2 losses.
	s, err = d.StatsSummary(t.Context(), "u1", TradeFilter{AccountID: "a1"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Trades != 4 || s.NetPnL != -280 || s.MaxDrawdown != 380 || *s.MaxDrawdownStart != "2025-12-01" ||
		s.MaxConsecutiveLosses != 2 || s.OpenTrades != 1 {
		t.Errorf("account summary after migrating: %s", jsonOf(s))
	}
}

// TestByDays: the statistics read the days only under a filter of an
// account and dates; every other field of TradeFilter, set alone, sends
// them to the trades. Mutation tried: byDays without the playbook: it fails.
func TestByDays(t *testing.T) {
	for _, f := range []TradeFilter{{}, {AccountID: "a"}, {StartDate: "2026-01-01", EndDate: "2026-02-01"}, {TagIDs: []string{}}} {
		if !f.byDays() {
			t.Errorf("%+v: byDays false, want true", f)
		}
	}
	v := reflect.ValueOf(TradeFilter{})
	for i := range v.NumField() {
		name := v.Type().Field(i).Name
		if name == "AccountID" || name == "StartDate" || name == "EndDate" {
			continue
		}
		var f TradeFilter
		field := reflect.ValueOf(&f).Elem().Field(i)
		switch field.Kind() {
		case reflect.String:
			field.SetString("x")
		case reflect.Bool:
			field.SetBool(true)
		case reflect.Slice:
			field.Set(reflect.ValueOf([]string{"x"}))
		case reflect.Pointer:
			field.Set(reflect.New(field.Type().Elem()))
		default:
			t.Fatalf("TradeFilter.%s: a kind the test does not set (%v)", name, field.Kind())
		}
		if f.byDays() {
			t.Errorf("TradeFilter.%s set: byDays true, want false", name)
		}
	}
}

// TestImportMarksDays: an import's trades (written in bulk, in a
// transaction of their own) mark their days, so the statistics right after
// it, with its days stale, and after they are settled, equal those of the
// trades; and so do they after the import is undone. Mutation tried: the
// insert trigger marking nothing: it fails.
func TestImportMarksDays(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	file, err := brokers.Read(bytes.NewReader(genericFile(1, 4_000)), brokers.Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	imp, err := d.Import(ctx, userID, ImportInput{File: file, FileName: "days.csv", Timezone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	filters := []TradeFilter{{}, {AccountID: accountID}, {StartDate: "2031-01-03"}}
	compare := func(when string) {
		t.Helper()
		var trades, stale int
		if err := d.read.QueryRow(`SELECT (SELECT count(*) FROM trades WHERE status <> 'open'),
			(SELECT count(*) FROM trade_days_stale)`).Scan(&trades, &stale); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d closed trades, %d days stale", when, trades, stale)
		for _, f := range filters {
			compareStats(t, d, userID, f, 0)
		}
	}
	compare("imported")
	if err := d.SettleDays(ctx); err != nil {
		t.Fatal(err)
	}
	compare("settled")
	s, err := d.StatsSummary(ctx, userID, TradeFilter{})
	if err != nil || s.Trades != 1_000 || s.TradingDays != 4 {
		// 4,000 fills a minute apart from 14:30 on the 2nd end at 09:09 on the 5th.
		t.Errorf("summary of the import: %d trades over %d days, %v; want 1,000 over 4", s.Trades, s.TradingDays, err)
	}
	if _, err := d.DeleteImport(ctx, userID, *imp.ID, true); err != nil {
		t.Fatal(err)
	}
	compare("undone")
	if err := d.SettleDays(ctx); err != nil {
		t.Fatal(err)
	}
	compare("undone and settled")
	if s, err := d.StatsSummary(ctx, userID, TradeFilter{}); err != nil || s.Trades != 0 || s.TradingDays != 0 {
		t.Errorf("summary after undoing the import: %d trades over %d days, %v; want none", s.Trades, s.TradingDays, err)
	}
}

// TestSettlerSettlesWhenIdle: with no call to SettleDays, the days a write
// marked are settled by the journal itself once its writer is idle, and
// hold what a rebuild gives (checkTradeDays, run as the test ends). The
// test waits for it, up to a minute. Mutation tried: the settler's timer
// never armed: it fails.
func TestSettlerSettlesWhenIdle(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	for i := range 5 {
		if _, err := d.CreateTrade(ctx, userID, TradeInput{AccountID: Some(accountID), Symbol: Some("AAPL"), Side: Some("long"),
			EntryDate: Some(fmt.Sprintf("2026-03-0%d", 2+i%3)), Quantity: Some(1.0), EntryPrice: Some(100.0),
			ExitPrice: Some(100 + float64(i)), Executions: Some([]ExecutionInput{})}); err != nil {
			t.Fatal(err)
		}
	}
	var stale int
	for deadline := time.Now().Add(time.Minute); ; {
		if err := d.read.QueryRow(`SELECT count(*) FROM trade_days_stale WHERE day <> '2026-03-09'`).Scan(&stale); err != nil {
			t.Fatal(err)
		}
		if stale == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	var rows int
	if err := d.read.QueryRow(`SELECT count(*) FROM trade_days`).Scan(&rows); err != nil || stale != 0 || rows != 6 {
		t.Fatalf("after waiting: %d days stale, %d rows (%v); want none stale and 6 rows (3 days, all and the account)",
			stale, rows, err)
	}
	compareStats(t, d, userID, TradeFilter{}, 0)
}

// TestSettleBesideWrites: settles run while four writers create, replace
// and delete trades on the same ten days; after each settle, and when all
// have finished, every day not marked stale holds what a rebuild of its
// trades gives (checkTradeDays, in one snapshot), and the figures equal
// the trades'. A settle rebuilds and
// clears its days in one write transaction, so a write can never fall
// between the two and be left out of a day marked settled. Mutation tried:
// the marks cleared in a transaction after the rebuild's: it fails.
func TestSettleBesideWrites(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	var days []string
	for i := range 10 {
		days = append(days, fmt.Sprintf("2026-03-%02d", 2+i))
	}
	done := make(chan struct{})
	settled := make(chan error, 1)
	go func() {
		for {
			select {
			case <-done:
				settled <- nil
				return
			default:
			}
			if err := d.SettleDays(ctx); err != nil {
				settled <- err
				return
			}
			checkTradeDays(t, d)
		}
	}()
	errs := make(chan error, 4)
	for w := range 4 {
		go func() {
			r := rand.New(rand.NewPCG(uint64(w), 7))
			var ids []string
			for range 100 {
				in := randomTrade(r, []string{accountID}, days)
				var err error
				switch op := r.IntN(6); {
				case op < 4 || len(ids) == 0:
					var tr Trade
					if tr, err = d.CreateTrade(ctx, userID, in); err == nil {
						ids = append(ids, tr.ID)
					}
				case op < 5:
					_, err = d.UpdateTrade(ctx, userID, ids[r.IntN(len(ids))], in)
				default:
					k := r.IntN(len(ids))
					_, err = d.DeleteTrade(ctx, userID, ids[k])
					ids = append(ids[:k], ids[k+1:]...)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	if err := <-settled; err != nil {
		t.Fatal(err)
	}
	checkTradeDays(t, d)
	compareStats(t, d, userID, TradeFilter{}, 0)
	if err := d.SettleDays(ctx); err != nil {
		t.Fatal(err)
	}
	compareStats(t, d, userID, TradeFilter{}, 0)
}

// TestStatDaysPlans: a read of the days finds the settled ones through
// trade_days' key and the stale ones' trades through the statistics'
// index by day, never reading every trade of the user nor sorting them.
// Mutation tried: the stale fold's day condition on substr(t.day, 1)
// (which the index cannot search by): it fails.
func TestStatDaysPlans(t *testing.T) {
	d := newTestDB(t)
	userID, accountID := newTradeFixture(t, d)
	seedTrades(t, d, userID, accountID, 200)
	if _, err := d.write.Exec(`INSERT INTO trade_days_stale (user_id, day) VALUES (?, '2016-01-01')`, userID); err != nil {
		t.Fatal(err)
	}
	if _, err := d.write.Exec(`ANALYZE`); err != nil {
		t.Fatal(err)
	}
	for _, f := range []TradeFilter{{}, {AccountID: accountID, StartDate: "2016-01-01", EndDate: "2016-02-01"}} {
		plan, err := d.explain(t.Context(), staleDaysQuery, staleDaysArgs(userID, f)...)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(plan, "; ")
		t.Logf("stale days %+v: %s", f, text)
		if !strings.Contains(text, "SEARCH t USING COVERING INDEX trades_closed (user_id=? AND day=?)") ||
			strings.Contains(text, "TEMP B-TREE") {
			t.Errorf("stale days %+v: plan %q reads more than the stale days' trades, or sorts", f, text)
		}
		where, args := settledCondition(userID, f)
		plan, err = d.explain(t.Context(), `SELECT day, net FROM trade_days WHERE `+where+` ORDER BY day`, args...)
		if err != nil {
			t.Fatal(err)
		}
		text = strings.Join(plan, "; ")
		t.Logf("settled days %+v: %s", f, text)
		if !strings.Contains(text, "SEARCH trade_days USING PRIMARY KEY (user_id=? AND account_id=? AND day>? AND day<?)") ||
			strings.Contains(text, "TEMP B-TREE") {
			t.Errorf("settled days %+v: plan %q does not read a span of trade_days' key, or sorts", f, text)
		}
	}
}

// TestIntegrityCheckTradeDays: the check names a settled day whose row
// differs from its trades, a row of a day without closed trades, and a
// settled day without its row; a stale day is left to the settler.
// Mutation tried: sameDay ignoring the largest loss: the changed largest
// loss goes unnamed.
func TestIntegrityCheckTradeDays(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	for i, day := range []string{"2026-03-02", "2026-03-02", "2026-03-03"} {
		if _, err := d.CreateTrade(ctx, userID, TradeInput{AccountID: Some(accountID), Symbol: Some("AAPL"),
			Side: Some("long"), EntryDate: Some(day), Quantity: Some(1.0), EntryPrice: Some(100.0),
			ExitPrice: Some(99 + float64(i)), Executions: Some([]ExecutionInput{})}); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.SettleDays(ctx); err != nil {
		t.Fatal(err)
	}
	if problems, err := d.IntegrityCheck(ctx); err != nil || len(problems) > 0 {
		t.Fatalf("sound journal: %q, %v", problems, err)
	}
	for _, q := range []string{
		`UPDATE trade_days SET net = net + 1 WHERE account_id = '' AND day = '2026-03-02'`,
		`UPDATE trade_days SET largest_loss = -2 WHERE account_id <> '' AND day = '2026-03-02'`,
		`INSERT INTO trade_days SELECT user_id, account_id, '2026-03-09', trades, wins, losses, breakeven, gross,
			commissions, net, win_sum, loss_sum, largest_win, largest_loss, r_sum, r_count, hold_sum, hold_count,
			win_first, win_last, win_max, loss_first, loss_last, loss_max, high, low, fall, last_exit, last_id
			FROM trade_days WHERE account_id = '' AND day = '2026-03-03'`,
		`DELETE FROM trade_days WHERE account_id <> '' AND day = '2026-03-03'`,
	} {
		if _, err := d.write.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		"trade_days: user " + userID + "'s day 2026-03-02 (all accounts)'s row differs from its trades",
		"trade_days: user " + userID + "'s day 2026-03-02 in account " + accountID + "'s row differs from its trades",
		"trade_days: user " + userID + "'s day 2026-03-09 (all accounts) has a row but no closed trades",
		"trade_days: user " + userID + "'s day 2026-03-03 in account " + accountID + " has closed trades but no row",
	}
	if problems, err := d.IntegrityCheck(ctx); err != nil || !reflect.DeepEqual(problems, want) {
		t.Errorf("check:\n got %q, %v\nwant %q", problems, err, want)
	}
	// Marked stale, 03-02 is the settler's to rebuild, not a problem; settled, every day is sound again.
	if _, err := d.write.Exec(`INSERT INTO trade_days_stale VALUES (?, '2026-03-02')`, userID); err != nil {
		t.Fatal(err)
	}
	if problems, err := d.IntegrityCheck(ctx); err != nil || !reflect.DeepEqual(problems, want[2:]) {
		t.Errorf("check with 03-02 stale:\n got %q, %v\nwant %q", problems, err, want[2:])
	}
	if _, err := d.write.Exec(`INSERT INTO trade_days_stale VALUES (?, '2026-03-03'), (?, '2026-03-09')`, userID, userID); err != nil {
		t.Fatal(err)
	}
	if err := d.SettleDays(ctx); err != nil {
		t.Fatal(err)
	}
	if problems, err := d.IntegrityCheck(ctx); err != nil || len(problems) > 0 {
		t.Errorf("after settling: %q, %v", problems, err)
	}
}

// TestSettlerSettlesUnderWrites: a stream of writes that never pauses for
// the settler's idle time (here an hour) still has its stale days settled,
// a batch once its due time (here 300 ms) has passed since the first
// commit. The stream creates open trades on the 9th, which mark that day
// only (for an account's walk: schema 00016), again after each settle;
// the test reads the other days. It waits up to 30 s. Mutation tried: due never armed by a commit: it fails.
func TestSettlerSettlesUnderWrites(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	d.settler.close()
	d.settler = newSettler(d, time.Hour, 300*time.Millisecond)
	for i := range 3 {
		if _, err := d.CreateTrade(ctx, userID, TradeInput{AccountID: Some(accountID), Symbol: Some("AAPL"), Side: Some("long"),
			EntryDate: Some(fmt.Sprintf("2026-03-0%d", 2+i)), Quantity: Some(1.0), EntryPrice: Some(100.0),
			ExitPrice: Some(101.0), Executions: Some([]ExecutionInput{})}); err != nil {
			t.Fatal(err)
		}
	}
	var stale int
	for deadline := time.Now().Add(30 * time.Second); ; {
		if _, err := d.CreateTrade(ctx, userID, TradeInput{AccountID: Some(accountID), Symbol: Some("AAPL"), Side: Some("long"),
			EntryDate: Some("2026-03-09"), Quantity: Some(1.0), EntryPrice: Some(100.0), Executions: Some([]ExecutionInput{})}); err != nil {
			t.Fatal(err)
		}
		if err := d.read.QueryRow(`SELECT count(*) FROM trade_days_stale WHERE day <> '2026-03-09'`).Scan(&stale); err != nil {
			t.Fatal(err)
		}
		if stale == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if stale != 0 {
		t.Fatalf("after 30 s of writes: %d days stale, want none", stale)
	}
}
