package server_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tradejournal/db"
)

// TestBrowserContentPagesFitAPhone: at 360 px the journal, its lists and
// forms, a document's page, the payouts page with its rows' links and a
// confirm step fit the screen (wide tables scroll in their own box), with
// records in them.
func TestBrowserContentPagesFitAPhone(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	doc := e.uploadPDF(t, "a-rather-long-payout-confirmation-name.pdf")
	tag := journalTag(t, e, "Patient")
	must201(t, e.testServer, "/api/v1/report-cards", e.key, `{"report_date": "2026-02-05", "account_id": "`+e.accountID+`", "grade": 4,
		"notes_markdown": "`+strings.Repeat("Waited for the pullback and took it. ", 8)+`", "tag_ids": ["`+tag+`"]}`)
	must201(t, e.testServer, "/api/v1/trading-plans", e.key, `{"title": "Plan for 2026-02-06", "plan_date": "2026-02-06"}`)
	must201(t, e.testServer, "/api/v1/write-ups", e.key, `{"trade_id": "`+tr.ID+`", "title": "Waited for the retest"}`)
	must201(t, e.testServer, "/api/v1/chart-books", e.key, `{"title": "Opening drives", "document_ids": ["`+doc+`"]}`)
	p := e.payout(t, `{"account_id": "`+e.accountID+`", "total_amount": 5000, "status": "paid", "reference": "PO-12345", "document_ids": ["`+doc+`"]}`)
	e.expense(t, `{"account_id": "`+e.accountID+`", "amount": 167, "category": "evaluation", "description": "50K evaluation"}`)
	card := decode[listBody[db.ReportCard]](t, must200(t, e.testServer, "/api/v1/report-cards", e.key)).Data[0]

	hs := httptest.NewServer(e.srv)
	t.Cleanup(hs.Close)
	ctx := newBrowser(t, 360)
	if err := chromedp.Run(ctx, signIn(t, e.testServer, hs.URL, "alice")); err != nil {
		t.Fatal(err)
	}
	for _, page := range []string{"/journal", "/journal/report-cards", "/journal/report-cards/new", "/journal/report-cards/" + card.ID + "/edit",
		"/journal/write-ups/new", "/journal/chart-books/new", "/payouts", "/payouts/" + p.ID + "/edit", "/payouts/" + p.ID + "/delete",
		"/documents", "/documents/" + doc, "/documents/" + doc + "/delete"} {
		var width int
		err := chromedp.Run(ctx,
			chromedp.Navigate(hs.URL+page),
			chromedp.WaitReady(`main`),
			chromedp.Evaluate(`document.documentElement.scrollWidth`, &width),
			screenshot(t, "phone-content"+strings.ReplaceAll(strings.ReplaceAll(page, "/", "-"), e.accountID, "id")),
		)
		if err != nil {
			t.Fatal(err)
		}
		if width > 360 {
			t.Errorf("%s at 360 px is %d px wide", page, width)
		}
	}
}
