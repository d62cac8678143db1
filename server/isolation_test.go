package server_test

import (
	"net/http"
	"testing"

	"tradejournal/db"
)

// TestIsolation: bob can never read, change or delete alice's account, the
// answers are the same as for an id that names nothing, and alice's account
// is byte for byte unchanged afterwards.
func TestIsolation(t *testing.T) {
	ts := newTestServer(t)
	aliceID, alice := ts.newUser(t, "alice")
	_, bob := ts.newUser(t, "bob")
	a := ts.createAccount(t, alice, `{"account_number":"A-1","prop_firm":"Apex","starting_balance":100}`)
	insertTrade(t, ts.sql(t), aliceID, a.ID)
	before := must200(t, ts, "/api/v1/accounts/"+a.ID, alice)

	tests := []struct{ method, target, body string }{
		{"GET", "/api/v1/accounts/" + a.ID, ""},
		{"PUT", "/api/v1/accounts/" + a.ID, `{"name":"mine now","account_number":"B-1"}`},
		{"PUT", "/api/v1/accounts/" + a.ID, `{"prop_firm":null}`},
		{"DELETE", "/api/v1/accounts/" + a.ID, ""},
		{"DELETE", "/api/v1/accounts/" + a.ID + "?cascade=true", ""},
	}
	for _, tt := range tests {
		status, body := ts.do(t, tt.method, tt.target, bob, tt.body)
		unknownTarget := "/api/v1/accounts/" + idB
		_, unknown := ts.do(t, tt.method, unknownTarget, bob, tt.body)
		if status != http.StatusNotFound {
			t.Errorf("bob %s %s: got %d %s, want 404", tt.method, tt.target, status, body)
		}
		if string(body) != string(unknown) {
			t.Errorf("bob %s %s: body %s differs from an unknown id's %s", tt.method, tt.target, body, unknown)
		}
	}

	l := decode[listBody[db.Account]](t, must200(t, ts, "/api/v1/accounts", bob))
	if len(l.Data) != 0 || l.Pagination.Total != 0 {
		t.Errorf("bob's list: got %d items, total %d, want none", len(l.Data), l.Pagination.Total)
	}
	if after := must200(t, ts, "/api/v1/accounts/"+a.ID, alice); string(after) != string(before) {
		t.Errorf("alice's account after bob's attempts:\n got %s\nwant %s", after, before)
	}
	raw := ts.sql(t)
	if n := count(t, raw, `SELECT count(*) FROM trades WHERE account_id = ?`, a.ID); n != 1 {
		t.Errorf("alice's trades after bob's cascade delete: got %d, want 1", n)
	}
	if n := count(t, raw, `SELECT count(*) FROM accounts`); n != 1 {
		t.Errorf("accounts: got %d, want 1", n)
	}

	// bob's own account with alice's number is his, and alice never sees it.
	b := ts.createAccount(t, bob, `{"account_number":"A-1"}`)
	l = decode[listBody[db.Account]](t, must200(t, ts, "/api/v1/accounts", alice))
	if len(l.Data) != 1 || l.Data[0].ID != a.ID || l.Pagination.Total != 1 {
		t.Errorf("alice's list: got %+v, want only %s", l, a.ID)
	}
	if status, _ := ts.do(t, "GET", "/api/v1/accounts/"+b.ID, alice, ""); status != http.StatusNotFound {
		t.Errorf("alice reading bob's account: got %d, want 404", status)
	}
}
