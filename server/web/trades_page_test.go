package web

import (
	"bytes"
	"html/template"
	"net/url"
	"strings"
	"testing"

	"tradejournal/db"
)

// templateTradesMain is trades.html's main before writeMain wrote it,
// with the page's parts (layout.html's account and date filters).
var templateTradesMain = template.Must(template.Must(templates["trades"].Clone()).New("oldMain").Parse(`
<h1>Trades</h1>
{{if .Session.Can "trades:write"}}<p><a href="/trades/new" id="new-trade">New trade</a> (typed in, with its fills)</p>{{end}}
<form method="get" action="/trades" class="filters" aria-label="Filters">
  {{template "accountFilter" .}}
  <label for="symbol">Symbol</label>
  <input id="symbol" name="symbol" value="{{.Filter.Symbol}}" size="8">
  <label for="status">Status</label>
  <select id="status" name="status">
    <option value="">Any</option>
    {{range .Statuses}}<option value="{{.}}"{{if eq . $.Filter.Status}} selected{{end}}>{{.}}</option>{{end}}
  </select>
  {{template "dateFilter" .Filter}}
  <button type="submit">Apply</button>
</form>
<p class="count">{{.Total}} trade{{if ne .Total 1}}s{{end}} · <a href="{{.ReviewURL}}" id="review-these">Review this selection</a></p>
{{$select := .Session.Can "trades:write"}}
<div class="scroll">
<table class="trades">
  <thead><tr><th scope="col">Date</th><th scope="col">Symbol</th><th scope="col" class="num">Net P&amp;L</th><th scope="col">Account</th><th scope="col">Side</th><th scope="col" class="num">Qty</th>
  <th scope="col" class="num">Entry</th><th scope="col" class="num">Exit</th><th scope="col">Status</th><th scope="col">Tags</th></tr></thead>
  <tbody>
  {{/* Each trade's row is written by tradeRows (trade_rows.go). */}}
  {{with .Rows}}{{.}}{{else}}<tr><td colspan="10">No trades match.</td></tr>{{end}}
  </tbody>
</table>
</div>
{{if and $select .Trades}}
<form method="get" action="/trades/bulk" id="bulk" aria-label="Ticked trades">
  <button type="submit">Change the ticked trades…</button>
  <button type="submit" formaction="/trades/bulk/delete" class="quiet">Delete the ticked trades…</button>
</form>
{{end}}
<nav class="pages" aria-label="Pages">
  {{if .PrevURL}}<a href="{{.PrevURL}}" rel="prev">‹ Newer</a>{{end}}
  <span>{{.From}}–{{.To}} of {{.Total}}</span>
  {{if .NextURL}}<a href="{{.NextURL}}" rel="next">Older ›</a>{{end}}
</nav>
`))

