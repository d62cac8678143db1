package web

import (
	"bytes"
	"html"
	"strconv"

	"tradejournal/db"
)

// tradesPage is what the trade list page shows: the filters and their
// choices, the count, a page of rows and the links to the pages around it.
type tradesPage struct {
	Filter           db.TradeFilter
	Statuses         []string
	Accounts         accountList
	Trades           []db.TradeRow
	CanWrite         bool // the New trade link, the rows' boxes and the bulk form
	Total, From, To  int
	PrevURL, NextURL string
	ReviewURL        string
}

// writeMain writes the trade list page's main into the page's buffer, in
// place of trades.html's "main" (writeLayout): the markup trades.html's
// template wrote until html/template's execution of its filters, count
// and paging (a reflective call for every value, escaper and test) took
// as long as the rest of the page around its rows (issue 31). Its text
// and attribute values are escaped as the template escaped them
// (html.EscapeString: < > & ' "); its links are built of url.Values'
// encoding, which leaves only & for escaping, as the template did. The
// page reads as the template's (TestTradesPageAsTheTemplate).
func (p tradesPage) writeMain(b *bytes.Buffer) {
	b.Grow(len(p.Trades)*1100 + 4096)
	w := b.WriteString
	text := func(s string) { w(html.EscapeString(s)) }
	selected := func(on bool) {
		if on {
			w(` selected`)
		}
	}
	w("\n<h1>Trades</h1>\n")
	if p.CanWrite {
		w(`<p><a href="/trades/new" id="new-trade">New trade</a> (typed in, with its fills)</p>`)
	}
	// The account and date filters as layout.html's parts write them.
	w("\n<form method=\"get\" action=\"/trades\" class=\"filters\" aria-label=\"Filters\">\n  <label for=\"account_id\">Account</label>\n  <select id=\"account_id\" name=\"account_id\">\n    <option value=\"\">All accounts</option>\n    ")
	for _, a := range p.Accounts {
		w(`<option value="`)
		text(a.ID)
		w(`"`)
		selected(a.ID == p.Filter.AccountID)
		w(`>`)
		text(a.AccountNumber)
		if a.Name != "" {
			w(` · `)
			text(a.Name)
		}
		w(`</option>`)
	}
	w("\n  </select>\n  <label for=\"symbol\">Symbol</label>\n  <input id=\"symbol\" name=\"symbol\" value=\"")
	text(p.Filter.Symbol)
	w("\" size=\"8\">\n  <label for=\"status\">Status</label>\n  <select id=\"status\" name=\"status\">\n    <option value=\"\">Any</option>\n    ")
	for _, s := range p.Statuses {
		w(`<option value="`)
		text(s)
		w(`"`)
		selected(s == p.Filter.Status)
		w(`>`)
		text(s)
		w(`</option>`)
	}
	w("\n  </select>\n  <label for=\"start_date\">From</label>\n  <input id=\"start_date\" name=\"start_date\" type=\"date\" value=\"")
	text(p.Filter.StartDate)
	w("\">\n  <label for=\"end_date\">To</label>\n  <input id=\"end_date\" name=\"end_date\" type=\"date\" value=\"")
	text(p.Filter.EndDate)
	w("\">\n  <button type=\"submit\">Apply</button>\n</form>\n<p class=\"count\">")
	total := strconv.Itoa(p.Total)
	w(total)
	w(` trade`)
	if p.Total != 1 {
		w(`s`)
	}
	w(` · <a href="`)
	text(p.ReviewURL)
	w("\" id=\"review-these\">Review this selection</a></p>\n\n<div class=\"scroll\">\n<table class=\"trades\">\n  <thead><tr><th scope=\"col\">Date</th><th scope=\"col\">Symbol</th><th scope=\"col\" class=\"num\">Net P&amp;L</th><th scope=\"col\">Account</th><th scope=\"col\">Side</th><th scope=\"col\" class=\"num\">Qty</th>\n  <th scope=\"col\" class=\"num\">Entry</th><th scope=\"col\" class=\"num\">Exit</th><th scope=\"col\">Status</th><th scope=\"col\">Tags</th></tr></thead>\n  <tbody>\n  \n  ")
	if len(p.Trades) > 0 {
		writeTradeRows(b, p.Trades, p.Accounts, p.CanWrite)
	} else {
		w(`<tr><td colspan="10">No trades match.</td></tr>`)
	}
	w("\n  </tbody>\n</table>\n</div>\n")
	if p.CanWrite && len(p.Trades) > 0 {
		w("\n<form method=\"get\" action=\"/trades/bulk\" id=\"bulk\" aria-label=\"Ticked trades\">\n  <button type=\"submit\">Change the ticked trades…</button>\n  <button type=\"submit\" formaction=\"/trades/bulk/delete\" class=\"quiet\">Delete the ticked trades…</button>\n</form>\n")
	}
	w("\n<nav class=\"pages\" aria-label=\"Pages\">\n  ")
	if p.PrevURL != "" {
		w(`<a href="`)
		text(p.PrevURL)
		w(`" rel="prev">‹ Newer</a>`)
	}
	w("\n  <span>")
	w(strconv.Itoa(p.From))
	w(`–`)
	w(strconv.Itoa(p.To))
	w(` of `)
	w(total)
	w("</span>\n  ")
	if p.NextURL != "" {
		w(`<a href="`)
		text(p.NextURL)
		w(`" rel="next">Older ›</a>`)
	}
	w("\n</nav>\n")
}
