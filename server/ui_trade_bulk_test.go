package server_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// bulkEnv is alice with three trades, two tags and a playbook, signed in.
type bulkEnv struct {
	*tradeEnv
	b                 *browser
	csrf              string
	one, two, three   string // trades
	orb, fade, setups string // tags and the playbook
}

func newBulkEnv(t *testing.T) *bulkEnv {
	t.Helper()
	e := &bulkEnv{tradeEnv: newTradeEnv(t)}
	for i, id := range []*string{&e.one, &e.two, &e.three} {
		symbol := []string{"ESH6", "NQH6", "CLJ6"}[i]
		tr, _ := e.create(t, e.tradeBody(symbol, "long", fills(1, "buy 1@100", "sell 1@101")))
		*id = tr.ID
	}
	ctx := t.Context()
	group, err := e.db.CreateTagGroup(ctx, e.userID, "Setups", "#336699")
	if err != nil {
		t.Fatal(err)
	}
	for _, tag := range []struct {
		id   *string
		name string
	}{{&e.orb, "ORB"}, {&e.fade, "Fade"}} {
		created, err := e.db.CreateTag(ctx, e.userID, group.ID, tag.name)
		if err != nil {
			t.Fatal(err)
		}
		*tag.id = created.ID
	}
	e.setups = e.createPlaybook(t, e.key, `{"title": "Opening drive"}`).ID
	e.b = &browser{ts: e.testServer}
	e.b.signIn(t, e.key)
	e.csrf = csrfOf(t, e.b, "/trades")
	return e
}

// tagsOf are the names of the tags the API reads on a trade.
func (e *bulkEnv) tagsOf(t *testing.T, id string) []string {
	var names []string
	for _, tag := range tradeByAPI(t, e.tradeEnv, id).Tags {
		names = append(names, tag.Name)
	}
	slices.Sort(names)
	return names
}

