package db

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// hashOf makes a fake blob hash from one character.
func hashOf(c string) string { return strings.Repeat(c, 64) }

func upload(number, hash string) DocumentUpload {
	return DocumentUpload{AccountNumber: number, DocumentName: "Payout", Category: "receipt",
		FileName: "p.pdf", FileSize: 3, MIMEType: "application/pdf", BlobHash: hash}
}

// placed counts the calls of a place callback.
type placed struct{ n int }

func (p *placed) place() error { p.n++; return nil }

func TestCreateDocumentPlacesOnlyWhenAccepted(t *testing.T) {
	d := newTestDB(t)
	u := newTestUser(t, d, "alice")
	other := newTestUser(t, d, "bob")
	if _, err := d.CreateAccount(t.Context(), other.ID, AccountInput{AccountNumber: Some("B-1")}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.CreateAccount(t.Context(), u.ID, AccountInput{AccountNumber: Some("A-1")}); err != nil {
		t.Fatal(err)
	}

	var p placed
	_, err := d.CreateDocument(t.Context(), u.ID, upload("B-1", hashOf("a")), p.place)
	var nf *NotFoundError
	if !errors.As(err, &nf) || nf.Kind != "Account" || nf.Field != "account_number" {
		t.Errorf("another user's account: got %v, want Account not found on account_number", err)
	}
	if p.n != 0 {
		t.Errorf("place calls for a refused upload: got %d, want 0", p.n)
	}

	boom := errors.New("disk full")
	_, err = d.CreateDocument(t.Context(), u.ID, upload("A-1", hashOf("a")), func() error { return boom })
	if !errors.Is(err, boom) {
		t.Errorf("failing place: got %v, want %v", err, boom)
	}
	if _, total, _ := d.Documents(t.Context(), u.ID, DocumentFilter{}, Page{Limit: 10}); total != 0 {
		t.Errorf("documents after a failed place: got %d, want 0 (rolled back)", total)
	}

	doc, err := d.CreateDocument(t.Context(), u.ID, upload("A-1", hashOf("a")), p.place)
	if err != nil || p.n != 1 {
		t.Fatalf("CreateDocument: %v, %d place calls, want nil, 1", err, p.n)
	}
	if got, err := d.Document(t.Context(), u.ID, doc.ID); err != nil || got != doc {
		t.Errorf("Document: got %+v, %v, want %+v", got, err, doc)
	}
}

// TestBlobAccounting: a blob is reported unused exactly when its last row
// goes, by a replace, a delete or an account's cascade.
func TestBlobAccounting(t *testing.T) {
	d := newTestDB(t)
	u := newTestUser(t, d, "alice")
	ctx := t.Context()
	acct, err := d.CreateAccount(ctx, u.ID, AccountInput{AccountNumber: Some("A-1")})
	if err != nil {
		t.Fatal(err)
	}
	var p placed
	create := func(hash string) Document {
		doc, err := d.CreateDocument(ctx, u.ID, upload("A-1", hash), p.place)
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	a1, a2 := create(hashOf("a")), create(hashOf("a"))
	create(hashOf("b"))

	// a1 moves to c while a2 still uses a; then a2 moves to a (itself).
	if _, unused, err := d.ReplaceDocument(ctx, u.ID, a1.ID, upload("", hashOf("c")), p.place); err != nil || unused != "" {
		t.Errorf("replace of a shared blob: got %q, %v, want \"\", nil", unused, err)
	}
	if _, unused, err := d.ReplaceDocument(ctx, u.ID, a2.ID, upload("", hashOf("a")), p.place); err != nil || unused != "" {
		t.Errorf("replace with the same bytes: got %q, %v, want \"\", nil", unused, err)
	}
	got, unused, err := d.ReplaceDocument(ctx, u.ID, a2.ID, upload("", hashOf("d")), p.place)
	if err != nil || unused != hashOf("a") {
		t.Errorf("replace of the last use: got %q, %v, want %q", unused, err, hashOf("a"))
	}
	if got.ID != a2.ID || got.CreatedAt != a2.CreatedAt || got.BlobHash != hashOf("d") {
		t.Errorf("replaced: got %+v, want id, created_at kept and blob d", got)
	}
	if _, _, err := d.ReplaceDocument(ctx, "nobody", a2.ID, upload("", hashOf("e")), p.place); err == nil {
		t.Errorf("replace by another user: got nil, want not found")
	}

	e := create(hashOf("b")) // b now has two rows
	if del, err := d.DeleteDocument(ctx, u.ID, e.ID); err != nil || del.Blob != hashOf("b") || del.Unused {
		t.Errorf("delete of a shared blob: got %+v, %v, want blob b, not unused", del, err)
	}
	create(hashOf("c")) // c: a1 and this one; d: a2; b: b
	del, err := d.DeleteAccount(ctx, u.ID, acct.ID, true)
	slices.Sort(del.Blobs)
	if want := []string{hashOf("b"), hashOf("c"), hashOf("d")}; err != nil || !slices.Equal(del.Blobs, want) {
		t.Errorf("cascade: got %v, %v, want %v", del.Blobs, err, want)
	}
}

// TestDocumentDates: the upload date filter reads created_at as a day in
// the user's timezone.
func TestDocumentDates(t *testing.T) {
	d := newTestDB(t)
	u := newTestUser(t, d, "alice")
	ctx := t.Context()
	if _, err := d.CreateAccount(ctx, u.ID, AccountInput{AccountNumber: Some("A-1")}); err != nil {
		t.Fatal(err)
	}
	// 03:00 UTC on the 6th is 22:00 on the 5th in New York.
	pinClock(d, time.Date(2026, 2, 6, 3, 0, 0, 0, time.UTC))
	var p placed
	if _, err := d.CreateDocument(ctx, u.ID, upload("A-1", hashOf("a")), p.place); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tz, start, end string
		want           int
	}{
		{"America/New_York", "2026-02-05", "2026-02-05", 1},
		{"America/New_York", "2026-02-06", "", 0},
		{"America/New_York", "", "2026-02-04", 0},
		{"UTC", "2026-02-06", "2026-02-06", 1},
		{"UTC", "2026-02-05", "2026-02-05", 0},
		{"Asia/Tokyo", "2026-02-06", "2026-02-06", 1},
	}
	for _, tt := range tests {
		f := DocumentFilter{StartDate: tt.start, EndDate: tt.end, Timezone: tt.tz}
		if _, total, err := d.Documents(ctx, u.ID, f, Page{Limit: 10}); err != nil || total != tt.want {
			t.Errorf("%s %s..%s: got %d, %v, want %d", tt.tz, tt.start, tt.end, total, err, tt.want)
		}
	}
}

// TestPlacedBlobCommitsWhateverTheContext: once place has put the blob in
// the store, a request context cancelled (a client gone) must not roll the
// row back, or the blob would be left with no row using it.
func TestPlacedBlobCommitsWhateverTheContext(t *testing.T) {
	d := newTestDB(t)
	u := newTestUser(t, d, "alice")
	if _, err := d.CreateAccount(t.Context(), u.ID, AccountInput{AccountNumber: Some("A-1")}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	placeThenGone := func() error { cancel(); return nil }
	doc, err := d.CreateDocument(ctx, u.ID, upload("A-1", hashOf("a")), placeThenGone)
	if err != nil {
		t.Fatalf("CreateDocument whose context ends after place: %v, want the row committed", err)
	}
	if _, err := d.Document(t.Context(), u.ID, doc.ID); err != nil {
		t.Fatalf("the document after its context ended: %v, want it stored", err)
	}

	ctx, cancel = context.WithCancel(t.Context())
	placeThenGone = func() error { cancel(); return nil }
	if _, _, err := d.ReplaceDocument(ctx, u.ID, doc.ID, DocumentUpload{BlobHash: hashOf("b"), FileName: "q.pdf",
		FileSize: 3, MIMEType: "application/pdf"}, placeThenGone); err != nil {
		t.Fatalf("ReplaceDocument whose context ends after place: %v, want the row committed", err)
	}
	if got, err := d.Document(t.Context(), u.ID, doc.ID); err != nil || got.BlobHash != hashOf("b") {
		t.Errorf("the document after its replace's context ended: blob %s (%v), want the new one", got.BlobHash, err)
	}
}
