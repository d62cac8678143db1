package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"tradejournal/db"
)

// TestPayoutForms: a payout is edited from the payouts page, its form
// showing every field and its documents; a refused edit keeps what was
// typed, each reason beside its field; another user's account is refused
// beside the Account field; a saved edit is the API's, shares and all;
// the delete names the documents it unlinks and the balance a paid
// payout gives back, changes nothing until its post, then deletes,
// keeping the documents.
func TestPayoutForms(t *testing.T) {
	e := newTradeEnv(t)
	must200put(t, e, "/api/v1/accounts/"+e.accountID, `{"profit_split": 90}`)
	doc := e.uploadPDF(t, "payout.pdf")
	p := e.payout(t, `{"account_id": "`+e.accountID+`", "date": "2026-02-20", "total_amount": 5000, "status": "paid",
		"reference": "PO-1", "document_ids": ["`+doc+`"]}`)
	_, bobKey := e.newUser(t, "bob")
	bobAccount := e.createAccount(t, bobKey, `{"account_number": "BOB-1"}`)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)

	row := find(b.page(t, "/payouts"), byAttr("data-payout", p.ID))
	if len(row) != 1 || len(find(row[0], byAttr("href", "/payouts/"+p.ID+"/edit"))) != 1 ||
		len(find(row[0], byAttr("href", "/payouts/"+p.ID+"/delete"))) != 1 {
		t.Fatal("the payouts page does not link the payout's edit and delete")
	}
	edit := b.page(t, "/payouts/"+p.ID+"/edit")
	for field, want := range map[string]string{"account_id": e.accountID, "date": "2026-02-20", "total_amount": "5000",
		"profit_split": "90", "status": "paid", "reference": "PO-1"} {
		if got := formValue(edit, field); got != want {
			t.Errorf("the edit form's %s: %q, want %q", field, got, want)
		}
	}
	if !checked(edit, "document_ids", doc) {
		t.Error("the edit form does not tick the payout's document")
	}
	csrf := csrfOf(t, b, "/payouts/"+p.ID+"/edit")

	bad := url.Values{"csrf": {csrf}, "account_id": {e.accountID}, "date": {"2026-02-21"}, "total_amount": {"five thousand"},
		"profit_split": {"90"}, "status": {"approved"}, "reference": {"PO-1b"}, "notes": {"Second try"}, "document_ids": {"", doc}}
	w := b.send(t, "POST", "/payouts/"+p.ID, bad, "")
	if w.Code != http.StatusBadRequest {
		t.Fatalf("a bad payout: %d %s", w.Code, w.Body)
	}
	page := parseHTML(t, w.Body.String())
	if got := reasonOf(page, "total_amount"); got != "Total amount (before the firm's share) must be a number" {
		t.Errorf("the amount's reason: %q", got)
	}
	for field, want := range map[string]string{"total_amount": "five thousand", "status": "approved", "reference": "PO-1b", "notes": "Second try", "date": "2026-02-21"} {
		if got := formValue(page, field); got != want {
			t.Errorf("%s typed %q comes back as %q", field, want, got)
		}
	}
	bad.Set("total_amount", "6000")
	bad.Set("account_id", bobAccount.ID)
	if w := b.send(t, "POST", "/payouts/"+p.ID, bad, ""); w.Code != http.StatusNotFound ||
		reasonOf(parseHTML(t, w.Body.String()), "account_id") != "Account is not one of your accounts" {
		t.Errorf("bob's account: %d %q", w.Code, reasonOf(parseHTML(t, w.Body.String()), "account_id"))
	}
	if got := decode[struct{ Data db.Payout }](t, must200(t, e.testServer, "/api/v1/payouts/"+p.ID, e.key)).Data; got.TotalAmount != 5000 || got.Date != "2026-02-20" {
		t.Fatalf("refused edits changed the payout: %+v", got)
	}

	good := url.Values{"csrf": {csrf}, "account_id": {e.accountID}, "date": {"2026-02-21"}, "total_amount": {"6,000"},
		"profit_split": {"90"}, "status": {"approved"}, "reference": {""}, "notes": {"Second try"}, "document_ids": {""}}
	w = b.send(t, "POST", "/payouts/"+p.ID, good, "")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/payouts?saved=1" {
		t.Fatalf("edit: %d %s", w.Code, w.Body)
	}
	got := decode[struct{ Data db.Payout }](t, must200(t, e.testServer, "/api/v1/payouts/"+p.ID, e.key)).Data
	if got.TotalAmount != 6000 || got.TradersShare != 5400 || got.Status != "approved" || got.Date != "2026-02-21" ||
		got.Reference != "" || got.Notes != "Second try" || len(got.DocumentIDs) != 0 {
		t.Errorf("after the edit the API reads %+v", got)
	}
	if msg := find(b.page(t, "/payouts?saved=1"), byAttr("role", "status")); len(msg) != 1 || nodeText(msg[0]) != "Saved." {
		t.Errorf("the payouts page after a save says %v", texts(msg))
	}

	must200put(t, e, "/api/v1/payouts/"+p.ID, `{"status": "paid", "document_ids": ["`+doc+`"]}`)
	confirm := b.page(t, "/payouts/"+p.ID+"/delete")
	if title := find(confirm, byAttr("id", "confirm-title")); len(title) != 1 || nodeText(title[0]) != "Delete the payout of 2026-02-21, 6,000.00?" {
		t.Errorf("the confirm step's title: %v", texts(title))
	}
	if got := strings.Join(consequences(confirm), "; "); got != "unlinks its 1 document (the documents themselves stay); "+
		"adds its 6,000.00 back to the account's balance, which a paid payout lowers" {
		t.Errorf("the confirm step lists %q", got)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM payouts`); n != 1 {
		t.Fatal("the confirm step deleted the payout")
	}
	if w := b.send(t, "POST", "/payouts/"+p.ID+"/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/payouts?deleted=1" {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM payouts`); n != 0 {
		t.Error("the payout is still there")
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM documents WHERE id = ?`, doc); n != 1 {
		t.Error("deleting the payout deleted its document")
	}
}

// TestExpenseForms: an expense is edited from the payouts page; a refused
// edit keeps what was typed; emptying the account makes it a firm's fee;
// an edit or delete goes back to the payouts page, where expenses are;
// the delete names what it unlinks first.
func TestExpenseForms(t *testing.T) {
	e := newTradeEnv(t)
	doc := e.uploadPDF(t, "receipt.pdf")
	x := e.expense(t, `{"account_id": "`+e.accountID+`", "date": "2026-02-01", "amount": 167, "category": "evaluation",
		"description": "50K evaluation", "document_ids": ["`+doc+`"]}`)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	row := find(b.page(t, "/payouts"), byAttr("data-expense", x.ID))
	if len(row) != 1 || len(find(row[0], byAttr("href", "/expenses/"+x.ID+"/edit"))) != 1 {
		t.Fatal("the payouts page does not link the expense's edit")
	}
	edit := b.page(t, "/expenses/"+x.ID+"/edit")
	for field, want := range map[string]string{"account_id": e.accountID, "amount": "167", "category": "evaluation", "currency": "USD", "description": "50K evaluation"} {
		if got := formValue(edit, field); got != want {
			t.Errorf("the edit form's %s: %q, want %q", field, got, want)
		}
	}
	csrf := csrfOf(t, b, "/expenses/"+x.ID+"/edit")

	bad := url.Values{"csrf": {csrf}, "account_id": {""}, "prop_firm": {"Topstep"}, "date": {"2026-02-02"}, "amount": {"0"},
		"currency": {"euro"}, "category": {"data"}, "description": {"Market data"}, "document_ids": {"", doc}}
	w := b.send(t, "POST", "/expenses/"+x.ID, bad, "")
	if w.Code != http.StatusBadRequest {
		t.Fatalf("a bad expense: %d %s", w.Code, w.Body)
	}
	page := parseHTML(t, w.Body.String())
	if got := reasonOf(page, "currency"); got != "Currency must be a three-letter ISO 4217 code such as USD" {
		t.Errorf("the currency's reason: %q", got)
	}
	if got := reasonOf(page, "amount"); !strings.HasPrefix(got, "Amount must be") {
		t.Errorf("the amount's reason: %q", got)
	}
	for field, want := range map[string]string{"prop_firm": "Topstep", "amount": "0", "currency": "euro", "category": "data", "description": "Market data", "account_id": ""} {
		if got := formValue(page, field); got != want {
			t.Errorf("%s typed %q comes back as %q", field, want, got)
		}
	}
	if !checked(page, "document_ids", doc) {
		t.Error("the document ticked is no longer ticked")
	}

	bad.Set("amount", "1,234.5")
	bad.Set("currency", "eur")
	w = b.send(t, "POST", "/expenses/"+x.ID, bad, "")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/expenses?saved=1" {
		t.Fatalf("edit: %d %s", w.Code, w.Body)
	}
	if r := b.send(t, "GET", "/expenses?saved=1", nil, ""); r.Code != http.StatusSeeOther || r.Header().Get("Location") != "/payouts?saved=1" {
		t.Errorf("back from the expense: %d to %q", r.Code, r.Header().Get("Location"))
	}
	got := decode[struct{ Data db.Expense }](t, must200(t, e.testServer, "/api/v1/expenses/"+x.ID, e.key)).Data
	if got.AccountID != nil || got.PropFirm == nil || *got.PropFirm != "Topstep" || got.Amount != 1234.5 || got.Currency != "EUR" ||
		got.Category != "data" || got.Date != "2026-02-02" || len(got.DocumentIDs) != 1 {
		t.Errorf("after the edit the API reads %+v", got)
	}

	confirm := b.page(t, "/expenses/"+x.ID+"/delete")
	if title := find(confirm, byAttr("id", "confirm-title")); len(title) != 1 || nodeText(title[0]) != "Delete the expense of 2026-02-02, 1,234.50 EUR (data)?" {
		t.Errorf("the confirm step's title: %v", texts(title))
	}
	if got := strings.Join(consequences(confirm), "; "); got != "unlinks its 1 document (the documents themselves stay)" {
		t.Errorf("the confirm step lists %q", got)
	}
	if w := b.send(t, "POST", "/expenses/"+x.ID+"/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/expenses?deleted=1" {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM expenses`); n != 0 {
		t.Error("the expense is still there")
	}
}