// TestTradeBulkPages: the list ticks trades for the bulk form, which tags,
// untags, sets the playbook and marks reviewed, as the API's bulk change
// does; a refused change keeps what was ticked and chosen, with the
// reason beside its field; the bulk delete asks first, naming how many
// trades and what goes with them, then deletes them all.
func TestTradeBulkPages(t *testing.T) {
	e := newBulkEnv(t)
	list := e.b.page(t, "/trades")
	boxes := find(list, byAttr("name", "trade_ids"))
	if len(boxes) != 3 || attr(boxes[0], "form") != "bulk" || len(find(list, byAttr("id", "bulk"))) != 1 {
		t.Fatalf("the list has %d boxes for a bulk form", len(boxes))
	}
	if n := find(list, byAttr("id", "bulk")); attr(n[0], "method") != "get" || attr(n[0], "action") != "/trades/bulk" {
		t.Errorf("the list's selection goes to %s %s", attr(n[0], "method"), attr(n[0], "action"))
	}
	selected := "/trades/bulk?" + url.Values{"trade_ids": {e.one, e.two}}.Encode()
	page := e.b.page(t, selected)
	if n := find(page, func(n *html.Node) bool { return hasAttr(n, "data-selected") }); len(n) != 1 || attr(n[0], "data-selected") != "2" {
		t.Errorf("the bulk form names %v trades, want 2", texts(n))
	}
	if n := find(page, func(n *html.Node) bool { return n.Data == "input" && attr(n, "name") == "add_tag_ids" }); len(n) != 2 {
		t.Errorf("the bulk form offers %d tags to add, want 2", len(n))
	}
	if n := find(page, byAttr("value", e.setups)); len(n) != 1 || n[0].Data != "option" {
		t.Error("the bulk form does not offer the playbook")
	}
	post := func(v url.Values) *htmlResult {
		v.Set("csrf", e.csrf)
		v["trade_ids"] = []string{e.one, e.two}
		w := e.b.send(t, "POST", "/trades/bulk", v, "")
		return &htmlResult{code: w.Code, location: w.Header().Get("Location"), doc: parseHTML(t, w.Body.String())}
	}

	// Refused: nothing chosen; a tag both added and removed, with the
	// playbook chosen, which stays chosen.
	if r := post(url.Values{}); r.code != http.StatusBadRequest ||
		!strings.Contains(nodeText(find(r.doc, func(n *html.Node) bool { return hasAttr(n, "data-problem") })[0]), "Choose a change") {
		t.Errorf("a bulk change of nothing: %d", r.code)
	}
	r := post(url.Values{"add_tag_ids": {e.orb}, "remove_tag_ids": {e.orb}, "playbook_id": {e.setups}, "reviewed": {"true"}})
	if r.code != http.StatusBadRequest || tradeFieldError(r.doc, "remove_tag_ids") != "Remove tags: a tag is added or removed, not both" {
		t.Errorf("a tag added and removed: %d, %q", r.code, tradeFieldError(r.doc, "remove_tag_ids"))
	}
	if tradeInputValue(r.doc, "f-playbook_id") != e.setups || tradeInputValue(r.doc, "f-reviewed") != "true" ||
		len(find(r.doc, func(n *html.Node) bool { return attr(n, "value") == e.orb && hasAttr(n, "checked") })) != 2 {
		t.Error("the refused bulk change lost what was ticked and chosen")
	}
	if got := e.tagsOf(t, e.one); len(got) != 0 {
		t.Fatalf("a refused bulk change tagged a trade: %v", got)
	}

	// Tag, set the playbook and mark reviewed: the two ticked trades, not
	// the third.
	if r := post(url.Values{"add_tag_ids": {e.orb, e.fade}, "playbook_id": {e.setups}, "reviewed": {"true"}}); r.code != http.StatusSeeOther ||
		r.location != "/trades?updated=2" {
		t.Fatalf("bulk change: %d to %q", r.code, r.location)
	}
	for _, id := range []string{e.one, e.two} {
		tr := tradeByAPI(t, e.tradeEnv, id)
		if tr.PlaybookID == nil || *tr.PlaybookID != e.setups || tr.ReviewedAt == nil || !slices.Equal(e.tagsOf(t, id), []string{"Fade", "ORB"}) {
			t.Errorf("trade %s after the bulk change: playbook %v, reviewed %v, tags %v", id, tr.PlaybookID, tr.ReviewedAt, e.tagsOf(t, id))
		}
	}
	if tr := tradeByAPI(t, e.tradeEnv, e.three); tr.PlaybookID != nil || tr.ReviewedAt != nil || len(tr.Tags) != 0 {
		t.Error("the bulk change changed a trade not ticked")
	}
	// Untag one, clear the playbook and unmark.
	post(url.Values{"remove_tag_ids": {e.orb}, "playbook_id": {"none"}, "reviewed": {"false"}})
	for _, id := range []string{e.one, e.two} {
		tr := tradeByAPI(t, e.tradeEnv, id)
		if tr.PlaybookID != nil || tr.ReviewedAt != nil || !slices.Equal(e.tagsOf(t, id), []string{"Fade"}) {
			t.Errorf("trade %s after the second change: playbook %v, reviewed %v, tags %v", id, tr.PlaybookID, tr.ReviewedAt, e.tagsOf(t, id))
		}
	}

	// Delete: the confirm step names how many and what goes, and changes
	// nothing; its post deletes both.
	confirm := e.b.page(t, "/trades/bulk/delete?"+url.Values{"trade_ids": {e.one, e.two}}.Encode())
	if h := find(confirm, byAttr("id", "confirm-title")); len(h) != 1 || nodeText(h[0]) != "Delete 2 trades?" {
		t.Errorf("the bulk delete's title: %q", texts(h))
	}
	want := "deletes 4 fills; removes 2 tag links (the tags stay)"
	if got := texts(find(confirm, func(n *html.Node) bool { return hasAttr(n, "data-consequence") })); strings.Join(got, "; ") != want {
		t.Errorf("the bulk delete lists %q, want %q", got, want)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trades`); n != 3 {
		t.Fatal("the bulk delete's confirm step deleted trades")
	}
	form := url.Values{}
	for _, in := range find(confirm, func(n *html.Node) bool { return n.Data == "input" }) {
		form.Add(attr(in, "name"), attr(in, "value"))
	}
	if w := e.b.send(t, "POST", "/trades/bulk", form, ""); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/trades?deleted=2" {
		t.Fatalf("bulk delete: %d %s", w.Code, w.Body)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trades`); n != 1 {
		t.Errorf("%d trades after the bulk delete, want the third", n)
	}
	if got := tradeByAPI(t, e.tradeEnv, e.three); got.ID != e.three {
		t.Error("the trade not ticked is gone")
	}
}

// htmlResult is a page post's answer, parsed.
type htmlResult struct {
	code     int
	location string
	doc      *html.Node
}

