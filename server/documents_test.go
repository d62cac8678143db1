package server_test

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"path/filepath"
	"testing"
	"time"
)

// blobName is where content's blob lives under files/sha256.
func blobName(content []byte) string {
	sum := sha256.Sum256(content)
	h := hex.EncodeToString(sum[:])
	return filepath.Join(h[:2], h)
}

// deletedBody is the exact answer of a document's delete.
func deletedBody(id string, removed bool) string {
	r := "false"
	if removed {
		r = "true"
	}
	return `{"success":true,"deleted_id":"` + id + `","warnings":[],"file_removed":` + r + "}\n"
}

// TestDocumentReplace: a replace keeps the id and created_at, moves
// updated_at, describes the new file, releases the old blob, and the link
// read before it serves the new file.
func TestDocumentReplace(t *testing.T) {
	ts := newTestServer(t)
	ts.pinClock(t0)
	_, key := ts.newUser(t, "alice")
	ts.createAccount(t, key, `{"account_number":"A-1"}`)
	pdf, png := testdata(t, "payout.pdf"), testdata(t, "certificate.png")
	d := ts.mustUpload(t, key, form("A-1", filePart("payout.pdf", pdf)), http.StatusCreated)

	later := t0.Add(time.Hour)
	ts.pinClock(later)
	r := ts.mustUpload(t, key, []part{field("replace", "true"), field("document_id", d.ID),
		filePart("scan.png", png)}, http.StatusOK)
	want := d
	want.DocumentURL, want.ThumbnailURL = r.DocumentURL, r.DocumentURL+"&w=320" // now an image
	want.FileName, want.FileSize, want.MIMEType = "scan.png", int64(len(png)), "image/png"
	want.UpdatedAt = later.UTC().Format("2006-01-02T15:04:05.000Z")
	if r != want {
		t.Errorf("replaced:\n got %+v\nwant %+v", r, want)
	}
	if got := ts.storeFiles(t, "sha256"); len(got) != 1 || got[0] != blobName(png) {
		t.Errorf("blobs: got %v, want only the new file's [%s]", got, blobName(png))
	}
	if w := ts.download(t, d.DocumentURL, nil); w.Code != 200 || w.Body.String() != string(png) ||
		w.Header().Get("Content-Type") != "image/png" {
		t.Errorf("the old link: got %d %s, want 200 and the new PNG", w.Code, w.Header().Get("Content-Type"))
	}

	// With metadata in the form, the replace changes that too; a blob
	// another document uses stays.
	ts.createAccount(t, key, `{"account_number":"A-2"}`)
	ts.mustUpload(t, key, form("A-1", filePart("copy.png", png)), http.StatusCreated)
	r = ts.mustUpload(t, key, []part{field("replace", "TRUE"), field("document_id", d.ID), field("category", "receipt"),
		field("document_name", "Fee"), field("account_number", "A-2"), filePart("p.pdf", pdf)}, http.StatusOK)
	if r.Category != "receipt" || r.DocumentName != "Fee" || r.AccountID == d.AccountID || r.ID != d.ID {
		t.Errorf("replace with metadata: got %+v", r)
	}
	if got := ts.storeFiles(t, "sha256"); len(got) != 2 {
		t.Errorf("blobs: got %v, want the PDF and the still used PNG", got)
	}
	ts.noTempFiles(t)
}

// TestDocumentDedupe: identical bytes are one blob, which goes with its
// last document; file_removed says so.
func TestDocumentDedupe(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	_, bob := ts.newUser(t, "bob")
	ts.createAccount(t, key, `{"account_number":"A-1"}`)
	ts.createAccount(t, bob, `{"account_number":"B-1"}`)
	jpg := testdata(t, "receipt.jpg")
	first := ts.mustUpload(t, key, form("A-1", filePart("a.jpg", jpg)), http.StatusCreated)
	second := ts.mustUpload(t, key, form("A-1", filePart("b.jpg", jpg)), http.StatusCreated)
	if first.ID == second.ID || first.FileSize != second.FileSize {
		t.Errorf("two uploads: got %+v and %+v, want two documents of one size", first, second)
	}
	if got := ts.storeFiles(t, "sha256"); len(got) != 1 || got[0] != blobName(jpg) {
		t.Errorf("blobs: got %v, want one [%s]", got, blobName(jpg))
	}

	status, body := ts.do(t, "DELETE", "/api/v1/documents/"+first.ID, key, "")
	if want := deletedBody(first.ID, false); status != 200 || string(body) != want {
		t.Errorf("delete of a shared file: got %d %s, want 200 %s", status, body, want)
	}
	if w := ts.download(t, second.DocumentURL, nil); w.Code != 200 || w.Body.String() != string(jpg) {
		t.Errorf("the other document's download: got %d, want 200 and its bytes", w.Code)
	}
	status, body = ts.do(t, "DELETE", "/api/v1/documents/"+second.ID, key, "")
	if want := deletedBody(second.ID, true); status != 200 || string(body) != want {
		t.Errorf("delete of the last use: got %d %s, want 200 %s", status, body, want)
	}
	if got := ts.storeFiles(t, "sha256"); len(got) != 0 {
		t.Errorf("blobs: got %v, want none", got)
	}

	// Another user's copy keeps the blob, but whether one exists is not
	// bob's to learn: for him the file is gone.
	mine := ts.mustUpload(t, key, form("A-1", filePart("a.jpg", jpg)), http.StatusCreated)
	his := ts.mustUpload(t, bob, form("B-1", filePart("b.jpg", jpg)), http.StatusCreated)
	status, body = ts.do(t, "DELETE", "/api/v1/documents/"+his.ID, bob, "")
	if want := deletedBody(his.ID, true); status != 200 || string(body) != want {
		t.Errorf("bob's delete: got %d %s, want 200 %s", status, body, want)
	}
	if w := ts.download(t, mine.DocumentURL, nil); w.Code != 200 || w.Body.String() != string(jpg) {
		t.Errorf("alice's download after bob's delete: got %d, want 200 and her bytes", w.Code)
	}
}

