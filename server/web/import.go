package web

import (
	"errors"
	"net/http"

	"tradejournal/server/upload"

	"tradejournal/db"
	"tradejournal/db/brokers"
	"tradejournal/server/input"
)

// importPage is the import page's data.
type importPage struct {
	pageData
	Accounts       accountList
	Formats        []string
	Imports        []db.Import
	Preview        *db.Import
	Undo           *undoConfirm // an undo that needs confirming
	CanEdit        bool         // the session may import and undo
	Message, Error string
}

// handleImportPage shows the upload form and the history of imports, each
// with its undo.
func (s *Pages) handleImportPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	q := r.URL.Query()
	var msg string
	switch {
	case q.Has("done"):
		msg = "Imported."
	case q.Has("undone"):
		msg = "The import was undone: its fills, and the trades only it made, are gone."
	}
	s.renderImport(w, r, sess, http.StatusOK, importPage{Message: msg})
}

func (s *Pages) renderImport(w http.ResponseWriter, r *http.Request, sess *db.Session, status int, p importPage) {
	var err error
	p.pageData = pageData{Session: sess, Nav: "import"}
	p.CanEdit = sess.Can("trades:write")
	p.Formats = append([]string{"auto"}, brokers.Formats...)
	if p.Accounts, err = s.accounts(r.Context(), sess.UserID); err == nil {
		p.Imports, _, err = s.db.Imports(r.Context(), sess.UserID, db.Page{Limit: 20})
	}
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	s.render(w, r, status, "import", p)
}

// handleImportPost previews (?preview: a dry run) or imports an uploaded
// file through the API's own form reading and db.Import. The form streams:
// its first part must be the CSRF token, checked before the file is read.
func (s *Pages) handleImportPost(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	mr, release, err := s.uploadForm(w, r, sess)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	defer release()
	in, err := upload.ImportForm(mr, &sess.Principal)
	if err == nil {
		in.DryRun = r.URL.Query().Has("preview")
		var imp db.Import
		if imp, err = s.db.Import(r.Context(), sess.UserID, in); err == nil {
			if !in.DryRun {
				http.Redirect(w, r, "/import?done="+*imp.ID, http.StatusSeeOther)
				return
			}
			s.renderPreview(w, r, sess, imp)
			return
		}
	}
	s.formProblem(w, r, sess, err, func(status int, problem string) {
		if r.Header.Get("X-Fragment") == "preview" {
			s.renderPart(w, r, status, "import", "problem", problem)
			return
		}
		s.renderImport(w, r, sess, status, importPage{Error: problem})
	})
}

// renderPreview answers a dry run: the preview alone for the page's script
// (X-Fragment), else the page with the preview under the form.
func (s *Pages) renderPreview(w http.ResponseWriter, r *http.Request, sess *db.Session, imp db.Import) {
	if r.Header.Get("X-Fragment") != "preview" {
		s.renderImport(w, r, sess, http.StatusOK, importPage{Preview: &imp})
		return
	}
	s.renderPart(w, r, http.StatusOK, "import", "preview", imp)
}

// undoConfirm is the confirm step of an undo that deletes review work.
type undoConfirm struct {
	ImportID, Message string
}

// handleImportUndo undoes an import as DELETE /imports/{id} does. An import
// whose trades carry review work is not undone at once: the page asks
// first, naming what goes, and the confirm's post (force=1) undoes it as
// DELETE ?force=true does.
func (s *Pages) handleImportUndo(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	id, err := input.PathID(r, "Import")
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	_, err = s.db.DeleteImport(r.Context(), sess.UserID, id, r.PostFormValue("force") == "1")
	var conflict *db.ConflictError
	if errors.As(err, &conflict) && conflict.Override == "force" {
		s.renderImport(w, r, sess, http.StatusConflict, importPage{Undo: &undoConfirm{ImportID: id,
			Message: conflict.Message + ", with their ratings, notes, tags and checklists."}})
		return
	}
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	http.Redirect(w, r, "/import?undone=1", http.StatusSeeOther)
}
