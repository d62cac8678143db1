package server_test

import (
	"net/http"
	"testing"

	"tradejournal/db"
)

// TestPlaybookIsolation: bob can never read, change or delete alice's
// playbooks or strategies; every route answers as for an id that names
// nothing, his lists are empty, and alice's records are byte for byte
// unchanged afterwards.
func TestPlaybookIsolation(t *testing.T) {
	ts := newTestServer(t)
	_, alice := ts.newUser(t, "alice")
	_, bob := ts.newUser(t, "bob")
	s := ts.createStrategy(t, alice, `{"title":"Risk","strategy_rules":[{"description":"r"}]}`)
	p := ts.createPlaybook(t, alice, `{"title":"ORB","strategy_ids":["`+s.ID+`"],"entry_criteria":["e1"]}`)
	beforeS := must200(t, ts, "/api/v1/strategies/"+s.ID, alice)
	beforeP := must200(t, ts, "/api/v1/playbooks/"+p.ID, alice)

	tests := []struct{ method, resource, id, body string }{
		{"GET", "strategies", s.ID, ""},
		{"PUT", "strategies", s.ID, `{"title":"mine now"}`},
		{"PUT", "strategies", s.ID, `{"description":null,"strategy_rules":[]}`},
		{"DELETE", "strategies", s.ID, ""},
		{"GET", "playbooks", p.ID, ""},
		{"PUT", "playbooks", p.ID, `{"title":"mine now"}`},
		{"PUT", "playbooks", p.ID, `{"entry_criteria":[],"strategy_ids":[]}`},
		{"DELETE", "playbooks", p.ID, ""},
	}
	for _, tt := range tests {
		target := "/api/v1/" + tt.resource + "/"
		status, body := ts.do(t, tt.method, target+tt.id, bob, tt.body)
		_, unknown := ts.do(t, tt.method, target+idB, bob, tt.body)
		if status != http.StatusNotFound {
			t.Errorf("bob %s %s: got %d %s, want 404", tt.method, target+tt.id, status, body)
		}
		if string(body) != string(unknown) {
			t.Errorf("bob %s %s: body %s differs from an unknown id's %s", tt.method, target+tt.id, body, unknown)
		}
	}
	for _, target := range []string{"/api/v1/strategies", "/api/v1/playbooks"} {
		l := decode[listBody[struct{ ID string }]](t, must200(t, ts, target, bob))
		if len(l.Data) != 0 || l.Pagination.Total != 0 {
			t.Errorf("bob's %s: got %d items, total %d, want none", target, len(l.Data), l.Pagination.Total)
		}
	}
	if after := must200(t, ts, "/api/v1/strategies/"+s.ID, alice); string(after) != string(beforeS) {
		t.Errorf("alice's strategy after bob's attempts:\n got %s\nwant %s", after, beforeS)
	}
	if after := must200(t, ts, "/api/v1/playbooks/"+p.ID, alice); string(after) != string(beforeP) {
		t.Errorf("alice's playbook after bob's attempts:\n got %s\nwant %s", after, beforeP)
	}

	// bob's own records are his alone.
	bs := ts.createStrategy(t, bob, `{"title":"Bob's"}`)
	bp := ts.createPlaybook(t, bob, `{"title":"Bob's","strategy_ids":["`+bs.ID+`"]}`)
	for _, target := range []string{"/api/v1/strategies/" + bs.ID, "/api/v1/playbooks/" + bp.ID} {
		if status, _ := ts.do(t, "GET", target, alice, ""); status != http.StatusNotFound {
			t.Errorf("alice GET %s: got %d, want 404", target, status)
		}
	}
	ls := decode[listBody[db.Strategy]](t, must200(t, ts, "/api/v1/strategies", alice))
	if len(ls.Data) != 1 || ls.Data[0].ID != s.ID || ls.Pagination.Total != 1 {
		t.Errorf("alice's strategies: got %d items, total %d, want only %s", len(ls.Data), ls.Pagination.Total, s.ID)
	}
	lp := decode[listBody[db.Playbook]](t, must200(t, ts, "/api/v1/playbooks", alice))
	if len(lp.Data) != 1 || lp.Data[0].ID != p.ID || lp.Pagination.Total != 1 {
		t.Errorf("alice's playbooks: got %d items, total %d, want only %s", len(lp.Data), lp.Pagination.Total, p.ID)
	}
}

// TestPlaybookScopes: playbooks:read reads both resources and writes
// neither; playbooks:write does both; another resource's scope does none.
func TestPlaybookScopes(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	_, read := ts.newKey(t, "alice", "playbooks:read", false)
	_, write := ts.newKey(t, "alice", "playbooks:write", false)
	_, trades := ts.newKey(t, "alice", "trades:write", false)
	s := ts.createStrategy(t, key, `{"title":"Risk"}`)
	p := ts.createPlaybook(t, key, `{"title":"ORB"}`)
	tests := []struct {
		method, target, body string
		read                 bool // a read route
	}{
		{"GET", "/api/v1/strategies", "", true},
		{"GET", "/api/v1/strategies/" + s.ID, "", true},
		{"POST", "/api/v1/strategies", `{"title":"x"}`, false},
		{"PUT", "/api/v1/strategies/" + s.ID, `{"title":"x"}`, false},
		{"GET", "/api/v1/playbooks", "", true},
		{"GET", "/api/v1/playbooks/" + p.ID, "", true},
		{"POST", "/api/v1/playbooks", `{"title":"x"}`, false},
		{"PUT", "/api/v1/playbooks/" + p.ID, `{"title":"x"}`, false},
		{"DELETE", "/api/v1/playbooks/" + p.ID, "", false},
		{"DELETE", "/api/v1/strategies/" + s.ID, "", false},
	}
	for _, tt := range tests {
		for _, k := range []struct {
			name, key string
			allowed   bool
		}{{"playbooks:read", read, tt.read}, {"trades:write", trades, false}, {"playbooks:write", write, true}} {
			status, b := ts.do(t, tt.method, tt.target, k.key, tt.body)
			if forbidden := status == http.StatusForbidden; forbidden == k.allowed || status >= 500 {
				t.Errorf("%s %s with %s: got %d %s, want allowed %v", tt.method, tt.target, k.name, status, b, k.allowed)
			}
		}
	}
}
