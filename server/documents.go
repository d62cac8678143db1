package server

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"tradejournal/server/problem"

	"tradejournal/db"
	"tradejournal/files"
	"tradejournal/server/input"
)

// document is a document as the API shows it: its record and a freshly
// signed link to its file.
type document struct {
	ID           string `json:"id"`
	UserID       string `json:"user_id"`
	AccountID    string `json:"account_id"`
	DocumentURL  string `json:"document_url"`
	DocumentName string `json:"document_name"`
	Category     string `json:"category"`
	FileName     string `json:"file_name"`
	FileSize     int64  `json:"file_size"`
	MIMEType     string `json:"mime_type"`
	CreatedAt    string `json:"created_at"`
	UpdatedAt    string `json:"updated_at"`
}

// presentDocument shows d with a newly signed link, valid a year from now:
// every read gets its own. The file name in the path is only for browsers.
func (s *Server) presentDocument(d db.Document) document {
	expires := s.db.Now().AddDate(1, 0, 0).Unix()
	link := s.cfg.PublicURL + "/api/v1/files/" + d.ID + "/" + url.PathEscape(d.FileName) +
		"?expires=" + strconv.FormatInt(expires, 10) + "&sig=" + files.Sign(s.cfg.Secret, d.ID, expires)
	return document{
		ID: d.ID, UserID: d.UserID, AccountID: d.AccountID, DocumentURL: link,
		DocumentName: d.DocumentName, Category: d.Category, FileName: d.FileName, FileSize: d.FileSize,
		MIMEType: d.MIMEType, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
	}
}

// documentDeletedBody is what a document's delete answers.
type documentDeletedBody struct {
	deletedBody
	FileRemoved bool `json:"file_removed"`
}

func (s *Server) handleDocumentList(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	q := r.URL.Query()
	page, err := parsePage(q)
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
	out := make([]document, len(docs))
	for i, d := range docs {
		out[i] = s.presentDocument(d)
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
	writeJSON(w, http.StatusOK, dataBody[document]{s.presentDocument(d)})
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
	f := input.Errors{}
	upd.DocumentName.Value = strings.TrimSpace(upd.DocumentName.Value)
	f.Required("document_name", upd.DocumentName, false)
	f.Text("document_name", upd.DocumentName, maxDocumentName)
	f.Required("category", upd.Category, false)
	f.OneOf("category", upd.Category, db.DocumentCategories)
	if err := f.Err(); err != nil {
		s.writeError(w, r, err)
		return
	}
	d, err := s.db.UpdateDocument(r.Context(), p.UserID, id, upd)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, dataBody[document]{s.presentDocument(d)})
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
		body.FileRemoved = s.removeBlobs(r.Context(), del.Blob)
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

// removeUnusedBlob removes the blob of hash when no document uses it; call
// it inside Exclusive.
func (s *Server) removeUnusedBlob(ctx context.Context, hash string) {
	if n, err := s.db.BlobUses(context.WithoutCancel(ctx), hash); err != nil {
		s.log.WarnContext(ctx, "count a blob's uses", "request_id", problem.RequestID(ctx), "blob", hash, "err", err)
	} else if n == 0 {
		s.removeBlobs(ctx, hash)
	}
}

// removeBlobs removes blobs that a committed change left without a row,
// inside files.Exclusive. A failure only leaves an orphan blob, which
// `check --repair` finds, so it is logged, not answered; it reports whether
// every blob went.
func (s *Server) removeBlobs(ctx context.Context, hashes ...string) bool {
	ok := true
	for _, h := range hashes {
		if err := s.files.Remove(h); err != nil {
			s.log.WarnContext(ctx, "remove unused blob", "request_id", problem.RequestID(ctx), "blob", h, "err", err)
			ok = false
		}
	}
	return ok
}
