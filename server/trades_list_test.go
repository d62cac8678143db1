package server_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"tradejournal/db"
)

// list GETs a trade list and returns the symbols of the page, in order.
func (e *tradeEnv) list(t *testing.T, query string) ([]db.Trade, listBody[db.Trade]) {
	t.Helper()
	status, b := e.do(t, "GET", "/api/v1/trades?"+query, e.key, "")
	if status != http.StatusOK {
		t.Fatalf("GET /api/v1/trades?%s: got %d %s", query, status, b)
	}
	l := decode[listBody[db.Trade]](t, b)
	return l.Data, l
}

func ids(trades []db.Trade) []string {
	var out []string
	for _, t := range trades {
		out = append(out, t.ID)
	}
	return out
}

func TestTradeListFilters(t *testing.T) {
	e := newTradeEnv(t)
	acct2 := e.createAccount(t, e.key, `{"account_number": "RETAIL-9"}`).ID
	mk := func(symbol, side, date, extra string) string {
		t.Helper()
		tr, _ := e.create(t, strings.Replace(e.tradeBody(symbol, side, extra), "2026-02-05", date, 1))
		return tr.ID
	}
	nqWin := mk("NQZ5", "long", "2026-03-02", fills(1, "buy 1@20000", "sell 1@20010"))              // +198
	nqLoss := mk("NQH6", "short", "2026-03-03", fills(1, "sell 1@20000", "buy 1@20010"))            // -202
	mnq := mk("MNQZ5", "long", "2026-03-04", fills(0, "buy 1@20000", "sell 1@20001"))               // +2
	esOpen := mk("ES", "long", "2026-03-05", `"entry_price": 5000, "quantity": 1`)                  // open
	aapl := mk("AAPL", "long", "2026-03-06", `"entry_price": 10, "quantity": 10, "exit_price": 11`) // +10
	otherTrade, _ := e.create(t, strings.Replace(strings.Replace(e.tradeBody("NQ", "long", `"entry_price": 20000, "quantity": 1`),
		"2026-02-05", "2026-03-01", 1), e.accountID, acct2, 1))
	other := otherTrade.ID

	tests := []struct {
		query string
		want  []string
	}{
		{"", []string{aapl, esOpen, mnq, nqLoss, nqWin, other}},
		{"symbol=nq", []string{nqLoss, nqWin, other}},
		{"symbol=NQZ5", []string{nqWin}},
		{"symbol=/NQ", []string{nqLoss, nqWin, other}},
		{"symbol=aapl", []string{aapl}},
		{"symbol=MSFT", nil},
		{"account_id=" + acct2, []string{other}},
		{"account_id=01a1fbe5-0d64-76ed-86e9-d763a9f4f538", nil},
		{"start_date=2026-03-03&end_date=2026-03-05", []string{esOpen, mnq, nqLoss}},
		{"start_date=2026-03-06", []string{aapl}},
		{"status=open", []string{esOpen, other}},
		{"status=loss", []string{nqLoss}},
		{"side=short", []string{nqLoss}},
		{"asset_class=stocks", []string{aapl}},
		{"min_pnl=5", []string{aapl, nqWin}},
		{"max_pnl=0", []string{esOpen, nqLoss, other}},
		{"min_pnl=-300&max_pnl=2", []string{esOpen, mnq, nqLoss, other}},
		{"symbol=nq&side=long", []string{nqWin, other}},
		{"reviewed=false&limit=2", []string{aapl, esOpen}},
		{"reviewed=true", nil},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			got, l := e.list(t, tt.query)
			if !slices.Equal(ids(got), tt.want) {
				t.Errorf("got %v, want %v", ids(got), tt.want)
			}
			if tt.query != "reviewed=false&limit=2" && l.Pagination.Total != len(tt.want) {
				t.Errorf("total = %d, want %d", l.Pagination.Total, len(tt.want))
			}
		})
	}
}

func TestTradeListBadFilters(t *testing.T) {
	e := newTradeEnv(t)
	for query, field := range map[string]string{
		"account_id=nope":                           "account_id",
		"playbook_id=123":                           "playbook_id",
		"start_date=2026-13-01":                     "start_date",
		"end_date=yesterday":                        "end_date",
		"start_date=2026-03-02&end_date=2026-03-01": "end_date",
		"status=won":                                "status",
		"side=buy":                                  "side",
		"asset_class=bond":                          "asset_class",
		"min_pnl=abc":                               "min_pnl",
		"max_pnl=NaN":                               "max_pnl",
		"tags=" + url.QueryEscape("x,y"):            "tags",
		"reviewed=maybe":                            "reviewed",
		"min_rating=6":                              "min_rating",
		"has_violations=2":                          "has_violations",
		"limit=0":                                   "limit",
		"symbol=" + strings.Repeat("A", 65):         "symbol",
	} {
		status, b := e.do(t, "GET", "/api/v1/trades?"+query, e.key, "")
		if got := decode[errBody](t, b); status != 400 || got.Code != "VALIDATION_ERROR" || got.Details[field] == "" {
			t.Errorf("GET ?%s: got %d %s, want 400 naming %s", query, status, b, field)
		}
	}
}

