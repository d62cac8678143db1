package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"tradejournal/server/upload"

	"tradejournal/db"
	"tradejournal/server/input"
)

// documentsPage is the documents page's data.
type documentsPage struct {
	pageData
	Documents      []upload.Document
	Accounts       accountList
	Categories     []string
	CanEdit        bool
	Message, Error string
}

// handleDocumentsPage lists the documents, each opening by its signed link
// (images in the browser, PDFs downloaded) and linking its own page, and,
// with documents:write, a form to upload one and links to edit or delete
// each.
func (s *Pages) handleDocumentsPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	s.renderDocuments(w, r, sess, http.StatusOK, documentsPage{Message: doneMessage(r.URL.Query(), "uploaded", "saved", "deleted")})
}

func (s *Pages) renderDocuments(w http.ResponseWriter, r *http.Request, sess *db.Session, status int, p documentsPage) {
	p.pageData = pageData{Session: sess, Nav: "documents"}
	p.CanEdit, p.Categories = sess.Can("documents:write"), db.DocumentCategories
	docs, _, err := s.db.Documents(r.Context(), sess.UserID, db.DocumentFilter{}, db.Page{Limit: 100})
	if err == nil {
		p.Accounts, err = s.accounts(r.Context(), sess.UserID)
	}
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	for _, d := range docs {
		p.Documents = append(p.Documents, s.docs.Present(d))
	}
	s.render(w, r, status, "documents", p)
}

// handleDocumentPost uploads a document through the API's form reading and
// Documents.Store; the form's first part must be the session's CSRF token.
func (s *Pages) handleDocumentPost(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	mr, release, err := s.uploadForm(w, r, sess)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	defer release()
	form, err := s.docs.ReadForm(mr)
	if err == nil {
		_, _, err = s.docs.Store(r.Context(), sess.UserID, form)
	}
	if err == nil {
		http.Redirect(w, r, "/documents?uploaded=1", http.StatusSeeOther)
		return
	}
	s.formProblem(w, r, sess, err, func(status int, problem string) {
		s.renderDocuments(w, r, sess, status, documentsPage{Error: problem})
	})
}

// formatSize is a file's size as a person reads it.
func formatSize(n int64) string {
	switch {
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	case n >= 1<<10:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " B"
}

// A document's own page shows it, what it is linked to, and the form that
// replaces its file; its name and category are edited on a recordPages
// form, and its delete asks first, naming what it is unlinked from.

// documentFormRoutes are a document's page, its file's replacement, its
// edit and its delete.
func (s *Pages) documentFormRoutes() []Route {
	pages := livePages[db.DocumentUpdate, db.Document]{recordPages[db.DocumentUpdate, db.Document]{
		kind: "Document", path: "/documents", nav: "documents",
		read: readDocumentForm, check: input.DocumentUpdate, values: documentValues,
		get: s.db.Document, update: s.db.UpdateDocument,
		describe: func(d db.Document) string { return strconv.Quote(d.DocumentName) },
	}, func(*http.Request, *db.Session) ([]field, error) { return documentFields, nil }}
	return append([]Route{
		{Pattern: "GET /documents/{id}", Handler: s.page("documents:read", s.handleDocumentPage)},
		{Pattern: "POST /documents/{id}/file", Handler: s.uploadPage("documents:write", s.handleDocumentReplace), API: "POST /api/v1/documents"},
	}, pages.routes(s, "documents:write", "/api/v1/documents", false, s.describeDocumentDelete, s.deleteDocument)...)
}

// documentFields are what PUT /api/v1/documents/{id} changes.
var documentFields = []field{
	{Name: "document_name", Label: "Name", Kind: "text", Required: true},
	{Name: "category", Label: "Category", Kind: "select", Choices: db.DocumentCategories, Required: true},
}

// readDocumentForm reads the document form: a field emptied is refused,
// as the API refuses it.
func readDocumentForm(r *formReader) db.DocumentUpdate {
	return db.DocumentUpdate{DocumentName: r.required("document_name"), Category: r.required("category")}
}

func documentValues(d db.Document) url.Values {
	return url.Values{"document_name": {d.DocumentName}, "category": {d.Category}}
}

// documentPage is a document's page: the document with its signed link,
// its account, what it is linked to, and, with documents:write, the form
// that replaces its file.
type documentPage struct {
	pageData
	Document       upload.Document
	Account        string
	Links          db.DocumentLinks
	CanEdit        bool
	Message, Error string
}

// LinkedTo says what the document is linked to: "2 trades, 1 payout".
func (p documentPage) LinkedTo() string {
	out := linkCounts(p.Links)
	if len(out) == 0 {
		return "Nothing"
	}
	return strings.Join(out, ", ")
}

// linkCounts are a document's links of each kind it has, counted: "2
// trades", "1 payout"; its page and its delete's confirm step word them.
func linkCounts(n db.DocumentLinks) []string {
	var out []string
	for _, c := range []struct {
		n         int
		one, many string
	}{{n.Trades, "trade", "trades"}, {n.ChartBooks, "chart book", "chart books"},
		{n.Payouts, "payout", "payouts"}, {n.Expenses, "expense", "expenses"}} {
		if c.n > 0 {
			out = append(out, count(c.n, c.one, c.many))
		}
	}
	return out
}

// handleDocumentPage shows one document.
func (s *Pages) handleDocumentPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	var msg string
	if r.URL.Query().Has("replaced") {
		msg = "Replaced: the document keeps its name, category and links, with the new file."
	}
	s.renderDocument(w, r, sess, http.StatusOK, documentPage{Message: msg})
}

