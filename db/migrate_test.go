package db

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestMigrateFromInit: a journal made by the first release's schema
// (00001) opens under the current one with every trade and fill intact,
// each fill counting its own id as its source id, so a re-import of the
// journal's own export finds it.
func TestMigrateFromInit(t *testing.T) {
	path := oldJournal(t, 1,
		`INSERT INTO users (id, name, created_at) VALUES ('u1', 'alice', '2025-12-01T00:00:00.000Z')`,
		`INSERT INTO accounts (id, user_id, account_number, account_type, created_at, updated_at)
			VALUES ('a1', 'u1', 'APEX-1', 'prop', '2025-12-01T00:00:00.000Z', '2025-12-01T00:00:00.000Z')`,
		`INSERT INTO trades (id, user_id, account_id, symbol, root, side, quantity, entry_price, exit_price, entry_date,
			entry_time, exit_date, exit_time, gross_pnl, net_pnl, total_commission, status, asset_class, point_value,
			star_rating, created_at, updated_at)
			VALUES ('t1', 'u1', 'a1', 'MNQZ5', 'MNQ', 'long', 1, 21000, 21010, '2025-12-01', '09:31:00', '2025-12-01',
			'09:45:00', 20, 18.76, 1.24, 'win', 'futures', 2, 4, '2025-12-01T00:00:00.000Z', '2025-12-01T00:00:00.000Z')`,
		`INSERT INTO executions (id, trade_id, position, side, price, quantity, commission, execution_date, execution_time,
			execution_type, execution_timestamp) VALUES
			('e1', 't1', 0, 'buy', 21000, 1, 0.62, '2025-12-01', '09:31:00', 'scale_in', '2025-12-01T14:31:00+00:00'),
			('e2', 't1', 1, 'sell', 21010, 1, 0.62, '2025-12-01', '09:45:00', 'scale_out', '2025-12-01T14:45:00+00:00')`,
	)

	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open migrates: %v", err)
	}
	defer d.Close()
	tr, err := d.Trade(t.Context(), "u1", "t1")
	if err != nil {
		t.Fatalf("trade after migrating: %v", err)
	}
	if tr.NetPnL != 18.76 || len(tr.Executions) != 2 || *tr.StarRating != 4 || tr.Executions[1].ID != "e2" {
		t.Errorf("trade after migrating: net %v, %d fills, rating %v", tr.NetPnL, len(tr.Executions), *tr.StarRating)
	}
	for _, e := range tr.Executions {
		if e.sourceID != e.ID || e.importID != nil {
			t.Errorf("fill %s: source id %q import %v, want its own id and none", e.ID, e.sourceID, e.importID)
		}
	}
	a, err := d.Account(t.Context(), "u1", "a1")
	if err != nil || a.AccountNumber != "APEX-1" || a.CommissionSchedule != nil {
		t.Errorf("account after migrating: %+v, %v", a, err)
	}
	var imports int
	if err := d.read.QueryRowContext(t.Context(), `SELECT count(*) FROM imports`).Scan(&imports); err != nil || imports != 0 {
		t.Errorf("imports table: %d rows, %v", imports, err)
	}
}

