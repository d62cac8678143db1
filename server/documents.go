package server

import (
	"net/http"
	"net/url"
	"strings"

	"tradejournal/server/upload"

	"tradejournal/db"
	"tradejournal/server/input"
)

// documentDeletedBody is what a document's delete answers.
type documentDeletedBody struct {
	deletedBody
	FileRemoved bool `json:"file_removed"`
}

func (s *Server) handleDocumentList(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	q := r.URL.Query()
	page, err := input.Page(q)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	filter, err := parseDocumentFilter(q, p.Timezone)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	docs, total, err := s.db.Documents(r.Context(), p.UserID, filter, page)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := make([]upload.Document, len(docs))
	for i, d := range docs {
		out[i] = s.docs.Present(d)
	}
	writeList(w, out, total, page)
}

// parseDocumentFilter reads the list's query; a malformed value is a 400
// naming the parameter.
func parseDocumentFilter(q url.Values, timezone string) (db.DocumentFilter, error) {
	f := input.Errors{}
	filter := db.DocumentFilter{
		AccountID: f.QueryUUID("account_id", q.Get("account_id")),
		Category:  f.QueryEnum("category", q.Get("category"), db.DocumentCategories),
		Search:    strings.TrimSpace(q.Get("search")),
		StartDate: f.QueryDate("start_date", q.Get("start_date")),
		EndDate:   f.QueryDate("end_date", q.Get("end_date")),
		Timezone:  timezone,
	}
	if err := f.Err(); err != nil {
		return db.DocumentFilter{}, err
	}
	if filter.StartDate != "" && filter.EndDate != "" && filter.StartDate > filter.EndDate {
		return db.DocumentFilter{}, input.Invalid("end_date", "end_date must not be before start_date")
	}
	return filter, nil
}

func (s *Server) handleDocumentGet(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	id, err := input.PathID(r, "Document")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	d, err := s.db.Document(r.Context(), p.UserID, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, dataBody[upload.Document]{s.docs.Present(d)})
}

func (s *Server) handleDocumentUpdate(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	id, err := input.PathID(r, "Document")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var upd db.DocumentUpdate
	if err := decodeJSON(w, r, &upd); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := input.DocumentUpdate(&upd, false); err != nil {
		s.writeError(w, r, err)
		return
	}
	d, err := s.db.UpdateDocument(r.Context(), p.UserID, id, upd)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, dataBody[upload.Document]{s.docs.Present(d)})
}

func (s *Server) handleDocumentDelete(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	id, err := input.PathID(r, "Document")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	body := documentDeletedBody{deletedBody: deletedBody{Success: true, DeletedID: id, Warnings: []string{}}}
	err = s.files.Exclusive(func() error {
		del, err := s.db.DeleteDocument(r.Context(), p.UserID, id)
		if err != nil {
			return err
		}
		body.Warnings = append(body.Warnings, del.Warnings...)
		if !del.Unused {
			// Another row keeps the blob. Only the caller's own rows count
			// for file_removed: whether another user stored the same bytes
			// is not the caller's to learn.
			body.FileRemoved = !del.UserShares
			return nil
		}
		body.FileRemoved = s.docs.Remove(r.Context(), del.Blob)
		if !body.FileRemoved {
			body.Warnings = append(body.Warnings, "The file could not be removed from storage; `tradejournal check --repair` removes it")
		}
		return nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, body)
}
