package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"tradejournal/db"
	"tradejournal/db/brokers"
	"tradejournal/server/input"
)

// fillsRequest is the body of POST /api/v1/fills. Its fills are decoded
// one by one, so a wrong type names the fill: "fills[2].price".
type fillsRequest struct {
	AccountID db.Optional[string]            `json:"account_id"`
	Timezone  db.Optional[string]            `json:"timezone"`
	Fills     db.Optional[[]json.RawMessage] `json:"fills"`
}

// maxFillsBody is the largest body of POST /fills: room for its 10,000
// fills, where every other JSON route takes 1 MiB.
const maxFillsBody = 8 << 20

// handleFills imports the fills a platform script posts (DESIGN §14): 201
// with the Import, or 200 with id null when every fill was there already,
// so a script may retry freely.
func (s *Server) handleFills(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	in, err := decodeFills(w, r, p)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	imp, err := s.db.ImportFills(r.Context(), p.UserID, in)
	if err != nil {
		s.writeError(w, r, fillErrors(err))
		return
	}
	status := http.StatusCreated
	if imp.ID == nil {
		status = http.StatusOK
	}
	writeJSON(w, status, dataBody[db.Import]{imp})
}

// decodeFills reads and checks a post of fills: an account, a zone, 1 to
// 10,000 fills each of the right types.
func decodeFills(w http.ResponseWriter, r *http.Request, p *db.Principal) (db.FillsInput, error) {
	var req fillsRequest
	if err := decodeJSONUpTo(w, r, &req, maxFillsBody); err != nil {
		return db.FillsInput{}, err
	}
	f := input.Errors{}
	var in db.FillsInput
	given := req.Fills.Set && !req.Fills.Null
	in.AccountID, in.Timezone = input.Fills(f, req.AccountID, req.Timezone, len(req.Fills.Value), given, p.Timezone)
	if _, ok := f["fills"]; ok {
		return db.FillsInput{}, f.Err() // too many to read one by one
	}
	in.Fills = make([]db.FillInput, len(req.Fills.Value))
	for i, raw := range req.Fills.Value {
		path := fmt.Sprintf("fills[%d]", i)
		if err := decodeElement(raw, &in.Fills[i], path); err != nil {
			f.Merge(err)
			continue
		}
		input.Fill(f, path, &in.Fills[i])
	}
	return in, f.Err()
}

// fillErrors names the fills the import could not read: their row errors
// are keyed fills[N].field.
func fillErrors(err error) error {
	var rows *brokers.Error
	if !errors.As(err, &rows) {
		return err
	}
	f := input.Errors{}
	for _, r := range rows.Rows {
		path := fmt.Sprintf("fills[%d]", r.Line)
		if r.Column != "" {
			path += "." + r.Column
		}
		msg := r.Message
		if len(msg) > len(r.Column) && msg[:len(r.Column)+1] == r.Column+" " {
			msg = path + msg[len(r.Column):] // "price must be…" → "fills[2].price must be…"
		}
		f.Add(path, msg)
	}
	return f.Err()
}
