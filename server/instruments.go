package server

import (
	"net/http"

	"tradejournal/db"
	"tradejournal/server/input"
)

// instrumentBody is the body of PUT /api/v1/instruments/{root}.
type instrumentBody struct {
	PointValue db.Optional[float64] `json:"point_value"`
	AssetClass db.Optional[string]  `json:"asset_class"`
}

// instrumentSet is an instrument with how many trades its change re-priced.
type instrumentSet struct {
	db.Instrument
	RepricedTrades int `json:"repriced_trades"`
}

type instrumentDeleted struct {
	deletedBody
	RepricedTrades int `json:"repriced_trades"`
}

func (s *Server) handleInstrumentList(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	list, err := s.db.Instruments(r.Context(), p.UserID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, dataBody[[]db.Instrument]{list})
}

func (s *Server) handleInstrumentSet(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	root := db.NormaliseRoot(r.PathValue("root"))
	var body instrumentBody
	if err := decodeJSON(w, r, &body); err != nil {
		s.writeError(w, r, err)
		return
	}
	class, err := input.Instrument(root, body.PointValue, body.AssetClass)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	in, n, err := s.db.SetInstrument(r.Context(), p.UserID, root, body.PointValue.Value, class)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, dataBody[instrumentSet]{instrumentSet{in, n}})
}

func (s *Server) handleInstrumentDelete(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	root := db.NormaliseRoot(r.PathValue("root"))
	if !input.IsInstrumentRoot(root) {
		s.writeError(w, r, &db.NotFoundError{Kind: "Instrument"})
		return
	}
	d, n, err := s.db.DeleteInstrument(r.Context(), p.UserID, root)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, instrumentDeleted{deletedBody{Success: true, DeletedID: d.ID, Warnings: d.Warnings}, n})
}
