package web

import (
	"bytes"
	"html"
	"net/url"
	"strconv"

	"tradejournal/db"
)

// writeTradeRows writes the body of the trade list's table: a row per trade, the
// markup trades.html wrote for each until html/template's execution of 50
// rows, a reflective call for every value and every function, took 0.9 ms
// a page, four times the API's whole list (issue 31). Each text value is
// escaped as the template escaped it in text and quoted attributes
// (html.EscapeString: < > & ' "), the trade's path segment URL-escaped
// first as the template's href did, so a value a trader or an import wrote
// shows only as text (TestTradeListEscapes); amounts and numbers are
// digits, signs and separators. The rows read as the template's did
// (TestTradeRowsAsTheTemplate). selectable adds each row's box for the
// bulk form. The trade list page's main (tradesPage.writeMain) writes them in
// place.
func writeTradeRows(b *bytes.Buffer, trades []db.TradeRow, accounts accountList, selectable bool) {
	w := b.WriteString
	text := func(s string) { w(html.EscapeString(s)) }
	// Numbers are appended to digits, then written: formatNumber's form
	// without its string.
	var digits [64]byte
	number := func(v float64) { b.Write(strconv.AppendFloat(digits[:0], v, 'f', -1, 64)) }
	for _, t := range trades {
		id, path := html.EscapeString(t.ID), html.EscapeString(url.PathEscape(t.ID))
		w(`<tr data-trade="`)
		w(id)
		w(`">` + "\n    <td>")
		if selectable {
			w(`<input type="checkbox" id="select-`)
			w(id)
			w(`" name="trade_ids" value="`)
			w(id)
			w(`" form="bulk" aria-label="Select `)
			text(t.Symbol)
			w(` of `)
			text(t.EntryDate)
			w(`"> `)
		}
		text(t.EntryDate)
		if t.EntryTime != nil {
			w(` `)
			text(*t.EntryTime)
		}
		w(`</td><td><a href="/trades/`)
		w(path)
		w(`">`)
		text(t.Symbol)
		w(`</a></td>` + "\n    " + `<td class="num `)
		w(pnlClass(t.NetPnL))
		w(`" data-pnl><a href="/trades/`)
		w(path)
		w(`">`)
		b.Write(appendMoney(digits[:0], t.NetPnL))
		w(`</a></td><td data-account>`)
		text(accounts.Number(t.AccountID))
		w(`</td><td>`)
		text(t.Side)
		w(`</td>` + "\n    " + `<td class="num">`)
		number(t.Quantity)
		w(`</td><td class="num">`)
		number(t.EntryPrice)
		w(`</td><td class="num">`)
		if t.ExitPrice != nil {
			number(*t.ExitPrice)
		} else {
			w(`—`) // as ptrOr
		}
		w(`</td><td>`)
		text(t.Status)
		w(`</td>` + "\n    <td>")
		for _, tag := range t.Tags {
			w(`<span class="tag"><svg class="swatch" viewBox="0 0 10 10" aria-hidden="true"><rect width="10" height="10" rx="2" fill="`)
			text(tag.GroupColor)
			w(`"/></svg>`)
			text(tag.Name)
			w(`</span> `)
		}
		w("</td>\n  </tr>")
	}
}
