package server

import (
	"net/http"

	"tradejournal/db"
	"tradejournal/server/input"
)

func (s *Server) handleAccountDelete(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	id, err := input.PathID(r, "Account")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	cascade, err := input.QueryBool(r.URL.Query(), "cascade")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// The documents a cascade deletes may leave blobs unused; they go after
	// the commit, in the same files.Exclusive call.
	var d db.Deleted
	err = s.files.Exclusive(func() (err error) {
		if d, err = s.db.DeleteAccount(r.Context(), p.UserID, id, cascade); err == nil {
			s.docs.Remove(r.Context(), d.Blobs...)
		}
		return err
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, deletedBody{Success: true, DeletedID: d.ID, Warnings: d.Warnings})
}
