package server

import (
	"net/http"

	"tradejournal/db"
	"tradejournal/server/input"
)

// Payouts and expenses (DESIGN §10): the money a prop firm paid out of an
// account, and what trading there cost.

// handlePayoutSummary answers GET /payouts/summary, optionally between two
// dates.
func (s *Server) handlePayoutSummary(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	f := input.Errors{}
	start, end := input.DateRange(f, r.URL.Query())
	if err := f.Err(); err != nil {
		s.writeError(w, r, err)
		return
	}
	summary, err := s.db.PayoutSummary(r.Context(), p.UserID, start, end)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, dataBody[db.PayoutSummary]{summary})
}
