package db

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"tradejournal/internal/seed"
)

// seedTrades writes n trades of 4 fills each for the user on one account,
// lists them as Open lists the trades of an older journal, and settles
// their days as the settler would once the journal is idle.
func seedTrades(tb testing.TB, d *DB, userID, accountID string, n int) {
	tb.Helper()
	seed.Trades(tb, d.write, userID, accountID, n)
	if _, err := d.FillListings(context.Background()); err != nil {
		tb.Fatal(err)
	}
	if err := d.SettleDays(context.Background()); err != nil {
		tb.Fatal(err)
	}
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

// newScaleJournal opens a journal of 100,000 seeded trades for a benchmark.
func newScaleJournal(b *testing.B) (d *DB, userID, accountID string) {
	d = newTestDB(b)
	userID, accountID = newTradeFixture(b, d)
	seedTrades(b, d, userID, accountID, 100_000)
	return d, userID, accountID
}

func BenchmarkTrades(b *testing.B) {
	d, userID, accountID := newScaleJournal(b)
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
	// GET's answer for a trade that links to nothing: its listing and its
	// encoded details.
	b.Run("get/json", func(b *testing.B) {
		for b.Loop() {
			if out, err := d.TradeJSON(ctx, userID, some[0].ID); err != nil || out == nil {
				b.Fatal(out, err)
			}
		}
	})
	// Pages of 100 with their total, each beside the raw page query alone
	// (every column of 100 trades in the list's order, no fills, no total)
	// in the same run: x-raw is the list's rate as a share of the raw one.
	for _, c := range []struct {
		name   string
		filter TradeFilter
		offset int
	}{
		{"list/offset=0", TradeFilter{}, 0},
		{"list/offset=50000", TradeFilter{}, 50_000},
		{"list/symbol=NQ/offset=0", TradeFilter{Symbol: "NQ"}, 0},
		{"list/account/offset=0", TradeFilter{AccountID: accountID}, 0},
		{"list/dates/offset=0", TradeFilter{StartDate: "2017-01-01", EndDate: "2017-12-31"}, 0},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := d.TradeListing(ctx, userID, c.filter, Page{Limit: 100, Offset: c.offset}); err != nil {
					b.Fatal(err)
				}
			}
			ours := b.Elapsed() / time.Duration(b.N)
			raw := rawPage(b, d, userID, c.offset, b.N)
			b.ReportMetric(float64(raw.Nanoseconds()), "raw-ns/op")
			b.ReportMetric(float64(raw)/float64(ours), "x-raw")
		})
	}
	// The first page again, with two documents on every third trade and a
	// tag on every tenth: each of those listings gets its count and tags
	// put in.
	linkEvery(b, d, userID, accountID)
	b.Run("list/documents/offset=0", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := d.TradeListing(ctx, userID, TradeFilter{}, Page{Limit: 100}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// linkEvery links two documents to every third of the user's trades and a
// tag to every tenth, straight through SQL.
func linkEvery(b *testing.B, d *DB, userID, accountID string) {
	for _, q := range []string{
		`INSERT INTO documents (id, user_id, account_id, document_name, category, file_name, file_size, mime_type,
			blob_hash, created_at, updated_at) VALUES
			('bench-d1', ?1, ?2, 'Entry', 'receipt', 'entry.png', 3, 'image/png', 'x', 'x', 'x'),
			('bench-d2', ?1, ?2, 'Exit', 'receipt', 'exit.png', 3, 'image/png', 'x', 'x', 'x')`,
		`INSERT INTO trade_documents (trade_id, document_id, position)
			SELECT id, 'bench-d' || p, p FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM trades WHERE user_id = ?1),
			(SELECT 1 AS p UNION ALL SELECT 2) WHERE n % 3 = 0`,
		`INSERT INTO tag_groups (id, user_id, name, color, created_at, updated_at) VALUES ('bench-g', ?1, 'G', '#000000', 'x', 'x')`,
		`INSERT INTO tags (id, user_id, tag_group_id, name, created_at, updated_at) VALUES ('bench-t', ?1, 'bench-g', 'T', 'x', 'x')`,
		`INSERT INTO trade_tags (trade_id, tag_id)
			SELECT id, 'bench-t' FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM trades WHERE user_id = ?1) WHERE n % 10 = 0`,
	} {
		if _, err := d.write.Exec(q, userID, accountID); err != nil {
			b.Fatal(err)
		}
	}
}

// rawPage times n runs of the raw page query at offset through a connection
// of its own, and returns the time per run.
func rawPage(b *testing.B, d *DB, userID string, offset, n int) time.Duration {
	stmt, err := d.read.Prepare(seed.RawPage)
	if err != nil {
		b.Fatal(err)
	}
	defer stmt.Close()
	start := time.Now()
	for range n {
		rows, err := stmt.Query(userID, offset)
		if err != nil {
			b.Fatal(err)
		}
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				b.Fatal(err)
			}
		}
		rows.Close()
	}
	return time.Since(start) / time.Duration(n)
}

