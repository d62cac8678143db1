package server

import (
	"net/http"
	"strings"

	"tradejournal/db"
	"tradejournal/server/input"
)

// handleDay answers GET /api/v1/days/{date}: the day's figures, its closed
// trades by entry time, and its journal (DESIGN §13). A bad date is a 400
// naming date; the journal's lists are null without content:read.
func (s *Server) handleDay(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	date := r.PathValue("date")
	if !input.IsDate(date) {
		s.writeError(w, r, input.Invalid("date", "date must be a date YYYY-MM-DD from 1900 to 2999"))
		return
	}
	f := input.Errors{}
	accountID := f.QueryUUID("account_id", strings.TrimSpace(r.URL.Query().Get("account_id")))
	if err := f.Err(); err != nil {
		s.writeError(w, r, err)
		return
	}
	d, err := s.db.Day(r.Context(), p.UserID, date, accountID, p.Can("content:read"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, dataBody[db.Day]{d})
}
