package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"tradejournal/db"
)

// tradeFormPost is a trade form post: the fields given, fills as "side
// qty@price commission time" words in rows from the first.
func tradeFormPost(csrf string, fields map[string]string, fills ...string) url.Values {
	v := url.Values{"csrf": {csrf}}
	for k, val := range fields {
		v.Set(k, val)
	}
	for i := range 6 {
		for _, c := range []string{"side", "price", "quantity", "commission", "execution_date", "execution_time"} {
			v.Set(fmt.Sprintf("executions[%d].%s", i, c), "")
		}
	}
	for i, f := range fills {
		var side, at string
		var qty, price, commission float64
		if _, err := fmt.Sscanf(f, "%s %g@%g %g %s", &side, &qty, &price, &commission, &at); err != nil {
			panic(f)
		}
		row := fmt.Sprintf("executions[%d].", i)
		v.Set(row+"side", side)
		v.Set(row+"quantity", fmt.Sprint(qty))
		v.Set(row+"price", fmt.Sprint(price))
		v.Set(row+"commission", fmt.Sprint(commission))
		v.Set(row+"execution_time", at)
	}
	return v
}

// tradeByAPI is the trade as the API reads it.
func tradeByAPI(t *testing.T, e *tradeEnv, id string) db.EnrichedTrade {
	t.Helper()
	return decode[struct{ Data db.EnrichedTrade }](t, must200(t, e.testServer, "/api/v1/trades/"+id, e.key)).Data
}

// tradeFieldError is the reason a refused form shows beside the field name.
func tradeFieldError(doc *html.Node, name string) string {
	if n := find(doc, byAttr("data-field-error", name)); len(n) == 1 {
		return nodeText(n[0])
	}
	return ""
}

// tradeInputValue is what the form's input (or textarea, or select) with id
// shows.
func tradeInputValue(doc *html.Node, id string) string {
	n := find(doc, byAttr("id", id))
	if len(n) != 1 {
		return "<no " + id + ">"
	}
	switch n[0].Data {
	case "textarea":
		return nodeText(n[0])
	case "select":
		for _, o := range find(n[0], func(o *html.Node) bool { return o.Data == "option" && hasAttr(o, "selected") }) {
			return attr(o, "value")
		}
		return ""
	}
	return attr(n[0], "value")
}

