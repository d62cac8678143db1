package server_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// linkPattern is the shape of a document_url.
var linkPattern = regexp.MustCompile(`^http://journal\.test/api/v1/files/[0-9a-f-]{36}/[^/?]+\?expires=\d+&sig=[A-Za-z0-9_-]{43}$`)

// TestUploadAndDownload: each allowed type is stored as sent, sniffed from
// its content, and served back byte for byte through its signed link with
// no API key.
func TestUploadAndDownload(t *testing.T) {
	ts := newTestServer(t)
	ts.pinClock(t0)
	userID, key := ts.newUser(t, "alice")
	a := ts.createAccount(t, key, `{"account_number":"A-1"}`)
	tests := []struct {
		file, name, mime, disposition string
	}{
		{"receipt.jpg", "receipt.jpg", "image/jpeg", `inline; filename=receipt.jpg`},
		{"certificate.png", "certificate.png", "image/png", `inline; filename=certificate.png`},
		{"pixel.webp", "pixel.webp", "image/webp", `inline; filename=pixel.webp`},
		// The client's name and Content-Type say nothing of the type.
		{"payout.pdf", "payout.jpg", "application/pdf", `attachment; filename=payout.jpg.pdf`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			content := testdata(t, tt.file)
			file := filePart(tt.name, content)
			file.contentType = "image/gif"
			d := ts.mustUpload(t, key, form("A-1", file), http.StatusCreated)
			want := docJSON{ID: d.ID, UserID: userID, AccountID: a.ID, DocumentURL: d.DocumentURL,
				DocumentName: "Payout March", Category: "payout-confirmation", FileName: tt.name,
				FileSize: int64(len(content)), MIMEType: tt.mime, CreatedAt: t0Text, UpdatedAt: t0Text}
			if tt.mime != "application/pdf" { // an image's thumbnail is its link at 320 px
				want.ThumbnailURL = d.DocumentURL + "&w=320"
			}
			if d != want {
				t.Errorf("document:\n got %+v\nwant %+v", d, want)
			}
			if !linkPattern.MatchString(d.DocumentURL) {
				t.Errorf("document_url: got %s, want %s", d.DocumentURL, linkPattern)
			}
			sum := sha256.Sum256(content)
			hash := hex.EncodeToString(sum[:])
			if got := ts.storeFiles(t, filepath.Join("sha256", hash[:2])); len(got) != 1 || got[0] != hash {
				t.Errorf("blob folder %s: got %v, want [%s]", hash[:2], got, hash)
			}

			w := ts.download(t, d.DocumentURL, nil)
			if w.Code != http.StatusOK || !bytes.Equal(w.Body.Bytes(), content) {
				t.Fatalf("download: got %d, %d bytes, want 200 and the %d bytes uploaded", w.Code, w.Body.Len(), len(content))
			}
			for h, want := range map[string]string{
				"Content-Type":            tt.mime,
				"Content-Length":          strconv.Itoa(len(content)),
				"X-Content-Type-Options":  "nosniff",
				"Content-Security-Policy": "sandbox",
				"Content-Disposition":     tt.disposition,
				"Etag":                    `"` + hash + `"`,
				"Cache-Control":           "private, no-cache",
			} {
				if got := w.Header().Get(h); got != want {
					t.Errorf("%s: got %q, want %q", h, got, want)
				}
			}
		})
	}
	ts.noTempFiles(t)
}

// TestUploadRefused: every refusal answers in the nested body, names what
// is wrong, and leaves no row, no blob and no temp file.
func TestUploadRefused(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	_, bobKey := ts.newUser(t, "bob")
	ts.createAccount(t, key, `{"account_number":"A-1"}`)
	ts.createAccount(t, bobKey, `{"account_number":"B-1"}`)
	pdf := testdata(t, "payout.pdf")
	text := filePart("notes.png", testdata(t, "not-an-image.png"))
	text.contentType = "image/png"
	without := func(name string) []part {
		var out []part
		for _, p := range form("A-1", filePart("p.pdf", pdf)) {
			if p.name != name {
				out = append(out, p)
			}
		}
		return out
	}
	with := func(extra ...part) []part { return append(form("A-1", filePart("p.pdf", pdf)), extra...) }
	const unknownID = "0194d2f0-0000-7000-8000-000000000001"

	tests := []struct {
		name          string
		parts         []part
		status        int
		code, message string
		field         string
	}{
		{"text named .png", form("A-1", text), 400, "VALIDATION_ERROR", "", "file"},
		{"executable", form("A-1", filePart("setup.pdf", testdata(t, "fake.exe"))), 400, "VALIDATION_ERROR", "", "file"},
		{"empty file", form("A-1", filePart("p.pdf", nil)), 400, "VALIDATION_ERROR", "", "file"},
		{"two files", with(filePart("q.pdf", pdf)), 400, "VALIDATION_ERROR", "", "file"},
		{"no file", without("file"), 400, "VALIDATION_ERROR", "", "file"},
		{"no document_name", without("document_name"), 400, "VALIDATION_ERROR", "", "document_name"},
		{"no category", without("category"), 400, "VALIDATION_ERROR", "", "category"},
		{"no account_number", without("account_number"), 400, "VALIDATION_ERROR", "", "account_number"},
		{"unknown category", append(without("category"), field("category", "invoice")), 400, "VALIDATION_ERROR", "", "category"},
		{"document_name over 4 KiB", append(without("document_name"), field("document_name", strings.Repeat("x", 4097))),
			400, "VALIDATION_ERROR", "", "document_name"},
		{"document_name twice", with(field("document_name", "again")), 400, "VALIDATION_ERROR", "", "document_name"},
		{"replace without document_id", with(field("replace", "true")), 400, "VALIDATION_ERROR", "", "document_id"},
		{"document_id without replace", with(field("document_id", unknownID)), 400, "VALIDATION_ERROR", "", "document_id"},
		{"replace not a boolean", with(field("replace", "yes please")), 400, "VALIDATION_ERROR", "", "replace"},
		{"malformed document_id", with(field("replace", "true"), field("document_id", "42")), 400, "VALIDATION_ERROR", "", "document_id"},
		{"unknown document_id", with(field("replace", "true"), field("document_id", unknownID)),
			404, "NOT_FOUND", "Document not found", "document_id"},
		{"unknown account_number", form("X-9", filePart("p.pdf", pdf)), 404, "NOT_FOUND", "Account not found", "account_number"},
		{"another user's account_number", form("B-1", filePart("p.pdf", pdf)), 404, "NOT_FOUND", "Account not found", "account_number"},
	}
	raw := ts.sql(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantNested(t, ts.upload(t, key, tt.parts), tt.status, tt.code, tt.message, tt.field)
			ts.noTempFiles(t)
			if got := ts.storeFiles(t, "sha256"); len(got) != 0 {
				t.Errorf("blobs: got %v, want none", got)
			}
			if n := count(t, raw, `SELECT count(*) FROM documents`); n != 0 {
				t.Errorf("documents: got %d, want 0", n)
			}
		})
	}

	t.Run("not multipart", func(t *testing.T) {
		w := ts.request(t, "POST", "/api/v1/documents", key, `{"document_name":"x"}`)
		wantNested(t, w, 400, "VALIDATION_ERROR", "", "body")
	})
}

