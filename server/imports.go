package server

import (
	"net/http"

	"tradejournal/server/upload"

	"tradejournal/db"
	"tradejournal/server/input"
)

// handleImportCreate reads a broker's file into trades: received whole
// (within its limit), then parsed by its format or one of the user's
// column mappings; nothing is written unless every row reads. It holds one
// of the import slots throughout.
func (s *Server) handleImportCreate(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	mappings, err := s.db.BrokerMappings(r.Context(), p.UserID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	mr, release, err := s.uploads.Open(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer release()
	done, ok := s.uploads.StartImport()
	if !ok {
		s.writeError(w, r, s.uploads.ImportsBusy(w))
		return
	}
	defer done()
	in, err := upload.ImportForm(mr, p, mappings)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	imp, err := s.db.Import(r.Context(), p.UserID, in)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	status := http.StatusCreated
	if in.DryRun {
		status = http.StatusOK
	}
	writeJSON(w, status, dataBody[db.Import]{imp})
}

// handleImportDelete undoes an import; ?force=true also deletes trades
// that carry review work.
func (s *Server) handleImportDelete(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	id, err := input.PathID(r, "Import")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	force, err := input.QueryBool(r.URL.Query(), "force")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	d, err := s.db.DeleteImport(r.Context(), p.UserID, id, force)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, deletedBody{Success: true, DeletedID: d.ID, Warnings: d.Warnings})
}
