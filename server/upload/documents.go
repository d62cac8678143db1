package upload

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"mime"
	"mime/multipart"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"tradejournal/server/problem"

	"tradejournal/db"
	"tradejournal/files"
	"tradejournal/server/input"
)

// Upload limits.
const (
	maxUpload     = 25 << 20 // SPEC's 25MB: 26,214,400 bytes
	maxFormField  = 4 << 10  // each text field of the form
	maxUploadBody = maxUpload + 1<<20
	maxFileName   = 255 // bytes
)

// uploadExtensions are the allowed types of upload, with the extension a
// file without a usable name gets.
var uploadExtensions = map[string]string{
	"image/jpeg": ".jpg", "image/png": ".png", "image/webp": ".webp", "application/pdf": ".pdf",
}

var uploadTypes = slices.Sorted(maps.Keys(uploadExtensions))

// Extension is the file extension of an upload's type (".pdf"), "" for a
// type uploads do not take.
func Extension(mimeType string) string { return uploadExtensions[mimeType] }

// HasExtension reports whether a file name ends with an extension of the
// type, in any case (a JPEG's .jpg or .jpeg).
func HasExtension(name, mimeType string) bool {
	ext := strings.ToLower(path.Ext(name))
	return ext == uploadExtensions[mimeType] || mimeType == "image/jpeg" && ext == ".jpeg"
}

// uploadFields are the form's text fields; other parts are ignored.
var uploadFields = []string{"document_name", "category", "account_number", "replace", "document_id", "trade_id"}

// Unavailable is the 503 of a busy server, with Retry-After.
func Unavailable(w http.ResponseWriter) error {
	w.Header().Set("Retry-After", "5")
	return &problem.Problem{Status: http.StatusServiceUnavailable, Code: "UNAVAILABLE",
		Message: "Too many uploads in progress; retry after 5 seconds"}
}

var errUploadTooLarge = &problem.Problem{Status: http.StatusRequestEntityTooLarge, Code: "PAYLOAD_TOO_LARGE",
	Message: "Request body exceeds the limit of 26 MiB"}

// Documents keeps the journal's documents: each a blob in the file store
// and its row, placed, shown and removed together, for the API, the pages
// and check alike.
type Documents struct {
	DB        *db.DB
	Files     *files.Store
	Log       *slog.Logger
	PublicURL string // what document links are built on
	Secret    []byte // signs document links
}

// Store checks a read upload form and stores its document: a new one
// (created), or a document's new file. The form's temp file is gone after
// it, placed or discarded.
func (s *Documents) Store(ctx context.Context, userID string, form *Form) (doc db.Document, created bool, err error) {
	defer form.file.Discard()
	in, replaceID, err := validateUpload(form)
	if err != nil {
		return db.Document{}, false, err
	}
	created = true
	err = s.Files.Exclusive(func() (err error) {
		defer func() {
			if err != nil && form.file.Placed() {
				// The row did not commit (a full disk at the commit, say):
				// the blob it placed goes unless another document has it.
				s.RemoveUnused(ctx, form.file.Hash)
			}
		}()
		if replaceID == "" {
			doc, err = s.DB.CreateDocument(ctx, userID, in, form.file.Place)
			return err
		}
		created = false
		var unused string
		if doc, unused, err = s.DB.ReplaceDocument(ctx, userID, replaceID, in, form.file.Place); err == nil && unused != "" {
			s.Remove(ctx, unused)
		}
		return err
	})
	return doc, created, err
}

// Form is a document upload's form as read: its text fields by name, and
// the received file.
type Form struct {
	fields   map[string]string
	file     *files.Temp
	fileName string // as the client gave it
}

// Field is the form's text field name, "" when the form has none.
func (form *Form) Field(name string) string { return form.fields[name] }

// SetField fills a text field the form left empty (a page's default).
func (form *Form) SetField(name, value string) { form.fields[name] = value }

// Discard drops the received file of a form refused before Store.
func (form *Form) Discard() {
	if form.file != nil {
		form.file.Discard()
	}
}

// ReadForm reads the multipart body part by part, in whatever order
// the parts come: text fields into memory (4 KiB each at most), the file
// into the store's tmp folder. On an error, no temp file is left.
func (s *Documents) ReadForm(mr *multipart.Reader) (*Form, error) {
	form := &Form{fields: map[string]string{}}
	if err := form.read(mr, s.Files); err != nil {
		if form.file != nil {
			form.file.Discard()
		}
		return nil, err
	}
	return form, nil
}

