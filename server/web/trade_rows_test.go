package web

import (
	"bytes"
	"html/template"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"tradejournal/db"
)

// tradeRows is the rows writeTradeRows writes, as the template's markup.
func tradeRows(trades []db.TradeRow, accounts accountList, selectable bool) template.HTML {
	var b bytes.Buffer
	writeTradeRows(&b, trades, accounts, selectable)
	return template.HTML(b.String()) // every value writeTradeRows writes is escaped
}

// templateRows is the markup trades.html executed for each trade before
// tradeRows wrote its rows, with the page's functions and parts.
var templateRows = template.Must(template.Must(templates["trades"].Clone()).New("rows").Parse(
	`{{$select := .Select}}{{range .Trades}}<tr data-trade="{{.ID}}">
    <td>{{if $select}}<input type="checkbox" id="select-{{.ID}}" name="trade_ids" value="{{.ID}}" form="bulk" aria-label="Select {{.Symbol}} of {{.EntryDate}}"> {{end}}{{.EntryDate}}{{if .EntryTime}} {{deref .EntryTime}}{{end}}</td><td><a href="/trades/{{.ID}}">{{.Symbol}}</a></td>
    <td class="num {{pnlClass .NetPnL}}" data-pnl><a href="/trades/{{.ID}}">{{money .NetPnL}}</a></td><td data-account>{{$.Accounts.Number .AccountID}}</td><td>{{.Side}}</td>
    <td class="num">{{number .Quantity}}</td><td class="num">{{number .EntryPrice}}</td><td class="num">{{numberPtr .ExitPrice}}</td><td>{{.Status}}</td>
    <td>{{range .Tags}}<span class="tag">{{template "swatch" .GroupColor}}{{.Name}}</span> {{end}}</td>
  </tr>{{end}}`))

// TestTradeRowsAsTheTemplate: tradeRows writes the rows html/template
// wrote, as a browser reads them (the same elements, attributes and text,
// compared parsed: the template wrote a + as &#43;), for trades open and
// closed, with and without an entry time, tags and a known account, won,
// lost and flat, with values a hostile import could write, with and
// without the bulk form's boxes.
func TestTradeRowsAsTheTemplate(t *testing.T) {
	price, at := 5010.25, "09:30:00"
	accounts := accountList{{ID: "acc-1", AccountNumber: `APEX "1" <b>&amp;</b>`}, {ID: "acc-2", AccountNumber: "TOPSTEP-2"}}
	trades := []db.TradeRow{
		{ID: "0195f2a4-0000-7000-8000-000000000001", AccountID: "acc-1", Symbol: "ESH6", Side: "long", Quantity: 2,
			EntryPrice: 5000, ExitPrice: &price, EntryDate: "2026-02-05", EntryTime: &at, NetPnL: 1234567.891, Status: "win",
			Tags: []db.TagRef{{ID: "t1", Name: "A+ setup", GroupColor: "#ff0000"}, {ID: "t2", Name: `"ORB" & <fade>`, GroupColor: `#0f0" onload="x`}}},
		{ID: "0195f2a4-0000-7000-8000-000000000002", AccountID: "acc-2", Symbol: `<SCRIPT>ALERT('X')</SCRIPT>`, Side: "short",
			Quantity: 0.5, EntryPrice: 21000.125, EntryDate: "2026-02-06", NetPnL: -0.004, Status: "open"},
		{ID: "0195f2a4-0000-7000-8000-000000000003", AccountID: "gone", Symbol: `"><IMG SRC=X ONERROR=ALERT(1)>`, Side: "long",
			Quantity: 1, EntryPrice: 1, ExitPrice: &price, EntryDate: `2026-02-07"><b>`, EntryTime: &at, NetPnL: -505, Status: "loss"},
	}
	for _, selectable := range []bool{true, false} {
		var want strings.Builder
		err := templateRows.Execute(&want, struct {
			Select   bool
			Accounts accountList
			Trades   []db.TradeRow
		}{selectable, accounts, trades})
		if err != nil {
			t.Fatal(err)
		}
		got := string(tradeRows(trades, accounts, selectable))
		if g, w := parsedRows(t, got), parsedRows(t, want.String()); g != w {
			t.Errorf("selectable %v: tradeRows reads as\n%s\nthe template's as\n%s", selectable, g, w)
		}
		if strings.Contains(got, "<SCRIPT") || strings.Contains(got, "<IMG") || strings.Contains(got, "<b>") {
			t.Errorf("selectable %v: a value's markup is in the rows:\n%s", selectable, got)
		}
	}
	if got := tradeRows(nil, accounts, true); got != "" {
		t.Errorf("no trades: %q, want no rows (the template's else)", got)
	}
}

// parsedRows is rows as a browser reads them inside a table's body,
// written back out.
func parsedRows(t *testing.T, rows string) string {
	t.Helper()
	nodes, err := html.ParseFragment(strings.NewReader(rows), &html.Node{Type: html.ElementNode, Data: "tbody", DataAtom: atom.Tbody})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, n := range nodes {
		if err := html.Render(&out, n); err != nil {
			t.Fatal(err)
		}
	}
	return out.String()
}
