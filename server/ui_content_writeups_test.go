package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"tradejournal/db"
)

// TestWriteUpForms: a write-up opened from its trade's link is of that
// trade, named by day, contract, side and net; another user's trade is
// refused beside the Trade field and what was typed stays; one saved is
// the API's and the journal links its trade; an edit clears an emptied
// title; the delete asks first, then deletes, leaving the trade.
func TestWriteUpForms(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	tag := journalTag(t, e, "Patient")
	_, bobKey := e.newUser(t, "bob")
	bobAccount := e.createAccount(t, bobKey, `{"account_number": "BOB-1"}`)
	var bobTrade struct{ Data struct{ ID string } }
	json.Unmarshal(must201(t, e.testServer, "/api/v1/trades", bobKey,
		`{"account_id": "`+bobAccount.ID+`", "symbol": "NQH6", "side": "short", "entry_date": "2026-02-05", "quantity": 1, "entry_price": 21000}`), &bobTrade)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)

	form := b.page(t, "/journal/write-ups/new?trade_id="+tr.ID)
	if got := formValue(form, "trade_id"); got != tr.ID {
		t.Errorf("the write-up opened from the trade is of %q, want %s", got, tr.ID)
	}
	if opts := find(form, func(n *html.Node) bool { return n.Data == "option" && attr(n, "value") == tr.ID }); len(opts) != 1 ||
		nodeText(opts[0]) != "2026-02-05 ESH6 long, net 995.00" {
		t.Errorf("the trade is offered as %v", texts(opts))
	}
	csrf := csrfOf(t, b, "/journal/write-ups/new")

	bad := url.Values{"csrf": {csrf}, "trade_id": {bobTrade.Data.ID}, "title": {"Faded the open"}, "content_markdown": {"Too early."}, "tag_ids": {"", tag}}
	w := b.send(t, "POST", "/journal/write-ups", bad, "")
	if w.Code != http.StatusNotFound {
		t.Fatalf("a write-up of bob's trade: %d %s", w.Code, w.Body)
	}
	doc := parseHTML(t, w.Body.String())
	if got := reasonOf(doc, "trade_id"); got != "Trade is not one of your trades" {
		t.Errorf("bob's trade's reason: %q", got)
	}
	for field, want := range map[string]string{"title": "Faded the open", "content_markdown": "Too early."} {
		if got := formValue(doc, field); got != want {
			t.Errorf("%s typed %q comes back as %q", field, want, got)
		}
	}
	if !checked(doc, "tag_ids", tag) {
		t.Error("the tag ticked is no longer ticked")
	}
	bad.Set("trade_id", "")
	if w := b.send(t, "POST", "/journal/write-ups", bad, ""); w.Code != http.StatusBadRequest ||
		reasonOf(parseHTML(t, w.Body.String()), "trade_id") != "Trade is required" {
		t.Errorf("no trade: %d %q", w.Code, reasonOf(parseHTML(t, w.Body.String()), "trade_id"))
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM write_ups`); n != 0 {
		t.Fatalf("refused forms wrote %d write-ups", n)
	}

	good := url.Values{"csrf": {csrf}, "trade_id": {tr.ID}, "title": {"Waited for the retest"}, "content_markdown": {"Entry on the retest of 5000."},
		"tag_ids": {"", tag}}
	if w := b.send(t, "POST", "/journal/write-ups", good, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/journal/write-ups?saved=1" {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	list := decode[listBody[db.WriteUp]](t, must200(t, e.testServer, "/api/v1/write-ups?trade_id="+tr.ID, e.key)).Data
	if len(list) != 1 || list[0].Title != "Waited for the retest" || list[0].ContentMarkdown != "Entry on the retest of 5000." ||
		len(list[0].Tags) != 1 || list[0].Tags[0].ID != tag {
		t.Fatalf("the API reads the form's write-up as %+v", list)
	}
	wu := list[0]
	rows := find(b.page(t, "/journal"), byAttr("data-record", wu.ID))
	if len(rows) != 1 {
		t.Fatal("the journal does not list the write-up")
	}
	if links := find(rows[0], func(n *html.Node) bool { return n.Data == "a" && attr(n, "href") == "/trades/"+tr.ID }); len(links) != 1 ||
		nodeText(links[0]) != "2026-02-05 ESH6 long, net 995.00" {
		t.Errorf("the write-up links its trade as %v", texts(links))
	}

	if got := formValue(b.page(t, "/journal/write-ups/"+wu.ID+"/edit"), "trade_id"); got != tr.ID {
		t.Errorf("the edit form's trade: %q", got)
	}
	good.Set("title", "")
	if w := b.send(t, "POST", "/journal/write-ups/"+wu.ID, good, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("edit: %d %s", w.Code, w.Body)
	}
	wu = decode[struct{ Data db.WriteUp }](t, must200(t, e.testServer, "/api/v1/write-ups/"+wu.ID, e.key)).Data
	if wu.Title != "" || wu.TradeID != tr.ID {
		t.Errorf("after the edit: %+v", wu)
	}

	confirm := b.page(t, "/journal/write-ups/"+wu.ID+"/delete")
	if got := strings.Join(consequences(confirm), "; "); got != "unlinks its 1 tag (the tags themselves stay)" {
		t.Errorf("the confirm step lists %q", got)
	}
	if w := b.send(t, "POST", "/journal/write-ups/"+wu.ID+"/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM write_ups`); n != 0 {
		t.Error("the write-up is still there")
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trades WHERE id = ?`, tr.ID); n != 1 {
		t.Error("deleting the write-up deleted its trade")
	}
}

// TestWriteUpFormWithoutTrades: a session that may write content but not
// read trades types the trade's id, and the journal names no trade to it.
func TestWriteUpFormWithoutTrades(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	_, key := e.newKey(t, "alice", "content:write", false)
	b := &browser{ts: e.testServer}
	b.signIn(t, key)
	form := b.page(t, "/journal/write-ups/new")
	if f := find(form, byAttr("id", "f-trade_id")); len(f) != 1 || f[0].Data != "input" {
		t.Fatalf("the trade field without trades:read: %v", f)
	}
	if w := b.send(t, "POST", "/journal/write-ups", url.Values{"csrf": {csrfOf(t, b, "/journal")}, "trade_id": {strings.ToUpper(tr.ID)}, "title": {"Typed"}}, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	page := b.page(t, "/journal")
	if strings.Contains(nodeText(page), "ESH6") || len(find(page, byAttr("href", "/trades/"+tr.ID))) != 0 {
		t.Error("the journal names or links a trade to a session that may not read trades")
	}
}
