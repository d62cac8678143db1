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
	ID           string  `json:"id"`
	UserID       string  `json:"user_id"`
	AccountID    string  `json:"account_id"`
	DocumentURL  string  `json:"document_url"`
	ThumbnailURL *string `json:"thumbnail_url"` // an image's, scaled to 320 px wide; null for others
	DocumentName string  `json:"document_name"`
	Category     string  `json:"category"`
	FileName     string  `json:"file_name"`
	FileSize     int64   `json:"file_size"`
	MIMEType     string  `json:"mime_type"`
	CreatedAt    string  `json:"created_at"`
	UpdatedAt    string  `json:"updated_at"`
}

// Present shows d with a newly signed link, valid a year from now:
// every read gets its own. The file name in the path is only for browsers.
func (s *Documents) Present(d db.Document) Document {
	link, thumb := s.links(d.ID, d.FileName, d.MIMEType)
	return Document{
		ID: d.ID, UserID: d.UserID, AccountID: d.AccountID, DocumentURL: link, ThumbnailURL: thumb,
		DocumentName: d.DocumentName, Category: d.Category, FileName: d.FileName, FileSize: d.FileSize,
		MIMEType: d.MIMEType, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
	}
}

// links are a newly signed link to the document id's file, valid a year
// from now, and for a PNG, JPEG or WebP document its thumbnail's: the same
// link with &w=320 (DESIGN §13); nil for other documents.
func (s *Documents) links(id, fileName, mimeType string) (link string, thumb *string) {
	expires := s.DB.Now().AddDate(1, 0, 0).Unix()
	link = s.PublicURL + "/api/v1/files/" + id + "/" + url.PathEscape(fileName) +
		"?expires=" + strconv.FormatInt(expires, 10) + "&sig=" + files.Sign(s.Secret, id, expires)
	if files.HasThumbnails(mimeType) {
		t := link + "&w=320"
		thumb = &t
	}
	return link, thumb
}

// TradeDocument is one of a trade's documents as the API shows it, with
// its links.
type TradeDocument struct {
	ID           string  `json:"id"`
	DocumentName string  `json:"document_name"`
	FileName     string  `json:"file_name"`
	MIMEType     string  `json:"mime_type"`
	DocumentURL  string  `json:"document_url"`
	ThumbnailURL *string `json:"thumbnail_url"`
}

// PresentTrade shows a trade's documents with their links.
func (s *Documents) PresentTrade(docs []db.TradeDocument) []TradeDocument {
	out := make([]TradeDocument, len(docs))
	for i, d := range docs {
		link, thumb := s.links(d.ID, d.FileName, d.MIMEType)
		out[i] = TradeDocument{ID: d.ID, DocumentName: d.DocumentName, FileName: d.FileName, MIMEType: d.MIMEType,
			DocumentURL: link, ThumbnailURL: thumb}
	}
	return out
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