func TestDocumentGetUpdate(t *testing.T) {
	ts := newTestServer(t)
	ts.pinClock(t0)
	_, key := ts.newUser(t, "alice")
	ts.createAccount(t, key, `{"account_number":"A-1"}`)
	d := ts.mustUpload(t, key, form("A-1", filePart("p.pdf", testdata(t, "payout.pdf"))), http.StatusCreated)
	if got := decode[struct{ Data docJSON }](t, must200(t, ts, "/api/v1/documents/"+d.ID, key)).Data; got != d {
		t.Errorf("GET: got %+v, want %+v", got, d)
	}
	later := t0.Add(time.Minute)
	ts.pinClock(later)
	laterText := later.Format("2006-01-02T15:04:05.000Z")

	tests := []struct {
		body       string
		wantStatus int
		wantName   string
		wantCat    string
		wantField  string // of a 400
	}{
		{`{"document_name":"  Payout April  "}`, 200, "Payout April", "payout-confirmation", ""},
		{`{"category":"receipt","id":"ignored","file_name":"ignored"}`, 200, "Payout April", "receipt", ""},
		{`{}`, 200, "Payout April", "receipt", ""},
		{`{"document_name":""}`, 400, "", "", "document_name"},
		{`{"document_name":null}`, 400, "", "", "document_name"},
		{`{"category":null}`, 400, "", "", "category"},
		{`{"category":"invoice"}`, 400, "", "", "category"},
		{`{"category":7}`, 400, "", "", "category"},
		{`not json`, 400, "", "", "body"},
	}
	for _, tt := range tests {
		w := ts.request(t, "PUT", "/api/v1/documents/"+d.ID, key, tt.body)
		if tt.wantStatus != 200 {
			wantNested(t, w, tt.wantStatus, "VALIDATION_ERROR", "", tt.wantField)
			continue
		}
		got := decode[struct{ Data docJSON }](t, w.Body.Bytes()).Data
		if w.Code != 200 || got.DocumentName != tt.wantName || got.Category != tt.wantCat ||
			got.UpdatedAt != laterText || got.CreatedAt != t0Text || got.FileName != "p.pdf" {
			t.Errorf("PUT %s: got %d %+v, want 200 %q %q updated %s", tt.body, w.Code, got, tt.wantName, tt.wantCat, laterText)
		}
	}
	const unknown = "/api/v1/documents/0194d2f0-0000-7000-8000-000000000001"
	wantNested(t, ts.request(t, "PUT", unknown, key, `{"category":"receipt"}`), 404, "NOT_FOUND", "Document not found", "")
	wantNested(t, ts.request(t, "GET", "/api/v1/documents/not-a-uuid", key, ""), 404, "NOT_FOUND", "Document not found", "")
	wantNested(t, ts.request(t, "DELETE", unknown, key, ""), 404, "NOT_FOUND", "Document not found", "")
}

// TestDocumentIsolation: bob can never read, change, replace or delete
// alice's document, and the answers are those of an id that names nothing.
func TestDocumentIsolation(t *testing.T) {
	ts := newTestServer(t)
	_, alice := ts.newUser(t, "alice")
	_, bob := ts.newUser(t, "bob")
	ts.createAccount(t, alice, `{"account_number":"A-1"}`)
	ts.createAccount(t, bob, `{"account_number":"B-1"}`)
	pdf := testdata(t, "payout.pdf")
	d := ts.mustUpload(t, alice, form("A-1", filePart("p.pdf", pdf)), http.StatusCreated)
	before := decode[struct{ Data docJSON }](t, must200(t, ts, "/api/v1/documents/"+d.ID, alice)).Data
	const unknownID = "0194d2f0-0000-7000-8000-000000000001"

	for _, tt := range []struct{ method, body string }{{"GET", ""}, {"PUT", `{"document_name":"mine"}`}, {"DELETE", ""}} {
		w := ts.request(t, tt.method, "/api/v1/documents/"+d.ID, bob, tt.body)
		unknown := ts.request(t, tt.method, "/api/v1/documents/"+unknownID, bob, tt.body)
		wantNested(t, w, 404, "NOT_FOUND", "Document not found", "")
		if w.Body.String() != unknown.Body.String() {
			t.Errorf("bob %s: body %s differs from an unknown id's %s", tt.method, w.Body, unknown.Body)
		}
	}
	replace := []part{field("replace", "true"), field("document_id", d.ID), field("account_number", "B-1"),
		filePart("x.png", testdata(t, "certificate.png"))}
	wantNested(t, ts.upload(t, bob, replace), 404, "NOT_FOUND", "Document not found", "document_id")
	if l := decode[listBody[docJSON]](t, must200(t, ts, "/api/v1/documents", bob)); len(l.Data) != 0 || l.Pagination.Total != 0 {
		t.Errorf("bob's list: got %+v, want empty", l)
	}
	after := decode[struct{ Data docJSON }](t, must200(t, ts, "/api/v1/documents/"+d.ID, alice)).Data
	after.DocumentURL = before.DocumentURL
	if after != before {
		t.Errorf("alice's document after bob's attempts:\n got %+v\nwant %+v", after, before)
	}
	if w := ts.download(t, d.DocumentURL, nil); w.Body.String() != string(pdf) {
		t.Errorf("alice's file after bob's attempts: got %d bytes, want her %d", w.Body.Len(), len(pdf))
	}
}

