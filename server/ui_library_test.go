package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"tradejournal/db"
)

// TestPlaybookForms: a playbook made from its form, criteria a line each,
// is the API's; a refused form comes back with what was typed and each
// reason beside its field in the form's words; an edit keeps the id (and
// so the trades' checklist ticks) of each criterion whose line is left as
// it was; the delete asks first, naming what goes, and then deletes.
func TestPlaybookForms(t *testing.T) {
	e := newTradeEnv(t)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	if len(find(b.page(t, "/library"), byAttr("id", "new-playbook"))) != 1 {
		t.Fatal("the library page has no New playbook link")
	}
	csrf := csrfOf(t, b, "/playbooks/new")

	// Refused: no title, a criterion too long.
	long := strings.Repeat("x", 1001)
	bad := url.Values{"csrf": {csrf}, "title": {"  "}, "description": {"Fade the open"},
		"entry_criteria": {"Above VWAP\n" + long}, "exit_criteria": {"First target"}}
	w := b.send(t, "POST", "/playbooks", bad, "")
	if w.Code != http.StatusBadRequest {
		t.Fatalf("a bad playbook form: %d %s", w.Code, w.Body)
	}
	doc := parseHTML(t, w.Body.String())
	for field, want := range map[string]string{
		"title":          "Title is required",
		"entry_criteria": "Entry criteria [1] must be at most 1000 characters",
	} {
		if n := find(doc, byAttr("data-field-error", field)); len(n) != 1 || nodeText(n[0]) != want {
			t.Errorf("%s's reason: %v, want %q", field, texts(n), want)
		}
	}
	for field, want := range map[string]string{"description": "Fade the open", "entry_criteria": "Above VWAP\n" + long, "exit_criteria": "First target"} {
		if n := find(doc, byAttr("id", "f-"+field)); len(n) != 1 || nodeText(n[0]) != want {
			t.Errorf("%s typed %.40q is gone", field, want)
		}
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM playbooks`); n != 0 {
		t.Fatalf("refused forms wrote %d playbooks", n)
	}
	// The API refuses the same playbook for the same reasons.
	status, body := e.do(t, "POST", "/api/v1/playbooks", e.key, `{"title": "  ", "entry_criteria": ["Above VWAP", "`+long+`"]}`)
	if d := decode[errBody](t, body).Details; status != http.StatusBadRequest || len(d) != 2 || d["title"] != "title is required" ||
		d["entry_criteria[1]"] != "entry_criteria[1] must be at most 1000 characters" {
		t.Errorf("the API's reasons: %d %s", status, body)
	}

	// The strategies and tags to tick are the user's.
	risk := e.createStrategy(t, e.key, `{"title": "One lot"}`)
	e.createStrategy(t, e.key, `{"title": "Scale out"}`)
	tag := e.newTag(t, e.key, e.newGroup(t, e.key, "Setups").ID, "A+")
	form := b.page(t, "/playbooks/new")
	if got := texts(find(form, func(n *html.Node) bool { return n.Data == "label" && len(find(n, byAttr("name", "strategy_ids"))) == 1 })); strings.Join(got, "|") != "Scale out|One lot" {
		t.Errorf("the strategies offered: %q", got)
	}
	if n := find(form, byAttr("value", tag.ID)); len(n) != 1 || attr(n[0], "name") != "tag_ids" {
		t.Error("the tag is not offered")
	}
	good := url.Values{"csrf": {csrf}, "title": {"Opening drive"}, "description": {"Fade the open"},
		"entry_criteria": {"Above VWAP\r\n\r\n  Volume above average \r\n"}, "exit_criteria": {"First target\nTime stop"},
		"content_markdown": {"## Context\nTrend day"}, "strategy_ids": {"", risk.ID}, "tag_ids": {"", tag.ID}}
	if w := b.send(t, "POST", "/playbooks", good, ""); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/playbooks?saved=1" {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	if w := b.send(t, "GET", "/playbooks?saved=1", nil, ""); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/library" {
		t.Errorf("the playbooks' list: %d to %q, want the library page", w.Code, w.Header().Get("Location"))
	}
	list := decode[listBody[db.Playbook]](t, must200(t, e.testServer, "/api/v1/playbooks", e.key)).Data
	if len(list) != 1 {
		t.Fatalf("%d playbooks after the form", len(list))
	}
	p := list[0]
	if p.Title != "Opening drive" || p.Description != "Fade the open" || p.ContentMarkdown != "## Context\nTrend day" ||
		descriptions(p.EntryCriteria) != "Above VWAP|Volume above average" || descriptions(p.ExitCriteria) != "First target|Time stop" ||
		len(p.Strategies) != 1 || p.Strategies[0].ID != risk.ID || len(p.Tags) != 1 || p.Tags[0].ID != tag.ID {
		t.Errorf("the API reads the form's playbook as %+v", p)
	}

	// A trade ticked both entry criteria.
	raw := e.sql(t)
	trade := insertTrade(t, raw, e.userID, e.accountID)
	mustExec(t, raw, `UPDATE trades SET playbook_id = ? WHERE id = ?`, p.ID, trade)
	for _, c := range p.EntryCriteria {
		mustExec(t, raw, `INSERT INTO trade_criteria_checks (trade_id, criterion_id, checked) VALUES (?, ?, 1)`, trade, c.ID)
	}

	// The edit form shows it.
	edit := b.page(t, "/playbooks/"+p.ID+"/edit")
	for field, want := range map[string]string{"entry_criteria": "Above VWAP\nVolume above average", "exit_criteria": "First target\nTime stop"} {
		if n := find(edit, byAttr("id", "f-"+field)); len(n) != 1 || nodeText(n[0]) != want {
			t.Errorf("the edit form's %s: %q, want %q", field, texts(n), want)
		}
	}
	if n := find(edit, byAttr("value", risk.ID)); len(n) != 1 || !hasAttr(n[0], "checked") {
		t.Error("the edit form does not tick the playbook's strategy")
	}
	// Reordered, one added, the exits emptied, no strategy ticked: the
	// kept lines keep their ids and ticks; the strategy is unlinked.
	good.Set("entry_criteria", "Volume above average\nAbove VWAP\nNo news")
	good.Set("exit_criteria", "")
	good["strategy_ids"] = []string{""}
	if w := b.send(t, "POST", "/playbooks/"+p.ID, good, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("edit: %d %s", w.Code, w.Body)
	}
	after := decode[dataOf[db.Playbook]](t, must200(t, e.testServer, "/api/v1/playbooks/"+p.ID, e.key)).Data
	if descriptions(after.EntryCriteria) != "Volume above average|Above VWAP|No news" || len(after.ExitCriteria) != 0 ||
		len(after.Strategies) != 0 || len(after.Tags) != 1 ||
		after.EntryCriteria[0].ID != p.EntryCriteria[1].ID || after.EntryCriteria[1].ID != p.EntryCriteria[0].ID {
		t.Errorf("after the edit: entry %+v (was %+v), exit %+v", after.EntryCriteria, p.EntryCriteria, after.ExitCriteria)
	}
	if n := count(t, raw, `SELECT count(*) FROM trade_criteria_checks WHERE trade_id = ?`, trade); n != 2 {
		t.Errorf("the trade's ticks after an edit that kept their lines: %d, want 2", n)
	}
	// A line changed is a new criterion: its ticks go.
	good.Set("entry_criteria", "Volume above average\nAbove the VWAP\nNo news")
	if w := b.send(t, "POST", "/playbooks/"+p.ID, good, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("edit: %d %s", w.Code, w.Body)
	}
	if n := count(t, raw, `SELECT count(*) FROM trade_criteria_checks WHERE trade_id = ?`, trade); n != 1 {
		t.Errorf("the trade's ticks after a line changed: %d, want 1", n)
	}
	// An emptied title is refused, not left as it was unseen.
	good.Set("title", "")
	w = b.send(t, "POST", "/playbooks/"+p.ID, good, "")
	if n := find(parseHTML(t, w.Body.String()), byAttr("data-field-error", "title")); w.Code != http.StatusBadRequest ||
		len(n) != 1 || nodeText(n[0]) != "Title is required" {
		t.Errorf("an emptied title: %d %v", w.Code, texts(n))
	}

	// Delete: the confirm step names what goes and changes nothing; its
	// post deletes; the trade stays, without the playbook.
	confirm := b.page(t, "/playbooks/"+p.ID+"/delete")
	if got := strings.Join(consequences(confirm), "; "); got != "deletes its 3 criteria; "+
		"takes it off 1 trade, which keeps the rest of its review; removes 1 checklist answer about its criteria from trades; removes its 1 tag" {
		t.Errorf("the confirm step lists %q", got)
	}
	if n := count(t, raw, `SELECT count(*) FROM playbooks`); n != 1 {
		t.Fatal("the confirm step deleted the playbook")
	}
	if w := b.send(t, "POST", "/playbooks/"+p.ID+"/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/playbooks?deleted=1" {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	if status, _ := e.do(t, "GET", "/api/v1/playbooks/"+p.ID, e.key, ""); status != http.StatusNotFound {
		t.Errorf("the deleted playbook: %d, want 404", status)
	}
	if n := count(t, raw, `SELECT count(*) FROM trades WHERE id = ? AND playbook_id IS NULL`, trade); n != 1 {
		t.Error("the trade did not stay without its playbook")
	}
}

// TestPlaybookFormsRefuseTheReadOnlyAndStrangers: a read-only session sees
// no New, Edit or Delete and its posts are refused; another user's
// playbook is a 404 on every page and post; a post without the token is
// stale.
func TestPlaybookFormsRefuseTheReadOnlyAndStrangers(t *testing.T) {
	e := newTradeEnv(t)
	p := e.createPlaybook(t, e.key, `{"title": "Alice's setup", "entry_criteria": ["Above VWAP"]}`)
	refusesOthers(t, e, "/library", nil, recordRoutes{base: "/playbooks", id: p.ID, form: url.Values{"title": {"X"}}})
	// Another user's strategy is not alice's to tick.
	_, carolKey := e.newUser(t, "carol")
	carols := e.createStrategy(t, carolKey, `{"title": "Carol's"}`)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	form := url.Values{"csrf": {csrfOf(t, b, "/playbooks/new")}, "title": {"Mine"}, "strategy_ids": {"", carols.ID}}
	if w := b.send(t, "POST", "/playbooks", form, ""); w.Code != http.StatusNotFound {
		t.Errorf("a playbook following carol's strategy: %d, want 404", w.Code)
	}
	if w := b.send(t, "POST", "/playbooks/"+p.ID, form, ""); w.Code != http.StatusNotFound {
		t.Errorf("alice's playbook following carol's strategy: %d, want 404", w.Code)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM playbooks WHERE title = 'Alice''s setup'`); n != 1 {
		t.Error("a refused post changed alice's playbook")
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM playbooks`); n != 1 {
		t.Error("a refused post made a playbook")
	}
}

// recordRoutes are a record's pages, by the page builders' paths:
// base+"/new", base (create), base/id/edit, base/id (update),
// base/id/delete (confirm and delete); form is a valid post's fields but
// the token.
type recordRoutes struct {
	base, id string
	form     url.Values
	noNew    bool // the record has no new form of its own
}

// refusesOthers checks records' pages against the sessions that may not
// use them: a read-only session of alice's sees no form on list, nor a
// link to the forms (an element data-edit, data-delete or with an id
// new-… or edit-…), and gets 403 from each form and post (creates are
// more posts); bob gets 404 from each page and post naming alice's
// record; a post without the token is 403.
func refusesOthers(t *testing.T, e *tradeEnv, list string, creates []string, records ...recordRoutes) {
	t.Helper()
	_, readKey := e.newKey(t, "alice", "read", false)
	reader := &browser{ts: e.testServer}
	reader.signIn(t, readKey)
	if n := find(reader.page(t, list), func(n *html.Node) bool {
		return hasAttr(n, "data-edit") || hasAttr(n, "data-delete") || strings.HasPrefix(attr(n, "id"), "new-") ||
			strings.HasPrefix(attr(n, "id"), "edit-") || (n.Data == "form" && attr(n, "action") != "/logout")
	}); len(n) != 0 {
		t.Errorf("a read-only session sees %d links or forms on %s: %s", len(n), list, renderHTML(n[0]))
	}
	csrf := csrfOf(t, reader, list)
	_, bobKey := e.newUser(t, "bob")
	bob := &browser{ts: e.testServer}
	bob.signIn(t, bobKey)
	bobCSRF := csrfOf(t, bob, "/dashboard")
	for _, target := range creates {
		if w := reader.send(t, "POST", target, url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusForbidden {
			t.Errorf("a read-only POST %s: %d, want 403", target, w.Code)
		}
	}
	for _, r := range records {
		form := func(token string) url.Values {
			v := url.Values{}
			for k, vs := range r.form {
				v[k] = vs
			}
			if token != "" {
				v.Set("csrf", token)
			}
			return v
		}
		gets := []string{r.base + "/" + r.id + "/edit", r.base + "/" + r.id + "/delete"}
		posts := []string{r.base + "/" + r.id, r.base + "/" + r.id + "/delete"}
		for _, target := range gets {
			if w := bob.send(t, "GET", target, nil, ""); w.Code != http.StatusNotFound {
				t.Errorf("bob's GET %s: %d, want 404", target, w.Code)
			}
		}
		for _, target := range posts {
			if w := bob.send(t, "POST", target, form(bobCSRF), ""); w.Code != http.StatusNotFound {
				t.Errorf("bob's POST %s: %d, want 404", target, w.Code)
			}
		}
		if w := bob.send(t, "POST", posts[0], form(""), ""); w.Code != http.StatusForbidden {
			t.Errorf("a post without its token: %d, want 403", w.Code)
		}
		if !r.noNew {
			gets, posts = append(gets, r.base+"/new"), append(posts, r.base)
		}
		for _, target := range gets {
			if w := reader.send(t, "GET", target, nil, ""); w.Code != http.StatusForbidden {
				t.Errorf("a read-only GET %s: %d, want 403", target, w.Code)
			}
		}
		for _, target := range posts {
			if w := reader.send(t, "POST", target, form(csrf), ""); w.Code != http.StatusForbidden {
				t.Errorf("a read-only POST %s: %d, want 403", target, w.Code)
			}
		}
	}
}

// descriptions are criteria's texts, "|" apart.
func descriptions(cs []db.Criterion) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Description)
	}
	return strings.Join(out, "|")
}

// consequences are what a confirm step lists.
func consequences(doc *html.Node) []string {
	return texts(find(doc, func(n *html.Node) bool { return n.Data == "li" && hasAttr(n, "data-consequence") }))
}