// TestMigrateTradeCounts: a journal of schema 2 gets each account's count
// of trades when it opens, and the list's totals are right from the first
// read.
func TestMigrateTradeCounts(t *testing.T) {
	statements := []string{
		`INSERT INTO users (id, name, created_at) VALUES ('u1', 'alice', 'x'), ('u2', 'bob', 'x'), ('u3', 'carol', 'x')`,
		`INSERT INTO accounts (id, user_id, account_number, account_type, created_at, updated_at)
			VALUES ('a1', 'u1', 'A', 'prop', 'x', 'x'), ('a2', 'u2', 'B', 'prop', 'x', 'x')`,
	}
	for i, owner := range []string{"u1", "u1", "u1", "u2"} {
		statements = append(statements, fmt.Sprintf(`INSERT INTO trades (id, user_id, account_id, symbol, root, side,
			quantity, entry_price, entry_date, status, asset_class, point_value, created_at, updated_at)
			VALUES ('t%d', '%s', 'a%s', 'NQZ5', 'NQ', 'long', 1, 20000, '2025-12-01', 'open', 'futures', 20, 'x', 'x')`,
			i, owner, owner[1:]))
	}
	path := oldJournal(t, 2, statements...)

	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open migrates: %v", err)
	}
	defer d.Close()
	for _, c := range []struct {
		user, account string
		want          int
	}{{"u1", "", 3}, {"u1", "a1", 3}, {"u1", "a2", 0}, {"u2", "", 1}, {"u2", "a2", 1}, {"u3", "", 0}} {
		trades, total, err := d.Trades(t.Context(), c.user, TradeFilter{AccountID: c.account}, Page{Limit: 10})
		if err != nil || total != c.want || len(trades) != c.want {
			t.Errorf("%s, account %q: total %d, %d trades, %v; want %d", c.user, c.account, total, len(trades), err, c.want)
		}
	}
}

