package server_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"tradejournal/db"
)

// TestReportCardForms: the journal offers today's report card (today in
// the user's timezone); one made from its form is the API's; a refused
// form comes back with what was typed and each reason beside its field in
// the form's words; the edit form shows the card and clears what is
// emptied; the delete asks first, naming the tags it unlinks, then
// deletes.
func TestReportCardForms(t *testing.T) {
	e := newTradeEnv(t)
	// 03:00 UTC on 6 February is still 5 February in New York, alice's
	// timezone.
	e.db.Now = func() time.Time { return time.Date(2026, 2, 6, 3, 0, 0, 0, time.UTC) }
	tag := journalTag(t, e, "Calm")
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)

	today := find(b.page(t, "/journal"), byAttr("data-today", "report-card"))
	if len(today) != 1 || attr(today[0], "href") != "/journal/report-cards/new?date=2026-02-05" {
		t.Fatalf("the journal's report card for today: %v", texts(today))
	}
	form := b.page(t, attr(today[0], "href"))
	if got := formValue(form, "report_date"); got != "2026-02-05" {
		t.Errorf("a new report card's day: %q, want today in New York, 2026-02-05", got)
	}
	if got := formValue(b.page(t, "/journal/report-cards/new"), "report_date"); got != "2026-02-05" {
		t.Errorf("a new report card's day without a link's date: %q", got)
	}
	csrf := csrfOf(t, b, "/journal/report-cards/new")

	bad := url.Values{"csrf": {csrf}, "report_date": {"2026-02-30"}, "account_id": {e.accountID}, "grade": {"6"},
		"notes_markdown": {"Chased the open"}, "tag_ids": {"", tag}}
	w := b.send(t, "POST", "/journal/report-cards", bad, "")
	if w.Code != http.StatusBadRequest {
		t.Fatalf("a bad report card: %d %s", w.Code, w.Body)
	}
	doc := parseHTML(t, w.Body.String())
	for field, want := range map[string]string{
		"report_date": "Day must be a date YYYY-MM-DD from 1900 to 2999",
		"grade":       "Grade must be an integer from 1 to 5",
	} {
		if got := reasonOf(doc, field); got != want {
			t.Errorf("%s's reason: %q, want %q", field, got, want)
		}
	}
	for field, want := range map[string]string{"report_date": "2026-02-30", "account_id": e.accountID, "notes_markdown": "Chased the open"} {
		if got := formValue(doc, field); got != want {
			t.Errorf("%s typed %q comes back as %q", field, want, got)
		}
	}
	if !checked(doc, "tag_ids", tag) {
		t.Error("the tag ticked is no longer ticked")
	}
	bad.Set("report_date", "")
	bad.Set("grade", "4")
	if w := b.send(t, "POST", "/journal/report-cards", bad, ""); w.Code != http.StatusBadRequest ||
		reasonOf(parseHTML(t, w.Body.String()), "report_date") != "Day is required" {
		t.Errorf("no day: %d %q", w.Code, reasonOf(parseHTML(t, w.Body.String()), "report_date"))
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM report_cards`); n != 0 {
		t.Fatalf("refused forms wrote %d report cards", n)
	}

	good := url.Values{"csrf": {csrf}, "report_date": {"2026-02-05"}, "account_id": {e.accountID}, "grade": {"4"},
		"notes_markdown": {"Waited for the pullback.\nStopped at two trades."}, "tag_ids": {"", tag}}
	w = b.send(t, "POST", "/journal/report-cards", good, "")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/journal/report-cards?saved=1" {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	cards := decode[listBody[db.ReportCard]](t, must200(t, e.testServer, "/api/v1/report-cards", e.key)).Data
	if len(cards) != 1 {
		t.Fatalf("%d report cards after the form", len(cards))
	}
	c := cards[0]
	if c.ReportDate != "2026-02-05" || c.AccountID == nil || *c.AccountID != e.accountID || c.Grade == nil || *c.Grade != 4 ||
		c.NotesMarkdown != "Waited for the pullback.\nStopped at two trades." || len(c.Tags) != 1 || c.Tags[0].ID != tag {
		t.Errorf("the API reads the form's report card as %+v", c)
	}
	if rows := find(b.page(t, "/journal/report-cards?saved=1"), byAttr("data-record", c.ID)); len(rows) != 1 ||
		!strings.Contains(nodeText(rows[0]), "Grade 4 of 5") || !strings.Contains(nodeText(rows[0]), "APEX-1") {
		t.Errorf("the report cards list it as %v", texts(rows))
	}
	if link := find(b.page(t, "/journal"), byAttr("data-today", "report-card")); len(link) != 1 ||
		attr(link[0], "href") != "/journal/report-cards/"+c.ID+"/edit" {
		t.Errorf("the journal's report card for today, once written: %v", link)
	}

	edit := b.page(t, "/journal/report-cards/"+c.ID+"/edit")
	for field, want := range map[string]string{"report_date": "2026-02-05", "account_id": e.accountID, "grade": "4"} {
		if got := formValue(edit, field); got != want {
			t.Errorf("the edit form's %s: %q, want %q", field, got, want)
		}
	}
	if !checked(edit, "tag_ids", tag) {
		t.Error("the edit form does not tick the card's tag")
	}
	// Emptied, the account, grade and tags are cleared.
	cleared := url.Values{"csrf": {csrf}, "report_date": {"2026-02-04"}, "account_id": {""}, "grade": {""},
		"notes_markdown": {"Rewritten"}, "tag_ids": {""}}
	if w := b.send(t, "POST", "/journal/report-cards/"+c.ID, cleared, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("edit: %d %s", w.Code, w.Body)
	}
	c = decode[struct{ Data db.ReportCard }](t, must200(t, e.testServer, "/api/v1/report-cards/"+c.ID, e.key)).Data
	if c.ReportDate != "2026-02-04" || c.AccountID != nil || c.Grade != nil || c.NotesMarkdown != "Rewritten" || len(c.Tags) != 0 {
		t.Errorf("after the edit: %+v", c)
	}

	// The delete asks first, naming the tags it unlinks, and changes
	// nothing until its post.
	must200put(t, e, "/api/v1/report-cards/"+c.ID, `{"tag_ids": ["`+tag+`"]}`)
	confirm := b.page(t, "/journal/report-cards/"+c.ID+"/delete")
	if got := consequences(confirm); strings.Join(got, "; ") != "unlinks its 1 tag (the tags themselves stay)" {
		t.Errorf("the confirm step lists %q", got)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM report_cards`); n != 1 {
		t.Fatal("the confirm step deleted the report card")
	}
	if w := b.send(t, "POST", "/journal/report-cards/"+c.ID+"/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/journal/report-cards?deleted=1" {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	if status, _ := e.do(t, "GET", "/api/v1/report-cards/"+c.ID, e.key, ""); status != http.StatusNotFound {
		t.Errorf("the deleted report card: %d, want 404", status)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM tags`); n != 1 {
		t.Error("deleting the report card deleted its tag")
	}
}

// TestTradingPlanForms: tomorrow's plan is a link away, dated and titled;
// one made from its form, with a playbook, is the API's; a refused form
// keeps what was typed; an edit that empties the day clears it; the
// delete asks first and then deletes.
func TestTradingPlanForms(t *testing.T) {
	e := newTradeEnv(t)
	e.db.Now = func() time.Time { return time.Date(2026, 2, 6, 3, 0, 0, 0, time.UTC) }
	playbook := e.createPlaybook(t, e.key, `{"title": "Opening drive"}`)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)

	tomorrow := find(b.page(t, "/journal"), byAttr("data-today", "tomorrow"))
	if len(tomorrow) != 1 || attr(tomorrow[0], "href") != "/journal/trading-plans/new?date=2026-02-06" {
		t.Fatalf("the journal's plan for tomorrow: %v", tomorrow)
	}
	form := b.page(t, attr(tomorrow[0], "href"))
	if formValue(form, "plan_date") != "2026-02-06" || formValue(form, "title") != "Plan for 2026-02-06" {
		t.Errorf("tomorrow's plan opens dated %q, titled %q", formValue(form, "plan_date"), formValue(form, "title"))
	}
	if opts := find(form, func(n *html.Node) bool { return n.Data == "option" && attr(n, "value") == playbook.ID }); len(opts) != 1 ||
		nodeText(opts[0]) != "Opening drive" {
		t.Errorf("the playbook is offered as %v", texts(opts))
	}
	csrf := csrfOf(t, b, "/journal/trading-plans/new")

	bad := url.Values{"csrf": {csrf}, "title": {"  "}, "plan_date": {"tomorrow"}, "playbook_id": {playbook.ID},
		"content_markdown": {"Long above 5010"}}
	w := b.send(t, "POST", "/journal/trading-plans", bad, "")
	if w.Code != http.StatusBadRequest {
		t.Fatalf("a bad plan: %d %s", w.Code, w.Body)
	}
	doc := parseHTML(t, w.Body.String())
	for field, want := range map[string]string{"title": "Title is required", "plan_date": "Day must be a date YYYY-MM-DD from 1900 to 2999"} {
		if got := reasonOf(doc, field); got != want {
			t.Errorf("%s's reason: %q, want %q", field, got, want)
		}
	}
	for field, want := range map[string]string{"plan_date": "tomorrow", "playbook_id": playbook.ID, "content_markdown": "Long above 5010"} {
		if got := formValue(doc, field); got != want {
			t.Errorf("%s typed %q comes back as %q", field, want, got)
		}
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trading_plans`); n != 0 {
		t.Fatalf("a refused form wrote %d plans", n)
	}

	good := url.Values{"csrf": {csrf}, "title": {"Plan for 2026-02-06"}, "plan_date": {"2026-02-06"}, "playbook_id": {playbook.ID},
		"content_markdown": {"Long above 5010"}}
	if w := b.send(t, "POST", "/journal/trading-plans", good, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/journal/trading-plans?saved=1" {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	plans := decode[listBody[db.TradingPlan]](t, must200(t, e.testServer, "/api/v1/trading-plans", e.key)).Data
	if len(plans) != 1 || plans[0].Title != "Plan for 2026-02-06" || plans[0].PlanDate == nil || *plans[0].PlanDate != "2026-02-06" ||
		plans[0].PlaybookID == nil || *plans[0].PlaybookID != playbook.ID || plans[0].ContentMarkdown != "Long above 5010" {
		t.Fatalf("the API reads the form's plan as %+v", plans)
	}
	p := plans[0]
	if link := find(b.page(t, "/journal"), byAttr("data-today", "tomorrow")); len(link) != 1 ||
		attr(link[0], "href") != "/journal/trading-plans/"+p.ID+"/edit" {
		t.Errorf("the journal's plan for tomorrow, once written: %v", link)
	}
	if rows := find(b.page(t, "/journal"), byAttr("data-record", p.ID)); len(rows) != 1 || !strings.Contains(nodeText(rows[0]), "Opening drive") {
		t.Errorf("the journal lists the plan as %v", texts(rows))
	}

	// An emptied title is refused, not left as it was unsaid.
	good.Set("title", "")
	if w := b.send(t, "POST", "/journal/trading-plans/"+p.ID, good, ""); w.Code != http.StatusBadRequest ||
		reasonOf(parseHTML(t, w.Body.String()), "title") != "Title is required" {
		t.Errorf("an emptied title: %d %q", w.Code, reasonOf(parseHTML(t, w.Body.String()), "title"))
	}
	good.Set("plan_date", "")
	good.Set("title", "The opening drive plan")
	if w := b.send(t, "POST", "/journal/trading-plans/"+p.ID, good, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("edit: %d %s", w.Code, w.Body)
	}
	p = decode[struct{ Data db.TradingPlan }](t, must200(t, e.testServer, "/api/v1/trading-plans/"+p.ID, e.key)).Data
	if p.PlanDate != nil || p.Title != "The opening drive plan" || p.PlaybookID == nil {
		t.Errorf("after the edit: %+v", p)
	}

	confirm := b.page(t, "/journal/trading-plans/"+p.ID+"/delete")
	if title := find(confirm, byAttr("id", "confirm-title")); len(title) != 1 || nodeText(title[0]) != `Delete the trading plan "The opening drive plan"?` {
		t.Errorf("the confirm step's title: %v", texts(title))
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trading_plans`); n != 1 {
		t.Fatal("the confirm step deleted the plan")
	}
	if w := b.send(t, "POST", "/journal/trading-plans/"+p.ID+"/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trading_plans`); n != 0 {
		t.Error("the plan is still there")
	}
}

// TestJournalFormsRefuseTheReadOnlyAndStrangers: a read-only session sees
// the journal without a New, Edit or Delete, and its posts and forms are
// refused; another user's report cards, plans, write-ups and chart books
// are a 404 on every page and post; a post without the session's token is
// stale.
func TestJournalFormsRefuseTheReadOnlyAndStrangers(t *testing.T) {
	e := newTradeEnv(t)
	card := decode[struct{ Data db.ReportCard }](t, must201(t, e.testServer, "/api/v1/report-cards", e.key, `{"report_date": "2026-02-05", "grade": 3}`)).Data
	plan := decode[struct{ Data db.TradingPlan }](t, must201(t, e.testServer, "/api/v1/trading-plans", e.key, `{"title": "Alice's plan"}`)).Data
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 1@5000", "sell 1@5004")))
	writeUp := decode[struct{ Data db.WriteUp }](t, must201(t, e.testServer, "/api/v1/write-ups", e.key, `{"trade_id": "`+tr.ID+`"}`)).Data
	book := decode[struct{ Data db.ChartBook }](t, must201(t, e.testServer, "/api/v1/chart-books", e.key, `{"title": "Alice's book"}`)).Data
	records := map[string]string{"/journal/report-cards": card.ID, "/journal/trading-plans": plan.ID, "/journal/write-ups": writeUp.ID,
		"/journal/chart-books": book.ID}

	_, readKey := e.newKey(t, "alice", "read", false)
	reader := &browser{ts: e.testServer}
	reader.signIn(t, readKey)
	for _, target := range []string{"/journal", "/journal/report-cards", "/journal/trading-plans", "/journal/write-ups", "/journal/chart-books"} {
		page := reader.page(t, target)
		if links := find(page, func(n *html.Node) bool {
			return hasAttr(n, "data-new") || hasAttr(n, "data-edit") || hasAttr(n, "data-delete") || hasAttr(n, "data-today")
		}); len(links) != 0 {
			t.Errorf("a read-only session sees %d journal links on %s", len(links), target)
		}
	}
	if rows := find(reader.page(t, "/journal"), byAttr("data-record", card.ID)); len(rows) != 1 {
		t.Error("a read-only session does not see the report card")
	}
	csrf := csrfOf(t, reader, "/journal")
	for path, id := range records {
		for _, target := range []string{path, path + "/" + id, path + "/" + id + "/delete"} {
			if w := reader.send(t, "POST", target, url.Values{"csrf": {csrf}, "report_date": {"2026-02-06"}, "title": {"X"}}, ""); w.Code != http.StatusForbidden {
				t.Errorf("a read-only POST %s: %d, want 403", target, w.Code)
			}
		}
		for _, target := range []string{path + "/new", path + "/" + id + "/edit", path + "/" + id + "/delete"} {
			if w := reader.send(t, "GET", target, nil, ""); w.Code != http.StatusForbidden {
				t.Errorf("a read-only GET %s: %d, want 403", target, w.Code)
			}
		}
	}

	_, bobKey := e.newUser(t, "bob")
	bob := &browser{ts: e.testServer}
	bob.signIn(t, bobKey)
	bobCSRF := csrfOf(t, bob, "/journal")
	before := tableCounts(t, e)
	for path, id := range records {
		for _, tt := range []struct{ method, target string }{
			{"GET", path + "/" + id + "/edit"}, {"POST", path + "/" + id},
			{"GET", path + "/" + id + "/delete"}, {"POST", path + "/" + id + "/delete"},
		} {
			var form url.Values
			if tt.method == "POST" {
				form = url.Values{"csrf": {bobCSRF}, "report_date": {"2026-02-06"}, "title": {"Bob's"}}
			}
			if w := bob.send(t, tt.method, tt.target, form, ""); w.Code != http.StatusNotFound {
				t.Errorf("bob's %s %s: %d, want 404", tt.method, tt.target, w.Code)
			}
		}
		if w := bob.send(t, "POST", path, url.Values{"report_date": {"2026-02-06"}, "title": {"Bob's"}}, ""); w.Code != http.StatusForbidden {
			t.Errorf("a post to %s without its token: %d, want 403", path, w.Code)
		}
	}
	if after := tableCounts(t, e); after != before {
		t.Errorf("bob's and tokenless posts changed the journal:\nbefore %s\nafter  %s", before, after)
	}
}

// journalTag makes a tag of alice's, in a group of its own, and returns
// its id.
func journalTag(t *testing.T, e *tradeEnv, name string) string {
	t.Helper()
	group := decode[struct{ TagGroup db.TagGroup }](t, must201(t, e.testServer, "/api/v1/tags", e.key,
		`{"type": "tag_group", "name": "`+name+` group", "color": "#12AB34"}`)).TagGroup
	return decode[struct{ Tag db.Tag }](t, must201(t, e.testServer, "/api/v1/tags", e.key,
		fmt.Sprintf(`{"type": "tag", "tag_group_id": %q, "name": %q}`, group.ID, name))).Tag.ID
}

// must200put puts body to target and fails unless the answer is a 200.
func must200put(t *testing.T, e *tradeEnv, target, body string) {
	t.Helper()
	if status, b := e.do(t, "PUT", target, e.key, body); status != http.StatusOK {
		t.Fatalf("PUT %s %s: %d %s", target, body, status, b)
	}
}

// formValue is what a record form shows in its field name: an input's
// value, a textarea's text, a select's chosen option.
func formValue(doc *html.Node, name string) string {
	nodes := find(doc, byAttr("id", "f-"+name))
	if len(nodes) != 1 {
		return fmt.Sprintf("<%d fields f-%s>", len(nodes), name)
	}
	switch n := nodes[0]; n.Data {
	case "textarea":
		return nodeText(n)
	case "select":
		for _, o := range find(n, func(o *html.Node) bool { return o.Data == "option" && hasAttr(o, "selected") }) {
			return attr(o, "value")
		}
		return ""
	default:
		return attr(n, "value")
	}
}

// reasonOf is the reason a record form shows beside its field name.
func reasonOf(doc *html.Node, name string) string {
	nodes := find(doc, byAttr("data-field-error", name))
	if len(nodes) != 1 {
		return ""
	}
	return nodeText(nodes[0])
}

// checked reports whether a record form's checks field name has value
// ticked.
func checked(doc *html.Node, name, value string) bool {
	return slices.ContainsFunc(find(doc, byAttr("name", name)), func(n *html.Node) bool {
		return attr(n, "type") == "checkbox" && attr(n, "value") == value && hasAttr(n, "checked")
	})
}

// TestJournalPages: the journal shows each kind's newest ten, newest
// first, and links its whole list, which pages by fifty.
func TestJournalPages(t *testing.T) {
	e := newTradeEnv(t)
	var ids []string
	for i := range 52 {
		c := decode[struct{ Data db.ReportCard }](t, must201(t, e.testServer, "/api/v1/report-cards", e.key,
			fmt.Sprintf(`{"report_date": "2026-01-%02d"}`, i%28+1))).Data
		ids = append(ids, c.ID)
	}
	slices.Reverse(ids) // newest first
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	rowsOf := func(doc *html.Node) []string {
		var out []string
		for _, n := range find(doc, withAttr("data-record")) {
			out = append(out, attr(n, "data-record"))
		}
		return out
	}
	journal := b.page(t, "/journal")
	if got := rowsOf(journal); !slices.Equal(got, ids[:10]) {
		t.Errorf("the journal lists %d report cards, want the newest 10 in order", len(got))
	}
	if all := find(journal, func(n *html.Node) bool { return n.Data == "a" && nodeText(n) == "All 52" }); len(all) != 1 ||
		attr(all[0], "href") != "/journal/report-cards" {
		t.Errorf("the journal's link to all report cards: %v", texts(all))
	}
	first := b.page(t, "/journal/report-cards")
	if got := rowsOf(first); !slices.Equal(got, ids[:50]) {
		t.Errorf("the first page lists %d, want the newest 50", len(got))
	}
	older := find(first, func(n *html.Node) bool { return n.Data == "a" && nodeText(n) == "Older" })
	if len(older) != 1 {
		t.Fatal("the first page has no Older link")
	}
	second := b.page(t, attr(older[0], "href"))
	if got := rowsOf(second); !slices.Equal(got, ids[50:]) {
		t.Errorf("the second page lists %v, want the oldest 2", got)
	}
	if newer := find(second, func(n *html.Node) bool { return n.Data == "a" && nodeText(n) == "Newer" }); len(newer) != 1 ||
		attr(newer[0], "href") != "/journal/report-cards?offset=0&limit=50" {
		t.Errorf("the second page's Newer link: %v", newer)
	}
}
