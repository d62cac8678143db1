package server_test

import (
	"net/url"
	"testing"
)

// tradePageCases are the isolation walk's cases of the pages of trades: manual entry, edit, delete and the list's selection. It may add
// alice's records (w.e is her journal) and their ids to w.aliceIDs.
func tradePageCases(t *testing.T, w *pageWalk) map[string][]func(t *testing.T) {
	e, csrf := w.e, w.csrf
	tr, _ := e.create(t, e.tradeBody("MNQZ5", "long", fills(0.5, "buy 1@21000", "sell 1@21010")))
	w.aliceIDs = append(w.aliceIDs, tr.ID)
	edit := url.Values{"csrf": {csrf}, "account_id": {e.accountID}, "symbol": {"X"}, "side": {"long"}, "entry_date": {"2026-02-05"},
		"entry_price": {"1"}, "quantity": {"1"}}
	return map[string][]func(t *testing.T){
		"GET /trades/new": {w.shows("/trades/new")},
		// bob's trade on alice's account: her account is not his.
		"POST /trades":            {w.notFound("POST", "/trades", edit)},
		"GET /trades/{id}/edit":   {w.notFound("GET", "/trades/"+tr.ID+"/edit", nil)},
		"POST /trades/{id}":       {w.notFound("POST", "/trades/"+tr.ID, edit), w.notFound("POST", "/trades/"+tr.ID, url.Values{"csrf": {csrf}, "more": {"1"}})},
		"GET /trades/{id}/delete": {w.notFound("GET", "/trades/"+tr.ID+"/delete", nil)},
		"POST /trades/{id}/delete": {w.notFound("POST", "/trades/"+tr.ID+"/delete", url.Values{"csrf": {csrf}}), func(t *testing.T) {
			if n := count(t, e.sql(t), `SELECT count(*) FROM trades WHERE id = ?`, tr.ID); n != 1 {
				t.Errorf("bob's delete of alice's trade left %d of it", n)
			}
		}},
		// bob's review queue: his own trades only; alice's trade named
		// in its address, or saved through it, is not found.
		"GET /review": {w.shows("/review"), w.shows("/review?start_date=2020-01-01&account_id=" + e.accountID),
			w.notFound("GET", "/review?trade_id="+tr.ID, nil), w.notFound("GET", "/review?after="+tr.ID, nil)},
		"POST /review/{id}": {w.notFound("POST", "/review/"+tr.ID+"?start_date=2020-01-01",
			url.Values{"csrf": {csrf}, "star_rating": {"1"}, "notes": {"bob's"}, "reviewed": {"true"}}), func(t *testing.T) {
			if n := count(t, e.sql(t), `SELECT count(*) FROM trades WHERE id = ? AND star_rating IS NULL AND review_notes IS NULL AND reviewed_at IS NULL`, tr.ID); n != 1 {
				t.Error("bob's save through the review queue changed alice's trade")
			}
		}},
		"GET /ui/review.js":       {},
		"GET /trades/bulk":        {w.notFound("GET", "/trades/bulk?"+url.Values{"trade_ids": {tr.ID}}.Encode(), nil)},
		"GET /trades/bulk/delete": {w.notFound("GET", "/trades/bulk/delete?"+url.Values{"trade_ids": {tr.ID}}.Encode(), nil)},
		"POST /trades/bulk": {
			w.notFound("POST", "/trades/bulk", url.Values{"csrf": {csrf}, "trade_ids": {tr.ID}, "reviewed": {"true"}}),
			w.notFound("POST", "/trades/bulk", url.Values{"csrf": {csrf}, "trade_ids": {tr.ID}, "delete": {"true"}}),
		},
	}
}

// tradePagesPending are this group's API writes whose page is still to
// come; the route-parity test holds each entry until its page exists.
var tradePagesPending = map[string]string{}
