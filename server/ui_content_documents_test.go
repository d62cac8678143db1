package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"tradejournal/db"
)

// TestDocumentForms: a document is renamed and recategorised from its
// form, refused with the API's reasons in the form's words and what was
// typed kept; its page shows what it is linked to and replaces its file
// (the token first), keeping its name, category and links; a refused file
// is said there and changes nothing; the delete names every kind of
// record it is unlinked from, changes nothing until its post, then
// deletes the document and its file, leaving the records.
func TestDocumentForms(t *testing.T) {
	e := newTradeEnv(t)
	doc := e.uploadPDF(t, "payout.pdf")
	if status, body := e.do(t, "POST", "/api/v1/trades", e.key, e.tradeBody("ESH6", "long",
		fills(2.5, "buy 1@5000", "sell 1@5004")+`, "document_ids": ["`+doc+`"]`)); status != http.StatusCreated {
		t.Fatalf("trade: %d %s", status, body)
	}
	must201(t, e.testServer, "/api/v1/chart-books", e.key, `{"title": "Payouts", "document_ids": ["`+doc+`"]}`)
	p := e.payout(t, `{"account_id": "`+e.accountID+`", "total_amount": 500, "document_ids": ["`+doc+`"]}`)
	e.expense(t, `{"account_id": "`+e.accountID+`", "amount": 150, "category": "evaluation", "document_ids": ["`+doc+`"]}`)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)

	row := find(b.page(t, "/documents"), byAttr("data-document", doc))
	if len(row) != 1 || len(find(row[0], byAttr("href", "/documents/"+doc))) != 1 || len(find(row[0], byAttr("href", "/documents/"+doc+"/edit"))) != 1 ||
		len(find(row[0], byAttr("href", "/documents/"+doc+"/delete"))) != 1 {
		t.Fatal("the documents page does not link the document's page, edit and delete")
	}
	page := b.page(t, "/documents/"+doc)
	if links := find(page, withAttr("data-links")); len(links) != 1 || nodeText(links[0]) != "1 trade, 1 chart book, 1 payout, 1 expense" {
		t.Errorf("the document's page says it is linked to %v", texts(links))
	}

	// The edit: the API's reasons, in the form's words.
	csrf := csrfOf(t, b, "/documents/"+doc+"/edit")
	long := strings.Repeat("n", 201)
	status, body := e.do(t, "PUT", "/api/v1/documents/"+doc, e.key, `{"document_name": "`+long+`"}`)
	apiReason := decode[struct {
		Error struct {
			Code, Message string
			Details       map[string]string
		}
	}](t, body).Error.Details["document_name"]
	w := b.send(t, "POST", "/documents/"+doc, url.Values{"csrf": {csrf}, "document_name": {long}, "category": {"receipt"}}, "")
	if w.Code != http.StatusBadRequest || status != http.StatusBadRequest {
		t.Fatalf("a name too long: the page %d, the API %d", w.Code, status)
	}
	form := parseHTML(t, w.Body.String())
	if got, want := reasonOf(form, "document_name"), "Name "+strings.TrimPrefix(apiReason, "document_name "); got != want || want == "Name " {
		t.Errorf("the name's reason: %q, want the API's %q in the form's words", got, apiReason)
	}
	if formValue(form, "document_name") != long || formValue(form, "category") != "receipt" {
		t.Error("what was typed is gone")
	}
	w = b.send(t, "POST", "/documents/"+doc, url.Values{"csrf": {csrf}, "document_name": {" "}, "category": {"receipt"}}, "")
	if got := reasonOf(parseHTML(t, w.Body.String()), "document_name"); w.Code != http.StatusBadRequest || got != "Name is required" {
		t.Errorf("an emptied name: %d %q", w.Code, got)
	}
	w = b.send(t, "POST", "/documents/"+doc, url.Values{"csrf": {csrf}, "document_name": {"  March payout "}, "category": {"receipt"}}, "")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/documents?saved=1" {
		t.Fatalf("edit: %d %s", w.Code, w.Body)
	}
	got := decode[struct{ Data docJSON }](t, must200(t, e.testServer, "/api/v1/documents/"+doc, e.key)).Data
	if got.DocumentName != "March payout" || got.Category != "receipt" {
		t.Errorf("after the edit the API reads %+v", got)
	}

	// The file's replacement: the token first, the file last.
	replace := find(page, byAttr("id", "replace"))
	if len(replace) != 1 || attr(replace[0], "action") != "/documents/"+doc+"/file" || attr(replace[0], "enctype") != "multipart/form-data" {
		t.Fatalf("the document's page has no replace form: %v", replace)
	}
	if inputs := find(replace[0], func(n *html.Node) bool { return n.Data == "input" }); len(inputs) < 2 || attr(inputs[0], "name") != "csrf" ||
		attr(inputs[len(inputs)-1], "type") != "file" {
		t.Error("the replace form's token is not its first part, or its file not its last")
	}
	fields := [][2]string{{"csrf", csrf}, {"replace", "true"}, {"document_id", doc}}
	before := e.storeFiles(t, "sha256")
	w = b.postMultipart(t, "/documents/"+doc+"/file", fields, "notes.txt", "just text", nil)
	if w.Code != http.StatusBadRequest || !strings.Contains(nodeText(parseHTML(t, w.Body.String())), "file must be a JPEG, PNG, WebP or PDF") {
		t.Errorf("a text file: %d, want 400 saying which types", w.Code)
	}
	if w := b.postMultipart(t, "/documents/"+doc+"/file", [][2]string{{"replace", "true"}, {"csrf", csrf}}, "c.png", string(testdata(t, "certificate.png")), nil); w.Code != http.StatusForbidden {
		t.Errorf("a replace whose token is not first: %d, want 403", w.Code)
	}
	if got := decode[struct{ Data docJSON }](t, must200(t, e.testServer, "/api/v1/documents/"+doc, e.key)).Data; got.MIMEType != "application/pdf" {
		t.Fatalf("refused replacements changed the file: %+v", got)
	}
	e.noTempFiles(t)
	w = b.postMultipart(t, "/documents/"+doc+"/file", fields, "certificate.png", string(testdata(t, "certificate.png")), nil)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/documents/"+doc+"?replaced=1" {
		t.Fatalf("replace: %d %s", w.Code, w.Body)
	}
	got = decode[struct{ Data docJSON }](t, must200(t, e.testServer, "/api/v1/documents/"+doc, e.key)).Data
	if got.MIMEType != "image/png" || got.FileName != "certificate.png" || got.DocumentName != "March payout" || got.Category != "receipt" {
		t.Errorf("after the replacement the API reads %+v", got)
	}
	if after := e.storeFiles(t, "sha256"); len(after) != len(before) {
		t.Errorf("the store holds %d files after the replacement, want %d: the old file goes", len(after), len(before))
	}
	if links := find(b.page(t, "/documents/"+doc+"?replaced=1"), withAttr("data-links")); len(links) != 1 || nodeText(links[0]) != "1 trade, 1 chart book, 1 payout, 1 expense" {
		t.Errorf("after the replacement the document is linked to %v", texts(links))
	}

	// The delete asks first, naming each kind of record it unlinks.
	confirm := b.page(t, "/documents/"+doc+"/delete")
	want := "unlinks it from 1 trade (they stay); unlinks it from 1 chart book (they stay); unlinks it from 1 payout (they stay); unlinks it from 1 expense (they stay)"
	if got := strings.Join(consequences(confirm), "; "); got != want {
		t.Errorf("the confirm step lists %q", got)
	}
	if title := find(confirm, byAttr("id", "confirm-title")); len(title) != 1 || nodeText(title[0]) != `Delete the document "March payout" (certificate.png)?` {
		t.Errorf("the confirm step's title: %v", texts(title))
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM documents`); n != 1 {
		t.Fatal("the confirm step deleted the document")
	}
	if w := b.send(t, "POST", "/documents/"+doc+"/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/documents?deleted=1" {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	if status, _ := e.do(t, "GET", "/api/v1/documents/"+doc, e.key, ""); status != http.StatusNotFound {
		t.Errorf("the deleted document: %d, want 404", status)
	}
	if files := e.storeFiles(t, "sha256"); len(files) != 0 {
		t.Errorf("the deleted document's file is still stored: %v", files)
	}
	if pay := decode[struct{ Data db.Payout }](t, must200(t, e.testServer, "/api/v1/payouts/"+p.ID, e.key)).Data; len(pay.DocumentIDs) != 0 {
		t.Errorf("the payout still links the deleted document: %v", pay.DocumentIDs)
	}
	for _, table := range []string{"trades", "chart_books", "payouts", "expenses"} {
		if n := count(t, e.sql(t), `SELECT count(*) FROM `+table); n != 1 {
			t.Errorf("%d %s after the document's delete, want 1", n, table)
		}
	}
}

// TestDocumentFormsRefuseTheReadOnlyAndStrangers: a read-only session sees
// a document's page without its forms and links, and its posts are
// refused; another user's document is a 404 on every page and post; a
// post without the token is stale; nothing changes.
func TestDocumentFormsRefuseTheReadOnlyAndStrangers(t *testing.T) {
	e := newTradeEnv(t)
	doc := e.uploadPDF(t, "payout.pdf")
	_, readKey := e.newKey(t, "alice", "read", false)
	reader := &browser{ts: e.testServer}
	reader.signIn(t, readKey)
	_, bobKey := e.newUser(t, "bob")
	bob := &browser{ts: e.testServer}
	bob.signIn(t, bobKey)
	writer := &browser{ts: e.testServer}
	writer.signIn(t, e.key)
	csrf, bobCSRF := csrfOf(t, reader, "/documents"), csrfOf(t, bob, "/documents")
	before := tableCounts(t, e)

	for _, target := range []string{"/documents", "/documents/" + doc} {
		page := reader.page(t, target)
		if n := find(page, func(n *html.Node) bool {
			return hasAttr(n, "data-edit") || hasAttr(n, "data-delete") || attr(n, "id") == "replace" || attr(n, "id") == "upload"
		}); len(n) != 0 {
			t.Errorf("a read-only session sees %d forms or links on %s", len(n), target)
		}
	}
	for _, target := range []string{"/documents/" + doc, "/documents/" + doc + "/delete"} {
		if w := reader.send(t, "POST", target, url.Values{"csrf": {csrf}, "document_name": {"X"}}, ""); w.Code != http.StatusForbidden {
			t.Errorf("a read-only POST %s: %d, want 403", target, w.Code)
		}
	}
	if w := reader.postMultipart(t, "/documents/"+doc+"/file", [][2]string{{"csrf", csrf}}, "p.pdf", string(samplePDF(t)), nil); w.Code != http.StatusForbidden {
		t.Errorf("a read-only replacement: %d, want 403", w.Code)
	}
	for _, target := range []string{"/documents/" + doc + "/edit", "/documents/" + doc + "/delete"} {
		if w := reader.send(t, "GET", target, nil, ""); w.Code != http.StatusForbidden {
			t.Errorf("a read-only GET %s: %d, want 403", target, w.Code)
		}
	}

	for _, tt := range []struct{ method, target string }{
		{"GET", "/documents/" + doc}, {"GET", "/documents/" + doc + "/edit"}, {"POST", "/documents/" + doc},
		{"GET", "/documents/" + doc + "/delete"}, {"POST", "/documents/" + doc + "/delete"},
	} {
		var form url.Values
		if tt.method == "POST" {
			form = url.Values{"csrf": {bobCSRF}, "document_name": {"Bob's"}, "category": {"receipt"}}
		}
		if w := bob.send(t, tt.method, tt.target, form, ""); w.Code != http.StatusNotFound {
			t.Errorf("bob's %s %s: %d, want 404", tt.method, tt.target, w.Code)
		}
	}
	if w := bob.postMultipart(t, "/documents/"+doc+"/file", [][2]string{{"csrf", bobCSRF}}, "p.pdf", string(samplePDF(t)), nil); w.Code != http.StatusNotFound {
		t.Errorf("bob's replacement of alice's file: %d, want 404", w.Code)
	}
	if w := writer.send(t, "POST", "/documents/"+doc+"/delete", url.Values{}, ""); w.Code != http.StatusForbidden {
		t.Errorf("alice's delete without its token: %d, want 403", w.Code)
	}
	if after := tableCounts(t, e); after != before {
		t.Errorf("refused posts changed the journal:\nbefore %s\nafter  %s", before, after)
	}
	if d := decode[struct{ Data docJSON }](t, must200(t, e.testServer, "/api/v1/documents/"+doc, e.key)).Data; d.DocumentName != "Payout March" || d.MIMEType != "application/pdf" {
		t.Errorf("the document after refused posts: %+v", d)
	}
	e.noTempFiles(t)
}

// withAttr matches elements that have the attribute name.
func withAttr(name string) func(*html.Node) bool {
	return func(n *html.Node) bool { return hasAttr(n, name) }
}
