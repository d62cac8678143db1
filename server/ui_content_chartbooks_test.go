package server_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"tradejournal/db"
)

// TestChartBookForms: a chart book gathers the user's documents, ticked
// on its form in the order they are to be kept; a refused form keeps what
// was typed and ticked; another user's document is refused beside the
// field; one saved is the API's, its documents in the form's order, which
// the edit form shows first so that saving keeps it; the delete names the
// documents and tags it unlinks, which stay.
func TestChartBookForms(t *testing.T) {
	e := newTradeEnv(t)
	first := e.mustUpload(t, e.key, []part{field("csrf", ""), field("document_name", "Entry"), field("category", "receipt"),
		field("account_number", "APEX-1"), filePart("entry.png", testdata(t, "certificate.png"))}, http.StatusCreated).ID
	second := e.uploadPDF(t, "exit.pdf")
	playbook := e.createPlaybook(t, e.key, `{"title": "Opening drive"}`)
	tag := journalTag(t, e, "A+")
	_, bobKey := e.newUser(t, "bob")
	e.createAccount(t, bobKey, `{"account_number": "BOB-1"}`)
	bobDoc := e.mustUpload(t, bobKey, form("BOB-1", filePart("bob.pdf", samplePDF(t))), http.StatusCreated).ID
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)

	page := b.page(t, "/journal/chart-books/new")
	if boxes := checkboxes(page, "document_ids"); !slices.Equal(boxes, []string{second, first}) {
		t.Errorf("the new form offers documents %v, want the newest first", boxes)
	}
	csrf := csrfOf(t, b, "/journal/chart-books/new")

	bad := url.Values{"csrf": {csrf}, "title": {""}, "description": {"Best opening drives"}, "playbook_id": {playbook.ID},
		"document_ids": {"", first, second}, "tag_ids": {"", tag}}
	w := b.send(t, "POST", "/journal/chart-books", bad, "")
	if w.Code != http.StatusBadRequest {
		t.Fatalf("a bad chart book: %d %s", w.Code, w.Body)
	}
	doc := parseHTML(t, w.Body.String())
	if got := reasonOf(doc, "title"); got != "Title is required" {
		t.Errorf("the title's reason: %q", got)
	}
	if formValue(doc, "description") != "Best opening drives" || formValue(doc, "playbook_id") != playbook.ID ||
		!checked(doc, "document_ids", first) || !checked(doc, "document_ids", second) || !checked(doc, "tag_ids", tag) {
		t.Error("what was typed or ticked is gone")
	}
	bad.Set("title", "Opening drives")
	bad["document_ids"] = []string{"", first, bobDoc}
	w = b.send(t, "POST", "/journal/chart-books", bad, "")
	if got := reasonOf(parseHTML(t, w.Body.String()), "document_ids"); w.Code != http.StatusNotFound ||
		got != "Charts and documents holds a document that is not yours" {
		t.Errorf("bob's document: %d %q", w.Code, got)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM chart_books`); n != 0 {
		t.Fatalf("refused forms wrote %d chart books", n)
	}

	// Ticked first, then second: kept in that order.
	bad["document_ids"] = []string{"", first, second}
	if w := b.send(t, "POST", "/journal/chart-books", bad, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/journal/chart-books?saved=1" {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	books := decode[listBody[db.ChartBook]](t, must200(t, e.testServer, "/api/v1/chart-books", e.key)).Data
	if len(books) != 1 || books[0].Title != "Opening drives" || books[0].Description != "Best opening drives" ||
		books[0].PlaybookID == nil || *books[0].PlaybookID != playbook.ID || !slices.Equal(books[0].DocumentIDs, []string{first, second}) ||
		len(books[0].Tags) != 1 {
		t.Fatalf("the API reads the form's chart book as %+v", books)
	}
	book := books[0]
	if rows := find(b.page(t, "/journal"), byAttr("data-record", book.ID)); len(rows) != 1 ||
		!strings.Contains(nodeText(rows[0]), "Opening drive · 2 documents") {
		t.Errorf("the journal lists the chart book as %v", texts(rows))
	}

	// The edit form shows the book's order first, so that saving keeps it.
	edit := b.page(t, "/journal/chart-books/"+book.ID+"/edit")
	if boxes := checkboxes(edit, "document_ids"); !slices.Equal(boxes, []string{first, second}) {
		t.Errorf("the edit form offers documents %v, want the book's order", boxes)
	}
	if !checked(edit, "document_ids", first) || !checked(edit, "document_ids", second) {
		t.Error("the edit form does not tick the book's documents")
	}
	bad["document_ids"] = []string{"", second}
	bad.Set("playbook_id", "")
	if w := b.send(t, "POST", "/journal/chart-books/"+book.ID, bad, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("edit: %d %s", w.Code, w.Body)
	}
	book = decode[struct{ Data db.ChartBook }](t, must200(t, e.testServer, "/api/v1/chart-books/"+book.ID, e.key)).Data
	if !slices.Equal(book.DocumentIDs, []string{second}) || book.PlaybookID != nil {
		t.Errorf("after the edit: documents %v, playbook %v", book.DocumentIDs, book.PlaybookID)
	}

	confirm := b.page(t, "/journal/chart-books/"+book.ID+"/delete")
	if got := strings.Join(consequences(confirm), "; "); got != "unlinks its 1 document (the documents themselves stay); unlinks its 1 tag (the tags themselves stay)" {
		t.Errorf("the confirm step lists %q", got)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM chart_books`); n != 1 {
		t.Fatal("the confirm step deleted the chart book")
	}
	if w := b.send(t, "POST", "/journal/chart-books/"+book.ID+"/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM chart_books`); n != 0 {
		t.Error("the chart book is still there")
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM documents WHERE user_id = ?`, e.userID); n != 2 {
		t.Errorf("%d of alice's documents after the chart book's delete, want 2", n)
	}
}

// checkboxes are the values of a checks field's boxes, in the form's
// order.
func checkboxes(doc *html.Node, name string) []string {
	var out []string
	for _, n := range find(doc, byAttr("name", name)) {
		if attr(n, "type") == "checkbox" {
			out = append(out, attr(n, "value"))
		}
	}
	return out
}
