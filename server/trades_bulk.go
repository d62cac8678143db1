package server

import (
	"net/http"

	"tradejournal/db"
	"tradejournal/server/input"
)

// tradeBulkRequest is the body of POST /trades/bulk.
type tradeBulkRequest struct {
	TradeIDs     db.Optional[[]string] `json:"trade_ids"`
	AddTagIDs    db.Optional[[]string] `json:"add_tag_ids"`
	RemoveTagIDs db.Optional[[]string] `json:"remove_tag_ids"`
	PlaybookID   db.Optional[string]   `json:"playbook_id"`
	Reviewed     db.Optional[bool]     `json:"reviewed"`
	Delete       db.Optional[bool]     `json:"delete"`
}

// handleTradeBulk changes or deletes many of the caller's trades at once,
// all or nothing, and answers 200 {"data": {updated, deleted, warnings}}.
func (s *Server) handleTradeBulk(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	b, err := decodeTradeBulk(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	res, err := s.db.BulkTrades(r.Context(), p.UserID, b)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, dataBody[db.TradeBulkResult]{res})
}

// decodeTradeBulk reads and checks a bulk body: 1 to 500 trade ids, at
// least one action, and a delete alone. An empty tag list is no action.
func decodeTradeBulk(w http.ResponseWriter, r *http.Request) (db.TradeBulk, error) {
	var req tradeBulkRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return db.TradeBulk{}, err
	}
	f := input.Errors{}
	if !req.TradeIDs.Set || req.TradeIDs.Null {
		f.Add("trade_ids", "trade_ids is required")
	}
	input.NotNull(f, "add_tag_ids", req.AddTagIDs)
	input.NotNull(f, "remove_tag_ids", req.RemoveTagIDs)
	if req.Delete.Null {
		f.Add("delete", "delete must be true or false")
	}
	b := db.TradeBulk{TradeIDs: req.TradeIDs.Value, AddTagIDs: req.AddTagIDs.Value, RemoveTagIDs: req.RemoveTagIDs.Value,
		PlaybookID: req.PlaybookID, Reviewed: req.Reviewed, Delete: req.Delete.Value}
	if b.Reviewed.Null {
		b.Reviewed = db.Some(false) // null clears reviewed_at, like false, as on a trade's update
	}
	input.TradeBulk(f, &b)
	return b, f.Err()
}
