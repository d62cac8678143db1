package server

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"tradejournal/db"
	"tradejournal/server/input"
)

// maxBulkTrades bounds the trades one bulk request names.
const maxBulkTrades = 500

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
	switch n := len(req.TradeIDs.Value); {
	case !req.TradeIDs.Set || req.TradeIDs.Null:
		f.Add("trade_ids", "trade_ids is required")
	case n == 0 || n > maxBulkTrades:
		f.Add("trade_ids", fmt.Sprintf("trade_ids must hold 1 to %d trade ids, not %d", maxBulkTrades, n))
	}
	for _, list := range []struct {
		field string
		ids   *db.Optional[[]string]
	}{{"trade_ids", &req.TradeIDs}, {"add_tag_ids", &req.AddTagIDs}, {"remove_tag_ids", &req.RemoveTagIDs}} {
		if list.field != "trade_ids" {
			input.NotNull(f, list.field, *list.ids)
		}
		for i, id := range list.ids.Value {
			list.ids.Value[i], _ = f.UUID(fmt.Sprintf("%s[%d]", list.field, i), id)
		}
	}
	for i, id := range req.RemoveTagIDs.Value {
		if slices.Contains(req.AddTagIDs.Value, id) {
			field := fmt.Sprintf("remove_tag_ids[%d]", i)
			f.Add(field, field+" is also in add_tag_ids: a tag is added or removed, not both")
		}
	}
	b := db.TradeBulk{TradeIDs: req.TradeIDs.Value, AddTagIDs: req.AddTagIDs.Value, RemoveTagIDs: req.RemoveTagIDs.Value,
		PlaybookID: req.PlaybookID, Reviewed: req.Reviewed, Delete: req.Delete.Value}
	if b.PlaybookID.Set && !b.PlaybookID.Null {
		b.PlaybookID.Value = input.BodyUUID(f, "playbook_id", b.PlaybookID, true)
	}
	if b.Reviewed.Null {
		b.Reviewed = db.Some(false) // null clears reviewed_at, like false, as on a trade's update
	}
	if req.Delete.Null {
		f.Add("delete", "delete must be true or false")
	}
	var actions []string
	for _, a := range []struct {
		field string
		given bool
	}{
		{"add_tag_ids", len(b.AddTagIDs) > 0}, {"remove_tag_ids", len(b.RemoveTagIDs) > 0},
		{"playbook_id", b.PlaybookID.Set}, {"reviewed", b.Reviewed.Set},
	} {
		if a.given {
			actions = append(actions, a.field)
		}
	}
	switch {
	case b.Delete && len(actions) > 0:
		f.Add("delete", "delete goes alone: send "+strings.Join(actions, ", ")+" in a request of their own")
	case !b.Delete && len(actions) == 0:
		f.Add("body", "name an action: add_tag_ids, remove_tag_ids, playbook_id, reviewed or delete")
	}
	return b, f.Err()
}
