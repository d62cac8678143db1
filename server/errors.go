package server

import (
	"net/http"

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

// writeError answers err in the body the route uses (problem.Answer).
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e := problem.Answer(w, r, s.log, err)
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