// TestPayoutFormsRefuseTheReadOnlyAndStrangers: a read-only session sees
// no Edit or Delete on the payouts page and its forms and posts are
// refused; another user's payouts and expenses are a 404 on every page
// and post; alice's own post without the token is stale; nothing
// changes.
func TestPayoutFormsRefuseTheReadOnlyAndStrangers(t *testing.T) {
	e := newTradeEnv(t)
	p := e.payout(t, `{"account_id": "`+e.accountID+`", "total_amount": 500}`)
	x := e.expense(t, `{"account_id": "`+e.accountID+`", "amount": 150, "category": "evaluation"}`)
	records := map[string]string{"/payouts": p.ID, "/expenses": x.ID}

	_, readKey := e.newKey(t, "alice", "read", false)
	reader := &browser{ts: e.testServer}
	reader.signIn(t, readKey)
	if links := find(reader.page(t, "/payouts"), func(n *html.Node) bool { return hasAttr(n, "data-edit") || hasAttr(n, "data-delete") }); len(links) != 0 {
		t.Errorf("a read-only session sees %d edit and delete links", len(links))
	}
	csrf := csrfOf(t, reader, "/payouts")
	_, bobKey := e.newUser(t, "bob")
	bob := &browser{ts: e.testServer}
	bob.signIn(t, bobKey)
	bobCSRF := csrfOf(t, bob, "/payouts")
	writer := &browser{ts: e.testServer}
	writer.signIn(t, e.key)
	before := tableCounts(t, e)
	for path, id := range records {
		for _, target := range []string{path + "/" + id, path + "/" + id + "/delete"} {
			if w := reader.send(t, "POST", target, url.Values{"csrf": {csrf}, "amount": {"1"}, "total_amount": {"1"}}, ""); w.Code != http.StatusForbidden {
				t.Errorf("a read-only POST %s: %d, want 403", target, w.Code)
			}
		}
		for _, target := range []string{path + "/" + id + "/edit", path + "/" + id + "/delete"} {
			if w := reader.send(t, "GET", target, nil, ""); w.Code != http.StatusForbidden {
				t.Errorf("a read-only GET %s: %d, want 403", target, w.Code)
			}
		}
	}

	for path, id := range records {
		for _, tt := range []struct{ method, target string }{
			{"GET", path + "/" + id + "/edit"}, {"POST", path + "/" + id},
			{"GET", path + "/" + id + "/delete"}, {"POST", path + "/" + id + "/delete"},
		} {
			var form url.Values
			if tt.method == "POST" {
				form = url.Values{"csrf": {bobCSRF}, "amount": {"1"}, "total_amount": {"1"}}
			}
			if w := bob.send(t, tt.method, tt.target, form, ""); w.Code != http.StatusNotFound {
				t.Errorf("bob's %s %s: %d, want 404", tt.method, tt.target, w.Code)
			}
		}
		if w := writer.send(t, "POST", path+"/"+id, url.Values{"amount": {"1"}, "total_amount": {"1"}}, ""); w.Code != http.StatusForbidden {
			t.Errorf("alice's post to %s without its token: %d, want 403", path+"/"+id, w.Code)
		}
	}
	if after := tableCounts(t, e); after != before {
		t.Errorf("refused posts changed the journal:\nbefore %s\nafter  %s", before, after)
	}
}