// oldJournal makes a journal of the given schema version holding what the
// statements write, and returns its path, closed.
func oldJournal(t *testing.T, version int64, statements ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "journal.db")
	raw, err := sql.Open("sqlite", dsn(path, writerConn))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	p, err := provider(raw)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(t.Context(), version); err != nil {
		t.Fatalf("migrate to %d: %v", version, err)
	}
	for _, q := range statements {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMigrateTradeStats: a journal of schema 3 gets each trade's day and
// holding time when it opens: from its fills when it has them, else from
// its dates and times; and the statistics count its trades at once.
func TestMigrateTradeStats(t *testing.T) {
	trade := func(id, entryDate, entryTime, exitDate, exitTime, status string, net float64) string {
		null := func(s string) string {
			if s == "" {
				return "NULL"
			}
			return "'" + s + "'"
		}
		return fmt.Sprintf(`INSERT INTO trades (id, user_id, account_id, symbol, root, side, quantity, entry_price,
			entry_date, entry_time, exit_date, exit_time, net_pnl, gross_pnl, status, asset_class, point_value, created_at, updated_at)
			VALUES ('%s', 'u1', 'a1', 'NQZ5', 'NQ', 'long', 1, 20000, '%s', %s, %s, %s, %g, %g, '%s', 'futures', 20, 'x', 'x')`,
			id, entryDate, null(entryTime), null(exitDate), null(exitTime), net, net, status)
	}
	path := oldJournal(t, 3,
		`INSERT INTO users (id, name, created_at) VALUES ('u1', 'alice', 'x')`,
		`INSERT INTO accounts (id, user_id, account_number, account_type, created_at, updated_at) VALUES ('a1', 'u1', 'A', 'prop', 'x', 'x')`,
		// Fills from 23:00 UTC to 02:30 UTC: 12600 s, on the New York evening's day.
		trade("fills", "2025-12-01", "18:00:00", "2025-12-01", "21:30:00", "win", 100),
		`INSERT INTO executions (id, trade_id, position, side, price, quantity, commission, execution_date, execution_time,
			execution_type, execution_timestamp, source_id) VALUES
			('e1', 'fills', 0, 'buy', 20000, 1, 0, '2025-12-01', '18:00:00', 'scale_in', '2025-12-01T23:00:00+00:00', 'e1'),
			('e2', 'fills', 1, 'sell', 20005, 1, 0, '2025-12-01', '21:30:00', 'scale_out', '2025-12-02T02:30:00.5+00:00', 'e2')`,
		trade("manual", "2025-12-02", "09:30:00", "2025-12-03", "10:00:00", "loss", -40),
		trade("no times", "2025-12-04", "", "2025-12-04", "", "win", 10),
		trade("backwards", "2025-12-05", "10:00:00", "2025-12-05", "09:00:00", "breakeven", 0),
		trade("open", "2025-12-06", "09:00:00", "", "", "open", 0),
	)
	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open migrates: %v", err)
	}
	defer d.Close()
	for _, c := range []struct {
		id, day string
		hold    any
	}{
		{"fills", "2025-12-01", int64(12600)},
		{"manual", "2025-12-03", int64(88200)},
		{"no times", "2025-12-04", nil},
		{"backwards", "2025-12-05", nil},
		{"open", "2025-12-06", nil},
	} {
		var day string
		var hold any
		if err := d.read.QueryRow(`SELECT day, hold_seconds FROM trades WHERE id = ?`, c.id).Scan(&day, &hold); err != nil {
			t.Fatal(err)
		}
		if day != c.day || hold != c.hold {
			t.Errorf("%s: day %s, held %v; want %s, %v", c.id, day, hold, c.day, c.hold)
		}
	}
	s, err := d.StatsSummary(t.Context(), "u1", TradeFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Trades != 4 || s.OpenTrades != 1 || s.NetPnL != 70 || *s.AvgHoldSeconds != 50400 || s.BestDay.Date != "2025-12-01" {
		t.Errorf("summary after migrating: %+v", s)
	}
}

// TestMigratePropAccounts: a journal of schema 4 keeps its accounts, trades
// and documents whole; its accounts get no rules and the defaults (days
// from 18:00 New York, a split of 100), and the new tables start empty.
func TestMigratePropAccounts(t *testing.T) {
	path := oldJournal(t, 4,
		`INSERT INTO users (id, name, created_at) VALUES ('u1', 'alice', 'x')`,
		`INSERT INTO accounts (id, user_id, name, account_number, account_type, prop_firm, currency, starting_balance,
			status, created_at, updated_at, commission_schedule)
			VALUES ('a1', 'u1', 'Apex 50K', 'APEX-1', 'prop', 'Apex', 'USD', 50000, 'funded', 'c', 'u', '{"ES":2.14}')`,
		`INSERT INTO trades (id, user_id, account_id, symbol, root, side, quantity, entry_price, exit_price,
			entry_date, exit_date, net_pnl, gross_pnl, status, asset_class, point_value, created_at, updated_at, day)
			VALUES ('t1', 'u1', 'a1', 'ESZ5', 'ES', 'long', 1, 5000, 5001, '2025-12-01', '2025-12-01', 50, 50, 'win',
			'futures', 50, 'x', 'x', '2025-12-01')`,
		`INSERT INTO documents (id, user_id, account_id, document_name, category, file_name, file_size, mime_type,
			blob_hash, created_at, updated_at) VALUES ('d1', 'u1', 'a1', 'Payout', 'payout-confirmation', 'p.pdf', 3,
			'application/pdf', 'abc', 'x', 'x')`,
	)
	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open migrates: %v", err)
	}
	defer d.Close()
	a, err := d.Account(t.Context(), "u1", "a1")
	if err != nil {
		t.Fatal(err)
	}
	want := Account{ID: "a1", Name: "Apex 50K", AccountNumber: "APEX-1", AccountType: "prop", PropFirm: a.PropFirm,
		Currency: "USD", StartingBalance: a.StartingBalance, Status: "funded", CommissionSchedule: CommissionSchedule{"ES": 2.14},
		AccountRules: AccountRules{DayStartsAt: "18:00", DayTimezone: "America/New_York", ProfitSplit: 100},
		Tags:         []TagRef{}, CreatedAt: "c", UpdatedAt: "u"}
	if !reflect.DeepEqual(a, want) || *a.PropFirm != "Apex" || *a.StartingBalance != 50000 {
		t.Errorf("account after migrating\n got %+v\nwant %+v", a, want)
	}
	tr, err := d.Trade(t.Context(), "u1", "t1")
	if err != nil || tr.NetPnL != 50 {
		t.Errorf("trade after migrating: %v %+v", err, tr)
	}
	if _, err := d.Document(t.Context(), "u1", "d1"); err != nil {
		t.Errorf("document after migrating: %v", err)
	}
	for _, table := range []string{"payouts", "payout_documents", "expenses", "expense_documents"} {
		var n int
		if err := d.read.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s: %d rows, %v", table, n, err)
		}
	}
}

