package db

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// docFixture is alice with two accounts, a trade on the first and three
// documents (one, two on A-1, three on A-2), and bob with a document of
// his own.
type docFixture struct {
	d                  *DB
	alice, bob         string
	account, account2  string // alice's
	trade              string // alice's, on A-1
	one, two, three    string // alice's documents
	bobDoc, bobAccount string
}

func newDocFixture(t *testing.T) docFixture {
	t.Helper()
	d := newTestDB(t)
	ctx := t.Context()
	f := docFixture{d: d, alice: newTestUser(t, d, "alice").ID, bob: newTestUser(t, d, "bob").ID}
	account := func(user, number string) string {
		a, err := d.CreateAccount(ctx, user, AccountInput{AccountNumber: Some(number)})
		if err != nil {
			t.Fatal(err)
		}
		return a.ID
	}
	f.account, f.account2, f.bobAccount = account(f.alice, "A-1"), account(f.alice, "A-2"), account(f.bob, "B-1")
	doc := func(user, number, name, file, mime, hash string) string {
		in := DocumentUpload{AccountNumber: number, DocumentName: name, Category: "receipt",
			FileName: file, FileSize: 3, MIMEType: mime, BlobHash: hashOf(hash)}
		doc, err := d.CreateDocument(ctx, user, in, func() error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		return doc.ID
	}
	f.one = doc(f.alice, "A-1", "Entry", "entry.png", "image/png", "1")
	f.two = doc(f.alice, "A-1", "Exit", "exit.jpg", "image/jpeg", "2")
	f.three = doc(f.alice, "A-2", "Notes", "notes.pdf", "application/pdf", "3")
	f.bobDoc = doc(f.bob, "B-1", "Bob's", "bob.png", "image/png", "4")
	f.trade = f.newTrade(t, f.alice, f.account, Optional[[]string]{}).ID
	return f
}

// newTrade creates a manual trade of user on account with documents ids.
func (f docFixture) newTrade(t *testing.T, user, account string, ids Optional[[]string]) Trade {
	t.Helper()
	tr, err := f.d.CreateTrade(t.Context(), user, TradeInput{AccountID: Some(account), Symbol: Some("ESZ5"),
		Side: Some("long"), EntryDate: Some("2025-12-01"), EntryPrice: Some(5000.0), Quantity: Some(1.0), DocumentIDs: ids})
	if err != nil {
		t.Fatalf("CreateTrade: %v", err)
	}
	return tr
}

// documents is what the trade reads back: its document ids, and its
// document count as the trade, the list from rows (Trades) and the list
// from listings (TradeListing) give it, which must agree.
func (f docFixture) documents(t *testing.T, user, tradeID string) []string {
	t.Helper()
	ctx := t.Context()
	tr, err := f.d.Trade(ctx, user, tradeID)
	if err != nil {
		t.Fatalf("Trade: %v", err)
	}
	ids := make([]string, len(tr.Documents))
	for i, doc := range tr.Documents {
		ids[i] = doc.ID
	}
	if !slices.Equal(ids, tr.DocumentIDs) || tr.DocumentCount != len(ids) {
		t.Errorf("trade %s: documents %v, document_ids %v, document_count %d disagree", tradeID, ids, tr.DocumentIDs, tr.DocumentCount)
	}
	trades, _, err := f.d.Trades(ctx, user, TradeFilter{}, Page{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	listed, _, err := f.d.TradeListing(ctx, user, TradeFilter{}, Page{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for i, lt := range trades {
		var item struct {
			ID            string `json:"id"`
			DocumentCount int    `json:"document_count"`
		}
		if err := json.Unmarshal(listed[i], &item); err != nil {
			t.Fatal(err)
		}
		if lt.ID == tradeID && (lt.DocumentCount != len(ids) || item.DocumentCount != len(ids)) {
			t.Errorf("trade %s with %d documents listed with document_count %d (Trades), %d (TradeListing)",
				tradeID, len(ids), lt.DocumentCount, item.DocumentCount)
		}
	}
	return tr.DocumentIDs
}

// TestTradeDocumentLinks: document_ids on create and update replaces the
// trade's documents in the body's order (a repeat counts once, where it
// first appears), a document of another of the user's accounts included;
// an update without it keeps them, [] and null clear them; the read gives
// each document's name, file and type in that order.
func TestTradeDocumentLinks(t *testing.T) {
	f := newDocFixture(t)
	ctx := t.Context()

	created := f.newTrade(t, f.alice, f.account, Some([]string{f.three, f.one, f.three}))
	if created.DocumentCount != 2 {
		t.Errorf("created trade: document_count %d, want 2", created.DocumentCount)
	}
	if got, want := f.documents(t, f.alice, created.ID), []string{f.three, f.one}; !slices.Equal(got, want) {
		t.Errorf("after create: %v, want %v", got, want)
	}
	tr, err := f.d.Trade(ctx, f.alice, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []TradeDocument{
		{ID: f.three, DocumentName: "Notes", FileName: "notes.pdf", MIMEType: "application/pdf", BlobHash: hashOf("3")},
		{ID: f.one, DocumentName: "Entry", FileName: "entry.png", MIMEType: "image/png", BlobHash: hashOf("1")},
	}
	if !reflect.DeepEqual(tr.Documents, want) {
		t.Errorf("documents\n got %+v\nwant %+v", tr.Documents, want)
	}

	for _, c := range []struct {
		name string
		ids  Optional[[]string]
		want []string
	}{
		{"replaced, in order", Some([]string{f.two, f.one}), []string{f.two, f.one}},
		{"absent keeps them", Optional[[]string]{}, []string{f.two, f.one}},
		{"reordered", Some([]string{f.one, f.two}), []string{f.one, f.two}},
		{"emptied", Some([]string{}), []string{}},
		{"set again", Some([]string{f.two}), []string{f.two}},
		{"null clears", Optional[[]string]{Set: true, Null: true}, []string{}},
	} {
		e, err := f.d.UpdateTrade(ctx, f.alice, f.trade, TradeInput{Symbol: Some("NQZ5"), DocumentIDs: c.ids})
		if err != nil {
			t.Fatalf("%s: UpdateTrade: %v", c.name, err)
		}
		if !slices.Equal(e.DocumentIDs, c.want) || len(e.Documents) != len(c.want) || e.DocumentCount != len(c.want) {
			t.Errorf("%s: update answers %v (%d documents, count %d), want %v", c.name, e.DocumentIDs, len(e.Documents),
				e.DocumentCount, c.want)
		}
		if got := f.documents(t, f.alice, f.trade); !slices.Equal(got, c.want) {
			t.Errorf("%s: read back %v, want %v", c.name, got, c.want)
		}
	}
}

// TestTradeDocumentsRefused: a document id of another user's, or of none,
// is a *NotFoundError naming its place in the body, and nothing of the
// create or update is written.
func TestTradeDocumentsRefused(t *testing.T) {
	f := newDocFixture(t)
	ctx := t.Context()
	if _, err := f.d.UpdateTrade(ctx, f.alice, f.trade, TradeInput{DocumentIDs: Some([]string{f.one})}); err != nil {
		t.Fatal(err)
	}
	before, err := f.d.Trade(ctx, f.alice, f.trade)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, err error, field string) {
		t.Helper()
		var nf *NotFoundError
		if !errors.As(err, &nf) || nf.Kind != "Document" || nf.Field != field {
			t.Errorf("%s: got %v (%+v), want Document not found naming %s", name, err, nf, field)
		}
	}
	for _, c := range []struct {
		name  string
		ids   []string
		field string
	}{
		{"bob's document second", []string{f.two, f.bobDoc}, "document_ids[1]"},
		{"after a repeat", []string{f.two, f.two, f.bobDoc}, "document_ids[2]"},
		{"no such document first", []string{"0199c2f4-0000-7000-8000-000000000000", f.bobDoc}, "document_ids[0]"},
	} {
		_, err := f.d.UpdateTrade(ctx, f.alice, f.trade, TradeInput{StarRating: Some(5), Symbol: Some("NQZ5"),
			DocumentIDs: Some(c.ids)})
		check("update, "+c.name, err, c.field)
	}
	after, err := f.d.Trade(ctx, f.alice, f.trade)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(after, before) {
		t.Errorf("a refused update wrote:\n got %+v\nwant %+v", after, before)
	}

	_, err = f.d.CreateTrade(ctx, f.alice, TradeInput{AccountID: Some(f.account), Symbol: Some("ESZ5"), Side: Some("long"),
		EntryDate: Some("2025-12-02"), EntryPrice: Some(5000.0), Quantity: Some(1.0), DocumentIDs: Some([]string{f.one, f.bobDoc})})
	check("create", err, "document_ids[1]")
	if _, total, err := f.d.Trades(ctx, f.alice, TradeFilter{}, Page{Limit: 10}); err != nil || total != 1 {
		t.Errorf("trades after a refused create: %d, %v; want 1 (the fixture's)", total, err)
	}
	var links int
	if err := f.d.read.QueryRowContext(ctx, `SELECT count(*) FROM trade_documents`).Scan(&links); err != nil || links != 1 {
		t.Errorf("links after refusals: %d, %v; want 1", links, err)
	}
}

// TestUploadForTrade: an upload naming one of the user's trades is linked
// to it, after its documents, in the same transaction; without an account
// number it is the trade's account's. Another user's trade, or none, is a
// *NotFoundError naming trade_id, and nothing is placed or written.
func TestUploadForTrade(t *testing.T) {
	f := newDocFixture(t)
	ctx := t.Context()
	onA2 := f.newTrade(t, f.alice, f.account2, Some([]string{f.one})).ID
	shot := func(number, tradeID, hash string) DocumentUpload {
		return DocumentUpload{AccountNumber: number, DocumentName: "Screenshot", Category: "receipt", TradeID: tradeID,
			FileName: "shot.png", FileSize: 3, MIMEType: "image/png", BlobHash: hashOf(hash)}
	}

	var p placed
	doc, err := f.d.CreateDocument(ctx, f.alice, shot("", onA2, "a"), p.place)
	if err != nil || p.n != 1 {
		t.Fatalf("upload for a trade: %v, %d place calls", err, p.n)
	}
	if doc.AccountID != f.account2 {
		t.Errorf("upload without an account number: account %s, want the trade's, %s", doc.AccountID, f.account2)
	}
	if got, want := f.documents(t, f.alice, onA2), []string{f.one, doc.ID}; !slices.Equal(got, want) {
		t.Errorf("after the upload: %v, want %v (appended last)", got, want)
	}
	named, err := f.d.CreateDocument(ctx, f.alice, shot("A-1", onA2, "b"), p.place)
	if err != nil || named.AccountID != f.account {
		t.Errorf("upload with an account number: %v, account %s, want A-1's, %s", err, named.AccountID, f.account)
	}
	if got, want := f.documents(t, f.alice, onA2), []string{f.one, doc.ID, named.ID}; !slices.Equal(got, want) {
		t.Errorf("after the second upload: %v, want %v", got, want)
	}

	bobsTrade := f.newTrade(t, f.bob, f.bobAccount, Optional[[]string]{}).ID
	for _, c := range []struct {
		name string
		in   DocumentUpload
		kind string
		want string
	}{
		{"bob's trade", shot("", bobsTrade, "c"), "Trade", "trade_id"},
		{"bob's trade with alice's account", shot("A-1", bobsTrade, "c"), "Trade", "trade_id"},
		{"no such trade", shot("", "0199c2f4-0000-7000-8000-000000000000", "c"), "Trade", "trade_id"},
		{"alice's trade, bob's account", shot("B-1", onA2, "c"), "Account", "account_number"},
	} {
		p.n = 0
		_, err := f.d.CreateDocument(ctx, f.alice, c.in, p.place)
		var nf *NotFoundError
		if !errors.As(err, &nf) || nf.Kind != c.kind || nf.Field != c.want || p.n != 0 {
			t.Errorf("%s: %v (%+v), %d place calls; want %s not found naming %s, none placed", c.name, err, nf, p.n, c.kind, c.want)
		}
	}
	if _, total, err := f.d.Documents(ctx, f.alice, DocumentFilter{}, Page{Limit: 100}); err != nil || total != 5 {
		t.Errorf("alice's documents after the refusals: %d, %v; want 5", total, err)
	}
	if got := f.documents(t, f.bob, bobsTrade); len(got) != 0 {
		t.Errorf("bob's trade: %v, want no documents", got)
	}

	// A replace for a trade links the document too, keeping the place of
	// one already linked, and the document its own account.
	if replaced, _, err := f.d.ReplaceDocument(ctx, f.alice, f.two, shot("", onA2, "d"), p.place); err != nil || replaced.AccountID != f.account {
		t.Fatalf("replace for a trade: %v, account %s, want its own, %s", err, replaced.AccountID, f.account)
	}
	if _, _, err := f.d.ReplaceDocument(ctx, f.alice, f.one, shot("", onA2, "e"), p.place); err != nil {
		t.Fatal(err)
	}
	if got, want := f.documents(t, f.alice, onA2), []string{f.one, doc.ID, named.ID, f.two}; !slices.Equal(got, want) {
		t.Errorf("after the replaces: %v, want %v", got, want)
	}
	var nf *NotFoundError
	if _, _, err := f.d.ReplaceDocument(ctx, f.alice, f.two, shot("", bobsTrade, "f"), p.place); !errors.As(err, &nf) || nf.Field != "trade_id" {
		t.Errorf("a replace for bob's trade: %v, want Trade not found naming trade_id", err)
	}
}

// TestDeleteDocumentUnlinks: deleting a document unlinks it from every
// trade, chart book and payout that held it, with a warning per kind; the
// trades and the others keep their other documents in order, and the list
// counts them at once.
func TestDeleteDocumentUnlinks(t *testing.T) {
	f := newDocFixture(t)
	ctx := t.Context()
	if _, err := f.d.UpdateTrade(ctx, f.alice, f.trade, TradeInput{DocumentIDs: Some([]string{f.one, f.three})}); err != nil {
		t.Fatal(err)
	}
	second := f.newTrade(t, f.alice, f.account2, Some([]string{f.two, f.one})).ID
	book, err := f.d.ChartBooks().Create(ctx, f.alice, ChartBookInput{Title: Some("Book"), DocumentIDs: Some([]string{f.one, f.two})})
	if err != nil {
		t.Fatal(err)
	}
	payout, err := f.d.CreatePayout(ctx, f.alice, PayoutInput{AccountID: Some(f.account), TotalAmount: Some(1000.0),
		DocumentIDs: Some([]string{f.one})})
	if err != nil {
		t.Fatal(err)
	}

	if _, err := f.d.DeleteDocument(ctx, f.bob, f.one); err == nil {
		t.Fatal("bob deleted alice's document")
	}
	del, err := f.d.DeleteDocument(ctx, f.alice, f.one)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Unlinked from 2 trades", "Unlinked from 1 chart book", "Unlinked from 1 payout"}; !slices.Equal(del.Warnings, want) {
		t.Errorf("warnings %q, want %q", del.Warnings, want)
	}
	if got, want := f.documents(t, f.alice, f.trade), []string{f.three}; !slices.Equal(got, want) {
		t.Errorf("first trade after the delete: %v, want %v", got, want)
	}
	if got, want := f.documents(t, f.alice, second), []string{f.two}; !slices.Equal(got, want) {
		t.Errorf("second trade after the delete: %v, want %v", got, want)
	}
	if b, err := f.d.ChartBooks().Get(ctx, f.alice, book.ID); err != nil || !slices.Equal(b.DocumentIDs, []string{f.two}) {
		t.Errorf("chart book after the delete: %v, %v; want [two]", b.DocumentIDs, err)
	}
	if p, err := f.d.Payout(ctx, f.alice, payout.ID); err != nil || len(p.DocumentIDs) != 0 {
		t.Errorf("payout after the delete: %v, %v; want none", p.DocumentIDs, err)
	}

	del, err = f.d.DeleteDocument(ctx, f.alice, f.two)
	if want := []string{"Unlinked from 1 trade", "Unlinked from 1 chart book"}; err != nil || !slices.Equal(del.Warnings, want) {
		t.Errorf("second delete: %q, %v; want %q", del.Warnings, err, want)
	}
	if got := f.documents(t, f.alice, second); len(got) != 0 {
		t.Errorf("second trade after its last document went: %v, want none", got)
	}
	del, err = f.d.DeleteDocument(ctx, f.bob, f.bobDoc)
	if err != nil || del.Warnings == nil || len(del.Warnings) != 0 {
		t.Errorf("a document linked nowhere: %q, %v; want no warnings, []", del.Warnings, err)
	}
}

// TestDeleteTradeKeepsDocuments: deleting a trade, alone, in bulk or by
// undoing its import, unlinks its documents and keeps them, saying how many
// (each once); another trade keeps its links to them.
func TestDeleteTradeKeepsDocuments(t *testing.T) {
	f := newDocFixture(t)
	ctx := t.Context()
	if _, err := f.d.UpdateTrade(ctx, f.alice, f.trade, TradeInput{DocumentIDs: Some([]string{f.one, f.two})}); err != nil {
		t.Fatal(err)
	}
	other := f.newTrade(t, f.alice, f.account, Some([]string{f.two})).ID
	del, err := f.d.DeleteTrade(ctx, f.alice, f.trade)
	if want := []string{"Kept 2 documents"}; err != nil || !slices.Equal(del.Warnings, want) {
		t.Errorf("DeleteTrade: %q, %v; want %q", del.Warnings, err, want)
	}
	for _, id := range []string{f.one, f.two} {
		if _, err := f.d.Document(ctx, f.alice, id); err != nil {
			t.Errorf("document %s after its trade's delete: %v", id, err)
		}
	}
	if got := f.documents(t, f.alice, other); !slices.Equal(got, []string{f.two}) {
		t.Errorf("the other trade: %v, want [two]", got)
	}
	var links int
	if err := f.d.read.QueryRowContext(ctx, `SELECT count(*) FROM trade_documents`).Scan(&links); err != nil || links != 1 {
		t.Errorf("links after the delete: %d, %v; want 1", links, err)
	}

	// Two trades holding three links to two documents keep two.
	third := f.newTrade(t, f.alice, f.account, Some([]string{f.two, f.three})).ID
	res, err := f.d.BulkTrades(ctx, f.alice, TradeBulk{TradeIDs: []string{other, third}, Delete: true})
	if want := []string{"Kept 2 documents"}; err != nil || !slices.Equal(res.Warnings, want) {
		t.Errorf("BulkTrades delete: %q, %v; want %q", res.Warnings, err, want)
	}

	// An imported trade with a screenshot: undoing the import keeps it.
	imp := importTestFile(t, f.d, f.alice, f.account, "ninjatrader_executions_no_id.csv")
	imported := importedTrades(t, f.d, f.alice, imp)
	if len(imported) != 1 {
		t.Fatalf("imported %d trades, want 1", len(imported))
	}
	if _, err := f.d.UpdateTrade(ctx, f.alice, imported[0].ID, TradeInput{DocumentIDs: Some([]string{f.three})}); err != nil {
		t.Fatal(err)
	}
	undone, err := f.d.DeleteImport(ctx, f.alice, *imp.ID, false)
	if err != nil || !slices.Contains(undone.Warnings, "Kept 1 document") {
		t.Errorf("undoing the import: %q, %v; want Kept 1 document among them", undone.Warnings, err)
	}
	if _, total, err := f.d.Documents(ctx, f.alice, DocumentFilter{}, Page{Limit: 10}); err != nil || total != 3 {
		t.Errorf("alice's documents after every delete: %d, %v; want 3", total, err)
	}
}

// TestListingDocumentCount: a list item's document_count is read with the
// page, beside its tags, so that a document deleted elsewhere counts at
// once; the stored listing holds 0 throughout and is not rewritten, and
// IntegrityCheck finds it sound.
func TestListingDocumentCount(t *testing.T) {
	f := newDocFixture(t)
	ctx := t.Context()
	group, err := f.d.CreateTagGroup(ctx, f.alice, "Setups", "#ff0000")
	if err != nil {
		t.Fatal(err)
	}
	tag, err := f.d.CreateTag(ctx, f.alice, group.ID, "ORB")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.d.UpdateTrade(ctx, f.alice, f.trade, TradeInput{TagIDs: Some([]string{tag.ID}),
		DocumentIDs: Some([]string{f.one, f.two})}); err != nil {
		t.Fatal(err)
	}
	stored := func() string {
		t.Helper()
		var listing string
		if err := f.d.read.QueryRowContext(ctx, `SELECT CAST(listing AS TEXT) FROM trades WHERE id = ?`, f.trade).Scan(&listing); err != nil {
			t.Fatal(err)
		}
		return listing
	}
	before := stored()
	listedAs := func(want string) {
		t.Helper()
		listed, _, err := f.d.TradeListing(ctx, f.alice, TradeFilter{}, Page{Limit: 10})
		if err != nil || len(listed) != 1 || !strings.Contains(string(listed[0]), want) {
			t.Errorf("listed as %s, %v; want %s in it", listed, err, want)
		}
	}
	tags := `"tags":[{"id":"` + tag.ID + `","name":"ORB","tag_group_id":"` + group.ID + `","groupColor":"#ff0000"}]`
	listedAs(`],"document_count":2,` + tags + `,"created_at":`)
	if _, err := f.d.DeleteDocument(ctx, f.alice, f.one); err != nil {
		t.Fatal(err)
	}
	listedAs(`],"document_count":1,` + tags + `,"created_at":`)
	if after := stored(); after != before || !strings.Contains(after, `],"document_count":0,"tags":[],"created_at":`) {
		t.Errorf("stored listing\nbefore %s\n after %s\nwant them equal, with document_count 0 and no tags", before, after)
	}
	if problems, err := f.d.IntegrityCheck(ctx); err != nil || len(problems) != 0 {
		t.Errorf("IntegrityCheck: %q, %v", problems, err)
	}
}

// TestTradeDocumentPlans: the list's document counts, a trade's documents
// and a document's links are each found on an index of trade_documents,
// never by a scan.
func TestTradeDocumentPlans(t *testing.T) {
	f := newDocFixture(t)
	where, args := TradeFilter{}.where(f.alice)
	for _, c := range []struct {
		query string
		args  []any
		want  string
	}{
		{pageQuery(`t.id, `+documentCount, TradeFilter{}.source(), where, Page{}), append(args, 100, 0),
			"SEARCH trade_documents USING PRIMARY KEY (trade_id=?)"},
		{`SELECT document_id FROM trade_documents WHERE trade_id = ?`, []any{f.trade},
			"SEARCH trade_documents USING PRIMARY KEY (trade_id=?)"},
		{`SELECT count(*) FROM trade_documents WHERE document_id = ?`, []any{f.one},
			"SEARCH trade_documents USING COVERING INDEX trade_documents_document (document_id=?)"},
		// A page's trades' documents: each link's trade by its id, never
		// a list of all the user's trades.
		{`SELECT x.trade_id FROM trade_documents x WHERE ` + usersTradesLinks, []any{jsonList([]string{f.trade}), f.alice},
			"SEARCH t EXISTS USING INDEX sqlite_autoindex_trades_1 (id=?)"},
	} {
		plan, err := f.d.explain(t.Context(), c.query, c.args...)
		if err != nil {
			t.Fatal(err)
		}
		// Of the ids named, a list's, each is looked up.
		scans := func(s string) bool { return strings.HasPrefix(s, "SCAN") && !strings.HasPrefix(s, "SCAN json_each") }
		if !slices.Contains(plan, c.want) || slices.ContainsFunc(plan, scans) {
			t.Errorf("plan %q of %s; want %q and no scan", plan, c.query, c.want)
		}
	}
}