// TestStatsPlans shows summary, daily and equity read the closed trades on
// the partial index trades_closed alone, in its order: no table row, no sort.
func TestStatsPlans(t *testing.T) {
	d := newTestDB(t)
	userID, accountID := newTradeFixture(t, d)
	seedTrades(t, d, userID, accountID, 200)
	for name, f := range map[string]TradeFilter{
		"all":             {},
		"days":            {StartDate: "2016-02-01", EndDate: "2016-03-01"},
		"account and day": {AccountID: accountID, StartDate: "2016-02-01", EndDate: "2016-03-01"},
	} {
		where, args := f.statsWhere(userID)
		for _, q := range []string{
			`SELECT t.day, t.net_pnl, t.status FROM trades t WHERE ` + where + ` AND ` + closed + ` ORDER BY ` + statsOrder,
			`SELECT t.day, total(t.net_pnl) FROM trades t WHERE ` + where + ` AND ` + closed + ` GROUP BY t.day ORDER BY t.day`,
			`SELECT count(*), total(t.gross_pnl), avg(t.r_ratio), avg(t.hold_seconds) FROM trades t WHERE ` + where + ` AND ` + closed,
		} {
			plan, err := d.explain(t.Context(), q, args...)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.Join(plan, "; ")
			if !strings.Contains(text, "COVERING INDEX trades_closed") || strings.Contains(text, "TEMP B-TREE") {
				t.Errorf("%s: plan %q of %s reads the table or sorts", name, text, q)
			}
		}
	}
}

