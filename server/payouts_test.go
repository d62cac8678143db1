package server_test

import (
	"fmt"
	"net/http"
	"os"
	"reflect"
	"strings"
	"testing"

	"tradejournal/db"
)

// uploadPDF stores a real document on the env's account and returns its id.
func (e *tradeEnv) uploadPDF(t *testing.T, name string) string {
	t.Helper()
	pdf, err := os.ReadFile("../testdata/payout.pdf")
	if err != nil {
		t.Fatal(err)
	}
	return e.mustUpload(t, e.key, form("APEX-1", filePart(name, pdf)), http.StatusCreated).ID
}

func (e *tradeEnv) payout(t *testing.T, body string) db.Payout {
	t.Helper()
	status, b := e.do(t, "POST", "/api/v1/payouts", e.key, body)
	if status != http.StatusCreated {
		t.Fatalf("POST /api/v1/payouts %s: %d %s", body, status, b)
	}
	return decode[struct{ Data db.Payout }](t, b).Data
}

func (e *tradeEnv) expense(t *testing.T, body string) db.Expense {
	t.Helper()
	status, b := e.do(t, "POST", "/api/v1/expenses", e.key, body)
	if status != http.StatusCreated {
		t.Fatalf("POST /api/v1/expenses %s: %d %s", body, status, b)
	}
	return decode[struct{ Data db.Expense }](t, b).Data
}

