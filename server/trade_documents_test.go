package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"strings"
	"testing"
)

// tradeDocJSON is one of a trade's documents as the API shows it.
type tradeDocJSON struct {
	ID           string  `json:"id"`
	DocumentName string  `json:"document_name"`
	FileName     string  `json:"file_name"`
	MIMEType     string  `json:"mime_type"`
	DocumentURL  string  `json:"document_url"`
	ThumbnailURL *string `json:"thumbnail_url"`
}

// tradeDocs reads a trade answer's document_ids and documents.
func tradeDocs(t *testing.T, body []byte) ([]string, []tradeDocJSON) {
	t.Helper()
	var a struct {
		Data struct {
			DocumentIDs []string       `json:"document_ids"`
			Documents   []tradeDocJSON `json:"documents"`
		}
	}
	if err := json.Unmarshal(body, &a); err != nil {
		t.Fatal(err)
	}
	return a.Data.DocumentIDs, a.Data.Documents
}

// widePNG is a real PNG of w x h pixels.
func widePNG(t testing.TB, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 128, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestTradeDocuments: a trade links the caller's documents in the order
// given, on create and on update (which replaces the set, [] clears it);
// its answers show them with signed links and an image's thumbnail link;
// list items count them; another user's document is a 404 naming its
// place, and nothing changes.
func TestTradeDocuments(t *testing.T) {
	e := newTradeEnv(t)
	chart := e.mustUpload(t, e.key, form("APEX-1", filePart("chart.png", widePNG(t, 800, 400))), http.StatusCreated)
	pdf := e.mustUpload(t, e.key, form("APEX-1", filePart("statement.pdf", samplePDF(t))), http.StatusCreated)

	status, body := e.do(t, "POST", "/api/v1/trades", e.key, e.tradeBody("ESH6", "long",
		fills(2.5, "buy 2@5000", "sell 2@5010")+fmt.Sprintf(`, "document_ids": [%q, %q]`, strings.ToUpper(pdf.ID), chart.ID)))
	if status != http.StatusCreated {
		t.Fatalf("create with documents: %d %s", status, body)
	}
	ids, docs := tradeDocs(t, body)
	id := decode[struct{ Data createdTrade }](t, body).Data.ID
	if len(ids) != 2 || ids[0] != pdf.ID || ids[1] != chart.ID || len(docs) != 2 ||
		docs[0].ThumbnailURL != nil || docs[1].ThumbnailURL == nil || *docs[1].ThumbnailURL != docs[1].DocumentURL+"&w=320" ||
		docs[1].MIMEType != "image/png" || docs[1].FileName != "chart.png" || !linkPattern.MatchString(docs[0].DocumentURL) {
		t.Fatalf("the create's documents: %v %+v", ids, docs)
	}
	got := must200(t, e.testServer, "/api/v1/trades/"+id, e.key)
	if gids, gdocs := tradeDocs(t, got); len(gids) != 2 || gids[0] != pdf.ID || len(gdocs) != 2 || gdocs[1].ID != chart.ID {
		t.Errorf("GET reads %v %+v", gids, gdocs)
	}
	list := string(must200(t, e.testServer, "/api/v1/trades", e.key))
	if !strings.Contains(list, `"document_count":2`) {
		t.Errorf("the list item does not count 2 documents: %s", list)
	}

	// Another user's document, at index 1: 404 naming it, nothing changed.
	_, bobKey := e.newUser(t, "bob")
	e.createAccount(t, bobKey, `{"account_number": "BOB-1"}`)
	bobs := e.mustUpload(t, bobKey, form("BOB-1", filePart("b.pdf", samplePDF(t))), http.StatusCreated)
	before := string(must200(t, e.testServer, "/api/v1/trades/"+id, e.key))
	status, body = e.do(t, "PUT", "/api/v1/trades/"+id, e.key, fmt.Sprintf(`{"document_ids": [%q, %q]}`, chart.ID, bobs.ID))
	if status != http.StatusNotFound || !strings.Contains(string(body), `"document_ids[1]"`) {
		t.Errorf("another user's document: %d %s, want 404 naming document_ids[1]", status, body)
	}
	if after := string(must200(t, e.testServer, "/api/v1/trades/"+id, e.key)); after != before {
		t.Error("a refused PUT changed the trade")
	}
	status, body = e.do(t, "PUT", "/api/v1/trades/"+id, e.key, `{"document_ids": ["not-a-uuid"]}`)
	if status != http.StatusBadRequest || !strings.Contains(string(body), `"document_ids[0]"`) {
		t.Errorf("a malformed id: %d %s, want 400 naming document_ids[0]", status, body)
	}

	// Update replaces; [] clears.
	status, body = e.do(t, "PUT", "/api/v1/trades/"+id, e.key, fmt.Sprintf(`{"document_ids": [%q]}`, chart.ID))
	if ids, docs := tradeDocs(t, body); status != 200 || len(ids) != 1 || ids[0] != chart.ID || len(docs) != 1 {
		t.Errorf("PUT one document: %d %v %+v", status, ids, docs)
	}
	status, body = e.do(t, "PUT", "/api/v1/trades/"+id, e.key, `{"document_ids": []}`)
	if ids, docs := tradeDocs(t, body); status != 200 || len(ids) != 0 || len(docs) != 0 {
		t.Errorf("PUT []: %d %v %+v", status, ids, docs)
	}
}

// TestUploadToATrade: an upload naming a trade_id is stored and linked to
// that trade, last, in its account (account_number may be left out);
// another user's trade is a 404 naming trade_id and stores nothing.
// Deleting the document unlinks it, and deleting a trade keeps its
// documents, each saying so.
func TestUploadToATrade(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	parts := []part{field("trade_id", tr.ID), field("document_name", "Entry"), field("category", "receipt"),
		filePart("entry.png", widePNG(t, 400, 200))}
	d := e.mustUpload(t, e.key, parts, http.StatusCreated)
	if d.AccountID != e.accountID {
		t.Errorf("the trade's document is in account %s, want the trade's %s", d.AccountID, e.accountID)
	}
	ids, _ := tradeDocs(t, must200(t, e.testServer, "/api/v1/trades/"+tr.ID, e.key))
	if len(ids) != 1 || ids[0] != d.ID {
		t.Fatalf("the trade's documents after the upload: %v", ids)
	}

	_, bobKey := e.newUser(t, "bob")
	e.createAccount(t, bobKey, `{"account_number": "BOB-1"}`)
	w := e.upload(t, bobKey, []part{field("trade_id", tr.ID), field("document_name", "x"), field("category", "receipt"),
		filePart("x.pdf", samplePDF(t))})
	if w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), `"trade_id"`) {
		t.Errorf("bob uploading to alice's trade: %d %s, want 404 naming trade_id", w.Code, w.Body)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM documents`); n != 1 {
		t.Errorf("%d documents after the refused upload, want 1", n)
	}

	second := e.mustUpload(t, e.key, []part{field("trade_id", tr.ID), field("document_name", "Exit"), field("category", "receipt"),
		filePart("exit.pdf", samplePDF(t))}, http.StatusCreated)
	status, body := e.do(t, "DELETE", "/api/v1/documents/"+second.ID, e.key, "")
	if status != 200 || !strings.Contains(string(body), "Unlinked from 1 trade") {
		t.Errorf("deleting a trade's document: %d %s, want the unlink warning", status, body)
	}
	status, body = e.do(t, "DELETE", "/api/v1/trades/"+tr.ID, e.key, "")
	if status != 200 || !strings.Contains(string(body), "Kept 1 document") {
		t.Errorf("deleting a trade with a document: %d %s, want the keep warning", status, body)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM documents`); n != 1 {
		t.Errorf("%d documents after the trade's delete, want its 1 kept", n)
	}
}

