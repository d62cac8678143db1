package server_test

import (
	"net/http"
	"net/url"
	"testing"

	"tradejournal/db"
)

// contentPageCases are the isolation walk's cases of the pages of write-ups, trading plans, chart books, report cards, payouts, expenses and documents. It may add
// alice's records (w.e is her journal) and their ids to w.aliceIDs.
func contentPageCases(t *testing.T, w *pageWalk) map[string][]func(t *testing.T) {
	e, csrf := w.e, w.csrf
	playbook := e.createPlaybook(t, e.key, `{"title": "Alice's plan book"}`)
	card := decode[struct{ Data db.ReportCard }](t, must201(t, e.testServer, "/api/v1/report-cards", e.key,
		`{"report_date": "2026-02-05", "account_id": "`+e.accountID+`", "grade": 4, "notes_markdown": "Alice's day"}`)).Data
	plan := decode[struct{ Data db.TradingPlan }](t, must201(t, e.testServer, "/api/v1/trading-plans", e.key,
		`{"title": "Alice's plan", "plan_date": "2026-02-05", "playbook_id": "`+playbook.ID+`"}`)).Data
	trade, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 1@5000", "sell 1@5004")))
	writeUp := decode[struct{ Data db.WriteUp }](t, must201(t, e.testServer, "/api/v1/write-ups", e.key,
		`{"trade_id": "`+trade.ID+`", "title": "Alice's write-up"}`)).Data
	payout := e.payout(t, `{"account_id": "`+e.accountID+`", "total_amount": 500}`)
	expense := e.expense(t, `{"account_id": "`+e.accountID+`", "amount": 150, "category": "evaluation"}`)
	doc := e.uploadPDF(t, "alice.pdf")
	book := decode[struct{ Data db.ChartBook }](t, must201(t, e.testServer, "/api/v1/chart-books", e.key,
		`{"title": "Alice's book", "document_ids": ["`+doc+`"]}`)).Data
	w.aliceIDs = append(w.aliceIDs, playbook.ID, card.ID, plan.ID, trade.ID, writeUp.ID, payout.ID, expense.ID, doc, book.ID)
	form := func(kv ...string) url.Values {
		v := url.Values{"csrf": {csrf}}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	return map[string][]func(t *testing.T){
		"GET /journal":                  {w.shows("/journal")},
		"GET /journal/report-cards":     {w.shows("/journal/report-cards")},
		"GET /journal/trading-plans":    {w.shows("/journal/trading-plans")},
		"GET /journal/report-cards/new": {w.shows("/journal/report-cards/new")},
		"POST /journal/report-cards": {
			// alice's account is not bob's to grade a day of.
			w.notFound("POST", "/journal/report-cards", form("report_date", "2026-02-05", "account_id", e.accountID)),
			w.makesHisOwn("/journal/report-cards", form("report_date", "2026-02-05", "notes_markdown", "Alice's day"),
				`SELECT id FROM report_cards WHERE user_id <> ? AND notes_markdown = 'Alice''s day'`, "/journal/report-cards/%s/delete"),
		},
		"GET /journal/report-cards/{id}/edit":    {w.notFound("GET", "/journal/report-cards/"+card.ID+"/edit", nil)},
		"POST /journal/report-cards/{id}":        {w.notFound("POST", "/journal/report-cards/"+card.ID, form("report_date", "2026-02-06"))},
		"GET /journal/report-cards/{id}/delete":  {w.notFound("GET", "/journal/report-cards/"+card.ID+"/delete", nil)},
		"POST /journal/report-cards/{id}/delete": {w.notFound("POST", "/journal/report-cards/"+card.ID+"/delete", form())},
		"GET /journal/trading-plans/new":         {w.shows("/journal/trading-plans/new")},
		"POST /journal/trading-plans": {
			// alice's playbook is not bob's to follow.
			w.notFound("POST", "/journal/trading-plans", form("title", "Bob's plan", "playbook_id", playbook.ID)),
			w.makesHisOwn("/journal/trading-plans", form("title", "Alice's plan", "plan_date", "2026-02-05"),
				`SELECT id FROM trading_plans WHERE user_id <> ? AND title = 'Alice''s plan'`, "/journal/trading-plans/%s/delete"),
		},
		"GET /journal/trading-plans/{id}/edit":    {w.notFound("GET", "/journal/trading-plans/"+plan.ID+"/edit", nil)},
		"POST /journal/trading-plans/{id}":        {w.notFound("POST", "/journal/trading-plans/"+plan.ID, form("title", "Bob's"))},
		"GET /journal/trading-plans/{id}/delete":  {w.notFound("GET", "/journal/trading-plans/"+plan.ID+"/delete", nil)},
		"POST /journal/trading-plans/{id}/delete": {w.notFound("POST", "/journal/trading-plans/"+plan.ID+"/delete", form())},
		"GET /journal/write-ups":                  {w.shows("/journal/write-ups")},
		// A link naming alice's trade offers bob nothing of hers.
		"GET /journal/write-ups/new":          {w.shows("/journal/write-ups/new"), w.shows("/journal/write-ups/new?trade_id=" + trade.ID)},
		"POST /journal/write-ups":             {w.notFound("POST", "/journal/write-ups", form("trade_id", trade.ID, "title", "Bob's"))},
		"GET /journal/write-ups/{id}/edit":    {w.notFound("GET", "/journal/write-ups/"+writeUp.ID+"/edit", nil)},
		"POST /journal/write-ups/{id}":        {w.notFound("POST", "/journal/write-ups/"+writeUp.ID, form("title", "Bob's"))},
		"GET /journal/write-ups/{id}/delete":  {w.notFound("GET", "/journal/write-ups/"+writeUp.ID+"/delete", nil)},
		"POST /journal/write-ups/{id}/delete": {w.notFound("POST", "/journal/write-ups/"+writeUp.ID+"/delete", form())},
		"GET /journal/chart-books":            {w.shows("/journal/chart-books")},
		"GET /journal/chart-books/new":        {w.shows("/journal/chart-books/new")},
		"POST /journal/chart-books": {
			// alice's document is not bob's to gather.
			w.notFound("POST", "/journal/chart-books", form("title", "Bob's book", "document_ids", doc)),
			w.makesHisOwn("/journal/chart-books", form("title", "Alice's book"),
				`SELECT id FROM chart_books WHERE user_id <> ? AND title = 'Alice''s book'`, "/journal/chart-books/%s/delete"),
		},
		"GET /journal/chart-books/{id}/edit":    {w.notFound("GET", "/journal/chart-books/"+book.ID+"/edit", nil)},
		"POST /journal/chart-books/{id}":        {w.notFound("POST", "/journal/chart-books/"+book.ID, form("title", "Bob's"))},
		"GET /journal/chart-books/{id}/delete":  {w.notFound("GET", "/journal/chart-books/"+book.ID+"/delete", nil)},
		"POST /journal/chart-books/{id}/delete": {w.notFound("POST", "/journal/chart-books/"+book.ID+"/delete", form())},
		"GET /payouts/{id}/edit":                {w.notFound("GET", "/payouts/"+payout.ID+"/edit", nil)},
		"POST /payouts/{id}":                    {w.notFound("POST", "/payouts/"+payout.ID, form("total_amount", "1"))},
		"GET /payouts/{id}/delete":              {w.notFound("GET", "/payouts/"+payout.ID+"/delete", nil)},
		"POST /payouts/{id}/delete":             {w.notFound("POST", "/payouts/"+payout.ID+"/delete", form())},
		"GET /expenses":                         {w.redirects("/expenses", "/payouts")},
		"GET /expenses/{id}/edit":               {w.notFound("GET", "/expenses/"+expense.ID+"/edit", nil)},
		"POST /expenses/{id}":                   {w.notFound("POST", "/expenses/"+expense.ID, form("amount", "1"))},
		"GET /expenses/{id}/delete":             {w.notFound("GET", "/expenses/"+expense.ID+"/delete", nil)},
		"POST /expenses/{id}/delete":            {w.notFound("POST", "/expenses/"+expense.ID+"/delete", form())},
		"GET /documents/{id}":                   {w.notFound("GET", "/documents/"+doc, nil)},
		"POST /documents/{id}/file": {func(t *testing.T) {
			r := w.bob.postMultipart(t, "/documents/"+doc+"/file", [][2]string{{"csrf", csrf}, {"replace", "true"}, {"document_id", doc}},
				"bob.pdf", string(samplePDF(t)), nil)
			if r.Code != http.StatusNotFound {
				t.Errorf("bob replacing alice's document's file: %d, want 404", r.Code)
			}
		}},
		"GET /documents/{id}/edit":    {w.notFound("GET", "/documents/"+doc+"/edit", nil)},
		"POST /documents/{id}":        {w.notFound("POST", "/documents/"+doc, form("document_name", "Bob's", "category", "receipt"))},
		"GET /documents/{id}/delete":  {w.notFound("GET", "/documents/"+doc+"/delete", nil)},
		"POST /documents/{id}/delete": {w.notFound("POST", "/documents/"+doc+"/delete", form())},
	}
}

// contentPagesPending are this group's API writes whose page is still to
// come; the route-parity test holds each entry until its page exists.
var contentPagesPending = map[string]string{}
