package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
)

// TestContentIsolation: bob can never read, change or delete alice's
// content; every route answers as for an id that names nothing, his lists
// are empty even when filtered on alice's records, and alice's records are
// byte for byte unchanged afterwards. Alice never sees bob's either.
func TestContentIsolation(t *testing.T) {
	e := newContentEnv(t)
	g := e.newGroup(t, e.key, "Setups")
	tag := e.newTag(t, e.key, g.ID, "A").ID
	bodies := map[string]string{
		"/api/v1/write-ups":     fmt.Sprintf(`{"trade_id":%q,"title":"W","tag_ids":[%q]}`, e.tradeID, tag),
		"/api/v1/trading-plans": fmt.Sprintf(`{"title":"P","plan_date":"2026-02-05","playbook_id":%q,"tag_ids":[%q]}`, e.playbookID, tag),
		"/api/v1/chart-books":   fmt.Sprintf(`{"title":"B","playbook_id":%q,"document_ids":[%q],"tag_ids":[%q]}`, e.playbookID, e.docs[0], tag),
		"/api/v1/report-cards":  fmt.Sprintf(`{"report_date":"2026-02-05","account_id":%q,"grade":3,"tag_ids":[%q]}`, e.accountID, tag),
	}
	puts := map[string]string{
		"/api/v1/write-ups":     `{"title":"mine now","tag_ids":[]}`,
		"/api/v1/trading-plans": `{"title":"mine now","playbook_id":null}`,
		"/api/v1/chart-books":   `{"document_ids":[]}`,
		"/api/v1/report-cards":  `{"grade":null,"account_id":null}`,
	}
	filters := map[string]string{
		"/api/v1/write-ups":     "?trade_id=" + e.tradeID,
		"/api/v1/trading-plans": "?playbook_id=" + e.playbookID + "&start_date=2026-02-05",
		"/api/v1/chart-books":   "?playbook_id=" + e.playbookID,
		"/api/v1/report-cards":  "?account_id=" + e.accountID + "&end_date=2026-02-05",
	}
	for _, path := range contentPaths {
		r := e.post(t, e.key, path, bodies[path])
		before := must200(t, e.testServer, path+"/"+r.id(), e.key)
		for _, call := range []struct{ method, body string }{{"GET", ""}, {"PUT", puts[path]}, {"DELETE", ""}} {
			status, body := e.do(t, call.method, path+"/"+r.id(), e.bob.key, call.body)
			_, unknown := e.do(t, call.method, path+"/"+idB, e.bob.key, call.body)
			if status != http.StatusNotFound || string(body) != string(unknown) {
				t.Errorf("bob %s %s/%s: got %d %s, want the 404 of an unknown id %s", call.method, path, r.id(), status, body, unknown)
			}
		}
		for _, q := range []string{"", filters[path]} {
			if l := e.listMaps(t, e.bob.key, path+q); len(l.Data) != 0 || l.Pagination.Total != 0 {
				t.Errorf("bob's %s%s: got %v, total %d, want none", path, q, recordIDs(l.Data), l.Pagination.Total)
			}
		}
		if after := must200(t, e.testServer, path+"/"+r.id(), e.key); string(after) != string(before) {
			t.Errorf("alice's %s after bob's attempts:\n got %s\nwant %s", path, after, before)
		}

		var bobs string
		switch path {
		case "/api/v1/write-ups":
			bobs = e.post(t, e.bob.key, path, fmt.Sprintf(`{"trade_id":%q}`, e.bob.tradeID)).id()
		default:
			bobs = e.post(t, e.bob.key, path, e.minimalBody(path, "")).id()
		}
		if status, _ := e.do(t, "GET", path+"/"+bobs, e.key, ""); status != http.StatusNotFound {
			t.Errorf("alice GET bob's %s: got %d, want 404", path, status)
		}
		if got := recordIDs(e.listMaps(t, e.key, path).Data); !slices.Equal(got, []string{r.id()}) {
			t.Errorf("alice's %s: got %v, want only %s", path, got, r.id())
		}
	}
}

// TestContentScopes: content:read reads every content route and writes
// none, content:write does both, and a key with another resource's scope
// (trades:write) gets 403 FORBIDDEN on all of them.
func TestContentScopes(t *testing.T) {
	e := newContentEnv(t)
	_, read := e.newKey(t, "alice", "content:read", false)
	_, write := e.newKey(t, "alice", "content:write", false)
	_, trades := e.newKey(t, "alice", "trades:write", false)
	type call struct{ method, target, body string }
	var calls []call
	for _, path := range contentPaths {
		id := e.post(t, e.key, path, e.minimalBody(path, "")).id()
		calls = append(calls,
			call{"GET", path, ""},
			call{"GET", path + "/" + id, ""},
			call{"POST", path, e.minimalBody(path, "")},
			call{"PUT", path + "/" + id, `{}`},
			call{"DELETE", path + "/" + id, ""},
		)
	}
	for _, c := range calls {
		isRead := c.method == "GET"
		scope := "content:write"
		if isRead {
			scope = "content:read"
		}
		forbidden := `{"error":"This API key lacks the ` + scope + ` scope","code":"FORBIDDEN"}` + "\n"
		for _, k := range []struct {
			name, key string
			allowed   bool
		}{{"content:read", read, isRead}, {"trades:write", trades, false}, {"content:write", write, true}} {
			status, b := e.do(t, c.method, c.target, k.key, c.body)
			if k.allowed && (status >= 300) {
				t.Errorf("%s %s with %s: got %d %s, want success", c.method, c.target, k.name, status, b)
			}
			if !k.allowed && (status != http.StatusForbidden || string(b) != forbidden) {
				t.Errorf("%s %s with %s: got %d %s, want 403 %s", c.method, c.target, k.name, status, b, forbidden)
			}
		}
	}
}