func TestTradeListTags(t *testing.T) {
	e := newTradeEnv(t)
	raw := e.sql(t)
	// Tags have no API yet; rows stand in for them.
	mustExec(t, raw, `INSERT INTO tag_groups (id, user_id, name, color, created_at, updated_at)
		VALUES ('01a1fbe5-0000-7000-8000-0000000000a0', ?, 'Setups', '#112233', 'x', 'x')`, e.userID)
	tagA, tagB, tagC := "01a1fbe5-0000-7000-8000-0000000000a1", "01a1fbe5-0000-7000-8000-0000000000a2", "01a1fbe5-0000-7000-8000-0000000000a3"
	for _, id := range []string{tagA, tagB, tagC} {
		mustExec(t, raw, `INSERT INTO tags (id, user_id, tag_group_id, name, created_at, updated_at)
			VALUES (?, ?, '01a1fbe5-0000-7000-8000-0000000000a0', ?, 'x', 'x')`, id, e.userID, "tag "+id[len(id)-2:])
	}
	both, _ := e.create(t, e.tradeBody("ES", "long", fmt.Sprintf(`"entry_price": 1, "quantity": 1, "tag_ids": [%q, %q]`, tagA, tagB)))
	onlyC, _ := e.create(t, e.tradeBody("ES", "long", fmt.Sprintf(`"entry_price": 1, "quantity": 1, "tag_ids": [%q]`, tagC)))
	e.create(t, e.tradeBody("ES", "long", `"entry_price": 1, "quantity": 1`))

	got, l := e.list(t, "tags="+tagA+","+tagB)
	if !slices.Equal(ids(got), []string{both.ID}) || l.Pagination.Total != 1 {
		t.Errorf("tags=A,B: got %v total %d, want only the trade with both, once", ids(got), l.Pagination.Total)
	}
	if len(got) == 1 && (len(got[0].Tags) != 2 || got[0].Tags[0].GroupColor != "#112233") {
		t.Errorf("tags on list item: %+v", got[0].Tags)
	}
	// An unknown id matches nothing but does not hide the others.
	got, _ = e.list(t, "tags="+tagC+",01a1fbe5-0d64-76ed-86e9-d763a9f4f538")
	if !slices.Equal(ids(got), []string{onlyC.ID}) {
		t.Errorf("tags=C,unknown: got %v, want %v", ids(got), []string{onlyC.ID})
	}
	status, b := e.do(t, "DELETE", "/api/v1/trades/"+both.ID, e.key, "")
	if status != 200 || !strings.Contains(string(b), `"Removed 2 tag associations"`) {
		t.Errorf("DELETE tagged trade: %d %s", status, b)
	}
}

func TestTradeListPagination(t *testing.T) {
	e := newTradeEnv(t)
	var want []string
	for i := range 25 {
		// Same date, times a minute apart: newest (latest time) first.
		tr, _ := e.create(t, e.tradeBody("ES", "long", fmt.Sprintf(`"entry_price": 1, "quantity": 1, "entry_time": "10:%02d:00"`, i)))
		want = append([]string{tr.ID}, want...)
	}
	var seen []string
	for offset := 0; ; {
		page, l := e.list(t, fmt.Sprintf("offset=%d&limit=7", offset))
		seen = append(seen, ids(page)...)
		offset += len(page)
		if !l.Pagination.HasMore {
			break
		}
	}
	if !slices.Equal(seen, want) {
		t.Errorf("walking pages saw %d trades %v, want %d in order", len(seen), seen, len(want))
	}
	page, l := e.list(t, "page=3&limit=10")
	if l.Pagination.Offset != 20 || len(page) != 5 || l.Pagination.HasMore {
		t.Errorf("page 3: offset %d, %d items, has_more %v; want 20, 5, false", l.Pagination.Offset, len(page), l.Pagination.HasMore)
	}
}

