package server

import (
	"net/http"

	"tradejournal/server/upload"

	"tradejournal/db"
)

// handleDocumentUpload stores an uploaded file as a new document, or as the
// new file of one (replace=true). The file streams to a temp file; only an
// accepted upload's blob is placed, inside the row's transaction.
func (s *Server) handleDocumentUpload(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	mr, release, err := s.uploads.Open(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer release()
	form, err := s.docs.ReadForm(mr)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	doc, created, err := s.docs.Store(r.Context(), p.UserID, form)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeJSON(w, status, dataBody[upload.Document]{s.docs.Present(doc)})
}
