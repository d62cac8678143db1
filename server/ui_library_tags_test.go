package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"tradejournal/db"
)

// TestTagForms: groups and tags made, renamed, recoloured and reordered
// on the tags page are the API's; a refused form comes back on the page
// with what was typed and each reason beside its field; a new tag posted
// from another page (a trade's tag box) goes back there, naming the tag,
// and never to another site; the defaults load once; a delete asks
// first, naming the records the tag is taken off, and then deletes.
func TestTagForms(t *testing.T) {
	e := newTradeEnv(t)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	if len(find(b.page(t, "/library"), byAttr("id", "edit-tags"))) != 1 {
		t.Fatal("the library page has no link to the tags page")
	}
	csrf := csrfOf(t, b, "/tags")
	groups := func() []db.TagGroup { return e.groups(t, e.key) }

	// A new group: refused, then made.
	w := b.send(t, "POST", "/tag-groups", url.Values{"csrf": {csrf}, "name": {" "}, "color": {"#12AB3"}}, "")
	doc := parseHTML(t, w.Body.String())
	if w.Code != http.StatusBadRequest || reasonBeside(doc, "name") != "Name is required" ||
		reasonBeside(doc, "color") != "Colour must be a hex colour #RRGGBB" || attr(find(doc, byAttr("id", "group-color"))[0], "value") != "#12AB3" {
		t.Errorf("a bad group: %d, reasons %q and %q, colour kept %q", w.Code, reasonBeside(doc, "name"), reasonBeside(doc, "color"),
			attr(find(doc, byAttr("id", "group-color"))[0], "value"))
	}
	if w := b.send(t, "POST", "/tag-groups", url.Values{"csrf": {csrf}, "name": {"Setups"}, "color": {"#12ab34"}}, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/tags?saved=1" {
		t.Fatalf("a new group: %d %s", w.Code, w.Body)
	}
	if g := groups(); len(g) != 1 || g[0].Name != "Setups" || g[0].Color != "#12AB34" {
		t.Fatalf("the API reads the new group as %+v", g)
	}
	group := groups()[0]
	if msg := find(b.page(t, "/tags?saved=1"), byAttr("role", "status")); len(msg) != 1 || nodeText(msg[0]) != "Saved." {
		t.Errorf("the message after a save: %q", texts(msg))
	}

	// A new tag in the group: refused (blank, then a name the group has),
	// then made.
	newTag := url.Values{"csrf": {csrf}, "tag_group_id": {group.ID}, "name": {"A+"}}
	if w := b.send(t, "POST", "/tags", newTag, ""); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/tags?saved=1" {
		t.Fatalf("a new tag: %d %s", w.Code, w.Body)
	}
	w = b.send(t, "POST", "/tags", newTag, "")
	doc = parseHTML(t, w.Body.String())
	form := find(doc, byAttr("data-new-tag", group.ID))
	if w.Code != http.StatusConflict || len(form) != 1 || reasonBeside(form[0], "name") != "Name tag A+ already exists in this group" ||
		attr(find(form[0], byAttr("id", "tag-"+group.ID))[0], "value") != "A+" {
		t.Errorf("a tag the group has: %d %s", w.Code, renderHTML(doc))
	}
	// From a trade's tag box: back to the trade, naming the new tag; a
	// refusal keeps the way back; another site is never the way back.
	trade := "/trades/" + insertTrade(t, e.sql(t), e.userID, e.accountID)
	fromTrade := url.Values{"csrf": {csrf}, "tag_group_id": {group.ID}, "name": {""}, "return_to": {trade}}
	w = b.send(t, "POST", "/tags", fromTrade, "")
	doc = parseHTML(t, w.Body.String())
	if w.Code != http.StatusBadRequest || reasonBeside(doc, "name") != "Name is required" ||
		len(find(doc, func(n *html.Node) bool { return attr(n, "name") == "return_to" && attr(n, "value") == trade })) != 1 {
		t.Errorf("a refused tag from a trade: %d %s", w.Code, renderHTML(doc))
	}
	fromTrade.Set("name", "Late entry")
	w = b.send(t, "POST", "/tags", fromTrade, "")
	made := tagNamed(groups(), "Late entry")
	if w.Code != http.StatusSeeOther || made.ID == "" || w.Header().Get("Location") != trade+"?new_tag="+made.ID {
		t.Errorf("a new tag from a trade: %d to %q", w.Code, w.Header().Get("Location"))
	}
	for _, elsewhere := range []string{"https://example.com/x", "//example.com/x", "/\\example.com", "javascript:alert(1)"} {
		fromTrade.Set("name", "To "+elsewhere)
		fromTrade.Set("return_to", elsewhere)
		if w := b.send(t, "POST", "/tags", fromTrade, ""); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/tags?saved=1" {
			t.Errorf("return_to %q: %d to %q, want /tags", elsewhere, w.Code, w.Header().Get("Location"))
		}
	}

	// Rename, recolour, reorder the group; rename and reorder a tag.
	edit := b.page(t, "/tag-groups/"+group.ID+"/edit")
	if n := find(edit, byAttr("id", "f-color")); len(n) != 1 || attr(n[0], "value") != "#12AB34" {
		t.Errorf("the group's edit form shows colour %q", texts(n))
	}
	w = b.send(t, "POST", "/tag-groups/"+group.ID, url.Values{"csrf": {csrf}, "name": {"Setup types"}, "color": {""}, "sort_order": {"-1"}}, "")
	doc = parseHTML(t, w.Body.String())
	if w.Code != http.StatusBadRequest || reasonBeside(doc, "color") != "Colour must be a hex colour #RRGGBB" ||
		reasonBeside(doc, "sort_order") != "Order must be an integer of at least 0" || attr(find(doc, byAttr("id", "f-name"))[0], "value") != "Setup types" {
		t.Errorf("a bad group edit: %d %s", w.Code, renderHTML(doc))
	}
	if w := b.send(t, "POST", "/tag-groups/"+group.ID, url.Values{"csrf": {csrf}, "name": {"Setup types"}, "color": {"#0000ff"}, "sort_order": {"3"}}, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/tag-groups?saved=1" {
		t.Fatalf("a group edit: %d %s", w.Code, w.Body)
	}
	if w := b.send(t, "GET", "/tag-groups?saved=1", nil, ""); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/tags?saved=1" {
		t.Errorf("the groups' list: %d to %q, want the tags page", w.Code, w.Header().Get("Location"))
	}
	tag := tagNamed(groups(), "A+")
	if w := b.send(t, "POST", "/tags/"+tag.ID, url.Values{"csrf": {csrf}, "name": {"A plus"}, "sort_order": {"5"}}, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("a tag edit: %d %s", w.Code, w.Body)
	}
	if g := groups(); g[0].Name != "Setup types" || g[0].Color != "#0000FF" || g[0].SortOrder != 3 ||
		tagNamed(g, "A plus").ID != tag.ID || tagNamed(g, "A plus").SortOrder != 5 {
		t.Errorf("after the edits the API reads %+v", g)
	}

	// The defaults load, once.
	for range 2 {
		if w := b.send(t, "POST", "/tags/defaults", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther ||
			w.Header().Get("Location") != "/tags?defaults=1" {
			t.Fatalf("loading the defaults: %d %s", w.Code, w.Body)
		}
	}
	if g := groups(); len(g) != 6 || len(tagNamed(g, "Breakout").ID) == 0 {
		t.Errorf("after loading the defaults twice: %d groups", len(g))
	}
	// A tag moves to another group.
	late, mistakes := tagNamed(groups(), "Late entry"), tagNamed(groups(), "FOMO entry").TagGroupID
	edit = b.page(t, "/tags/"+late.ID+"/edit")
	if n := find(edit, func(n *html.Node) bool { return n.Data == "option" && hasAttr(n, "selected") }); len(n) != 1 || attr(n[0], "value") != group.ID {
		t.Errorf("the tag's group in its form: %q", texts(n))
	}
	if w := b.send(t, "POST", "/tags/"+late.ID, url.Values{"csrf": {csrf}, "name": {"Late entry"}, "tag_group_id": {mistakes}, "sort_order": {"0"}}, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("moving a tag: %d %s", w.Code, w.Body)
	}
	if got := tagNamed(groups(), "Late entry"); got.TagGroupID != mistakes || got.ID != late.ID {
		t.Errorf("the moved tag reads %+v", got)
	}

	// Deletes: the confirm step names what the tag comes off and changes
	// nothing; the post deletes; the trades and the account stay.
	raw := e.sql(t)
	other := insertTrade(t, raw, e.userID, e.accountID)
	for _, id := range []string{strings.TrimPrefix(trade, "/trades/"), other} {
		mustExec(t, raw, `INSERT INTO trade_tags (trade_id, tag_id) VALUES (?, ?)`, id, tag.ID)
	}
	mustExec(t, raw, `INSERT INTO account_tags (account_id, tag_id) VALUES (?, ?)`, e.accountID, tag.ID)
	if got := strings.Join(consequences(b.page(t, "/tags/"+tag.ID+"/delete")), "; "); got != "takes it off 2 trades, 1 account, which stay" {
		t.Errorf("the tag's confirm step lists %q", got)
	}
	if got := strings.Join(consequences(b.page(t, "/tag-groups/"+group.ID+"/delete")), "; "); got != "deletes its 5 tags; takes them off 2 trades, 1 account, which stay" {
		t.Errorf("the group's confirm step lists %q", got)
	}
	if n := count(t, raw, `SELECT count(*) FROM trade_tags`); n != 2 {
		t.Fatal("a confirm step deleted the tag")
	}
	if w := b.send(t, "POST", "/tags/"+tag.ID+"/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/tags?deleted=1" {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	if tagNamed(groups(), "A plus").ID != "" || count(t, raw, `SELECT count(*) FROM trade_tags`)+count(t, raw, `SELECT count(*) FROM account_tags`) != 0 ||
		count(t, raw, `SELECT count(*) FROM trades`) != 2 {
		t.Error("the tag is not gone from its trades and account, or they went with it")
	}
	if w := b.send(t, "POST", "/tag-groups/"+group.ID+"/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/tag-groups?deleted=1" {
		t.Fatalf("a group's delete: %d %s", w.Code, w.Body)
	}
	if g := groups(); len(g) != 5 || tagNamed(g, "Late entry").ID == "" {
		t.Errorf("after the group's delete: %d groups, or the tag moved out of it went too", len(g))
	}
}

// TestTagFormsRefuseTheReadOnlyAndStrangers: a read-only session sees no
// form on the tags page and its posts are refused; another user's group
// or tag is a 404 on every page and post, and so is a new tag in another
// user's group.
func TestTagFormsRefuseTheReadOnlyAndStrangers(t *testing.T) {
	e := newTradeEnv(t)
	group := e.newGroup(t, e.key, "Setups")
	tag := e.newTag(t, e.key, group.ID, "A+")
	refusesOthers(t, e, "/tags", []string{"/tags", "/tag-groups", "/tags/defaults"},
		recordRoutes{base: "/tags", id: tag.ID, form: url.Values{"name": {"Bob's"}}, noNew: true},
		recordRoutes{base: "/tag-groups", id: group.ID, form: url.Values{"name": {"Bob's"}, "color": {"#000000"}}, noNew: true})
	bob := &browser{ts: e.testServer}
	_, bobKey := e.newKey(t, "bob", "write", false)
	bob.signIn(t, bobKey)
	csrf := csrfOf(t, bob, "/tags")
	if w := bob.send(t, "POST", "/tags", url.Values{"csrf": {csrf}, "tag_group_id": {group.ID}, "name": {"Bob's"}}, ""); w.Code != http.StatusNotFound {
		t.Errorf("bob's tag in alice's group: %d, want 404", w.Code)
	}
	bobs := e.newTag(t, bobKey, e.newGroup(t, bobKey, "Bob's").ID, "Bob's")
	if w := bob.send(t, "POST", "/tags/"+bobs.ID, url.Values{"csrf": {csrf}, "name": {"Bob's"}, "tag_group_id": {group.ID}}, ""); w.Code != http.StatusNotFound {
		t.Errorf("bob's tag moved to alice's group: %d, want 404", w.Code)
	}
	if g := e.groups(t, e.key); len(g) != 1 || g[0].Name != "Setups" || len(g[0].Tags) != 1 || g[0].Tags[0].Name != "A+" {
		t.Errorf("others' posts changed alice's tags: %+v", g)
	}
}

// reasonBeside is the reason shown beside the field name under n.
func reasonBeside(n *html.Node, name string) string {
	if found := find(n, byAttr("data-field-error", name)); len(found) == 1 {
		return nodeText(found[0])
	}
	return ""
}

// tagNamed is the tag of that name among the groups' (zero when none is).
func tagNamed(groups []db.TagGroup, name string) db.Tag {
	for _, g := range groups {
		for _, t := range g.Tags {
			if t.Name == name {
				return t
			}
		}
	}
	return db.Tag{}
}
