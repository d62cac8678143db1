package server

import (
	"errors"
	"net/http"

	"tradejournal/db"
	"tradejournal/server/problem"
)

type ctxKey int

const ctxNested ctxKey = iota

// errorBody is the standard error body of SPEC.md.
type errorBody struct {
	Error   string            `json:"error"`
	Code    string            `json:"code"`
	Details map[string]string `json:"details,omitempty"`
}

// nestedErrorBody is the documents' validation and not-found body.
type nestedErrorBody struct {
	Error nestedError `json:"error"`
}

type nestedError struct {
	Code    string            `json:"code"`
	Message string            `json:"message"`
	Details map[string]string `json:"details,omitempty"`
}

// overrideHints say, in the API's words, how to go ahead with what a
// conflict refuses (db.ConflictError's Override).
var overrideHints = map[string]string{
	"cascade": " or pass cascade=true",
	"force":   "; add ?force=true to delete them anyway",
}

// writeError answers err in the body the route uses (problem.Answer).
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := problem.Answer(w, r, s.log, err)
	var conflict *db.ConflictError
	if errors.As(err, &conflict) && overrideHints[conflict.Override] != "" {
		hinted := *e
		hinted.Message += overrideHints[conflict.Override]
		e = &hinted
	}
	if e.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", "Bearer") // RFC 6750: the key goes in Authorization: Bearer
	}
	if nested, _ := r.Context().Value(ctxNested).(bool); nested &&
		(e.Status == http.StatusBadRequest || e.Status == http.StatusNotFound) {
		writeJSON(w, e.Status, nestedErrorBody{nestedError{Code: e.Code, Message: e.Message, Details: e.Details}})
		return
	}
	writeJSON(w, e.Status, errorBody{Error: e.Message, Code: e.Code, Details: e.Details})
}