// BenchmarkTradeDaysWrite: what keeping the statistics' days and the
// accounts' walks (schema 15's and 16's triggers, which mark the days a
// write touches stale) costs a write at
// 100,000 trades, settled: a create of a trade of 4 fills on one day (the
// first marks it, the rest find it marked), a create on a different seeded
// day each time (each marks a day of its own: a new row of
// trade_days_stale), and a PUT replacing a seeded trade's 4 fills with
// others of another P&L; each with the triggers and with them dropped (the
// journal's writes as schema 14 left them), taking turns a fiftieth of b.N at a time on
// the same journal in one run, each turn from settled days. x-without is
// the time with the days over the time without; with-pages/op and
// without-pages/op count the pages each write adds to the log (200 writes,
// checkpoints held off), which a stream of writes on a shared machine
// times with less noise than the clock. The settler does not run: the
// writer is never idle.
func BenchmarkTradeDaysWrite(b *testing.B) {
	d, userID, accountID := newScaleJournal(b)
	ctx := context.Background()
	rows, err := d.write.Query(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger'
		AND (name LIKE 'trade_days%' OR name LIKE 'walk_%')`)
	if err != nil {
		b.Fatal(err)
	}
	triggers := map[string]string{}
	for rows.Next() {
		var name, text string
		if err := rows.Scan(&name, &text); err != nil {
			b.Fatal(err)
		}
		triggers[name] = text
	}
	rows.Close()
	if len(triggers) != 10 {
		b.Fatalf("%d triggers of the days, want 10", len(triggers))
	}
	set := func(kept bool) {
		for name, text := range triggers {
			q := "DROP TRIGGER " + name
			if kept {
				q = text
			}
			if _, err := d.write.Exec(q); err != nil {
				b.Fatal(err)
			}
		}
	}
	some, _, err := d.Trades(ctx, userID, TradeFilter{}, Page{Limit: 1, Offset: 40_000})
	if err != nil {
		b.Fatal(err)
	}
	fills := func(exit float64) Optional[[]ExecutionInput] {
		return Some([]ExecutionInput{
			{Side: Some("buy"), Price: Some(20000.0), Quantity: Some(1.0), Commission: Some(1.0), ExecutionTime: Some("09:30:00")},
			{Side: Some("buy"), Price: Some(20001.0), Quantity: Some(1.0), Commission: Some(1.0), ExecutionTime: Some("09:31:00")},
			{Side: Some("sell"), Price: Some(exit), Quantity: Some(1.0), Commission: Some(1.0), ExecutionTime: Some("09:40:00")},
			{Side: Some("sell"), Price: Some(exit), Quantity: Some(1.0), Commission: Some(1.0), ExecutionTime: Some("09:45:00")},
		})
	}
	puts, creates := 0, 0
	for _, c := range []struct {
		name string
		run  func() error
	}{
		{"create", func() error {
			_, err := d.CreateTrade(ctx, userID, TradeInput{AccountID: Some(accountID), Symbol: Some("NQZ5"),
				Side: Some("long"), EntryDate: Some("2026-02-05"), Executions: fills(20010)})
			return err
		}},
		{"create-spread", func() error {
			creates++
			day := fmt.Sprintf("20%02d-%02d-%02d", 16+creates/336%10, 1+creates/28%12, 1+creates%28)
			_, err := d.CreateTrade(ctx, userID, TradeInput{AccountID: Some(accountID), Symbol: Some("NQZ5"),
				Side: Some("long"), EntryDate: Some(day), Executions: fills(20010)})
			return err
		}},
		{"put", func() error {
			puts++
			_, err := d.UpdateTrade(ctx, userID, some[0].ID, TradeInput{Executions: fills(20010 + float64(puts%2))})
			return err
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			const turns = 50
			k := max(1, b.N/turns)
			run := func() time.Duration {
				// Each turn starts settled, as a journal the settler caught
				// idle: its first write on a day marks it.
				if err := d.SettleDays(ctx); err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				for range k {
					if err := c.run(); err != nil {
						b.Fatal(err)
					}
				}
				return time.Since(start)
			}
			// Pages each write adds to the log, counted rather than timed:
			// 200 writes, checkpoints held off (the log only grows).
			pages := func() float64 {
				if err := d.SettleDays(ctx); err != nil {
					b.Fatal(err)
				}
				d.HandOverCheckpoints(func(context.Context, string) error { return nil })
				defer d.checkpointer.through.Store(nil)
				shm := d.shm
				frames := func() int64 {
					logged, _, ok := walState(shm)
					if !ok {
						b.Fatal("the log's state cannot be read")
					}
					return logged / (24 + 4096)
				}
				// A first write, which starts the log over if it may.
				if err := c.run(); err != nil {
					b.Fatal(err)
				}
				before := frames()
				for range 200 {
					if err := c.run(); err != nil {
						b.Fatal(err)
					}
				}
				return float64(frames()-before) / 200
			}
			withPages := pages()
			set(false)
			withoutPages := pages()
			set(true)
			var with, without time.Duration
			for range turns {
				with += run()
				set(false)
				without += run()
				set(true)
			}
			n := time.Duration(turns * k)
			b.ReportMetric(float64((with / n).Nanoseconds()), "with-ns/op")
			b.ReportMetric(float64((without / n).Nanoseconds()), "without-ns/op")
			b.ReportMetric(float64(with)/float64(without), "x-without")
			b.ReportMetric(withPages, "with-pages/op")
			b.ReportMetric(withoutPages, "without-pages/op")
		})
	}
}
