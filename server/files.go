package server

import (
	"errors"
	"io/fs"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"tradejournal/server/input"
	"tradejournal/server/problem"
	"tradejournal/server/upload"

	"tradejournal/db"
	"tradejournal/files"
)

// handleFileDownload serves a document's file to whoever holds a valid
// signed link: the route needs no API key. The signature is checked before
// anything is read from the database, so a forged link costs one HMAC.
func (s *Server) handleFileDownload(w http.ResponseWriter, r *http.Request, _ *db.Principal) {
	id := r.PathValue("id")
	q := r.URL.Query()
	// The signature is in the URL: a page the file links to must not
	// receive it in a Referer.
	w.Header().Set("Referrer-Policy", "no-referrer")
	err := files.Verify(s.cfg.Secret, id, q.Get("expires"), q.Get("sig"), s.db.Now())
	if err != nil {
		s.writeError(w, r, linkError(err))
		return
	}
	// ?w= asks for the image scaled down to that width (DESIGN §13); it is
	// checked before the document is, whatever the document's type.
	width := 0
	if q.Has("w") {
		if width, err = strconv.Atoi(q.Get("w")); err != nil || !files.IsThumbnailWidth(width) {
			s.writeError(w, r, input.Invalid("w", "w must be 160, 320, 640 or 1280"))
			return
		}
	}
	d, err := s.db.DocumentFile(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if width > 0 && s.serveThumbnail(w, r, d, width) {
		return
	}
	f, err := s.files.Open(d.BlobHash)
	if errors.Is(err, fs.ErrNotExist) {
		// A replace or delete removed the file after the row was read:
		// read the row again, and serve what it says now.
		if d, err = s.db.DocumentFile(r.Context(), id); err != nil {
			s.writeError(w, r, err)
			return
		}
		f, err = s.files.Open(d.BlobHash)
	}
	if err != nil {
		s.writeError(w, r, err) // a row without its blob: a 500, logged
		return
	}
	defer f.Close()
	h := w.Header()
	h.Set("Content-Type", d.MIMEType)
	h.Set("Content-Security-Policy", "sandbox")
	h.Set("Content-Disposition", contentDisposition(d))
	// The link outlives a replace, so a cache must ask again each time; the
	// content hash is the validator, and no Last-Modified competes with it.
	h.Set("ETag", `"`+d.BlobHash+`"`)
	h.Set("Cache-Control", "private, no-cache")
	http.ServeContent(upload.Downloading(w), r, d.FileName, time.Time{}, f)
}

// serveThumbnail serves d scaled down to width, made on its first request
// and kept under files/thumbs/, and reports whether it did: a document
// that has none (not an image, no wider than width, over 50 megapixels,
// not decodable) is served as it is by the caller.
func (s *Server) serveThumbnail(w http.ResponseWriter, r *http.Request, d db.Document, width int) bool {
	f, contentType, ok, err := s.files.Thumbnail(d.BlobHash, d.MIMEType, width)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		// The original can still be served; a thumbnail is derived data.
		s.log.WarnContext(r.Context(), "make a thumbnail", "request_id", problem.RequestID(r.Context()), "blob", d.BlobHash, "err", err)
	}
	if !ok || err != nil {
		return false
	}
	defer f.Close()
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Security-Policy", "sandbox")
	h.Set("Content-Disposition", "inline")
	h.Set("ETag", `"`+d.BlobHash+"-w"+strconv.Itoa(width)+`"`)
	h.Set("Cache-Control", "private, no-cache")
	http.ServeContent(upload.Downloading(w), r, "", time.Time{}, f)
	return true
}

// linkError is the 403 for a link that does not verify.
func linkError(err error) error {
	msg := "The download link is not valid"
	if errors.Is(err, files.ErrExpired) {
		msg = "The download link has expired; read the document again for a new one"
	}
	return &problem.Problem{Status: http.StatusForbidden, Code: "FORBIDDEN", Message: msg}
}

// contentDisposition shows images in the browser and downloads PDFs, under
// the stored name, encoded as RFC 2231 (filename*) when it is not ASCII.
//
// The name ends with the extension of the type the content was sniffed as
// (DESIGN §13): a PDF uploaded as x.pdf.html downloads as x.pdf.html.pdf,
// never as a name a desktop would open as something else.
func contentDisposition(d db.Document) string {
	kind := "attachment"
	if strings.HasPrefix(d.MIMEType, "image/") {
		kind = "inline"
	}
	name := d.FileName
	if ext := upload.Extension(d.MIMEType); ext != "" && !upload.HasExtension(name, d.MIMEType) {
		name += ext
	}
	if v := mime.FormatMediaType(kind, map[string]string{"filename": name}); v != "" {
		return v
	}
	return kind
}