// TestMigrateTradeDocuments: a journal of schema 8 opens under 9 with its
// trades, fills, tags, documents, and the documents of its chart books,
// payouts and expenses, in their order; a trade's stored listing gains its
// document count, 0, before its tags, and is then the trade as read from
// its rows; a trade not listed yet is listed as before.
func TestMigrateTradeDocuments(t *testing.T) {
	const at = `'2025-12-01T00:00:00.000Z'`
	doc := func(id, name string) string {
		return `INSERT INTO documents (id, user_id, account_id, document_name, category, file_name, file_size, mime_type,
			blob_hash, created_at, updated_at) VALUES ('` + id + `', 'u1', 'a1', '` + name + `', 'receipt', '` + id + `.png', 3,
			'image/png', 'hash-` + id + `', ` + at + `, ` + at + `)`
	}
	// t1's listing as schema 8's code wrote it (encodeListing of the rows
	// below, printed by the release before this one).
	old := `{"id":"t1","account_id":"a1","symbol":"MNQZ5","side":"long","quantity":1,"entry_price":21000,` +
		`"exit_price":21010,"entry_date":"2025-12-01","entry_time":"09:31:00","exit_date":"2025-12-01",` +
		`"exit_time":"09:45:00","gross_pnl":20,"net_pnl":18.76,"total_commission":1.24,"status":"win",` +
		`"asset_class":"futures","point_value":2,"executions":[` +
		`{"id":"e1","side":"buy","price":21000,"quantity":1,"commission":0.62,"execution_date":"2025-12-01",` +
		`"execution_time":"09:31:00","execution_type":"scale_in","execution_timestamp":"2025-12-01T14:31:00+00:00"},` +
		`{"id":"e2","side":"sell","price":21010,"quantity":1,"commission":0.62,"execution_date":"2025-12-01",` +
		`"execution_time":"09:45:00","execution_type":"scale_out","execution_timestamp":"2025-12-01T14:45:00+00:00"}],` +
		`"tags":[],"created_at":"2025-12-01T00:00:00.000Z","updated_at":"2025-12-01T00:00:00.000Z"}`
	path := oldJournal(t, 8,
		`INSERT INTO users (id, name, created_at) VALUES ('u1', 'alice', `+at+`)`,
		`INSERT INTO accounts (id, user_id, account_number, account_type, created_at, updated_at)
			VALUES ('a1', 'u1', 'APEX-1', 'prop', `+at+`, `+at+`)`,
		`INSERT INTO trades (id, user_id, account_id, symbol, root, side, quantity, entry_price, exit_price, entry_date,
			entry_time, exit_date, exit_time, gross_pnl, net_pnl, total_commission, status, asset_class, point_value,
			created_at, updated_at, day, hold_seconds, listing)
			VALUES ('t1', 'u1', 'a1', 'MNQZ5', 'MNQ', 'long', 1, 21000, 21010, '2025-12-01', '09:31:00', '2025-12-01',
			'09:45:00', 20, 18.76, 1.24, 'win', 'futures', 2, `+at+`, `+at+`, '2025-12-01', 840, CAST('`+old+`' AS BLOB)),
			('t2', 'u1', 'a1', 'ESZ5', 'ES', 'short', 1, 5000, NULL, '2025-12-02', NULL, NULL, NULL, 0, 0, 0, 'open',
			'futures', 50, `+at+`, `+at+`, '2025-12-02', NULL, NULL)`,
		`INSERT INTO executions (id, trade_id, position, side, price, quantity, commission, execution_date, execution_time,
			execution_type, execution_timestamp, source_id) VALUES
			('e1', 't1', 0, 'buy', 21000, 1, 0.62, '2025-12-01', '09:31:00', 'scale_in', '2025-12-01T14:31:00+00:00', 'e1'),
			('e2', 't1', 1, 'sell', 21010, 1, 0.62, '2025-12-01', '09:45:00', 'scale_out', '2025-12-01T14:45:00+00:00', 'e2')`,
		`INSERT INTO tag_groups (id, user_id, name, color, created_at, updated_at) VALUES ('g1', 'u1', 'Setups', '#ff0000', `+at+`, `+at+`)`,
		`INSERT INTO tags (id, user_id, tag_group_id, name, created_at, updated_at) VALUES ('tag1', 'u1', 'g1', 'ORB', `+at+`, `+at+`)`,
		`INSERT INTO trade_tags (trade_id, tag_id) VALUES ('t1', 'tag1')`,
		doc("d1", "One"), doc("d2", "Two"), doc("d3", "Three"),
		`INSERT INTO chart_books (id, user_id, title, created_at, updated_at) VALUES ('cb1', 'u1', 'Book', `+at+`, `+at+`)`,
		`INSERT INTO chart_book_documents (chart_book_id, document_id, position) VALUES ('cb1', 'd2', 0), ('cb1', 'd1', 1)`,
		`INSERT INTO payouts (id, user_id, account_id, date, total_amount, profit_split, traders_share, firms_share, status,
			created_at, updated_at) VALUES ('p1', 'u1', 'a1', '2025-12-05', 1000, 90, 900, 100, 'paid', `+at+`, `+at+`)`,
		`INSERT INTO payout_documents (payout_id, document_id, position) VALUES ('p1', 'd3', 0), ('p1', 'd1', 1)`,
		`INSERT INTO expenses (id, user_id, account_id, date, amount, currency, category, created_at, updated_at)
			VALUES ('x1', 'u1', 'a1', '2025-12-03', 150, 'USD', 'evaluation', `+at+`, `+at+`)`,
		`INSERT INTO expense_documents (expense_id, document_id, position) VALUES ('x1', 'd2', 0)`,
	)
	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open migrates: %v", err)
	}
	defer d.Close()
	ctx := t.Context()

	var stored string
	if err := d.read.QueryRowContext(ctx, `SELECT CAST(listing AS TEXT) FROM trades WHERE id = 't1'`).Scan(&stored); err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(old, `}],"tags":[]`, `}],"document_count":0,"tags":[]`, 1)
	if stored != want {
		t.Errorf("t1's listing after migrating\n got %s\nwant %s", stored, want)
	}
	checkListings(t, d)
	if problems, err := d.IntegrityCheck(ctx); err != nil || len(problems) > 0 {
		t.Errorf("IntegrityCheck after migrating: %q, %v", problems, err)
	}
	listed, total, err := d.TradeListing(ctx, "u1", TradeFilter{}, Page{Limit: 10})
	if err != nil || total != 2 || !strings.Contains(string(listed[1]), `"document_count":0,"tags":[{"id":"tag1","name":"ORB"`) {
		t.Errorf("trades after migrating: %d, %v\n%s", total, err, listed)
	}

	tr, err := d.Trade(ctx, "u1", "t1")
	if err != nil || len(tr.Executions) != 2 || len(tr.Tags) != 1 || tr.DocumentCount != 0 {
		t.Errorf("t1 after migrating: %v, %d fills, %d tags, %d documents", err, len(tr.Executions), len(tr.Tags), tr.DocumentCount)
	}
	for _, id := range []string{"d1", "d2", "d3"} {
		if _, err := d.Document(ctx, "u1", id); err != nil {
			t.Errorf("document %s after migrating: %v", id, err)
		}
	}
	book, err := d.ChartBooks().Get(ctx, "u1", "cb1")
	if err != nil || !slices.Equal(book.DocumentIDs, []string{"d2", "d1"}) {
		t.Errorf("chart book after migrating: %v, documents %v; want [d2 d1]", err, book.DocumentIDs)
	}
	p, err := d.Payout(ctx, "u1", "p1")
	if err != nil || !slices.Equal(p.DocumentIDs, []string{"d3", "d1"}) {
		t.Errorf("payout after migrating: %v, documents %v; want [d3 d1]", err, p.DocumentIDs)
	}
	x, err := d.Expense(ctx, "u1", "x1")
	if err != nil || !slices.Equal(x.DocumentIDs, []string{"d2"}) {
		t.Errorf("expense after migrating: %v, documents %v; want [d2]", err, x.DocumentIDs)
	}
	var links int
	if err := d.read.QueryRowContext(ctx, `SELECT count(*) FROM trade_documents`).Scan(&links); err != nil || links != 0 {
		t.Errorf("trade_documents after migrating: %d rows, %v", links, err)
	}
}

