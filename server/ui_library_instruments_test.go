package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"tradejournal/db"
)

// TestInstrumentForms: a root's own point value set from the instruments
// page is the API's and re-prices the root's trades, saying how many; a
// refused form comes back with what was typed and each reason beside its
// field, and a conflict says why; the delete asks first, naming the trades
// it re-prices and with what, and then deletes.
func TestInstrumentForms(t *testing.T) {
	e := newTradeEnv(t)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	if len(find(b.page(t, "/library"), byAttr("id", "instruments"))) != 1 {
		t.Fatal("the library page has no link to the instruments page")
	}
	page := b.page(t, "/instruments")
	if row := find(page, byAttr("data-instrument", "NQ")); len(row) != 1 || !strings.Contains(nodeText(row[0]), "20") ||
		!strings.Contains(nodeText(row[0]), "built in") {
		t.Fatalf("the built-in NQ: %q", texts(row))
	}
	csrf := csrfOf(t, b, "/instruments")
	tr, _ := e.create(t, e.tradeBody("NQH6", "long", fills(0, "buy 1@20000", "sell 1@20010")))
	pointValue := func() float64 {
		var v float64
		if err := e.sql(t).QueryRow(`SELECT point_value FROM trades WHERE id = ?`, tr.ID).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	own := func() map[string]db.Instrument {
		out := map[string]db.Instrument{}
		for _, in := range decode[dataOf[[]db.Instrument]](t, must200(t, e.testServer, "/api/v1/instruments", e.key)).Data {
			if in.Source == "user" {
				out[in.Root] = in
			}
		}
		return out
	}

	// Refused: a root that is none, a point value that is no number, then
	// none at all.
	w := b.send(t, "POST", "/instruments", url.Values{"csrf": {csrf}, "root": {"N Q!"}, "point_value": {"twenty"}, "asset_class": {"futures"}}, "")
	doc := parseHTML(t, w.Body.String())
	if w.Code != http.StatusBadRequest || reasonBeside(doc, "point_value") != "Point value must be a number" ||
		attr(find(doc, byAttr("id", "f-point_value"))[0], "value") != "twenty" || attr(find(doc, byAttr("id", "f-root"))[0], "value") != "N Q!" {
		t.Errorf("a bad point value: %d %s", w.Code, renderHTML(doc))
	}
	w = b.send(t, "POST", "/instruments", url.Values{"csrf": {csrf}, "root": {"N Q!"}, "point_value": {""}, "asset_class": {"futures"}}, "")
	doc = parseHTML(t, w.Body.String())
	if w.Code != http.StatusBadRequest || reasonBeside(doc, "root") != "Root must be 1 to 12 letters or digits, such as NQ or 6E" ||
		reasonBeside(doc, "point_value") != "Point value must be a positive number" {
		t.Errorf("no point value: %d %s", w.Code, renderHTML(doc))
	}
	if len(own()) != 0 {
		t.Fatal("a refused form set a point value")
	}

	// Set NQ's own (typed in lower case): the trade is re-priced.
	if w := b.send(t, "POST", "/instruments", url.Values{"csrf": {csrf}, "root": {" nq"}, "point_value": {"25"}, "asset_class": {"futures"}}, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/instruments?saved=NQ&repriced=1" {
		t.Fatalf("setting NQ: %d to %q %s", w.Code, w.Header().Get("Location"), w.Body)
	}
	if got := own()["NQ"]; got.PointValue != 25 || got.AssetClass != "futures" || pointValue() != 25 {
		t.Errorf("after the form the API reads NQ as %+v, the trade's point value %v", got, pointValue())
	}
	page = b.page(t, "/instruments?saved=NQ&repriced=1")
	if msg := find(page, byAttr("role", "status")); len(msg) != 1 || nodeText(msg[0]) != "NQ's point value is saved; 1 trade re-priced." {
		t.Errorf("the message: %q", texts(msg))
	}
	if n := find(b.page(t, "/instruments?root=NQ"), byAttr("id", "f-point_value")); len(n) != 1 || attr(n[0], "value") != "25" {
		t.Errorf("the change form of NQ shows %q", texts(n))
	}

	// A root without a built-in point value: its futures trades need one.
	if w := b.send(t, "POST", "/instruments", url.Values{"csrf": {csrf}, "root": {"ZZQ"}, "point_value": {"10"}, "asset_class": {"futures"}}, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("setting ZZQ: %d %s", w.Code, w.Body)
	}
	e.create(t, e.tradeBody("ZZQH6", "long", fills(0, "buy 1@100", "sell 1@101")))
	w = b.send(t, "POST", "/instruments", url.Values{"csrf": {csrf}, "root": {"ZZQ"}, "point_value": {"10"}, "asset_class": {"stocks"}}, "")
	doc = parseHTML(t, w.Body.String())
	if alert := find(doc, byAttr("role", "alert")); w.Code != http.StatusConflict || len(alert) != 1 ||
		!strings.HasPrefix(nodeText(alert[0]), "Trades of root ZZQ are futures and would have no point value as stocks") {
		t.Errorf("a class that leaves futures unpriced: %d %q", w.Code, texts(alert))
	}
	if got := strings.Join(consequences(b.page(t, "/instruments/ZZQ/delete")), "; "); got !=
		"re-prices its 1 trade; ZZQ has no built-in point value, so while futures trades of it remain the delete is refused" {
		t.Errorf("ZZQ's confirm step lists %q", got)
	}
	if w := b.send(t, "POST", "/instruments/ZZQ/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusConflict {
		t.Errorf("deleting the only point value of trades: %d, want 409", w.Code)
	}

	// Delete NQ's own: the confirm step names the re-pricing and changes
	// nothing; the post deletes, and the trade is priced as built in.
	if got := strings.Join(consequences(b.page(t, "/instruments/NQ/delete")), "; "); got != "re-prices its 1 trade with the built-in point value, 20" {
		t.Errorf("NQ's confirm step lists %q", got)
	}
	if own()["NQ"].PointValue != 25 {
		t.Fatal("the confirm step deleted the point value")
	}
	if w := b.send(t, "POST", "/instruments/nq/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/instruments?deleted=NQ&repriced=1" {
		t.Fatalf("delete: %d to %q %s", w.Code, w.Header().Get("Location"), w.Body)
	}
	if _, ok := own()["NQ"]; ok || pointValue() != 20 {
		t.Errorf("after the delete: NQ's own is there %v, the trade's point value %v", ok, pointValue())
	}
	// A built-in root has nothing of the user's to delete.
	if w := b.send(t, "GET", "/instruments/ES/delete", nil, ""); w.Code != http.StatusNotFound {
		t.Errorf("the confirm step of a built-in root: %d, want 404", w.Code)
	}
}

// TestInstrumentFormsRefuseTheReadOnlyAndStrangers: a read-only session
// sees no form and its posts are refused; another user's point value is
// a 404 to delete, and bob's own leaves alice's as it is.
func TestInstrumentFormsRefuseTheReadOnlyAndStrangers(t *testing.T) {
	e := newTradeEnv(t)
	must200put(t, e, "/api/v1/instruments/ZZQ", `{"point_value": 10}`)
	refusesOthers(t, e, "/instruments", []string{"/instruments", "/instruments/ZZQ/delete"})
	_, bobKey := e.newKey(t, "bob", "write", false)
	bob := &browser{ts: e.testServer}
	bob.signIn(t, bobKey)
	csrf := csrfOf(t, bob, "/instruments")
	for _, tt := range []struct{ method, target string }{{"GET", "/instruments/ZZQ/delete"}, {"POST", "/instruments/ZZQ/delete"}} {
		var form url.Values
		if tt.method == "POST" {
			form = url.Values{"csrf": {csrf}}
		}
		if w := bob.send(t, tt.method, tt.target, form, ""); w.Code != http.StatusNotFound {
			t.Errorf("bob's %s %s: %d, want 404", tt.method, tt.target, w.Code)
		}
	}
	if w := bob.send(t, "POST", "/instruments", url.Values{"csrf": {csrf}, "root": {"ZZQ"}, "point_value": {"99"}, "asset_class": {"futures"}}, ""); w.Code != http.StatusSeeOther {
		t.Errorf("bob's own ZZQ: %d", w.Code)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM instruments WHERE user_id = ? AND root = 'ZZQ' AND point_value = 10`, e.userID); n != 1 {
		t.Error("bob's point value changed alice's")
	}
}