// TestUploadFieldOrder: the form's parts may come in any order, and parts
// the API does not know are ignored.
func TestUploadFieldOrder(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	ts.createAccount(t, key, `{"account_number":"A-1"}`)
	pdf := testdata(t, "payout.pdf")
	orders := map[string][]part{
		"file first": {filePart("p.pdf", pdf), field("account_number", "A-1"), field("category", "receipt"),
			field("document_name", "Fee")},
		"file last": {field("account_number", "A-1"), field("category", "receipt"), field("document_name", "Fee"),
			filePart("p.pdf", pdf)},
		"file between, extra parts": {field("note", "hi"), field("account_number", " A-1 "), filePart("p.pdf", pdf),
			field("category", "receipt"), {name: "thumbnail", fileName: "t.png", content: strings.NewReader("x")},
			field("document_name", "Fee")},
	}
	for name, parts := range orders {
		d := ts.mustUpload(t, key, parts, http.StatusCreated)
		if d.DocumentName != "Fee" || d.Category != "receipt" || d.FileSize != int64(len(pdf)) {
			t.Errorf("%s: got %+v", name, d)
		}
	}
}

// TestUploadFileNames: a stored file name is a base name without control
// characters, at most 255 bytes, whatever the client sent.
func TestUploadFileNames(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	ts.createAccount(t, key, `{"account_number":"A-1"}`)
	pdf := testdata(t, "payout.pdf")
	é := strings.Repeat("%C3%A9", 200) // 400 bytes
	tests := []struct{ disposition, want, wantHeader string }{
		{`form-data; name="file"; filename="../../etc/receipt.pdf"`, "receipt.pdf", `attachment; filename=receipt.pdf`},
		{`form-data; name="file"; filename="C:\\Users\\me\\fee.pdf"`, "fee.pdf", `attachment; filename=fee.pdf`},
		{`form-data; name="file"; filename*=UTF-8''Auszahlung%20M%C3%A4rz.pdf`, "Auszahlung März.pdf",
			`attachment; filename*=utf-8''Auszahlung%20M%C3%A4rz.pdf`},
		// Stored as given, cleaned; served with its sniffed type's extension.
		{`form-data; name="file"; filename*=UTF-8''bell%07%E2%80%AEfdp.exe`, "bellfdp.exe", `attachment; filename=bellfdp.exe.pdf`},
		{`form-data; name="file"; filename="x.pdf.html"`, "x.pdf.html", `attachment; filename=x.pdf.html.pdf`},
		{`form-data; name="file"; filename="SCAN.PDF"`, "SCAN.PDF", `attachment; filename=SCAN.PDF`},
		{`form-data; name="file"; filename="` + strings.Repeat("a", 300) + `.pdf"`, strings.Repeat("a", 251) + ".pdf", ""},
		{`form-data; name="file"; filename*=UTF-8''` + é + `.pdf`, strings.Repeat("é", 125) + ".pdf", ""},
		{`form-data; name="file"; filename="quote\".pdf"`, `quote".pdf`, `attachment; filename="quote\".pdf"`},
		{`form-data; name="file"; filename=".."`, "document.pdf", `attachment; filename=document.pdf`},
		{`form-data; name="file"`, "document.pdf", `attachment; filename=document.pdf`},
	}
	for _, tt := range tests {
		file := filePart("", pdf)
		file.disposition = tt.disposition
		d := ts.mustUpload(t, key, form("A-1", file), http.StatusCreated)
		if d.FileName != tt.want || len(d.FileName) > 255 {
			t.Errorf("%s: file_name got %q (%d bytes), want %q", tt.disposition, d.FileName, len(d.FileName), tt.want)
		}
		w := ts.download(t, d.DocumentURL, nil)
		if w.Code != http.StatusOK {
			t.Errorf("%s: download got %d %s, want 200", tt.disposition, w.Code, w.Body)
		}
		if got := w.Header().Get("Content-Disposition"); tt.wantHeader != "" && got != tt.wantHeader {
			t.Errorf("%s: Content-Disposition got %s, want %s", tt.disposition, got, tt.wantHeader)
		}
	}
}
