package web

import (
	"cmp"
	"errors"
	"maps"
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"tradejournal/server/problem"
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
	Preview        *importPreview
	Undo           *undoConfirm // an undo that needs confirming
	CanEdit        bool         // the session may import and undo
	Message, Error string
	// Map maps the columns of a kept file (DESIGN §14) in place of the
	// upload form; MapUpload is the id of a file just kept because no
	// format or mapping reads it, for the error's "map its columns".
	Map       *mapForm
	MapUpload string
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
	case q.Has("mapped"):
		msg = "The mapping " + q.Get("mapped") + " is saved: a file with this header now imports with Format auto."
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
	mappings, err := s.db.BrokerMappings(r.Context(), sess.UserID)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	mr, release, err := s.uploadForm(w, r, sess)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	defer release()
	in, imp, unread, err := s.importUpload(w, r, sess, mr, mappings)
	if err == nil {
		if !in.DryRun {
			http.Redirect(w, r, "/import?done="+*imp.ID, http.StatusSeeOther)
			return
		}
		s.renderPreview(w, r, sess, importPreview{imp, in.CreateAccounts})
		return
	}
	e := problem.Answer(w, r, s.log, err)
	if e.Status >= 500 && e.Status != http.StatusServiceUnavailable {
		s.renderError(w, r, sess, e)
		return
	}
	// A busy server (or a full disk) is said beside the form, which keeps
	// the trader's choices for the retry.
	p := importPage{Error: importProblemText(e)}
	if unread != nil {
		// No format or mapping reads it: keep it while its columns are mapped.
		if p.MapUpload, err = s.db.CreateImportUpload(r.Context(), sess.UserID, unread.FileName, unread.Content); err != nil {
			s.errorPage(w, r, sess, err)
			return
		}
	}
	if r.Header.Get("X-Fragment") == "preview" {
		s.renderPart(w, r, e.Status, "import", "problem", p)
		return
	}
	s.renderImport(w, r, sess, e.Status, p)
}

// importUpload reads the form's file and imports it (a dry run for
// ?preview), holding one of the import slots: a third import at once is
// refused with the 503 the API answers. A file no format or mapping reads
// comes back unread, for the page to keep while its columns are mapped.
func (s *Pages) importUpload(w http.ResponseWriter, r *http.Request, sess *db.Session, mr *multipart.Reader, mappings []brokers.Mapping) (db.ImportInput, db.Import, *upload.Unread, error) {
	done, ok := s.uploads.StartImport()
	if !ok {
		return db.ImportInput{}, db.Import{}, nil, s.uploads.ImportsBusy(w)
	}
	defer done()
	in, unread, err := upload.ImportFormKeeping(mr, &sess.Principal, mappings)
	if err != nil {
		return in, db.Import{}, unread, err
	}
	in.DryRun = r.URL.Query().Has("preview")
	imp, err := s.db.Import(r.Context(), sess.UserID, in)
	return in, imp, nil, err
}

// importLabels are the import form's labels of the API's fields.
var importLabels = map[string]string{"account_id": "Account", "format": "Format", "date_order": "Date order",
	"decimal": "Decimal mark", "timezone": "Timezone", "file": "File", "body": "The upload"}

// importProblemText is a refused import in the page's words: the form's
// fields by their labels, and each bad row of the file by its line and
// column ("Line 12, Account: ...") rather than the API's rows[12].Account.
func importProblemText(e *problem.Problem) string {
	rows := map[string]string{}
	other := &problem.Problem{Status: e.Status, Code: e.Code, Message: e.Message, Details: map[string]string{}}
	for path, reason := range e.Details {
		if rest, ok := strings.CutPrefix(path, "rows["); ok {
			if line, column, ok := strings.Cut(rest, "]."); ok {
				rows[path] = "Line " + line + ", " + column + ": " + reason
				continue
			}
		}
		other.Details[path] = reason
	}
	text := formProblemText(other, importLabels)
	if len(other.Details) == 0 {
		text = e.Message
	}
	for _, path := range slices.SortedFunc(maps.Keys(rows), byRowLine) {
		text += ". " + rows[path]
	}
	return text
}

// byRowLine orders rows[N].Column paths by N, then column.
func byRowLine(a, b string) int {
	line := func(p string) int {
		n, _ := strconv.Atoi(strings.TrimPrefix(p[:strings.IndexByte(p, ']')], "rows["))
		return n
	}
	if c := cmp.Compare(line(a), line(b)); c != 0 {
		return c
	}
	return strings.Compare(a, b)
}

// importPreview is a dry run as the page shows it, and whether it would
// create the accounts it names.
type importPreview struct {
	db.Import
	Creating bool
}

// renderPreview answers a dry run: the preview alone for the page's script
// (X-Fragment), else the page with the preview under the form.
func (s *Pages) renderPreview(w http.ResponseWriter, r *http.Request, sess *db.Session, imp importPreview) {
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
