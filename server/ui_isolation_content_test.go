package server_test

import "testing"

// contentPageCases are the isolation walk's cases of the pages of write-ups, trading plans, chart books, report cards, payouts, expenses and documents. It may add
// alice's records (w.e is her journal) and their ids to w.aliceIDs.
func contentPageCases(t *testing.T, w *pageWalk) map[string][]func(t *testing.T) {
	return nil
}

// contentPagesPending are this group's API writes whose page is still to
// come; the route-parity test holds each entry until its page exists.
var contentPagesPending = map[string]string{
	"PUT /api/v1/payouts/{id}":          "no page yet (issue 28)",
	"DELETE /api/v1/payouts/{id}":       "no page yet (issue 28)",
	"PUT /api/v1/expenses/{id}":         "no page yet (issue 28)",
	"DELETE /api/v1/expenses/{id}":      "no page yet (issue 28)",
	"PUT /api/v1/documents/{id}":        "no page yet (issue 28)",
	"DELETE /api/v1/documents/{id}":     "no page yet (issue 28)",
	"POST /api/v1/write-ups":            "no page yet (issue 28)",
	"PUT /api/v1/write-ups/{id}":        "no page yet (issue 28)",
	"DELETE /api/v1/write-ups/{id}":     "no page yet (issue 28)",
	"POST /api/v1/trading-plans":        "no page yet (issue 28)",
	"PUT /api/v1/trading-plans/{id}":    "no page yet (issue 28)",
	"DELETE /api/v1/trading-plans/{id}": "no page yet (issue 28)",
	"POST /api/v1/chart-books":          "no page yet (issue 28)",
	"PUT /api/v1/chart-books/{id}":      "no page yet (issue 28)",
	"DELETE /api/v1/chart-books/{id}":   "no page yet (issue 28)",
	"POST /api/v1/report-cards":         "no page yet (issue 28)",
	"PUT /api/v1/report-cards/{id}":     "no page yet (issue 28)",
	"DELETE /api/v1/report-cards/{id}":  "no page yet (issue 28)",
}