func (s *Pages) renderDocument(w http.ResponseWriter, r *http.Request, sess *db.Session, status int, p documentPage) {
	ctx := r.Context()
	id, err := input.PathID(r, "Document")
	var d db.Document
	if err == nil {
		d, err = s.db.Document(ctx, sess.UserID, id)
	}
	if err == nil {
		p.Links, err = s.db.DocumentLinks(ctx, sess.UserID, id)
	}
	var accounts accountList
	if err == nil {
		accounts, err = s.accounts(ctx, sess.UserID)
	}
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	p.pageData = pageData{Session: sess, Nav: "documents"}
	p.Document, p.Account, p.CanEdit = s.docs.Present(d), accounts.Number(d.AccountID), sess.Can("documents:write")
	s.render(w, r, status, "document", p)
}

// handleDocumentReplace replaces a document's file, as the API's upload
// with replace=true and document_id does (Documents.Store): the form's
// first part must be the session's CSRF token, checked before the file is
// read; the path names the document. A refused file is said on the
// document's page.
func (s *Pages) handleDocumentReplace(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	id, form, release, err, ok := s.pathUpload(w, r, sess, "Document")
	if !ok {
		return
	}
	defer release()
	if err == nil {
		form.SetField("replace", "true")
		form.SetField("document_id", id)
		_, _, err = s.docs.Store(r.Context(), sess.UserID, form)
	}
	if err == nil {
		http.Redirect(w, r, "/documents/"+id+"?replaced=1", http.StatusSeeOther)
		return
	}
	s.formProblem(w, r, sess, err, func(status int, problem string) {
		s.renderDocument(w, r, sess, status, documentPage{Error: problem})
	})
}

// describeDocumentDelete names a document and what its delete unlinks it
// from, from the counts DeleteDocument's warnings give.
func (s *Pages) describeDocumentDelete(ctx context.Context, userID, id string) (string, []string, error) {
	d, err := s.db.Document(ctx, userID, id)
	if err != nil {
		return "", nil, err
	}
	n, err := s.db.DocumentLinks(ctx, userID, id)
	if err != nil {
		return "", nil, err
	}
	out := linkCounts(n)
	for i, c := range out {
		out[i] = "unlinks it from " + c + " (they stay)"
	}
	return "the document " + strconv.Quote(d.DocumentName) + " (" + d.FileName + ")", out, nil
}

// deleteDocument deletes a document and, when no document uses its file
// any more, the file, as the API's DELETE does; a file that cannot be
// removed is logged (check --repair removes it).
func (s *Pages) deleteDocument(ctx context.Context, userID, id string) error {
	return s.docs.Files.Exclusive(func() error {
		del, err := s.db.DeleteDocument(ctx, userID, id)
		if err == nil && del.Unused {
			s.docs.Remove(ctx, del.Blob)
		}
		return err
	})
}