// TestTradeEntryForm: a trade typed in with its fills is the API's, to the
// cent; a refused form comes back with everything typed, each field's
// reason beside it and each fill's named by its row, in the form's words;
// "More fill rows" saves nothing and adds rows; a trade without fills is
// typed in by its entry and exit.
func TestTradeEntryForm(t *testing.T) {
	e := newTradeEnv(t)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	if len(find(b.page(t, "/trades"), byAttr("id", "new-trade"))) != 1 {
		t.Fatal("the trade list has no New trade link")
	}
	page := b.page(t, "/trades/new")
	if rows := find(page, func(n *html.Node) bool { return hasAttr(n, "data-fill") }); len(rows) != 6 {
		t.Errorf("the new trade form has %d fill rows, want 6", len(rows))
	}
	if got := texts(find(page, byAttr("id", "f-account_id"))); len(got) != 1 || !strings.Contains(got[0], "APEX-1") {
		t.Errorf("the account select offers %q", got)
	}
	for _, input := range find(page, func(n *html.Node) bool {
		return (n.Data == "input" || n.Data == "select") && attr(n, "type") != "hidden"
	}) {
		if attr(input, "aria-label") == "" && len(find(page, func(l *html.Node) bool { return l.Data == "label" && attr(l, "for") == attr(input, "id") })) != 1 {
			t.Errorf("input %s has no label", attr(input, "id"))
		}
	}
	csrf := csrfOf(t, b, "/trades/new")

	// Refused: no symbol, a fill's price not positive, a fill without its
	// time in the third row (the second is left empty: the rows typed in
	// are the fills, so that one is fill 2).
	bad := tradeFormPost(csrf, map[string]string{"account_id": e.accountID, "symbol": "", "side": "long", "entry_date": "2026-02-05",
		"review_notes": "Waited for the open"}, "buy 2@0 2.5 09:30")
	bad.Set("executions[2].side", "sell")
	bad.Set("executions[2].quantity", "2")
	bad.Set("executions[2].price", "5010")
	w := b.send(t, "POST", "/trades", bad, "")
	if w.Code != http.StatusBadRequest {
		t.Fatalf("a bad trade form: %d %s", w.Code, w.Body)
	}
	doc := parseHTML(t, w.Body.String())
	if got := tradeFieldError(doc, "symbol"); got != "Symbol is required" {
		t.Errorf("symbol's reason: %q", got)
	}
	for path, want := range map[string]string{
		"executions[0].price":          "Fill 1: price must be a positive number",
		"executions[1].execution_time": "Fill 2: time is required (HH:MM:SS)",
	} {
		if n := find(doc, byAttr("data-fill-error", path)); len(n) != 1 || nodeText(n[0]) != want {
			t.Errorf("%s's reason: %q, want %q", path, texts(n), want)
		}
	}
	for id, want := range map[string]string{"f-review_notes": "Waited for the open", "f-entry_date": "2026-02-05",
		"fill-0-price": "0", "fill-0-execution_time": "09:30", "fill-1-side": "sell", "fill-1-price": "5010", "fill-2-price": ""} {
		if got := tradeInputValue(doc, id); got != want {
			t.Errorf("%s: %q, want %q as typed", id, got, want)
		}
	}
	if n := find(doc, byAttr("id", "fill-0-price")); len(n) != 1 || attr(n[0], "aria-invalid") != "true" {
		t.Error("fill 1's price is not marked invalid")
	}
	if strings.Contains(w.Body.String(), "executions[0].price must") || strings.Contains(w.Body.String(), "execution_timestamp") {
		t.Error("a reason speaks the API's path")
	}

	// More fill rows: the fills typed so far and six more rows; nothing
	// saved.
	bad.Set("more", "1")
	w = b.send(t, "POST", "/trades", bad, "")
	doc = parseHTML(t, w.Body.String())
	if rows := find(doc, func(n *html.Node) bool { return hasAttr(n, "data-fill") }); w.Code != http.StatusOK || len(rows) != 12 {
		t.Errorf("More fill rows: %d with %d rows, want 200 with 12", w.Code, len(rows))
	}
	if got := tradeInputValue(doc, "fill-1-price"); got != "5010" || tradeFieldError(doc, "symbol") != "" {
		t.Errorf("More fill rows lost a fill (%q) or shows reasons", got)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trades`); n != 0 {
		t.Fatalf("refused forms wrote %d trades", n)
	}

	// Saved: ES, 2 long at 5,000 out at 5,010.25, $2.50 a side a fill:
	// gross 10.25 × 2 × $50 = $1,025, commission $5, net $1,020.
	good := tradeFormPost(csrf, map[string]string{"account_id": e.accountID, "symbol": "ESH6", "side": "long", "entry_date": "2026-02-05",
		"review_notes": "Waited for the open.\nThen in."}, "buy 2@5000 2.5 09:30", "sell 2@5010.25 2.5 09:41:30")
	w = b.send(t, "POST", "/trades", good, "")
	if w.Code != http.StatusSeeOther || !strings.HasSuffix(w.Header().Get("Location"), "?saved=1") {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	id := strings.TrimSuffix(strings.TrimPrefix(w.Header().Get("Location"), "/trades/"), "?saved=1")
	tr := tradeByAPI(t, e, id)
	if tr.NetPnL != 1020 || tr.GrossPnL != 1025 || tr.TotalCommission != 5 || tr.Status != "win" || len(tr.Executions) != 2 ||
		tr.Executions[1].ExecutionTime != "09:41:30" || *tr.ExitTime != "09:41:30" || tr.AccountID != e.accountID {
		t.Errorf("the API reads the form's trade as %+v", tr)
	}
	var notes struct {
		Content []struct{ Content []struct{ Type, Text string } }
	}
	if json.Unmarshal(tr.ReviewNotes, &notes); len(notes.Content) != 1 || len(notes.Content[0].Content) != 3 ||
		notes.Content[0].Content[2].Text != "Then in." {
		t.Errorf("the notes: %s", tr.ReviewNotes)
	}

	// A trade without fills, by its entry and exit: MNQ 3 short at
	// 21,010.5 out at 21,000: 10.5 × 3 × $2 = $63.
	w = b.send(t, "POST", "/trades", tradeFormPost(csrf, map[string]string{"account_id": e.accountID, "symbol": "MNQZ5", "side": "short",
		"entry_date": "2026-02-06", "entry_time": "10:00", "entry_price": "21,010.50", "quantity": "3", "exit_price": "21000"}), "")
	if w.Code != http.StatusSeeOther {
		t.Fatalf("a trade without fills: %d %s", w.Code, w.Body)
	}
	tr = tradeByAPI(t, e, strings.TrimSuffix(strings.TrimPrefix(w.Header().Get("Location"), "/trades/"), "?saved=1"))
	if tr.NetPnL != 63 || len(tr.Executions) != 0 || *tr.EntryTime != "10:00:00" || *tr.ExitDate != "2026-02-06" {
		t.Errorf("the trade without fills: net %v, %d fills, entry %v, exit %v", tr.NetPnL, len(tr.Executions), *tr.EntryTime, *tr.ExitDate)
	}
}

// TestTradeEditForm: the edit form shows the trade and its fills; a fill's
// price changed there is the trade's P&L as the API reads it; a refused
// edit keeps what was typed; a status set by hand stays until given back
// to the P&L; emptying every fill row leaves a trade typed in by hand.
func TestTradeEditForm(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	page := b.page(t, "/trades/"+tr.ID+"/edit")
	for id, want := range map[string]string{"f-symbol": "ESH6", "f-side": "long", "f-account_id": e.accountID,
		"fill-0-side": "buy", "fill-0-price": "5000", "fill-1-price": "5010", "fill-1-quantity": "2", "fill-1-commission": "2.5",
		"fill-1-execution_date": "2026-02-05", "fill-1-execution_time": "09:31:00", "fill-2-price": "", "f-status": ""} {
		if got := tradeInputValue(page, id); got != want {
			t.Errorf("the edit form's %s: %q, want %q", id, got, want)
		}
	}
	if rows := find(page, func(n *html.Node) bool { return hasAttr(n, "data-fill") }); len(rows) != 8 {
		t.Errorf("the edit form has %d fill rows, want its 2 and 6 more", len(rows))
	}
	if n := find(page, byAttr("id", "delete-trade")); len(n) != 1 || attr(n[0], "href") != "/trades/"+tr.ID+"/delete" {
		t.Error("the edit form has no link to delete the trade")
	}
	csrf := csrfOf(t, b, "/trades/"+tr.ID+"/edit")
	form := func() url.Values {
		v := tradeFormPost(csrf, map[string]string{"account_id": e.accountID, "symbol": "ESH6", "side": "long", "entry_date": "2026-02-05"},
			"buy 2@5000 2.5 09:30:00", "sell 2@5012.25 2.5 09:31:00")
		v.Set("executions[0].execution_date", "2026-02-05")
		v.Set("executions[1].execution_date", "2026-02-05")
		return v
	}

	// The exit's price from 5,010 to 5,012.25: gross 12.25 × 2 × $50 =
	// $1,225, net $1,220 (it was $995).
	if w := b.send(t, "POST", "/trades/"+tr.ID, form(), ""); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/trades/"+tr.ID+"?saved=1" {
		t.Fatalf("edit: %d %s", w.Code, w.Body)
	}
	got := tradeByAPI(t, e, tr.ID)
	if got.GrossPnL != 1225 || got.NetPnL != 1220 || *got.ExitPrice != 5012.25 || len(got.Executions) != 2 {
		t.Errorf("after the edit: gross %v, net %v, exit %v, %d fills; want 1225, 1220, 5012.25, 2",
			got.GrossPnL, got.NetPnL, *got.ExitPrice, len(got.Executions))
	}

	// Refused: a bad entry date and a fill of zero quantity; what was
	// typed stays.
	bad := form()
	bad.Set("entry_date", "2026-13-01")
	bad.Set("executions[1].quantity", "0")
	bad.Set("symbol", "ESM6")
	w := b.send(t, "POST", "/trades/"+tr.ID, bad, "")
	doc := parseHTML(t, w.Body.String())
	if w.Code != http.StatusBadRequest || tradeFieldError(doc, "entry_date") != "Entry date must be a date YYYY-MM-DD from 1900 to 2999" {
		t.Errorf("a bad edit: %d, entry date's reason %q", w.Code, tradeFieldError(doc, "entry_date"))
	}
	if n := find(doc, byAttr("data-fill-error", "executions[1].quantity")); len(n) != 1 || nodeText(n[0]) != "Fill 2: quantity must be a positive number" {
		t.Errorf("fill 2's reason: %q", texts(n))
	}
	if tradeInputValue(doc, "f-symbol") != "ESM6" || tradeInputValue(doc, "f-entry_date") != "2026-13-01" || tradeInputValue(doc, "fill-1-price") != "5012.25" {
		t.Error("the refused edit lost what was typed")
	}
	if got := tradeByAPI(t, e, tr.ID); got.Symbol != "ESH6" || got.NetPnL != 1220 {
		t.Errorf("a refused edit changed the trade: %s %v", got.Symbol, got.NetPnL)
	}

	// A status set by hand is kept ("As it is") until given back.
	status := form()
	status.Set("status", "breakeven")
	b.send(t, "POST", "/trades/"+tr.ID, status, "")
	b.send(t, "POST", "/trades/"+tr.ID, form(), "")
	if got := tradeByAPI(t, e, tr.ID).Status; got != "breakeven" {
		t.Errorf("a status set by hand, after an edit that left it: %q", got)
	}
	status.Set("status", "auto")
	b.send(t, "POST", "/trades/"+tr.ID, status, "")
	if got := tradeByAPI(t, e, tr.ID).Status; got != "win" {
		t.Errorf("the status given back to the P&L: %q", got)
	}

	// A post without fill rows is not the form's: the fills stay, as a
	// PUT without executions leaves them.
	noRows := url.Values{"csrf": {csrf}, "account_id": {e.accountID}, "symbol": {"ESH6"}, "side": {"long"}, "entry_date": {"2026-02-05"}}
	if w := b.send(t, "POST", "/trades/"+tr.ID, noRows, ""); w.Code != http.StatusSeeOther || len(tradeByAPI(t, e, tr.ID).Executions) != 2 {
		t.Errorf("a post without fill rows: %d, and the fills went", w.Code)
	}

	// Every fill row empty: a trade typed in by hand, as a PUT with "executions":
	// [] and its entry and exit. 2 at 5,000 out at 4,990: -$1,000.
	manual := tradeFormPost(csrf, map[string]string{"account_id": e.accountID, "symbol": "ESH6", "side": "long", "entry_date": "2026-02-05",
		"entry_price": "5000", "quantity": "2", "exit_price": "4990", "exit_date": "", "exit_time": "", "entry_time": ""})
	if w := b.send(t, "POST", "/trades/"+tr.ID, manual, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("an edit without fills: %d %s", w.Code, w.Body)
	}
	if got := tradeByAPI(t, e, tr.ID); len(got.Executions) != 0 || got.NetPnL != -1000 || got.Status != "loss" {
		t.Errorf("after emptying the fills: %d fills, net %v, %s", len(got.Executions), got.NetPnL, got.Status)
	}
}

// TestTradeDeletePages: the confirm step names what goes with the trade,
// from the counts the API's warnings give, and changes nothing; its post
// deletes the trade, its fills, write-up and tag links, and keeps the tag.
func TestTradeDeletePages(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "buy 1@4999", "sell 3@5010")))
	ctx := t.Context()
	group, err := e.db.CreateTagGroup(ctx, e.userID, "Setups", "#336699")
	if err != nil {
		t.Fatal(err)
	}
	tag, err := e.db.CreateTag(ctx, e.userID, group.ID, "ORB")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.UpdateTrade(ctx, e.userID, tr.ID, db.TradeInput{TagIDs: db.Some([]string{tag.ID})}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.WriteUps().Create(ctx, e.userID, db.WriteUpInput{TradeID: db.Some(tr.ID), Title: db.Some("Why")}); err != nil {
		t.Fatal(err)
	}
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	confirm := b.page(t, "/trades/"+tr.ID+"/delete")
	want := "deletes 3 fills; deletes 1 write-up; removes 1 tag link (the tags stay)"
	if got := texts(find(confirm, func(n *html.Node) bool { return hasAttr(n, "data-consequence") })); strings.Join(got, "; ") != want {
		t.Errorf("the confirm step lists %q, want %q", got, want)
	}
	if h := find(confirm, byAttr("id", "confirm-title")); len(h) != 1 || nodeText(h[0]) != "Delete the ESH6 long of 2026-02-05?" {
		t.Errorf("the confirm step's title: %q", texts(h))
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM executions`); n != 3 {
		t.Fatal("the confirm step changed the trade")
	}
	csrf := attr(find(confirm, byAttr("name", "csrf"))[0], "value")
	w := b.send(t, "POST", "/trades/"+tr.ID+"/delete", url.Values{"csrf": {csrf}}, "")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/trades?deleted=1" {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	if status, _ := e.do(t, "GET", "/api/v1/trades/"+tr.ID, e.key, ""); status != http.StatusNotFound {
		t.Errorf("the API reads the deleted trade: %d", status)
	}
	for table, want := range map[string]int{"executions": 0, "write_ups": 0, "trade_tags": 0, "tags": 1} {
		if n := count(t, e.sql(t), `SELECT count(*) FROM `+table); n != want {
			t.Errorf("%d %s after the delete, want %d", n, table, want)
		}
	}
}

