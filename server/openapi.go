package server

import (
	_ "embed"
	"net/http"

	"tradejournal/db"
)

// openAPI is the API's OpenAPI 3.1 document. It is written by hand; tests
// walk the route table against it both ways and validate every response
// the handler tests receive against it.
//
//go:embed openapi.json
var openAPI []byte

// handleOpenAPI serves the document to anyone: it holds no user's data,
// and a client generator must be able to read it without a key.
func (s *Server) handleOpenAPI(w http.ResponseWriter, r *http.Request, _ *db.Principal) {
	writeBody(w, http.StatusOK, openAPI)
}
