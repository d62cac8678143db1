package server_test

import "testing"

// tradePageCases are the isolation walk's cases of the pages of trades: manual entry, edit, delete and the list's selection. It may add
// alice's records (w.e is her journal) and their ids to w.aliceIDs.
func tradePageCases(t *testing.T, w *pageWalk) map[string][]func(t *testing.T) {
	return nil
}

// tradePagesPending are this group's API writes whose page is still to
// come; the route-parity test holds each entry until its page exists.
var tradePagesPending = map[string]string{
	"POST /api/v1/trades":        "no page yet (issue 28)",
	"DELETE /api/v1/trades/{id}": "no page yet (issue 28)",
	"POST /api/v1/trades/bulk":   "no page yet (issue 28)",
}
