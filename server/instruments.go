package server

import (
	"net/http"
	"regexp"

	"tradejournal/db"
	"tradejournal/server/input"

	"tradejournal/db/trading"
)

// instrumentRoot is the form of a futures root in a path.
var instrumentRoot = regexp.MustCompile(`^[A-Z0-9]{1,12}$`)

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
	f := input.Errors{}
	if !instrumentRoot.MatchString(root) {
		f.Add("root", "root must be 1 to 12 letters or digits, such as NQ or 6E")
	}
	if !body.PointValue.Set || body.PointValue.Null {
		f.Add("point_value", "point_value must be a positive number")
	}
	f.Amount("point_value", body.PointValue)
	input.NotNull(f, "asset_class", body.AssetClass)
	f.OneOf("asset_class", body.AssetClass, db.AssetClasses)
	if err := f.Err(); err != nil {
		s.writeError(w, r, err)
		return
	}
	class := body.AssetClass.Value
	if class == "" {
		class = trading.AssetFutures
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
	if !instrumentRoot.MatchString(root) {
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
