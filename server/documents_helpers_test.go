package server_test

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docJSON is a document as the API shows it.
type docJSON struct {
	ID           string `json:"id"`
	UserID       string `json:"user_id"`
	AccountID    string `json:"account_id"`
	DocumentURL  string `json:"document_url"`
	ThumbnailURL string `json:"thumbnail_url"` // "" for null
	DocumentName string `json:"document_name"`
	Category     string `json:"category"`
	FileName     string `json:"file_name"`
	FileSize     int64  `json:"file_size"`
	MIMEType     string `json:"mime_type"`
	CreatedAt    string `json:"created_at"`
	UpdatedAt    string `json:"updated_at"`
}

// nestedBody is the documents' nested error body.
type nestedBody struct {
	Error struct {
		Code    string            `json:"code"`
		Message string            `json:"message"`
		Details map[string]string `json:"details"`
	} `json:"error"`
}

// part is one part of an upload form: a text field, or the file when
// fileName or content is set.
type part struct {
	name, value string
	fileName    string
	contentType string    // of the file part; "" sends application/octet-stream
	content     io.Reader // of the file part
	disposition string    // a whole Content-Disposition, for odd file names
}

func field(name, value string) part { return part{name: name, value: value} }

// filePart is the file part with the given name and bytes.
func filePart(fileName string, content []byte) part {
	return part{name: "file", fileName: fileName, content: bytes.NewReader(content)}
}

// form is a complete new-document form for the account number, the file
// part first.
func form(accountNumber string, file part) []part {
	return []part{file, field("document_name", "Payout March"), field("category", "payout-confirmation"),
		field("account_number", accountNumber)}
}

// uploadRequest builds a POST /api/v1/documents whose multipart body is
// written while the handler reads it, so a large file is never in memory.
func uploadRequest(t testing.TB, key string, parts []part) *http.Request {
	t.Helper()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		pw.CloseWithError(writeParts(mw, parts))
	}()
	req := httptest.NewRequest("POST", "/api/v1/documents", pr)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	return req
}

func writeParts(mw *multipart.Writer, parts []part) error {
	for _, p := range parts {
		h := textproto.MIMEHeader{}
		cd := `form-data; name="` + p.name + `"`
		if p.content != nil {
			cd += `; filename="` + p.fileName + `"`
			ct := p.contentType
			if ct == "" {
				ct = "application/octet-stream"
			}
			h.Set("Content-Type", ct)
		}
		if p.disposition != "" {
			cd = p.disposition
		}
		h.Set("Content-Disposition", cd)
		w, err := mw.CreatePart(h)
		if err != nil {
			return err
		}
		src := p.content
		if src == nil {
			src = strings.NewReader(p.value)
		}
		if _, err := io.Copy(w, src); err != nil {
			return err
		}
	}
	return mw.Close()
}

// upload sends an upload and returns the response.
func (ts *testServer) upload(t testing.TB, key string, parts []part) *httptest.ResponseRecorder {
	t.Helper()
	return ts.send(t, uploadRequest(t, key, parts))
}

// mustUpload uploads and returns the document, failing unless the status is want.
func (ts *testServer) mustUpload(t testing.TB, key string, parts []part, want int) docJSON {
	t.Helper()
	w := ts.upload(t, key, parts)
	if w.Code != want {
		t.Fatalf("upload: got %d %s, want %d", w.Code, w.Body, want)
	}
	return decode[struct{ Data docJSON }](t, w.Body.Bytes()).Data
}

// download fetches a document_url through the handler, with no API key.
func (ts *testServer) download(t *testing.T, link string, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	target, ok := strings.CutPrefix(link, "http://journal.test")
	if !ok {
		t.Fatalf("document_url %s is not on the public URL", link)
	}
	req := httptest.NewRequest("GET", target, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return ts.send(t, req)
}

// testdata reads a sample file of the repository.
func testdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// storeFiles lists the files under the store's folder sub ("tmp",
// "sha256"), relative to it.
func (ts *testServer) storeFiles(t *testing.T, sub string) []string {
	t.Helper()
	var out []string
	root := filepath.Join(ts.files, sub)
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// noTempFiles fails the test if an upload left a temp file behind.
func (ts *testServer) noTempFiles(t *testing.T) {
	t.Helper()
	if got := ts.storeFiles(t, "tmp"); len(got) != 0 {
		t.Errorf("temp files: got %v, want none", got)
	}
}

// wantNested checks a nested error response.
func wantNested(t *testing.T, w *httptest.ResponseRecorder, status int, code, message, field string) {
	t.Helper()
	if w.Code != status {
		t.Errorf("status: got %d %s, want %d", w.Code, w.Body, status)
		return
	}
	b := decode[nestedBody](t, w.Body.Bytes())
	if b.Error.Code != code || (message != "" && b.Error.Message != message) {
		t.Errorf("error: got %s %q, want %s %q", b.Error.Code, b.Error.Message, code, message)
	}
	if _, ok := b.Error.Details[field]; field != "" && !ok {
		t.Errorf("details: got %v, want one on %s", b.Error.Details, field)
	}
}
