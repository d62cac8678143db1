package server_test

import (
	"net/http"
	"testing"

	"tradejournal/db"
)

// TestTradeTotalFollowsWrites: the list's unfiltered total, read from the
// counts the triggers keep, equals a count of the user's trades after every
// kind of write that adds or removes trades, and never counts another
// user's.
func TestTradeTotalFollowsWrites(t *testing.T) {
	e := newTradeEnv(t)
	raw := e.sql(t)
	_, bobKey := e.newUser(t, "bob")
	bobAccount := e.createAccount(t, bobKey, `{"account_number": "BOB-1"}`)
	second := e.createAccount(t, e.key, `{"account_number": "APEX-2"}`)
	total := func(step, query string) int {
		t.Helper()
		status, b := e.do(t, "GET", "/api/v1/trades?limit=1"+query, e.key, "")
		if status != http.StatusOK {
			t.Fatalf("%s: list%s: %d %s", step, query, status, b)
		}
		return decode[listBody[db.Trade]](t, b).Pagination.Total
	}
	// check wants the totals of the whole journal and of the second
	// account, each equal to a count of the rows.
	check := func(step string, want, wantSecond int) {
		t.Helper()
		got, counted := total(step, ""), count(t, raw, `SELECT count(*) FROM trades WHERE user_id = ?`, e.userID)
		if got != want || counted != want {
			t.Errorf("%s: total %d, counted %d, want %d", step, got, counted, want)
		}
		for account, want := range map[string]int{e.accountID: want - wantSecond, second.ID: wantSecond} {
			got := total(step, "&account_id="+account)
			counted := count(t, raw, `SELECT count(*) FROM trades WHERE account_id = ?`, account)
			if got != want || counted != want {
				t.Errorf("%s: account %s: total %d, counted %d, want %d", step, account, got, counted, want)
			}
		}
	}
	check("empty journal", 0, 0)

	for range 3 {
		e.create(t, e.tradeBody("NQZ5", "long", fills(1, "buy 1@20000", "sell 1@20010")))
	}
	bobTrade := fills(1, "buy 1@20000", "sell 1@20010")
	if status, b := e.do(t, "POST", "/api/v1/trades", bobKey,
		`{"account_id": "`+bobAccount.ID+`", "symbol": "ESZ5", "side": "long", "entry_date": "2026-02-05", `+bobTrade+`}`); status != http.StatusCreated {
		t.Fatalf("bob's trade: %d %s", status, b)
	}
	check("three created, one of bob's", 3, 0)

	imp := e.mustImport(t, e.key, morning, http.StatusCreated)
	check("import of three trades", 6, 0)
	e.mustImport(t, e.key, morning, http.StatusOK, "dry_run", "true")
	check("dry run", 6, 0)

	first := e.tradesOf(t, e.key, "")[0]
	if status, b := e.do(t, "DELETE", "/api/v1/trades/"+first.ID, e.key, ""); status != http.StatusOK {
		t.Fatalf("delete trade: %d %s", status, b)
	}
	check("one deleted", 5, 0)
	if status, b := e.do(t, "DELETE", "/api/v1/trades/"+first.ID, e.key, ""); status != http.StatusNotFound {
		t.Fatalf("delete again: %d %s", status, b)
	}
	check("deleted twice", 5, 0)

	// A trade moved to the second account: the only one the API makes.
	moved := e.tradesOf(t, e.key, "")[4]
	if status, b := e.do(t, "PUT", "/api/v1/trades/"+moved.ID, e.key, `{"account_id": "`+second.ID+`"}`); status != http.StatusOK {
		t.Fatalf("move trade: %d %s", status, b)
	}
	check("one moved to the second account", 5, 1)
	if status, b := e.do(t, "PUT", "/api/v1/trades/"+moved.ID, e.key, `{"account_id": "`+second.ID+`", "star_rating": 3}`); status != http.StatusOK {
		t.Fatalf("update trade: %d %s", status, b)
	}
	check("the moved one updated in place", 5, 1)

	if status, b := e.do(t, "DELETE", "/api/v1/imports/"+*imp.ID, e.key, ""); status != http.StatusOK {
		t.Fatalf("undo import: %d %s", status, b)
	}
	check("import undone (one of its trades was deleted before)", 3, 1)

	if status, b := e.do(t, "DELETE", "/api/v1/accounts/"+e.accountID+"?cascade=true", e.key, ""); status != http.StatusOK {
		t.Fatalf("delete account: %d %s", status, b)
	}
	check("first account deleted with its trades", 1, 1)
	if got := count(t, raw, `SELECT trades FROM trade_counts WHERE account_id = ?`, bobAccount.ID); got != 1 {
		t.Errorf("bob's count: %d, want 1", got)
	}
	if got := count(t, raw, `SELECT count(*) FROM trade_counts WHERE account_id = ?`, e.accountID); got != 0 {
		t.Errorf("the deleted account keeps %d count rows", got)
	}
}
