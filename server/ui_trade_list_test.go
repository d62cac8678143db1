package server_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"tradejournal/db"
)

// TestTradeListEscapes: the trade list page, whose rows are written
// without html/template (tradeRows), shows a symbol, an account number and
// a tag's name that hold markup as their text, and none of it as
// elements: no script, image or bold in the row, the tick box's label the
// text as typed.
func TestTradeListEscapes(t *testing.T) {
	e := newTradeEnv(t)
	const number, tagName = `A&B "1"><img src=x onerror=alert(1)>`, `<b>ORB</b> & "fade"`
	account := decode[struct{ Data db.Account }](t, must201(t, e.testServer, "/api/v1/accounts", e.key,
		fmt.Sprintf(`{"account_number": %q}`, number))).Data
	group := decode[struct{ TagGroup db.TagGroup }](t, must201(t, e.testServer, "/api/v1/tags", e.key, `{"type": "tag_group", "name": "Setup"}`)).TagGroup
	tag := decode[struct{ Tag db.Tag }](t, must201(t, e.testServer, "/api/v1/tags", e.key,
		fmt.Sprintf(`{"type": "tag", "tag_group_id": %q, "name": %q}`, group.ID, tagName))).Tag
	e.accountID = account.ID
	tr, _ := e.create(t, e.tradeBody(`<script>alert('x')</script>`, "long",
		fills(2.5, "buy 2@5000", "sell 2@5010")+fmt.Sprintf(`, "tag_ids": [%q]`, tag.ID)))
	if tr.Symbol != `<SCRIPT>ALERT('X')</SCRIPT>` {
		t.Fatalf("symbol saved as %q", tr.Symbol)
	}
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	row := find(b.page(t, "/trades"), byAttr("data-trade", tr.ID))
	if len(row) != 1 {
		t.Fatal("the trade is not listed")
	}
	for _, el := range []string{"script", "img", "b"} {
		if got := find(row[0], func(n *html.Node) bool { return n.Type == html.ElementNode && n.Data == el }); len(got) != 0 {
			t.Errorf("the row holds a %s element from a value", el)
		}
	}
	cells := find(row[0], func(n *html.Node) bool { return n.Data == "td" })
	for i, want := range map[int]string{1: tr.Symbol, 3: number, 9: tagName} {
		if got := nodeText(cells[i]); got != want {
			t.Errorf("cell %d shows %q, want %q", i, got, want)
		}
	}
	box := find(row[0], byAttr("name", "trade_ids"))
	if len(box) != 1 || attr(box[0], "aria-label") != "Select "+tr.Symbol+" of 2026-02-05" || attr(box[0], "value") != tr.ID {
		t.Errorf("tick box %v, want labelled with the symbol as typed", box)
	}
	if body := b.send(t, "GET", "/trades", nil, "").Body.String(); strings.Contains(body, "<SCRIPT") || strings.Contains(body, "<img src=x") {
		t.Error("the page holds a value's markup unescaped")
	}
}
