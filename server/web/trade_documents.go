package web

import (
	"net/http"
	"time"

	"tradejournal/db"
	"tradejournal/server/input"
	"tradejournal/server/problem"
)

// handleTradeDocumentPost attaches a file (a chart screenshot) to a trade:
// the form streams as the documents page's does, its CSRF token first,
// then its trade_id, which must be the page's trade, then the file. The
// trade page's script posts the same form for a pasted or dropped image
// and asks for the screenshots alone (X-Fragment: documents).
func (s *Pages) handleTradeDocumentPost(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	id, err := input.PathID(r, "Trade")
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
	form, err := s.docs.ReadForm(mr)
	if err == nil {
		if form.Field("trade_id") != id {
			form.Discard()
			err = input.Invalid("trade_id", "trade_id must be the trade of the page")
		} else {
			if form.Field("document_name") == "" {
				form.SetField("document_name", "Chart "+time.Now().In(zone(sess.Timezone)).Format("2006-01-02 15:04"))
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

// zone is the user's timezone, UTC when it does not load.
func zone(name string) *time.Location {
	if loc, err := time.LoadLocation(name); err == nil {
		return loc
	}
	return time.UTC
}