// TestTradeFormsRefuseTheReadOnlyAndStrangers: a read-only session sees
// no New trade link and no edit or delete page, and its posts are
// refused; another user's trade is a 404 on every page and post; a post
// without the token is stale.
func TestTradeFormsRefuseTheReadOnlyAndStrangers(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	_, readKey := e.newKey(t, "alice", "read", false)
	reader := &browser{ts: e.testServer}
	reader.signIn(t, readKey)
	page := reader.page(t, "/trades")
	if len(find(page, byAttr("id", "new-trade"))) != 0 || len(find(page, byAttr("name", "trade_ids"))) != 0 {
		t.Error("a read-only session sees the trade forms")
	}
	csrf := csrfOf(t, reader, "/trades")
	form := tradeFormPost(csrf, map[string]string{"account_id": e.accountID, "symbol": "X", "side": "long", "entry_date": "2026-02-05",
		"entry_price": "1", "quantity": "1"})
	for _, target := range []string{"/trades", "/trades/" + tr.ID, "/trades/" + tr.ID + "/delete"} {
		if w := reader.send(t, "POST", target, form, ""); w.Code != http.StatusForbidden {
			t.Errorf("a read-only POST %s: %d, want 403", target, w.Code)
		}
	}
	for _, target := range []string{"/trades/new", "/trades/" + tr.ID + "/edit", "/trades/" + tr.ID + "/delete"} {
		if w := reader.send(t, "GET", target, nil, ""); w.Code != http.StatusForbidden {
			t.Errorf("a read-only session's GET %s: %d, want 403", target, w.Code)
		}
	}

	_, bobKey := e.newUser(t, "bob")
	bob := &browser{ts: e.testServer}
	bob.signIn(t, bobKey)
	bobCSRF := csrfOf(t, bob, "/trades/new")
	form.Set("csrf", bobCSRF)
	for _, tt := range []struct{ method, target string }{
		{"GET", "/trades/" + tr.ID + "/edit"}, {"POST", "/trades/" + tr.ID},
		{"GET", "/trades/" + tr.ID + "/delete"}, {"POST", "/trades/" + tr.ID + "/delete"}, {"POST", "/trades"},
	} {
		var f url.Values
		if tt.method == "POST" {
			f = form
		}
		if w := bob.send(t, tt.method, tt.target, f, ""); w.Code != http.StatusNotFound {
			t.Errorf("bob's %s %s: %d, want 404", tt.method, tt.target, w.Code)
		}
	}
	if got := tradeByAPI(t, e, tr.ID); got.Symbol != "ESH6" || len(got.Executions) != 2 {
		t.Error("bob changed alice's trade")
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trades`); n != 1 {
		t.Errorf("%d trades after bob's posts, want alice's 1", n)
	}
	form.Del("csrf")
	if w := bob.send(t, "POST", "/trades", form, ""); w.Code != http.StatusForbidden {
		t.Errorf("a post without its token: %d, want 403", w.Code)
	}
}