func TestTradeIsolation(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ES", "long", fills(0, "buy 1@5000", "sell 1@5001")))
	_, bobKey := e.newUser(t, "bob")
	bobAcct := e.createAccount(t, bobKey, `{"account_number": "B-1"}`)
	_, before := e.do(t, "GET", "/api/v1/trades/"+tr.ID, e.key, "")

	for _, r := range []struct{ method, body string }{
		{"GET", ""}, {"PUT", `{"exit_price": 1}`}, {"DELETE", ""},
	} {
		status, b := e.do(t, r.method, "/api/v1/trades/"+tr.ID, bobKey, r.body)
		if got := decode[errBody](t, b); status != 404 || got.Code != "NOT_FOUND" || got.Error != "Trade not found" {
			t.Errorf("bob %s alice's trade: got %d %s, want 404 Trade not found", r.method, status, b)
		}
	}
	if got, _ := (&tradeEnv{testServer: e.testServer, key: bobKey}).list(t, ""); len(got) != 0 {
		t.Errorf("bob's list holds %d trades, want none", len(got))
	}
	// Bob cannot file a trade under alice's account, nor move one there.
	body := strings.Replace(e.tradeBody("ES", "long", `"entry_price": 1, "quantity": 1`), e.accountID, e.accountID, 1)
	if status, b := e.do(t, "POST", "/api/v1/trades", bobKey, body); status != 404 || decode[errBody](t, b).Details["account_id"] != "Account not found" {
		t.Errorf("bob POST on alice's account: got %d %s", status, b)
	}
	bobTrade := (&tradeEnv{testServer: e.testServer, key: bobKey, accountID: bobAcct.ID})
	bt, _ := bobTrade.create(t, bobTrade.tradeBody("ES", "long", `"entry_price": 1, "quantity": 1`))
	if status, _ := e.do(t, "PUT", "/api/v1/trades/"+bt.ID, bobKey, `{"account_id": "`+e.accountID+`"}`); status != 404 {
		t.Errorf("bob moving his trade to alice's account: got %d, want 404", status)
	}
	if _, after := e.do(t, "GET", "/api/v1/trades/"+tr.ID, e.key, ""); string(after) != string(before) {
		t.Errorf("alice's trade changed:\nbefore %s\nafter  %s", before, after)
	}
}

func TestInstruments(t *testing.T) {
	e := newTradeEnv(t)
	status, b := e.do(t, "GET", "/api/v1/instruments", e.key, "")
	list := decode[struct{ Data []db.Instrument }](t, b).Data
	if status != 200 || len(list) < 49 {
		t.Fatalf("GET instruments: %d, %d roots", status, len(list))
	}
	if i := slices.IndexFunc(list, func(i db.Instrument) bool { return i.Root == "ZN" }); i < 0 || list[i].PointValue != 1000 || list[i].Source != "builtin" {
		t.Errorf("ZN entry missing or wrong: %v", list)
	}

	// An unknown root is refused until it has a point value; then its
	// trades price with it, and changing it re-prices them.
	if status, _ := e.do(t, "POST", "/api/v1/trades", e.key, e.tradeBody("FDAXZ5", "long", fills(0, "buy 1@18000", "sell 1@18010"))); status != 400 {
		t.Fatalf("FDAX before override: got %d, want 400", status)
	}
	status, b = e.do(t, "PUT", "/api/v1/instruments/fdax", e.key, `{"point_value": 25}`)
	if want := `{"data":{"root":"FDAX","point_value":25,"asset_class":"futures","source":"user","repriced_trades":0}}` + "\n"; status != 200 || string(b) != want {
		t.Errorf("PUT FDAX: got %d %s, want %s", status, b, want)
	}
	tr, _ := e.create(t, e.tradeBody("FDAXZ5", "long", fills(0, "buy 1@18000", "sell 1@18010")))
	if tr.GrossPnL != 250 {
		t.Errorf("FDAX gross = %v, want 250", tr.GrossPnL)
	}
	status, b = e.do(t, "PUT", "/api/v1/instruments/FDAX", e.key, `{"point_value": 5}`)
	if status != 200 || !strings.Contains(string(b), `"repriced_trades":1`) {
		t.Errorf("re-pricing PUT: %d %s", status, b)
	}
	_, b = e.do(t, "GET", "/api/v1/trades/"+tr.ID, e.key, "")
	if got := decode[struct{ Data db.EnrichedTrade }](t, b).Data; got.GrossPnL != 50 || got.PointValue != 5 {
		t.Errorf("after re-pricing: gross %v point value %v, want 50, 5", got.GrossPnL, got.PointValue)
	}
	// The only point value of a root that prices trades cannot go.
	status, b = e.do(t, "DELETE", "/api/v1/instruments/FDAX", e.key, "")
	if got := decode[errBody](t, b); status != 409 || got.Details["trades"] != "1" {
		t.Errorf("DELETE FDAX with trades: got %d %s, want 409 with the count", status, b)
	}
	// Overriding a built-in root and removing the override goes back to it.
	es, _ := e.create(t, e.tradeBody("ESZ5", "long", fills(0, "buy 1@5000", "sell 1@5001")))
	e.do(t, "PUT", "/api/v1/instruments/ES", e.key, `{"point_value": 10}`)
	status, b = e.do(t, "DELETE", "/api/v1/instruments/ES", e.key, "")
	if want := `{"success":true,"deleted_id":"ES","warnings":["Repriced 1 trade"],"repriced_trades":1}` + "\n"; status != 200 || string(b) != want {
		t.Errorf("DELETE ES: got %d %s, want %s", status, b, want)
	}
	_, b = e.do(t, "GET", "/api/v1/trades/"+es.ID, e.key, "")
	if got := decode[struct{ Data db.EnrichedTrade }](t, b).Data; got.GrossPnL != 50 {
		t.Errorf("ES back on the built-in value: gross %v, want 50", got.GrossPnL)
	}
	for target, body := range map[string]string{
		"/api/v1/instruments/NQ":        `{"point_value": 0}`,
		"/api/v1/instruments/NQ?x":      `{}`,
		"/api/v1/instruments/NQ%20ES":   `{"point_value": 1}`,
		"/api/v1/instruments/NQ?asset":  `{"point_value": 1, "asset_class": "bonds"}`,
		"/api/v1/instruments/NQ?string": `{"point_value": "20"}`,
	} {
		if status, b := e.do(t, "PUT", target, e.key, body); status != 400 {
			t.Errorf("PUT %s %s: got %d %s, want 400", target, body, status, b)
		}
	}
	if status, _ := e.do(t, "DELETE", "/api/v1/instruments/NQ", e.key, ""); status != 404 {
		t.Errorf("DELETE of a root without an override: got %d, want 404", status)
	}
	// Another user's overrides are their own.
	_, bobKey := e.newUser(t, "bob")
	_, b = e.do(t, "GET", "/api/v1/instruments", bobKey, "")
	if strings.Contains(string(b), "FDAX") {
		t.Errorf("bob sees alice's FDAX override")
	}
}