// TestTradeBulkRefusesTheReadOnlyAndStrangers: a read-only session has no
// boxes, no bulk form, and its posts are refused; a session that cannot
// read tags or playbooks is not offered them; another user's trades
// are a 404 on the bulk form, its delete step and its post, and another
// user's tag is a 404 beside the field that names it; a post without the
// token is stale.
func TestTradeBulkRefusesTheReadOnlyAndStrangers(t *testing.T) {
	e := newBulkEnv(t)
	_, readKey := e.newKey(t, "alice", "read", false)
	reader := &browser{ts: e.testServer}
	reader.signIn(t, readKey)
	if page := reader.page(t, "/trades"); len(find(page, byAttr("name", "trade_ids"))) != 0 || len(find(page, byAttr("id", "bulk"))) != 0 {
		t.Error("a read-only session sees the list's selection")
	}
	ids := url.Values{"trade_ids": {e.one}}.Encode()
	for _, target := range []string{"/trades/bulk?" + ids, "/trades/bulk/delete?" + ids} {
		if w := reader.send(t, "GET", target, nil, ""); w.Code != http.StatusForbidden {
			t.Errorf("a read-only GET %s: %d, want 403", target, w.Code)
		}
	}
	if w := reader.send(t, "POST", "/trades/bulk", url.Values{"csrf": {csrfOf(t, reader, "/trades")}, "trade_ids": {e.one},
		"reviewed": {"true"}}, ""); w.Code != http.StatusForbidden {
		t.Errorf("a read-only bulk post: %d, want 403", w.Code)
	}

	// A session that may change trades but not read tags or playbooks is
	// offered neither; with nothing ticked there is nothing to change.
	_, tradesKey := e.newKey(t, "alice", "trades:write", false)
	narrow := &browser{ts: e.testServer}
	narrow.signIn(t, tradesKey)
	page := narrow.page(t, "/trades/bulk?"+ids)
	if len(find(page, byAttr("name", "add_tag_ids"))) != 0 || len(find(page, byAttr("name", "playbook_id"))) != 0 ||
		len(find(page, byAttr("name", "reviewed"))) != 1 {
		t.Error("a session without tags:read or playbooks:read is offered tags or playbooks")
	}
	if w := narrow.send(t, "GET", "/trades/bulk", nil, ""); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "Tick 1 to 500 trades") {
		t.Errorf("the bulk form with nothing ticked: %d", w.Code)
	}

	bobID, bobKey := e.newUser(t, "bob")
	bob := &browser{ts: e.testServer}
	bob.signIn(t, bobKey)
	bobCSRF := csrfOf(t, bob, "/trades")
	for _, target := range []string{"/trades/bulk?" + ids, "/trades/bulk/delete?" + ids} {
		if w := bob.send(t, "GET", target, nil, ""); w.Code != http.StatusNotFound {
			t.Errorf("bob's GET %s: %d, want 404", target, w.Code)
		}
	}
	for _, form := range []url.Values{{"reviewed": {"true"}}, {"delete": {"true"}}} {
		form.Set("csrf", bobCSRF)
		form["trade_ids"] = []string{e.one, e.two}
		if w := bob.send(t, "POST", "/trades/bulk", form, ""); w.Code != http.StatusNotFound {
			t.Errorf("bob's bulk post %v: %d, want 404", form, w.Code)
		}
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trades WHERE reviewed_at IS NULL`); n != 3 {
		t.Errorf("bob's bulk posts changed alice's trades: %d of 3 unreviewed", n)
	}

	// Alice naming bob's tag: not hers, a 404 beside the field that
	// names it, and nothing changes.
	group, err := e.db.CreateTagGroup(t.Context(), bobID, "Bob's", "#000000")
	if err != nil {
		t.Fatal(err)
	}
	bobTag, err := e.db.CreateTag(t.Context(), bobID, group.ID, "Bob's tag")
	if err != nil {
		t.Fatal(err)
	}
	w := e.b.send(t, "POST", "/trades/bulk", url.Values{"csrf": {e.csrf}, "trade_ids": {e.one}, "add_tag_ids": {bobTag.ID}}, "")
	if doc := parseHTML(t, w.Body.String()); w.Code != http.StatusNotFound || tradeFieldError(doc, "add_tag_ids") != "Add tags: Tag not found" {
		t.Errorf("alice adding bob's tag: %d, %q", w.Code, tradeFieldError(doc, "add_tag_ids"))
	}
	if got := e.tagsOf(t, e.one); len(got) != 0 {
		t.Errorf("alice's trade took bob's tag: %v", got)
	}
	if w := e.b.send(t, "POST", "/trades/bulk", url.Values{"trade_ids": {e.one}, "reviewed": {"true"}}, ""); w.Code != http.StatusForbidden {
		t.Errorf("a bulk post without its token: %d, want 403", w.Code)
	}
}