// TestThumbnails: a PNG's thumbnail link serves it scaled to 320 px wide
// (height in proportion), as PNG, made once and kept; an image no wider is
// served as it is; a PDF asked with w is its own file; another w is a 400
// naming w.
func TestThumbnails(t *testing.T) {
	e := newTradeEnv(t)
	wide := e.mustUpload(t, e.key, form("APEX-1", filePart("wide.png", widePNG(t, 800, 400))), http.StatusCreated)
	w := e.download(t, wide.ThumbnailURL, nil)
	if w.Code != 200 || w.Header().Get("Content-Type") != "image/png" {
		t.Fatalf("the thumbnail: %d %s", w.Code, w.Header().Get("Content-Type"))
	}
	img, err := png.Decode(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 320 || b.Dy() != 160 {
		t.Errorf("the thumbnail is %dx%d, want 320x160", b.Dx(), b.Dy())
	}
	if etag := w.Header().Get("ETag"); !strings.HasSuffix(etag, `-w320"`) {
		t.Errorf("the thumbnail's ETag %s is the original's", etag)
	}
	if kept := e.storeFiles(t, "thumbs/320"); len(kept) != 1 {
		t.Errorf("files/thumbs/320 holds %v, want the one thumbnail", kept)
	}
	again := e.download(t, wide.ThumbnailURL, nil)
	if again.Code != 200 || again.Header().Get("ETag") != w.Header().Get("ETag") {
		t.Errorf("the second request: %d", again.Code)
	}

	narrow := e.mustUpload(t, e.key, form("APEX-1", filePart("narrow.png", widePNG(t, 200, 100))), http.StatusCreated)
	original := e.download(t, narrow.DocumentURL, nil).Header().Get("ETag")
	if w := e.download(t, narrow.ThumbnailURL, nil); w.Code != 200 || w.Header().Get("ETag") != original {
		t.Errorf("a narrow image at w=320: %d ETag %s, want the original", w.Code, w.Header().Get("ETag"))
	}
	pdf := e.mustUpload(t, e.key, form("APEX-1", filePart("s.pdf", samplePDF(t))), http.StatusCreated)
	if pdf.ThumbnailURL != "" {
		t.Errorf("a PDF's thumbnail_url: %q, want null", pdf.ThumbnailURL)
	}
	if w := e.download(t, pdf.DocumentURL+"&w=320", nil); w.Code != 200 || w.Header().Get("Content-Type") != "application/pdf" {
		t.Errorf("a PDF at w=320: %d %s", w.Code, w.Header().Get("Content-Type"))
	}
	for _, bad := range []string{"100", "abc", "", "320.0"} {
		w := e.download(t, wide.DocumentURL+"&w="+bad, nil)
		if w.Code != 400 || !strings.Contains(w.Body.String(), `"w":"w must be 160, 320, 640 or 1280"`) {
			t.Errorf("w=%q: %d %s, want a 400 naming w", bad, w.Code, w.Body)
		}
	}
}

// TestDeletedDocumentTakesItsThumbnails: deleting an image removes its
// thumbnails with its blob at once: a private receipt's picture does not
// stay on disk until the next check --repair.
func TestDeletedDocumentTakesItsThumbnails(t *testing.T) {
	e := newTradeEnv(t)
	d := e.mustUpload(t, e.key, form("APEX-1", filePart("receipt.png", widePNG(t, 800, 400))), http.StatusCreated)
	if w := e.download(t, d.ThumbnailURL, nil); w.Code != 200 {
		t.Fatalf("the thumbnail: %d", w.Code)
	}
	if kept := e.storeFiles(t, "thumbs/320"); len(kept) != 1 {
		t.Fatalf("thumbs/320 holds %v before the delete", kept)
	}
	if status, body := e.do(t, "DELETE", "/api/v1/documents/"+d.ID, e.key, ""); status != 200 {
		t.Fatalf("delete: %d %s", status, body)
	}
	if kept := e.storeFiles(t, "thumbs/320"); len(kept) != 0 {
		t.Errorf("thumbs/320 still holds %v after the delete", kept)
	}
}
