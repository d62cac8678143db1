package upload

import (
	"context"
	"net/url"
	"strconv"

	"tradejournal/db"
	"tradejournal/files"
	"tradejournal/server/problem"
)

// Document is a document as the API and the pages show it: its record and a freshly
// signed link to its file.
type Document struct {
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

// Present shows d with a newly signed link, valid a year from now:
// every read gets its own. The file name in the path is only for browsers.
func (s *Documents) Present(d db.Document) Document {
	expires := s.DB.Now().AddDate(1, 0, 0).Unix()
	link := s.PublicURL + "/api/v1/files/" + d.ID + "/" + url.PathEscape(d.FileName) +
		"?expires=" + strconv.FormatInt(expires, 10) + "&sig=" + files.Sign(s.Secret, d.ID, expires)
	return Document{
		ID: d.ID, UserID: d.UserID, AccountID: d.AccountID, DocumentURL: link,
		DocumentName: d.DocumentName, Category: d.Category, FileName: d.FileName, FileSize: d.FileSize,
		MIMEType: d.MIMEType, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
	}
}

// RemoveUnused removes the blob of hash when no document uses it; call
// it inside Exclusive.
func (s *Documents) RemoveUnused(ctx context.Context, hash string) {
	if n, err := s.DB.BlobUses(context.WithoutCancel(ctx), hash); err != nil {
		s.Log.WarnContext(ctx, "count a blob's uses", "request_id", problem.RequestID(ctx), "blob", hash, "err", err)
	} else if n == 0 {
		s.Remove(ctx, hash)
	}
}

// Remove removes blobs that a committed change left without a row,
// inside files.Exclusive. A failure only leaves an orphan blob, which
// `check --repair` finds, so it is logged, not answered; it reports whether
// every blob went.
func (s *Documents) Remove(ctx context.Context, hashes ...string) bool {
	ok := true
	for _, h := range hashes {
		if err := s.Files.Remove(h); err != nil {
			s.Log.WarnContext(ctx, "remove unused blob", "request_id", problem.RequestID(ctx), "blob", h, "err", err)
			ok = false
		}
	}
	return ok
}
