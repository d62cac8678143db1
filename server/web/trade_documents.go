package web

import (
	"net/http"
	"time"

	"tradejournal/db"
	"tradejournal/server/input"
	"tradejournal/server/problem"
	"tradejournal/server/upload"
)

// handleTradeDocumentPost attaches a file (a chart screenshot) to a trade:
// the form streams as the documents page's does, its CSRF token first,
// then its trade_id, which must be the page's trade, then the file. The
// trade page's script posts the same form for a pasted or dropped image
// and asks for the screenshots alone (X-Fragment: documents).
func (s *Pages) handleTradeDocumentPost(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	id, form, release, err, ok := s.pathUpload(w, r, sess, "Trade")
	if !ok {
		return
	}
	defer release()
	if err == nil {
		if form.Field("trade_id") != id {
			form.Discard()
			err = input.Invalid("trade_id", "trade_id must be the trade of the page")
		} else {
			if form.Field("document_name") == "" {
				form.SetField("document_name", "Chart "+time.Now().In(s.zone(sess.Timezone)).Format("2006-01-02 15:04"))
			}
			_, _, err = s.docs.Store(r.Context(), sess.UserID, form)
		}
	}
	fragment := r.Header.Get("X-Fragment") == "documents"
	if err != nil {
		e := problem.Answer(w, r, s.log, err)
		if e.Status >= 500 || !fragment {
			s.renderError(w, r, sess, e)
			return
		}
		s.renderPart(w, r, e.Status, "trade", "problem", importProblemText(e))
		return
	}
	if !fragment {
		http.Redirect(w, r, "/trades/"+id+"?attached=1#screenshots", http.StatusSeeOther)
		return
	}
	t, err := s.db.Trade(r.Context(), sess.UserID, id)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	s.renderPart(w, r, http.StatusOK, "trade", "screenshots", tradePage{pageData: pageData{Session: sess}, Trade: t,
		Documents: s.pageLinks(s.docs.PresentTrade(t.Documents)), CanAttach: true})
}

// pathUpload opens a page's file upload whose path names a record of
// kind: the record's id, its form as read (err says why it did not read)
// and the release of its upload slot, for the caller to defer. When the
// path or the upload's opening fails, the error page is the answer and ok
// is false.
func (s *Pages) pathUpload(w http.ResponseWriter, r *http.Request, sess *db.Session, kind string) (id string, form *upload.Form, release func(), err error, ok bool) {
	if id, err = input.PathID(r, kind); err != nil {
		s.errorPage(w, r, sess, err)
		return "", nil, nil, nil, false
	}
	mr, release, err := s.uploadForm(w, r, sess)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return "", nil, nil, nil, false
	}
	form, err = s.docs.ReadForm(mr)
	return id, form, release, err, true
}
