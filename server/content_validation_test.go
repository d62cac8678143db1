package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestContentValidation: each required field, each malformed value and
// each reference to a record that is not the caller's (bob's, or none at
// all) is refused, naming the field; a failed write changes nothing.
func TestContentValidation(t *testing.T) {
	e := newContentEnv(t)
	bobTag := insertTag(t, e.raw, e.bob.userID, "Bob's")
	const unknown = "0190a000-0000-7000-8000-0000000000ff"
	w := e.post(t, e.key, "/api/v1/write-ups", e.minimalBody("/api/v1/write-ups", ""))
	p := e.post(t, e.key, "/api/v1/trading-plans", e.minimalBody("/api/v1/trading-plans", ""))
	b := e.post(t, e.key, "/api/v1/chart-books", e.minimalBody("/api/v1/chart-books", `"document_ids":["`+e.docs[0]+`"]`))
	r := e.post(t, e.key, "/api/v1/report-cards", e.minimalBody("/api/v1/report-cards", `"grade":3`))
	targets := map[string]string{"/api/v1/write-ups": w.id(), "/api/v1/trading-plans": p.id(),
		"/api/v1/chart-books": b.id(), "/api/v1/report-cards": r.id()}
	before := map[string][]byte{}
	for path, id := range targets {
		before[path] = must200(t, e.testServer, path+"/"+id, e.key)
	}
	long := func(n int) string { return strings.Repeat("é", n) }
	manyDocs := `"document_ids":[` + strings.TrimSuffix(strings.Repeat(`"`+e.docs[0]+`",`, 501), ",") + `]`

	type check struct {
		method, path, body string
		wantStatus         int
		wantField          string
		wantError          string // for 404s: the message naming the kind
	}
	var tests []check
	// Tags work alike on every kind.
	for _, path := range contentPaths {
		tests = append(tests,
			check{"POST", path, e.minimalBody(path, `"tag_ids":["nope"]`), 400, "tag_ids[0]", ""},
			check{"POST", path, e.minimalBody(path, `"tag_ids":null`), 400, "tag_ids", ""},
			check{"POST", path, e.minimalBody(path, `"tag_ids":["`+bobTag+`"]`), 404, "tag_ids", "Tag not found"},
			check{"PUT", path, `{"tag_ids":["` + unknown + `"]}`, 404, "tag_ids", "Tag not found"},
			check{"PUT", path, `[]`, 400, "body", ""},
			check{"PUT", path, `{"tag_ids":"x"}`, 400, "tag_ids", ""},
		)
	}
	tests = append(tests, []check{
		{"POST", "/api/v1/write-ups", `{}`, 400, "trade_id", ""},
		{"POST", "/api/v1/write-ups", `{"trade_id":null}`, 400, "trade_id", ""},
		{"POST", "/api/v1/write-ups", `{"trade_id":"nope"}`, 400, "trade_id", ""},
		{"POST", "/api/v1/write-ups", `{"trade_id":"` + e.bob.tradeID + `"}`, 404, "trade_id", "Trade not found"},
		{"POST", "/api/v1/write-ups", `{"trade_id":"` + unknown + `"}`, 404, "trade_id", "Trade not found"},
		{"POST", "/api/v1/write-ups", e.minimalBody("/api/v1/write-ups", `"title":"`+long(201)+`"`), 400, "title", ""},
		{"POST", "/api/v1/write-ups", e.minimalBody("/api/v1/write-ups", `"title":5`), 400, "title", ""},
		{"POST", "/api/v1/write-ups", e.minimalBody("/api/v1/write-ups", `"content_markdown":"`+long(200_001)+`"`), 400, "content_markdown", ""},
		{"PUT", "/api/v1/write-ups", `{"trade_id":null}`, 400, "trade_id", ""},
		{"PUT", "/api/v1/write-ups", `{"trade_id":"` + e.bob.tradeID + `"}`, 404, "trade_id", "Trade not found"},

		{"POST", "/api/v1/trading-plans", `{}`, 400, "title", ""},
		{"POST", "/api/v1/trading-plans", `{"title":"   "}`, 400, "title", ""},
		{"POST", "/api/v1/trading-plans", `{"title":null}`, 400, "title", ""},
		{"POST", "/api/v1/trading-plans", `{"title":"` + long(201) + `"}`, 400, "title", ""},
		{"POST", "/api/v1/trading-plans", `{"title":"P","plan_date":"2026-2-5"}`, 400, "plan_date", ""},
		{"POST", "/api/v1/trading-plans", `{"title":"P","plan_date":"2026-02-30"}`, 400, "plan_date", ""},
		{"POST", "/api/v1/trading-plans", `{"title":"P","playbook_id":"x"}`, 400, "playbook_id", ""},
		{"POST", "/api/v1/trading-plans", `{"title":"P","playbook_id":"` + e.bob.playbookID + `"}`, 404, "playbook_id", "Playbook not found"},
		{"PUT", "/api/v1/trading-plans", `{"title":null}`, 400, "title", ""},
		{"PUT", "/api/v1/trading-plans", `{"title":"","plan_date":"tomorrow"}`, 400, "plan_date,title", ""},
		{"PUT", "/api/v1/trading-plans", `{"playbook_id":"` + unknown + `"}`, 404, "playbook_id", "Playbook not found"},

		{"POST", "/api/v1/chart-books", `{"description":"d"}`, 400, "title", ""},
		{"POST", "/api/v1/chart-books", `{"title":"B","description":"` + long(10_001) + `"}`, 400, "description", ""},
		{"POST", "/api/v1/chart-books", `{"title":"B","playbook_id":"` + e.bob.playbookID + `"}`, 404, "playbook_id", "Playbook not found"},
		{"POST", "/api/v1/chart-books", `{"title":"B","document_ids":null}`, 400, "document_ids", ""},
		{"POST", "/api/v1/chart-books", `{"title":"B","document_ids":["` + e.docs[0] + `","x"]}`, 400, "document_ids[1]", ""},
		{"POST", "/api/v1/chart-books", `{"title":"B","document_ids":["` + e.bob.documentID + `"]}`, 404, "document_ids", "Document not found"},
		{"POST", "/api/v1/chart-books", `{"title":"B",` + manyDocs + `}`, 400, "document_ids", ""},
		{"PUT", "/api/v1/chart-books", `{"document_ids":["` + e.docs[1] + `","` + unknown + `"]}`, 404, "document_ids", "Document not found"},
		{"PUT", "/api/v1/chart-books", `{"document_ids":null}`, 400, "document_ids", ""},

		{"POST", "/api/v1/report-cards", `{}`, 400, "report_date", ""},
		{"POST", "/api/v1/report-cards", `{"report_date":null}`, 400, "report_date", ""},
		{"POST", "/api/v1/report-cards", `{"report_date":"05/02/2026"}`, 400, "report_date", ""},
		{"POST", "/api/v1/report-cards", `{"report_date":"2026-02-05","grade":0}`, 400, "grade", ""},
		{"POST", "/api/v1/report-cards", `{"report_date":"2026-02-05","grade":6}`, 400, "grade", ""},
		{"POST", "/api/v1/report-cards", `{"report_date":"2026-02-05","grade":4.5}`, 400, "grade", ""},
		{"POST", "/api/v1/report-cards", `{"report_date":"2026-02-05","grade":"A"}`, 400, "grade", ""},
		{"POST", "/api/v1/report-cards", `{"report_date":"2026-02-05","account_id":"` + e.bob.accountID + `"}`, 404, "account_id", "Account not found"},
		{"POST", "/api/v1/report-cards", `{"report_date":"2026-02-05","notes_markdown":"` + long(200_001) + `"}`, 400, "notes_markdown", ""},
		{"PUT", "/api/v1/report-cards", `{"report_date":null}`, 400, "report_date", ""},
		{"PUT", "/api/v1/report-cards", `{"grade":-1,"account_id":"x"}`, 400, "account_id,grade", ""},
	}...)
	for _, tt := range tests {
		target := tt.path
		if tt.method == "PUT" {
			target += "/" + targets[tt.path]
		}
		status, body := e.do(t, tt.method, target, e.key, tt.body)
		got := decode[errBody](t, body)
		short := tt.body[:min(len(tt.body), 80)]
		if status != tt.wantStatus || keys(got.Details) != tt.wantField {
			t.Errorf("%s %s %s: got %d %s, want %d naming %s", tt.method, target, short, status, body[:min(len(body), 300)], tt.wantStatus, tt.wantField)
		}
		if tt.wantError != "" && (got.Error != tt.wantError || got.Code != "NOT_FOUND" || got.Details[tt.wantField] != tt.wantError) {
			t.Errorf("%s %s %s: got %s, want NOT_FOUND %q", tt.method, target, short, body, tt.wantError)
		}
	}
	for path, id := range targets {
		if after := must200(t, e.testServer, path+"/"+id, e.key); string(after) != string(before[path]) {
			t.Errorf("%s/%s after the failed writes:\n got %s\nwant %s", path, id, after, before[path])
		}
	}
}

// TestContentPathIDs: a malformed or unknown id in the path is the same
// 404, naming the kind.
func TestContentPathIDs(t *testing.T) {
	e := newContentEnv(t)
	kinds := map[string]string{"/api/v1/write-ups": "Write-up", "/api/v1/trading-plans": "Trading plan",
		"/api/v1/chart-books": "Chart book", "/api/v1/report-cards": "Report card"}
	for path, kind := range kinds {
		want := fmt.Sprintf(`{"error":"%s not found","code":"NOT_FOUND"}`+"\n", kind)
		for _, method := range []string{"GET", "PUT", "DELETE"} {
			for _, id := range []string{"not-a-uuid", "0190a000-0000-7000-8000-0000000000ff"} {
				body := ""
				if method == "PUT" {
					body = `{}`
				}
				if status, b := e.do(t, method, path+"/"+id, e.key, body); status != http.StatusNotFound || string(b) != want {
					t.Errorf("%s %s/%s: got %d %s, want 404 %s", method, path, id, status, b, want)
				}
			}
		}
	}
}