// TestTradesPageAsTheTemplate: writeMain writes, byte for byte, the main
// trades.html's template wrote: with and without trades:write, with no
// trades and with some, a filter of each kind selected, a total of 1 and
// many, the first page, a middle one and the last, and a symbol, dates,
// account number and name and links holding markup. A value with a +
// (which the template wrote as &#43;) reads the same to a browser.
func TestTradesPageAsTheTemplate(t *testing.T) {
	price := 5010.25
	accounts := accountList{{ID: "acc-1", AccountNumber: `APEX "1" <b>&amp;</b>`, Name: `<i>Eval</i> & 'co'`},
		{ID: "acc-2", AccountNumber: "TOPSTEP-2"}, {ID: `acc"3<`, AccountNumber: "IBKR-3", Name: "Cash"}}
	trades := []db.TradeRow{
		{ID: "0195f2a4-0000-7000-8000-000000000001", AccountID: "acc-1", Symbol: "ESH6", Side: "long", Quantity: 2,
			EntryPrice: 5000, ExitPrice: &price, EntryDate: "2026-02-05", NetPnL: 20.5, Status: "win",
			Tags: []db.TagRef{{ID: "t1", Name: `"ORB" & <fade>`, GroupColor: "#ff0000"}}},
		{ID: "0195f2a4-0000-7000-8000-000000000002", AccountID: "acc-2", Symbol: `<SCRIPT>ALERT('X')</SCRIPT>`, Side: "short",
			Quantity: 1, EntryPrice: 21000.125, EntryDate: "2026-02-06", Status: "open"},
	}
	link := func(path string, q url.Values) string { return path + "?" + q.Encode() }
	hostile := url.Values{"symbol": {`"><script>alert(1)</script>`}, "account_id": {"acc-1"}, "start_date": {"2026-01-01"}}
	read, write := &db.Session{}, &db.Session{}
	read.Scopes, write.Scopes = []string{"trades:read"}, []string{"trades:write"}
	type want struct {
		sess *db.Session
		p    tradesPage
	}
	var cases []want
	for _, sess := range []*db.Session{read, write} {
		cases = append(cases,
			want{sess, tradesPage{Statuses: db.TradeStatuses, Accounts: accounts, ReviewURL: "/review?"}},
			want{sess, tradesPage{Statuses: db.TradeStatuses, Trades: trades[:1], Total: 1, From: 1, To: 1, ReviewURL: "/review?"}},
			want{sess, tradesPage{Filter: db.TradeFilter{AccountID: "acc-1", Symbol: `"><script>alert(1)</script>`, Status: "loss",
				StartDate: "2026-01-01", EndDate: `2026-02-01"><b>`}, Statuses: db.TradeStatuses, Accounts: accounts, Trades: trades,
				Total: 1234, From: 51, To: 52, PrevURL: link("/trades", hostile), NextURL: link("/trades", url.Values{"offset": {"100"}, "symbol": {"a&b"}}),
				ReviewURL: link("/review", hostile)}},
			want{sess, tradesPage{Filter: db.TradeFilter{AccountID: `acc"3<`, Status: "open"}, Statuses: db.TradeStatuses, Accounts: accounts,
				Trades: trades, Total: 52, From: 51, To: 52, PrevURL: "/trades?offset=0", ReviewURL: "/review?account_id=acc%223%3C"}},
		)
	}
	plus := tradesPage{Filter: db.TradeFilter{Symbol: "ES+NQ"}, Statuses: db.TradeStatuses, Accounts: accounts, Trades: trades, Total: 2, From: 1, To: 2,
		ReviewURL: "/review?symbol=ES%2BNQ"}
	cases = append(cases, want{write, plus})
	for i, c := range cases {
		c.p.CanWrite = c.sess == write
		var old strings.Builder
		err := templateTradesMain.ExecuteTemplate(&old, "oldMain", struct {
			pageData
			Filter           db.TradeFilter
			Statuses         []string
			Accounts         accountList
			Trades           []db.TradeRow
			Rows             template.HTML
			Total, From, To  int
			PrevURL, NextURL string
			ReviewURL        string
		}{pageData{Session: c.sess}, c.p.Filter, c.p.Statuses, c.p.Accounts, c.p.Trades, tradeRows(c.p.Trades, c.p.Accounts, c.p.CanWrite),
			c.p.Total, c.p.From, c.p.To, c.p.PrevURL, c.p.NextURL, c.p.ReviewURL})
		if err != nil {
			t.Fatal(err)
		}
		var main bytes.Buffer
		c.p.writeMain(&main)
		got := main.String()
		if c.p.Filter.Symbol == plus.Filter.Symbol {
			if g, w := parsedPage(t, got), parsedPage(t, old.String()); g != w {
				t.Errorf("case %d reads as\n%s\nthe template's as\n%s", i, g, w)
			}
			continue
		}
		if got != old.String() {
			t.Errorf("case %d: writeMain wrote\n%s\nthe template\n%s", i, got, old.String())
		}
	}
}