// TestReadsNeverWrite shows that reading trades, accounts, instruments and
// the dashboard's statistics commits nothing: SQLite's data_version, seen
// from one connection, moves only when another connection commits. The
// statistics are read while the trade's day is stale (a write marked it and
// the settler has not run: they fold it from its trade); when the settler
// ran meanwhile (the mark is gone, and its commit moved data_version), the
// reads are tried again after another write.
func TestReadsNeverWrite(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ES", "long", fills(1, "buy 1@5000", "sell 1@5001")))
	conn, err := e.sql(t).Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	version := func() int {
		var v int
		if err := conn.QueryRowContext(t.Context(), `PRAGMA data_version`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	marked := func() bool {
		var n int
		if err := conn.QueryRowContext(t.Context(), `SELECT count(*) FROM trade_days_stale`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
	for attempt := 0; ; attempt++ {
		if attempt == 5 {
			t.Fatal("the settler ran during each of 5 rounds of reads")
		}
		// A change of status marks the trade's day stale.
		if status, b := e.do(t, "PUT", "/api/v1/trades/"+tr.ID, e.key, fmt.Sprintf(`{"status": %q}`, []string{"loss", "win"}[attempt%2])); status != 200 {
			t.Fatalf("PUT: %d %s", status, b)
		}
		before := version()
		stale := marked()
		for _, target := range []string{"/api/v1/trades/" + tr.ID, "/api/v1/trades?symbol=ES", "/api/v1/accounts",
			"/api/v1/accounts/" + e.accountID, "/api/v1/instruments", "/api/v1/stats/summary", "/api/v1/stats/daily",
			"/api/v1/stats/equity", "/api/v1/stats/summary?account_id=" + e.accountID} {
			if status, b := e.do(t, "GET", target, e.key, ""); status != 200 {
				t.Fatalf("GET %s: %d %s", target, status, b)
			}
		}
		after := version()
		if !stale || after != before && !marked() {
			continue // the settler ran
		}
		if after != before {
			t.Errorf("data_version moved from %d to %d: a read wrote", before, after)
		}
		break
	}
	before := version()
	// The check can fail: a write moves it.
	e.do(t, "PUT", "/api/v1/trades/"+tr.ID, e.key, `{"status": "breakeven"}`)
	if after := version(); after == before {
		t.Errorf("data_version did not move after a write; the check proves nothing")
	}
}
