package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"tradejournal/db"
)

// TestUndoOfReviewedTradesConfirms: undoing an import whose trades carry
// review work does not happen on the first click: the page names what
// goes and asks, nothing changes; its confirm (force) undoes it, as
// DELETE ?force=true does.
func TestUndoOfReviewedTradesConfirms(t *testing.T) {
	e := newTradeEnv(t)
	imp := e.mustImport(t, e.key, morning, http.StatusCreated)
	trades := decode[struct {
		Data       []db.Trade
		Pagination map[string]any
	}](t, must200(t, e.testServer, "/api/v1/trades?import_id="+*imp.ID, e.key)).Data
	if status, b := e.do(t, "PUT", "/api/v1/trades/"+trades[0].ID, e.key, `{"reviewed": true, "star_rating": 4}`); status != 200 {
		t.Fatalf("review: %d %s", status, b)
	}
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	csrf := csrfOf(t, b, "/import")
	count := func() int { return count(t, e.sql(t), `SELECT count(*) FROM trades`) }
	before := count()

	w := b.send(t, "POST", "/imports/"+*imp.ID+"/undo", url.Values{"csrf": {csrf}}, "")
	if w.Code != http.StatusConflict {
		t.Fatalf("undo of reviewed trades: %d %s", w.Code, w.Body)
	}
	doc := parseHTML(t, w.Body.String())
	box := find(doc, byAttr("data-confirm-undo", *imp.ID))
	if len(box) != 1 || !strings.Contains(nodeText(box[0]), "Undoing this import would delete 1 reviewed trade, with their ratings") ||
		strings.Contains(nodeText(box[0]), "?force") {
		t.Fatalf("the confirm step: %q", nodeText(doc))
	}
	if force := find(box[0], func(n *html.Node) bool { return attr(n, "name") == "force" && attr(n, "value") == "1" }); len(force) != 1 {
		t.Fatal("the confirm step has no form that goes ahead")
	}
	if n := count(); n != before {
		t.Fatalf("asking changed the trades: %d, want %d", n, before)
	}
	w = b.send(t, "POST", "/imports/"+*imp.ID+"/undo", url.Values{"csrf": {csrf}, "force": {"1"}}, "")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/import?undone=1" {
		t.Fatalf("the confirmed undo: %d %s", w.Code, w.Body)
	}
	if n := count(); n != 0 {
		t.Errorf("after the confirmed undo %d trades are left, want 0", n)
	}
}