// TestPayoutCRUD: the shares are derived exactly from the total and the
// split (the account's unless the payout gives one), follow every change,
// and are stored as served; documents link in order.
func TestPayoutCRUD(t *testing.T) {
	e := newTradeEnv(t)
	e.pinClock(t0) // 10:17 in New York on 5 February 2026
	if status, b := e.do(t, "PUT", "/api/v1/accounts/"+e.accountID, e.key, `{"profit_split": 80}`); status != 200 {
		t.Fatalf("split: %d %s", status, b)
	}
	doc1, doc2 := e.uploadPDF(t, "one.pdf"), e.uploadPDF(t, "two.pdf")
	newID := e.db.NewID
	e.pinIDs(t, idA)
	status, b := e.do(t, "POST", "/api/v1/payouts", e.key, fmt.Sprintf(`{"account_id": %q, "date": "2026-02-20",
		"total_amount": 5000, "status": "paid", "reference": "PO-1", "notes": "first", "document_ids": [%q, %q]}`,
		strings.ToUpper(e.accountID), doc2, doc1))
	want := `{"data":{"id":"` + idA + `","account_id":"` + e.accountID + `","date":"2026-02-20","total_amount":5000,` +
		`"profit_split":80,"traders_share":4000,"firms_share":1000,"status":"paid","reference":"PO-1","notes":"first",` +
		`"document_ids":["` + doc2 + `","` + doc1 + `"],"created_at":"` + t0Text + `","updated_at":"` + t0Text + `"}}` + "\n"
	if status != http.StatusCreated || string(b) != want {
		t.Fatalf("create: %d %s\nwant 201 %s", status, b, want)
	}
	if got := must200(t, e.testServer, "/api/v1/payouts/"+idA, e.key); string(got) != want {
		t.Errorf("get: %s\nwant %s", got, want)
	}

	e.db.NewID = newID
	tests := []struct {
		body           string
		split          float64
		traders, firms float64
		date, status   string
	}{
		// The split given wins over the account's: 2,500.10 × 90% = 2,250.09.
		{`"total_amount": 2500.10, "profit_split": 90`, 90, 2250.09, 250.01, "2026-02-05", "requested"},
		// Derived money is exact, not rounded to cents: 1,234.57 × 33.33%.
		{`"total_amount": 1234.57, "profit_split": 33.33`, 33.33, 411.482181, 823.087819, "2026-02-05", "requested"},
		{`"total_amount": 0.1, "profit_split": 30, "date": "2026-01-31", "status": "approved"`, 30, 0.03, 0.07, "2026-01-31", "approved"},
		{`"total_amount": 800, "profit_split": 0`, 0, 0, 800, "2026-02-05", "requested"},
		{`"total_amount": 800, "profit_split": 100`, 100, 800, 0, "2026-02-05", "requested"},
	}
	for _, tt := range tests {
		p := e.payout(t, fmt.Sprintf(`{"account_id": %q, %s}`, e.accountID, tt.body))
		if p.ProfitSplit != tt.split || p.TradersShare != tt.traders || p.FirmsShare != tt.firms || p.Date != tt.date || p.Status != tt.status {
			t.Errorf("%s: split %v shares %v / %v date %s status %s; want %v, %v / %v, %s, %s", tt.body,
				p.ProfitSplit, p.TradersShare, p.FirmsShare, p.Date, p.Status, tt.split, tt.traders, tt.firms, tt.date, tt.status)
		}
		if p.DocumentIDs == nil || len(p.DocumentIDs) != 0 || p.Reference != "" || p.Notes != "" {
			t.Errorf("%s: documents %v reference %q notes %q, want [] and empty", tt.body, p.DocumentIDs, p.Reference, p.Notes)
		}
	}

	// Updates: the shares follow the total and the split; the rest stays.
	updates := []struct {
		body           string
		traders, firms float64
	}{
		{`{"total_amount": 6000}`, 4800, 1200},
		{`{"profit_split": 50}`, 3000, 3000},
		{`{"status": "cancelled", "document_ids": []}`, 3000, 3000},
	}
	for _, u := range updates {
		status, b := e.do(t, "PUT", "/api/v1/payouts/"+idA, e.key, u.body)
		p := decode[struct{ Data db.Payout }](t, b).Data
		if status != 200 || p.TradersShare != u.traders || p.FirmsShare != u.firms || p.Reference != "PO-1" || p.Date != "2026-02-20" {
			t.Errorf("PUT %s: %d %s", u.body, status, b)
		}
	}
	var traders, firms, split float64
	var st string
	var links int
	err := e.sql(t).QueryRow(`SELECT traders_share, firms_share, profit_split, status,
		(SELECT count(*) FROM payout_documents WHERE payout_id = p.id) FROM payouts p WHERE id = ?`, idA).
		Scan(&traders, &firms, &split, &st, &links)
	if err != nil || traders != 3000 || firms != 3000 || split != 50 || st != "cancelled" || links != 0 {
		t.Errorf("stored: %v %v %v %v %q %d", err, traders, firms, split, st, links)
	}

	status, b = e.do(t, "DELETE", "/api/v1/payouts/"+idA, e.key, "")
	if want := `{"success":true,"deleted_id":"` + idA + `","warnings":[]}` + "\n"; status != 200 || string(b) != want {
		t.Errorf("delete: %d %s, want %s", status, b, want)
	}
	for _, target := range []string{"/api/v1/payouts/" + idA, "/api/v1/payouts/" + idB, "/api/v1/payouts/nope"} {
		status, b := e.do(t, "GET", target, e.key, "")
		if e := decode[errBody](t, b); status != 404 || e.Error != "Payout not found" {
			t.Errorf("GET %s: %d %s, want 404 Payout not found", target, status, b)
		}
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM documents WHERE id IN (?, ?)`, doc1, doc2); n != 2 {
		t.Errorf("documents after their payout went: %d, want both kept", n)
	}
}

// TestPayoutList: filters by account, status and dates (inclusive), newest
// first, with the total and each payout's documents.
func TestPayoutList(t *testing.T) {
	e := newTradeEnv(t)
	other := e.createAccount(t, e.key, `{"account_number": "TOP-1", "prop_firm": "Topstep"}`)
	doc := e.uploadPDF(t, "c.pdf")
	p1 := e.payout(t, fmt.Sprintf(`{"account_id": %q, "date": "2026-01-10", "total_amount": 100, "status": "paid", "document_ids": [%q]}`, e.accountID, doc))
	p2 := e.payout(t, fmt.Sprintf(`{"account_id": %q, "date": "2026-02-10", "total_amount": 200}`, e.accountID))
	p3 := e.payout(t, fmt.Sprintf(`{"account_id": %q, "date": "2026-02-28", "total_amount": 300, "status": "paid"}`, other.ID))
	tests := []struct {
		query string
		want  []string
		total int
	}{
		{"", []string{p3.ID, p2.ID, p1.ID}, 3},
		{"?limit=2", []string{p3.ID, p2.ID}, 3},
		{"?account_id=" + e.accountID, []string{p2.ID, p1.ID}, 2},
		{"?account_id=" + strings.ToUpper(other.ID), []string{p3.ID}, 1},
		{"?status=paid", []string{p3.ID, p1.ID}, 2},
		{"?start_date=2026-02-10", []string{p3.ID, p2.ID}, 2},
		{"?start_date=2026-01-10&end_date=2026-02-10", []string{p2.ID, p1.ID}, 2},
		{"?end_date=2026-01-09", nil, 0},
		{"?account_id=" + idB, nil, 0},
	}
	for _, tt := range tests {
		l := decode[listBody[db.Payout]](t, must200(t, e.testServer, "/api/v1/payouts"+tt.query, e.key))
		var ids []string
		for _, p := range l.Data {
			ids = append(ids, p.ID)
		}
		if !reflect.DeepEqual(ids, tt.want) || l.Pagination.Total != tt.total {
			t.Errorf("GET /payouts%s: %v total %d, want %v total %d", tt.query, ids, l.Pagination.Total, tt.want, tt.total)
		}
		for _, p := range l.Data {
			if p.ID == p1.ID && !reflect.DeepEqual(p.DocumentIDs, []string{doc}) {
				t.Errorf("listed documents %v, want [%s]", p.DocumentIDs, doc)
			}
		}
	}
	for _, q := range []string{"?status=sent", "?account_id=nope", "?start_date=2026-02-30", "?start_date=2026-03-01&end_date=2026-02-01", "?limit=0"} {
		status, b := e.do(t, "GET", "/api/v1/payouts"+q, e.key, "")
		if status != 400 || !strings.Contains(string(b), "VALIDATION_ERROR") {
			t.Errorf("GET /payouts%s: %d %s, want 400", q, status, b)
		}
	}
}

var payoutValidation = []struct {
	name, body, wantFields string
	createOnly             bool
}{
	{"missing account_id", `{"total_amount": 1}`, "account_id", true},
	{"malformed account_id", `{"account_id": "nope", "total_amount": 1}`, "account_id", false},
	{"null account_id", `{"account_id": null, "total_amount": 1}`, "account_id", false},
	{"missing total_amount", `{"account_id": "%s"}`, "total_amount", true},
	{"zero total_amount", `{"total_amount": 0}`, "total_amount", false},
	{"negative total_amount", `{"total_amount": -5}`, "total_amount", false},
	{"total_amount as text", `{"total_amount": "5000"}`, "total_amount", false},
	{"null total_amount", `{"total_amount": null}`, "total_amount", false},
	{"huge total_amount", `{"total_amount": 1e12}`, "total_amount", false},
	{"profit_split over 100", `{"profit_split": 100.01}`, "profit_split", false},
	{"null profit_split", `{"profit_split": null}`, "profit_split", false},
	{"unknown status", `{"status": "sent"}`, "status", false},
	{"null status", `{"status": null}`, "status", false},
	{"impossible date", `{"date": "2026-02-30"}`, "date", false},
	{"null date", `{"date": null}`, "date", false},
	{"long reference", `{"reference": "` + strings.Repeat("r", 201) + `"}`, "reference", false},
	{"malformed document id", `{"document_ids": ["x"]}`, "document_ids[0]", false},
	{"document_ids not a list", `{"document_ids": "x"}`, "document_ids", false},
	{"several", `{"total_amount": -1, "status": "x", "date": "x"}`, "date,status,total_amount", false},
}

// TestPayoutValidation: every bad field is a 400 naming it, on create and
// update, and nothing is written.
func TestPayoutValidation(t *testing.T) {
	e := newTradeEnv(t)
	p := e.payout(t, fmt.Sprintf(`{"account_id": %q, "total_amount": 100}`, e.accountID))
	_, before := e.do(t, "GET", "/api/v1/payouts/"+p.ID, e.key, "")
	for _, tt := range payoutValidation {
		body := tt.body
		// A body without the fields a create needs gets them, unless the
		// case is about them.
		if strings.Contains(body, "%s") {
			body = fmt.Sprintf(body, e.accountID)
		} else if !tt.createOnly && !strings.Contains(body, "account_id") {
			base := fmt.Sprintf(`{"account_id": %q, `, e.accountID)
			if !strings.Contains(body, `"total_amount"`) {
				base += `"total_amount": 1, `
			}
			body = base + strings.TrimPrefix(body, "{")
		}
		check := func(method, target, body string) {
			status, b := e.do(t, method, target, e.key, body)
			if status != 400 {
				t.Errorf("%s %s %s: %d %s, want 400 naming %s", method, tt.name, body, status, b, tt.wantFields)
				return
			}
			er := decode[errBody](t, b)
			if status != 400 || er.Code != "VALIDATION_ERROR" || keys(er.Details) != tt.wantFields {
				t.Errorf("%s %s: %d %s, want 400 naming %s", method, tt.name, status, b, tt.wantFields)
			}
		}
		check("POST", "/api/v1/payouts", body)
		if !tt.createOnly {
			check("PUT", "/api/v1/payouts/"+p.ID, strings.Replace(tt.body, "%s", e.accountID, 1))
		}
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM payouts`); n != 1 {
		t.Errorf("payouts after invalid bodies: %d, want 1", n)
	}
	if _, after := e.do(t, "GET", "/api/v1/payouts/"+p.ID, e.key, ""); string(after) != string(before) {
		t.Errorf("payout changed by invalid updates:\n%s\n%s", before, after)
	}
	// References to what is not the caller's are 404s naming the field.
	for _, body := range []string{
		fmt.Sprintf(`{"account_id": %q, "total_amount": 1}`, idA),
		fmt.Sprintf(`{"account_id": %q, "total_amount": 1, "document_ids": [%q]}`, e.accountID, idA),
	} {
		status, b := e.do(t, "POST", "/api/v1/payouts", e.key, body)
		if er := decode[errBody](t, b); status != 404 || len(er.Details) != 1 {
			t.Errorf("POST %s: %d %s, want 404 naming the field", body, status, b)
		}
	}
	if status, _ := e.do(t, "POST", "/api/v1/payouts", e.key, `{"notes": "`+strings.Repeat("x", 2<<20)+`"}`); status != http.StatusRequestEntityTooLarge {
		t.Errorf("2 MiB body: %d, want 413", status)
	}
}

// TestExpenseCRUD: currency and firm default to the account's (USD and none
// without one), an expense can leave its account, and validation names the
// field.
func TestExpenseCRUD(t *testing.T) {
	e := newTradeEnv(t)
	e.pinClock(t0)
	ftmo := e.createAccount(t, e.key, `{"account_number": "FTMO-1", "prop_firm": "FTMO", "currency": "EUR"}`)
	doc := e.uploadPDF(t, "receipt.pdf")
	x := e.expense(t, fmt.Sprintf(`{"account_id": %q, "amount": 155.5, "category": "evaluation", "document_ids": [%q]}`, ftmo.ID, doc))
	want := db.Expense{ID: x.ID, AccountID: &ftmo.ID, PropFirm: ptr("FTMO"), Date: "2026-02-05", Amount: 155.5, Currency: "EUR",
		Category: "evaluation", DocumentIDs: []string{doc}, CreatedAt: t0Text, UpdatedAt: t0Text}
	if !reflect.DeepEqual(x, want) {
		t.Errorf("created\n got %+v\nwant %+v", x, want)
	}
	y := e.expense(t, `{"amount": 29, "category": "data", "date": "2026-01-31", "description": "Rithmic"}`)
	if y.AccountID != nil || y.PropFirm != nil || y.Currency != "USD" || y.Description != "Rithmic" {
		t.Errorf("without an account: %+v", y)
	}
	z := e.expense(t, fmt.Sprintf(`{"account_id": %q, "amount": 80, "category": "reset", "currency": "usd", "prop_firm": "FTMO Ltd"}`, ftmo.ID))
	if z.Currency != "USD" || *z.PropFirm != "FTMO Ltd" {
		t.Errorf("given currency and firm: %+v", z)
	}

	status, b := e.do(t, "PUT", "/api/v1/expenses/"+x.ID, e.key, `{"account_id": null, "amount": 160, "document_ids": []}`)
	got := decode[struct{ Data db.Expense }](t, b).Data
	want.AccountID, want.Amount, want.DocumentIDs = nil, 160, []string{}
	if status != 200 || !reflect.DeepEqual(got, want) {
		t.Errorf("PUT: %d\n got %+v\nwant %+v", status, got, want)
	}

	l := decode[listBody[db.Expense]](t, must200(t, e.testServer, "/api/v1/expenses?category=reset", e.key))
	if len(l.Data) != 1 || l.Data[0].ID != z.ID || l.Pagination.Total != 1 {
		t.Errorf("filtered by category: %+v", l)
	}
	l = decode[listBody[db.Expense]](t, must200(t, e.testServer, "/api/v1/expenses?end_date=2026-02-01", e.key))
	if len(l.Data) != 1 || l.Data[0].ID != y.ID {
		t.Errorf("filtered by date: %+v", l)
	}

	for _, tt := range []struct{ body, field string }{
		{`{"category": "data"}`, "amount"},
		{`{"amount": 10}`, "category"},
		{`{"amount": 10, "category": "coffee"}`, "category"},
		{`{"amount": 0, "category": "data"}`, "amount"},
		{`{"amount": 10, "category": "data", "currency": "DOLLARS"}`, "currency"},
		{`{"amount": 10, "category": "data", "currency": null}`, "currency"},
		{`{"amount": 10, "category": "data", "account_id": "x"}`, "account_id"},
		{`{"amount": 10, "category": "data", "date": "yesterday"}`, "date"},
		{`{"amount": 10, "category": "data", "prop_firm": "` + strings.Repeat("f", 201) + `"}`, "prop_firm"},
	} {
		status, b := e.do(t, "POST", "/api/v1/expenses", e.key, tt.body)
		if er := decode[errBody](t, b); status != 400 || keys(er.Details) != tt.field {
			t.Errorf("POST %s: %d %s, want 400 naming %s", tt.body, status, b, tt.field)
		}
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM expenses`); n != 3 {
		t.Errorf("expenses: %d, want 3", n)
	}
	status, b = e.do(t, "DELETE", "/api/v1/expenses/"+z.ID, e.key, "")
	if status != 200 || !strings.Contains(string(b), `"warnings":[]`) {
		t.Errorf("delete: %d %s", status, b)
	}
	if status, _ := e.do(t, "GET", "/api/v1/expenses/"+z.ID, e.key, ""); status != 404 {
		t.Errorf("deleted expense: %d, want 404", status)
	}
}

// TestPayoutSummary: paid payouts only, per currency (EUR never added to
// USD), per firm and per account; ROI null without expenses. Worked by
// hand:
//
//	Apex USD (split 80): paid 5,000 → 4,000; a requested 3,000 does not count.
//	Topstep USD (split 90): paid 2,000 → 1,800; no expenses.
//	FTMO EUR (split 80): paid 1,000 → 800.
//	Expenses: Apex account 150 + 100 USD; Apex without an account 50 USD;
//	FTMO account 200 EUR.
func TestPayoutSummary(t *testing.T) {
	e := newTradeEnv(t) // APEX-1, firm Apex, USD
	e.do(t, "PUT", "/api/v1/accounts/"+e.accountID, e.key, `{"profit_split": 80}`)
	top := e.createAccount(t, e.key, `{"account_number": "TOP-1", "prop_firm": "Topstep", "profit_split": 90}`)
	ftmo := e.createAccount(t, e.key, `{"account_number": "FTMO-1", "prop_firm": "FTMO", "currency": "EUR", "profit_split": 80}`)

	empty := `{"data":{"currencies":[],"by_firm":[],"by_account":[]}}` + "\n"
	if got := must200(t, e.testServer, "/api/v1/payouts/summary", e.key); string(got) != empty {
		t.Errorf("empty summary: %s", got)
	}

	e.payout(t, fmt.Sprintf(`{"account_id": %q, "date": "2026-01-15", "total_amount": 5000, "status": "paid"}`, e.accountID))
	e.payout(t, fmt.Sprintf(`{"account_id": %q, "date": "2026-01-20", "total_amount": 3000, "status": "requested"}`, e.accountID))
	e.payout(t, fmt.Sprintf(`{"account_id": %q, "date": "2026-02-15", "total_amount": 2000, "status": "paid"}`, top.ID))
	e.payout(t, fmt.Sprintf(`{"account_id": %q, "date": "2026-02-01", "total_amount": 1000, "status": "paid"}`, ftmo.ID))
	e.expense(t, fmt.Sprintf(`{"account_id": %q, "date": "2025-12-01", "amount": 150, "category": "evaluation"}`, e.accountID))
	e.expense(t, fmt.Sprintf(`{"account_id": %q, "date": "2025-12-20", "amount": 100, "category": "reset"}`, e.accountID))
	e.expense(t, `{"prop_firm": "Apex", "date": "2026-01-05", "amount": 50, "category": "data"}`)
	e.expense(t, fmt.Sprintf(`{"account_id": %q, "date": "2026-01-02", "amount": 200, "category": "evaluation"}`, ftmo.ID))

	row := func(currency string, paid, share, expenses, net float64, roi string) string {
		return fmt.Sprintf(`"currency":%q,"paid_total":%g,"traders_share":%g,"expenses":%g,"net":%g,"roi":%s}`,
			currency, paid, share, expenses, net, roi)
	}
	// USD: traders' 5,800 − expenses 300 = 5,500, over 300 = 18.33333333.
	// Apex: 4,000 − 300 = 3,700 (12.33333333); the Apex account alone
	// 4,000 − 250 = 3,750 (15); the expense without an account −50 (−1).
	want := `{"data":{"currencies":[{` + row("EUR", 1000, 800, 200, 600, "3") + `,{` + row("USD", 7000, 5800, 300, 5500, "18.33333333") + `],` +
		`"by_firm":[{"prop_firm":"FTMO",` + row("EUR", 1000, 800, 200, 600, "3") +
		`,{"prop_firm":"Apex",` + row("USD", 5000, 4000, 300, 3700, "12.33333333") +
		`,{"prop_firm":"Topstep",` + row("USD", 2000, 1800, 0, 1800, "null") + `],` +
		`"by_account":[{"account_id":"` + ftmo.ID + `",` + row("EUR", 1000, 800, 200, 600, "3") +
		`,{"account_id":"` + e.accountID + `",` + row("USD", 5000, 4000, 250, 3750, "15") +
		`,{"account_id":"` + top.ID + `",` + row("USD", 2000, 1800, 0, 1800, "null") +
		`,{"account_id":null,` + row("USD", 0, 0, 50, -50, "-1") + `]}}` + "\n"
	if got := must200(t, e.testServer, "/api/v1/payouts/summary", e.key); string(got) != want {
		t.Errorf("summary\n got %s\nwant %s", got, want)
	}

	// From February: Topstep's and FTMO's payouts, no expenses.
	want = `{"data":{"currencies":[{` + row("EUR", 1000, 800, 0, 800, "null") + `,{` + row("USD", 2000, 1800, 0, 1800, "null") + `],` +
		`"by_firm":[{"prop_firm":"FTMO",` + row("EUR", 1000, 800, 0, 800, "null") +
		`,{"prop_firm":"Topstep",` + row("USD", 2000, 1800, 0, 1800, "null") + `],` +
		`"by_account":[{"account_id":"` + ftmo.ID + `",` + row("EUR", 1000, 800, 0, 800, "null") +
		`,{"account_id":"` + top.ID + `",` + row("USD", 2000, 1800, 0, 1800, "null") + `]}}` + "\n"
	if got := must200(t, e.testServer, "/api/v1/payouts/summary?start_date=2026-02-01", e.key); string(got) != want {
		t.Errorf("summary from February\n got %s\nwant %s", got, want)
	}
	if status, b := e.do(t, "GET", "/api/v1/payouts/summary?end_date=soon", e.key, ""); status != 400 || !strings.Contains(string(b), `"end_date"`) {
		t.Errorf("bad end_date: %d %s", status, b)
	}
}

// TestPayoutDocumentsAndAccountDelete: deleting a linked document unlinks
// it and says so; an account with payouts or expenses is a 409 giving
// their counts, and cascade deletes them with their links.
func TestPayoutDocumentsAndAccountDelete(t *testing.T) {
	e := newTradeEnv(t)
	doc, keep := e.uploadPDF(t, "confirmation.pdf"), e.uploadPDF(t, "keep.pdf")
	p := e.payout(t, fmt.Sprintf(`{"account_id": %q, "total_amount": 100, "document_ids": [%q, %q]}`, e.accountID, doc, keep))
	x := e.expense(t, fmt.Sprintf(`{"account_id": %q, "amount": 10, "category": "data", "document_ids": [%q]}`, e.accountID, doc))
	loose := e.expense(t, fmt.Sprintf(`{"amount": 5, "category": "other", "document_ids": [%q]}`, keep))

	// The two documents hold the same bytes, so the file stays for keep.
	status, b := e.do(t, "DELETE", "/api/v1/documents/"+doc, e.key, "")
	want := `{"success":true,"deleted_id":"` + doc + `","warnings":["Unlinked from 1 payout","Unlinked from 1 expense"],"file_removed":false}` + "\n"
	if status != 200 || string(b) != want {
		t.Errorf("delete document: %d %s\nwant %s", status, b, want)
	}
	if got := decode[struct{ Data db.Payout }](t, must200(t, e.testServer, "/api/v1/payouts/"+p.ID, e.key)).Data; !reflect.DeepEqual(got.DocumentIDs, []string{keep}) {
		t.Errorf("payout documents after the delete: %v, want [%s]", got.DocumentIDs, keep)
	}
	if got := decode[struct{ Data db.Expense }](t, must200(t, e.testServer, "/api/v1/expenses/"+x.ID, e.key)).Data; len(got.DocumentIDs) != 0 {
		t.Errorf("expense documents after the delete: %v", got.DocumentIDs)
	}

	target := "/api/v1/accounts/" + e.accountID
	status, b = e.do(t, "DELETE", target, e.key, "")
	if er := decode[errBody](t, b); status != 409 || er.Details["payouts"] != "1" || er.Details["expenses"] != "1" || er.Details["documents"] != "1" {
		t.Errorf("delete account: %d %s, want 409 counting 1 payout, 1 expense", status, b)
	}
	status, b = e.do(t, "DELETE", target+"?cascade=true", e.key, "")
	want = `{"success":true,"deleted_id":"` + e.accountID + `","warnings":["Deleted 1 document","Deleted 1 payout","Deleted 1 expense"]}` + "\n"
	if status != 200 || string(b) != want {
		t.Errorf("cascade: %d %s\nwant %s", status, b, want)
	}
	raw := e.sql(t)
	for _, q := range []string{`SELECT count(*) FROM payouts`, `SELECT count(*) FROM payout_documents`,
		`SELECT count(*) FROM expenses WHERE id = '` + x.ID + `'`, `SELECT count(*) FROM documents`} {
		if n := count(t, raw, q); n != 0 {
			t.Errorf("%s: %d, want 0", q, n)
		}
	}
	// The expense of no account stays, its link to the deleted document gone.
	if got := decode[struct{ Data db.Expense }](t, must200(t, e.testServer, "/api/v1/expenses/"+loose.ID, e.key)).Data; len(got.DocumentIDs) != 0 {
		t.Errorf("loose expense after the cascade: %+v", got)
	}
}

// TestPayoutScopes: payouts and expenses are the accounts scope's.
func TestPayoutScopes(t *testing.T) {
	e := newTradeEnv(t)
	_, read := e.newKey(t, "alice", "accounts:read", false)
	_, trades := e.newKey(t, "alice", "trades:write", false)
	body := fmt.Sprintf(`{"account_id": %q, "total_amount": 1, "amount": 1, "category": "data"}`, e.accountID)
	for _, c := range []struct {
		key, method, target string
		want                int
	}{
		{read, "GET", "/api/v1/payouts", 200},
		{read, "GET", "/api/v1/payouts/summary", 200},
		{read, "GET", "/api/v1/expenses", 200},
		{read, "GET", "/api/v1/accounts/" + e.accountID + "/status", 200},
		{read, "POST", "/api/v1/payouts", 403},
		{read, "POST", "/api/v1/expenses", 403},
		{trades, "GET", "/api/v1/payouts", 403},
		{trades, "GET", "/api/v1/expenses", 403},
		{trades, "GET", "/api/v1/payouts/summary", 403},
		{e.key, "POST", "/api/v1/payouts", 201},
		{e.key, "POST", "/api/v1/expenses", 201},
	} {
		if status, b := e.do(t, c.method, c.target, c.key, body); status != c.want {
			t.Errorf("%s %s: %d %s, want %d", c.method, c.target, status, b, c.want)
		}
	}
}