// read reads the parts into form.
func (form *Form) read(mr *multipart.Reader, store *files.Store) error {
	f := input.Errors{}
	seenFile := false
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return bodyReadError(err)
		}
		name := part.FormName()
		switch {
		case name == "file":
			if seenFile {
				f.Add("file", "send one file per upload")
				continue
			}
			seenFile = true
			form.fileName = partFileName(part)
			body := &errRecorder{r: part}
			form.file, err = store.Receive(body, maxUpload, uploadTypes)
			var wrongType *files.TypeError
			switch {
			case body.err != nil:
				return bodyReadError(body.err)
			case errors.Is(err, files.ErrTooLarge):
				return input.Invalid("file", fmt.Sprintf("file must be at most 25 MiB (%d bytes)", maxUpload))
			case errors.Is(err, files.ErrEmpty):
				f.Add("file", "file is empty")
			case errors.As(err, &wrongType):
				f.Add("file", "file must be a JPEG, PNG, WebP or PDF; its content is "+wrongType.Detected)
			case err != nil:
				return err
			}
		case slices.Contains(uploadFields, name):
			if _, dup := form.fields[name]; dup {
				f.Add(name, name+" is given more than once")
			}
			b, err := io.ReadAll(io.LimitReader(part, maxFormField+1))
			if err != nil {
				return bodyReadError(err)
			}
			switch {
			case len(b) > maxFormField:
				f.Add(name, fmt.Sprintf("%s must be at most %d bytes", name, maxFormField))
			case !utf8.Valid(b):
				f.Add(name, name+" must be UTF-8 text")
			default:
				form.fields[name] = strings.TrimSpace(string(b))
			}
		}
	}
	if !seenFile {
		f.Add("file", "file is required")
	}
	return f.Err()
}

// bodyReadError is the answer to a body that could not be read: too large,
// or not well-formed multipart (or cut off).
func bodyReadError(err error) error {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return errUploadTooLarge
	}
	if errors.Is(err, problem.TooSlow) {
		return problem.TooSlow
	}
	return input.Invalid("body", "body is not well-formed multipart/form-data, or ended early")
}

// errRecorder remembers the first error of reading r other than EOF, to
// tell a client's broken body from a failure of the server's own disk.
type errRecorder struct {
	r   io.Reader
	err error
}

func (e *errRecorder) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

// validateUpload checks the form's fields. A new document needs
// document_name, category and account_number (or a trade_id, whose trade's
// account it then is, DESIGN §13); a replace needs document_id, and keeps
// the document's own metadata where the form leaves a field out.
func validateUpload(form *Form) (db.DocumentUpload, string, error) {
	f := input.Errors{}
	fields := form.fields
	replace := false
	if v, ok := fields["replace"]; ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			f.Add("replace", "replace must be true or false")
		}
		replace = b
	}
	replaceID := strings.ToLower(fields["document_id"])
	switch {
	case replace && replaceID == "":
		f.Add("document_id", "document_id is required when replace is true")
	case !replace && replaceID != "":
		f.Add("document_id", "document_id is only used with replace=true")
	case replaceID != "":
		f.UUID("document_id", replaceID)
	}
	tradeID := strings.ToLower(fields["trade_id"])
	if tradeID != "" {
		if replace {
			f.Add("trade_id", "trade_id is only used on a new document")
		}
		f.UUID("trade_id", tradeID)
	}
	for _, name := range []string{"document_name", "category", "account_number"} {
		if fields[name] == "" && !replace && !(name == "account_number" && tradeID != "") {
			f.Add(name, name+" is required")
		}
	}
	in := db.DocumentUpload{
		AccountNumber: fields["account_number"],
		DocumentName:  fields["document_name"],
		Category:      fields["category"],
		TradeID:       tradeID,
	}
	f.Text("document_name", db.Some(in.DocumentName), input.MaxDocumentName)
	f.Text("account_number", db.Some(in.AccountNumber), 128)
	if in.Category != "" {
		f.OneOf("category", db.Some(in.Category), db.DocumentCategories)
	}
	if err := f.Err(); err != nil {
		return db.DocumentUpload{}, "", err
	}
	t := form.file
	in.FileName = cleanFileName(form.fileName, uploadExtensions[t.MIME])
	in.FileSize, in.MIMEType, in.BlobHash = t.Size, t.MIME, t.Hash
	return in, replaceID, nil
}

// partFileName is the file name a part's Content-Disposition gives, with
// filename* (RFC 2231) decoded; unlike Part.FileName it keeps the client's
// path, which cleanFileName strips whatever its separators.
func partFileName(part *multipart.Part) string {
	_, params, err := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
	if err != nil {
		return ""
	}
	return params["filename"]
}

// cleanFileName makes a client's file name safe to store and serve: its
// base name (after the last / or \), without control or format characters
// (which could hide the real extension), at most 255 bytes with the
// extension kept. A name with nothing left becomes "document" + ext.
func cleanFileName(name, ext string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) {
			return -1
		}
		return r
	}, strings.ToValidUTF8(name, ""))
	name = strings.TrimSpace(name)
	if strings.Trim(name, ".") == "" {
		return "document" + ext
	}
	if len(name) <= maxFileName {
		return name
	}
	keep := path.Ext(name)
	if len(keep) > 32 {
		keep = ""
	}
	stem := name[:maxFileName-len(keep)]
	for !utf8.ValidString(stem) { // cut inside a character: drop its start
		stem = stem[:len(stem)-1]
	}
	return stem + keep
}
