package web

import (
	"net/http"
	"strconv"

	"tradejournal/server/upload"

	"tradejournal/db"
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
// (images in the browser, PDFs downloaded), and, with documents:write, a
// form to upload one.
func (s *Pages) handleDocumentsPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	var msg string
	if r.URL.Query().Has("uploaded") {
		msg = "Uploaded."
	}
	s.renderDocuments(w, r, sess, http.StatusOK, documentsPage{Message: msg})
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
