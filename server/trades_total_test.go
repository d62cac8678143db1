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
	check := func(step string, want int) {
		t.Helper()
		status, b := e.do(t, "GET", "/api/v1/trades?limit=1", e.key, "")
		if status != http.StatusOK {
			t.Fatalf("%s: list %d %s", step, status, b)
		}
		total := decode[listBody[db.Trade]](t, b).Pagination.Total
		counted := count(t, raw, `SELECT count(*) FROM trades WHERE user_id = ?`, e.userID)
		if total != want || counted != want {
			t.Errorf("%s: total %d, counted %d, want %d", step, total, counted, want)
		}
	}
	check("empty journal", 0)

	for range 3 {
		e.create(t, e.tradeBody("NQZ5", "long", fills(1, "buy 1@20000", "sell 1@20010")))
	}
	bobTrade := fills(1, "buy 1@20000", "sell 1@20010")
	if status, b := e.do(t, "POST", "/api/v1/trades", bobKey,
		`{"account_id": "`+bobAccount.ID+`", "symbol": "ESZ5", "side": "long", "entry_date": "2026-02-05", `+bobTrade+`}`); status != http.StatusCreated {
		t.Fatalf("bob's trade: %d %s", status, b)
	}
	check("three created, one of bob's", 3)

	imp := e.mustImport(t, e.key, morning, http.StatusCreated)
	check("import of three trades", 6)
	e.mustImport(t, e.key, morning, http.StatusOK, "dry_run", "true")
	check("dry run", 6)

	first := e.tradesOf(t, e.key, "")[0]
	if status, b := e.do(t, "DELETE", "/api/v1/trades/"+first.ID, e.key, ""); status != http.StatusOK {
		t.Fatalf("delete trade: %d %s", status, b)
	}
	check("one deleted", 5)
	if status, b := e.do(t, "DELETE", "/api/v1/trades/"+first.ID, e.key, ""); status != http.StatusNotFound {
		t.Fatalf("delete again: %d %s", status, b)
	}
	check("deleted twice", 5)

	if status, b := e.do(t, "DELETE", "/api/v1/imports/"+*imp.ID, e.key, ""); status != http.StatusOK {
		t.Fatalf("undo import: %d %s", status, b)
	}
	check("import undone (one of its trades was deleted before)", 3)

	if status, b := e.do(t, "DELETE", "/api/v1/accounts/"+e.accountID+"?cascade=true", e.key, ""); status != http.StatusOK {
		t.Fatalf("delete account: %d %s", status, b)
	}
	check("account deleted with its trades", 0)
	if got := count(t, raw, `SELECT trades FROM trade_counts WHERE user_id = (SELECT id FROM users WHERE name = 'bob')`); got != 1 {
		t.Errorf("bob's count: %d, want 1", got)
	}
}