// TestDocumentScopes: documents:read reads, documents:write writes, and
// other scopes do neither.
func TestDocumentScopes(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	ts.createAccount(t, key, `{"account_number":"A-1"}`)
	d := ts.mustUpload(t, key, form("A-1", filePart("p.pdf", testdata(t, "payout.pdf"))), http.StatusCreated)
	_, read := ts.newKey(t, "alice", "documents:read", false)
	_, write := ts.newKey(t, "alice", "documents:write", false)
	_, accounts := ts.newKey(t, "alice", "accounts:write", false)
	forbidden := func(scope string) string {
		return `{"error":"This API key lacks the ` + scope + ` scope","code":"FORBIDDEN"}` + "\n"
	}
	tests := []struct {
		key, method, target, body string
		wantStatus                int
		wantBody                  string
	}{
		{read, "GET", "/api/v1/documents", "", 200, ""},
		{read, "GET", "/api/v1/documents/" + d.ID, "", 200, ""},
		{read, "PUT", "/api/v1/documents/" + d.ID, `{"category":"receipt"}`, 403, forbidden("documents:write")},
		{read, "DELETE", "/api/v1/documents/" + d.ID, "", 403, forbidden("documents:write")},
		{accounts, "GET", "/api/v1/documents", "", 403, forbidden("documents:read")},
		{write, "GET", "/api/v1/documents/" + d.ID, "", 200, ""},
		{write, "PUT", "/api/v1/documents/" + d.ID, `{"category":"receipt"}`, 200, ""},
	}
	for _, tt := range tests {
		status, body := ts.do(t, tt.method, tt.target, tt.key, tt.body)
		if status != tt.wantStatus || (tt.wantBody != "" && string(body) != tt.wantBody) {
			t.Errorf("%s %s: got %d %s, want %d %s", tt.method, tt.target, status, body, tt.wantStatus, tt.wantBody)
		}
	}
	pdf := filePart("p.pdf", testdata(t, "payout.pdf"))
	if w := ts.upload(t, read, form("A-1", pdf)); w.Code != 403 || w.Body.String() != forbidden("documents:write") {
		t.Errorf("upload with documents:read: got %d %s, want 403", w.Code, w.Body)
	}
	ts.mustUpload(t, write, form("A-1", filePart("p.pdf", testdata(t, "payout.pdf"))), http.StatusCreated)
	ts.noTempFiles(t)
}

// TestAccountCascadeRemovesBlobs: deleting an account with its documents
// removes the blobs no other document uses, and keeps the rest.
func TestAccountCascadeRemovesBlobs(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	a := ts.createAccount(t, key, `{"account_number":"A-1"}`)
	ts.createAccount(t, key, `{"account_number":"A-2"}`)
	pdf, png := testdata(t, "payout.pdf"), testdata(t, "certificate.png")
	ts.mustUpload(t, key, form("A-1", filePart("p.pdf", pdf)), http.StatusCreated)
	ts.mustUpload(t, key, form("A-1", filePart("c.png", png)), http.StatusCreated)
	kept := ts.mustUpload(t, key, form("A-2", filePart("c.png", png)), http.StatusCreated)

	status, body := ts.do(t, "DELETE", "/api/v1/accounts/"+a.ID+"?cascade=true", key, "")
	if want := `{"success":true,"deleted_id":"` + a.ID + `","warnings":["Deleted 2 documents"]}` + "\n"; status != 200 || string(body) != want {
		t.Errorf("cascade: got %d %s, want 200 %s", status, body, want)
	}
	if got := ts.storeFiles(t, "sha256"); len(got) != 1 || got[0] != blobName(png) {
		t.Errorf("blobs: got %v, want only the PNG another account's document uses", got)
	}
	if w := ts.download(t, kept.DocumentURL, nil); w.Code != 200 || w.Body.String() != string(png) {
		t.Errorf("the kept document's download: got %d, want 200 and its bytes", w.Code)
	}
}
