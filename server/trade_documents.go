package server

import (
	"context"
	"net/http"

	"tradejournal/db"
	"tradejournal/server/input"
	"tradejournal/server/upload"
)

// tradeAnswer is a trade as GET one, PUT and the pages read it: the
// enriched trade, its documents with their signed links (DESIGN §13).
type tradeAnswer struct {
	db.EnrichedTrade
	Documents []upload.TradeDocument `json:"documents"`
}

// createdAnswer is a created trade: as listed, with its documents' ids and
// their links.
type createdAnswer struct {
	db.Trade
	DocumentIDs []string               `json:"document_ids"`
	Documents   []upload.TradeDocument `json:"documents"`
}

// tradeRead reads one trade as the API answers it.
func (s *Server) tradeRead(ctx context.Context, userID, id string) (tradeAnswer, error) {
	t, err := s.db.Trade(ctx, userID, id)
	if err != nil {
		return tradeAnswer{}, err
	}
	return tradeAnswer{t, s.docs.PresentTrade(t.Documents)}, nil
}

// handleTradeGet answers GET /api/v1/trades/{id} as getHandler would with
// tradeRead, but a trade that links to nothing beyond its row (most) is
// answered from its stored listing in one statement (db.TradeJSON).
func (s *Server) handleTradeGet(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	id, err := input.PathID(r, "Trade")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	trade, err := s.db.TradeJSON(r.Context(), p.UserID, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if trade == nil {
		t, err := s.tradeRead(r.Context(), p.UserID, id)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, dataBody[tradeAnswer]{t})
		return
	}
	body := make([]byte, 0, len(trade)+len(`{"data":}`)+1)
	body = append(body, `{"data":`...)
	body = append(body, trade...)
	writeBody(w, http.StatusOK, append(body, "}\n"...))
}

// tradeUpdate saves a PUT and answers the trade as read.
func (s *Server) tradeUpdate(ctx context.Context, userID, id string, in db.TradeInput) (tradeAnswer, error) {
	t, err := s.db.UpdateTrade(ctx, userID, id, in)
	if err != nil {
		return tradeAnswer{}, err
	}
	return tradeAnswer{t, s.docs.PresentTrade(t.Documents)}, nil
}

// tradeCreate saves a POST: the created trade, with the documents it
// linked (read back only when it linked any).
func (s *Server) tradeCreate(ctx context.Context, userID string, in db.TradeInput) (createdAnswer, error) {
	t, err := s.db.CreateTrade(ctx, userID, in)
	if err != nil {
		return createdAnswer{}, err
	}
	a := createdAnswer{Trade: t, DocumentIDs: []string{}, Documents: []upload.TradeDocument{}}
	if t.DocumentCount > 0 {
		docs, err := s.db.TradeDocuments(ctx, userID, t.ID)
		if err != nil {
			return createdAnswer{}, err
		}
		for _, d := range docs {
			a.DocumentIDs = append(a.DocumentIDs, d.ID)
		}
		a.Documents = s.docs.PresentTrade(docs)
	}
	return a, nil
}