// TestMigratePartialPlaybookIndex: a journal of schema 10 gets a
// trades_playbook that holds only the trades with a playbook (schema 14),
// with every trade kept, and the index still finds a playbook's trades for
// the list's filter and for the playbook's deletion, which unlinks them.
func TestMigratePartialPlaybookIndex(t *testing.T) {
	trade := func(id, playbook string) string {
		return `INSERT INTO trades (id, user_id, account_id, symbol, root, side, quantity, entry_price, exit_price, entry_date,
			entry_time, exit_date, exit_time, gross_pnl, net_pnl, total_commission, status, asset_class, point_value,
			playbook_id, day, created_at, updated_at)
			VALUES ('` + id + `', 'u1', 'a1', 'MNQZ5', 'MNQ', 'long', 1, 21000, 21010, '2025-12-01', '09:31:00', '2025-12-01',
			'09:45:00', 20, 20, 0, 'win', 'futures', 2, ` + playbook + `, '2025-12-01', '2025-12-01T00:00:00.000Z',
			'2025-12-01T00:00:00.000Z')`
	}
	path := oldJournal(t, 10,
		`INSERT INTO users (id, name, created_at) VALUES ('u1', 'alice', '2025-12-01T00:00:00.000Z')`,
		`INSERT INTO accounts (id, user_id, account_number, account_type, created_at, updated_at)
			VALUES ('a1', 'u1', 'APEX-1', 'prop', '2025-12-01T00:00:00.000Z', '2025-12-01T00:00:00.000Z')`,
		`INSERT INTO playbooks (id, user_id, title, created_at, updated_at)
			VALUES ('p1', 'u1', 'ORB', '2025-12-01T00:00:00.000Z', '2025-12-01T00:00:00.000Z')`,
		trade("t1", "'p1'"), trade("t2", "NULL"), trade("t3", "NULL"),
	)
	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open migrates: %v", err)
	}
	defer d.Close()
	ctx := t.Context()
	var def string
	var entries int
	if err := d.read.QueryRowContext(ctx, `SELECT sql FROM sqlite_schema WHERE name = 'trades_playbook'`).Scan(&def); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(def, "WHERE playbook_id IS NOT NULL") {
		t.Errorf("trades_playbook after migrating: %s", def)
	}
	// INDEXED BY fails unless the index can serve the query.
	if err := d.read.QueryRowContext(ctx, `SELECT count(*) FROM trades INDEXED BY trades_playbook WHERE playbook_id IS NOT NULL`).Scan(&entries); err != nil {
		t.Fatal(err)
	}
	if entries != 1 {
		t.Errorf("trades_playbook holds %d entries, want 1 (the trade with a playbook)", entries)
	}
	all, total, err := d.Trades(ctx, "u1", TradeFilter{}, Page{Limit: 10})
	if err != nil || total != 3 || len(all) != 3 {
		t.Fatalf("trades after migrating: %d of %d, %v", len(all), total, err)
	}
	f := TradeFilter{PlaybookID: "p1"}
	listed, total, err := d.Trades(ctx, "u1", f, Page{Limit: 10})
	if err != nil || total != 1 || len(listed) != 1 || listed[0].ID != "t1" {
		t.Fatalf("playbook p1's trades: %d of %d, %v", len(listed), total, err)
	}
	plan, err := d.QueryPlan(ctx, "u1", f, Page{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if text := strings.Join(plan, "; "); strings.Contains(text, "SCAN t") && !strings.Contains(text, "COVERING INDEX") {
		t.Errorf("the playbook filter scans the trades: %s", text)
	}
	if _, err := d.DeletePlaybook(ctx, "u1", "p1"); err != nil {
		t.Fatal(err)
	}
	tr, err := d.Trade(ctx, "u1", "t1")
	if err != nil || tr.PlaybookID != nil {
		t.Errorf("t1 after its playbook was deleted: playbook %v, %v", tr.PlaybookID, err)
	}
}

// oldAlice are the first rows of an older journal's tests (schema 9 and
// on): user u1, alice, and her Tradovate account a1, made at at (an SQL
// string literal).
func oldAlice(at string) []string {
	return []string{
		`INSERT INTO users (id, name, created_at) VALUES ('u1', 'alice', ` + at + `)`,
		`INSERT INTO accounts (id, user_id, name, account_number, account_type, broker, created_at, updated_at)
			VALUES ('a1', 'u1', 'TV-1001', 'TV-1001', 'retail', 'Tradovate', ` + at + `, ` + at + `)`,
	}
}

// oldGenericImport is alice's generic import i1 of a file with her account's
// number in it, into account a1 (schema 10 and on).
func oldGenericImport(at string) []string {
	return []string{
		`INSERT INTO imports (id, user_id, format, file_name, timezone, account_ids, unknown_accounts, rows, fills, skipped,
			duplicates, trades_created, trades_updated, warnings, created_at)
			VALUES ('i1', 'u1', 'generic', 'fills.csv', 'America/New_York', '["a1"]', '["TV-1001"]', 2, 2, 0, 0, 1, 0,
			'[]', ` + at + `)`,
		`INSERT INTO import_accounts (import_id, account_id) VALUES ('i1', 'a1')`,
	}
}

// oldImportedTrade are alice's MNQ trade t1 (10 points long, $20) and its
// two fills, of import i1, with the fills' source ids (schema 9 and on).
func oldImportedTrade(at, source1, source2 string) []string {
	return []string{
		`INSERT INTO trades (id, user_id, account_id, symbol, root, side, quantity, entry_price, exit_price, entry_date,
			entry_time, exit_date, exit_time, gross_pnl, net_pnl, total_commission, status, asset_class, point_value,
			created_at, updated_at, day, hold_seconds)
			VALUES ('t1', 'u1', 'a1', 'MNQZ5', 'MNQ', 'long', 1, 21000, 21010, '2025-12-01', '09:31:00', '2025-12-01',
			'09:45:00', 20, 20, 0, 'win', 'futures', 2, ` + at + `, ` + at + `, '2025-12-01', 840)`,
		`INSERT INTO executions (id, trade_id, position, side, price, quantity, commission, execution_date, execution_time,
			execution_type, execution_timestamp, source_id, import_id) VALUES
			('e1', 't1', 0, 'buy', 21000, 1, 0, '2025-12-01', '09:31:00', 'scale_in', '2025-12-01T14:31:00+00:00', '` + source1 + `', 'i1'),
			('e2', 't1', 1, 'sell', 21010, 1, 0, '2025-12-01', '09:45:00', 'scale_out', '2025-12-01T14:45:00+00:00', '` + source2 + `', 'i1')`,
	}
}

// TestOpenRefusesNewerSchema: a journal at a schema this build does not
// know (a newer tradejournal opened it) is refused, with both versions
// named, and left as it was.
func TestOpenRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.db")
	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	raw, err := sql.Open("sqlite", dsn(path, writerConn))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var known int64
	if err := raw.QueryRow(`SELECT max(version_id) FROM goose_db_version`).Scan(&known); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, 1)`, known+1); err != nil {
		t.Fatal(err)
	}
	_, err = Open(t.Context(), path)
	want := fmt.Sprintf("the journal is at schema %d, and this tradejournal knows schemas up to %d", known+1, known)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Open of a newer journal: %v, want %q", err, want)
	}
	var at int64
	if err := raw.QueryRow(`SELECT max(version_id) FROM goose_db_version`).Scan(&at); err != nil || at != known+1 {
		t.Fatalf("the journal's schema is now %d (%v), want %d as it was", at, err, known+1)
	}
}
