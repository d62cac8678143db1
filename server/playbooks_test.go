package server_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"tradejournal/db"
)

// createPlaybook posts a playbook and returns it, failing unless it is a 201.
func (ts *testServer) createPlaybook(t testing.TB, key, body string) db.Playbook {
	t.Helper()
	status, b := ts.do(t, "POST", "/api/v1/playbooks", key, body)
	if status != http.StatusCreated {
		t.Fatalf("POST /api/v1/playbooks %s: got %d %s, want 201", body, status, b)
	}
	return decode[dataOf[db.Playbook]](t, b).Data
}

// putPlaybook updates a playbook and returns it, failing unless it is a 200.
func (ts *testServer) putPlaybook(t *testing.T, key, id, body string) db.Playbook {
	t.Helper()
	status, b := ts.do(t, "PUT", "/api/v1/playbooks/"+id, key, body)
	if status != http.StatusOK {
		t.Fatalf("PUT /api/v1/playbooks/%s %s: got %d %s, want 200", id, body, status, b)
	}
	return decode[dataOf[db.Playbook]](t, b).Data
}

// TestPlaybookCreateAndGet pins the clock and the ids to compare whole
// bodies: SPEC.md's read shape plus title, content_markdown and tags;
// strategies in the order given, a repeated one once.
func TestPlaybookCreateAndGet(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	ts.pinClock(t0)
	ts.pinIDs(t, idA, idB)
	ts.createStrategy(t, key, `{"title":"Trend","description":"with the trend"}`)
	ts.createStrategy(t, key, `{"title":"Risk"}`)
	ids := []string{
		"0190a000-0000-7000-8000-0000000000b0", // the playbook
		"0190a000-0000-7000-8000-0000000000e1", "0190a000-0000-7000-8000-0000000000e2",
		"0190a000-0000-7000-8000-0000000000f1",
	}
	ts.pinIDs(t, ids...)
	status, created := ts.do(t, "POST", "/api/v1/playbooks", key, `{"title":" Opening range breakout ",
		"description":"First 30 minutes","content_markdown":"# ORB",
		"strategy_ids":["`+idB+`","`+strings.ToUpper(idA)+`","`+idB+`"],
		"entry_criteria":["Range set by 10:00"," Break with volume "],"exit_criteria":["Target 2R"]}`)
	strategies := `"strategies":[{"id":"` + idB + `","name":"Risk","description":"","created_at":"` + t0Text + `"},` +
		`{"id":"` + idA + `","name":"Trend","description":"with the trend","created_at":"` + t0Text + `"}]`
	want := `{"data":{"id":"` + ids[0] + `","name":"Opening range breakout","title":"Opening range breakout",` +
		`"description":"First 30 minutes","content_markdown":"# ORB",` +
		`"entry_criteria":[{"id":"` + ids[1] + `","description":"Range set by 10:00","order":1},` +
		`{"id":"` + ids[2] + `","description":"Break with volume","order":2}],` +
		`"exit_criteria":[{"id":"` + ids[3] + `","description":"Target 2R","order":1}],` + strategies + `,` +
		`"tags":[],"created_at":"` + t0Text + `","updated_at":"` + t0Text + `"}}` + "\n"
	if status != http.StatusCreated || string(created) != want {
		t.Fatalf("create: got %d %s\nwant 201 %s", status, created, want)
	}
	if got := must200(t, ts, "/api/v1/playbooks/"+ids[0], key); string(got) != want {
		t.Errorf("get: got %s\nwant %s", got, want)
	}
	l := decode[listBody[db.Playbook]](t, must200(t, ts, "/api/v1/playbooks", key))
	if len(l.Data) != 1 || !reflect.DeepEqual(l.Data[0], decode[dataOf[db.Playbook]](t, created).Data) {
		t.Errorf("list: got %+v, want the created playbook as its one item", l.Data)
	}
}

func TestPlaybookCreateDefaults(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	got := ts.createPlaybook(t, key, `{"title":"Bare","description":null,"strategy_ids":[]}`)
	want := db.Playbook{ID: got.ID, Name: "Bare", Title: "Bare", EntryCriteria: []db.Criterion{},
		ExitCriteria: []db.Criterion{}, Strategies: []db.PlaybookStrategy{}, Tags: []db.TagRef{},
		CreatedAt: got.CreatedAt, UpdatedAt: got.UpdatedAt}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

// TestPlaybookUpdate: absent fields are untouched, criteria keep their ids
// and order until replaced, then are renumbered with new ids.
func TestPlaybookUpdate(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	s1 := ts.createStrategy(t, key, `{"title":"S1"}`)
	s2 := ts.createStrategy(t, key, `{"title":"S2"}`)
	p := ts.createPlaybook(t, key, `{"title":"ORB","description":"d","content_markdown":"md",
		"strategy_ids":["`+s1.ID+`"],"entry_criteria":["e1","e2","e3"],"exit_criteria":["x1"]}`)

	got := ts.putPlaybook(t, key, p.ID, `{"title":"ORB v2"}`)
	if got.Title != "ORB v2" || got.Name != "ORB v2" || got.Description != "d" || got.ContentMarkdown != "md" {
		t.Errorf("title only: got %+v, want the texts untouched", got)
	}
	if !reflect.DeepEqual(got.EntryCriteria, p.EntryCriteria) || !reflect.DeepEqual(got.ExitCriteria, p.ExitCriteria) ||
		!reflect.DeepEqual(got.Strategies, p.Strategies) || got.CreatedAt != p.CreatedAt {
		t.Errorf("title only: criteria, strategies or created_at changed:\n got %+v\nwant %+v", got, p)
	}

	got = ts.putPlaybook(t, key, p.ID, `{"exit_criteria":["x2","x1"],"strategy_ids":["`+s2.ID+`","`+s1.ID+`"]}`)
	if !reflect.DeepEqual(got.EntryCriteria, p.EntryCriteria) {
		t.Errorf("entry criteria after replacing the exit ones: got %+v, want %+v", got.EntryCriteria, p.EntryCriteria)
	}
	if len(got.ExitCriteria) != 2 || got.ExitCriteria[0].Description != "x2" || got.ExitCriteria[0].Order != 1 ||
		got.ExitCriteria[1].Description != "x1" || got.ExitCriteria[1].Order != 2 || got.ExitCriteria[1].ID == p.ExitCriteria[0].ID {
		t.Errorf("replaced exit criteria: got %+v, want x2 (1), x1 (2) with new ids", got.ExitCriteria)
	}
	if len(got.Strategies) != 2 || got.Strategies[0].ID != s2.ID || got.Strategies[1].ID != s1.ID {
		t.Errorf("strategies: got %+v, want S2, S1", got.Strategies)
	}

	got = ts.putPlaybook(t, key, p.ID, `{"description":null,"content_markdown":null,"entry_criteria":[],"strategy_ids":[]}`)
	if got.Description != "" || got.ContentMarkdown != "" || len(got.EntryCriteria) != 0 || len(got.Strategies) != 0 ||
		len(got.ExitCriteria) != 2 || got.Title != "ORB v2" {
		t.Errorf("clearing: got %+v, want empty texts, no entry criteria or strategies, two exit criteria", got)
	}
	raw := ts.sql(t)
	if n := count(t, raw, `SELECT count(*) FROM playbook_criteria WHERE playbook_id = ?`, p.ID); n != 2 {
		t.Errorf("stored criteria: got %d, want 2", n)
	}
	if n := count(t, raw, `SELECT count(*) FROM strategies`); n != 2 {
		t.Errorf("strategies after unlinking: got %d, want 2 (unlinking deletes none)", n)
	}
}

func TestPlaybookValidation(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	p := ts.createPlaybook(t, key, `{"title":"ORB","entry_criteria":["e1"]}`)
	long := func(n int) string { return `"` + strings.Repeat("x", n) + `"` }
	tests := []struct {
		method string
		body   string
		want   string // the keys of details, sorted and joined
	}{
		{"POST", `{}`, "title"},
		{"POST", `{"description":"no title"}`, "title"},
		{"POST", `{"title":" "}`, "title"},
		{"POST", `{"title":null}`, "title"},
		{"PUT", `{"title":null}`, "title"},
		{"PUT", `{"title":7}`, "title"},
		{"POST", `{"title":` + long(201) + `}`, "title"},
		{"POST", `{"title":"t","description":` + long(10_001) + `}`, "description"},
		{"POST", `{"title":"t","content_markdown":` + long(200_001) + `}`, "content_markdown"},
		{"POST", `{"title":"t","entry_criteria":null}`, "entry_criteria"},
		{"POST", `{"title":"t","entry_criteria":"e1"}`, "entry_criteria"},
		{"POST", `{"title":"t","entry_criteria":["e1",""]}`, "entry_criteria[1]"},
		{"POST", `{"title":"t","exit_criteria":["x1",2,null]}`, "exit_criteria[1],exit_criteria[2]"},
		{"POST", `{"title":"t","exit_criteria":[` + long(1001) + `]}`, "exit_criteria[0]"},
		{"POST", `{"title":"t","strategy_ids":null}`, "strategy_ids"},
		{"POST", `{"title":"t","strategy_ids":["` + idA + `","s2"]}`, "strategy_ids[1]"},
		{"POST", `{"title":"t","tag_ids":["t1"]}`, "tag_ids[0]"},
		{"PUT", `{"title":"","entry_criteria":[" "],"strategy_ids":["x"]}`, "entry_criteria[0],strategy_ids[0],title"},
		{"POST", `[]`, "body"},
	}
	for _, tt := range tests {
		target := "/api/v1/playbooks"
		if tt.method == "PUT" {
			target += "/" + p.ID
		}
		status, b := ts.do(t, tt.method, target, key, tt.body)
		e := decode[errBody](t, b)
		if status != http.StatusBadRequest || e.Code != "VALIDATION_ERROR" || keys(e.Details) != tt.want {
			t.Errorf("%s %.80s: got %d %s, want 400 naming %s", tt.method, tt.body, status, b, tt.want)
		}
	}
	if got := must200(t, ts, "/api/v1/playbooks/"+p.ID, key); !strings.Contains(string(got), `"title":"ORB"`) ||
		!strings.Contains(string(got), `"description":"e1","order":1`) {
		t.Errorf("playbook after refused updates: got %s, want it unchanged", got)
	}
	if n := count(t, ts.sql(t), `SELECT count(*) FROM playbooks`); n != 1 {
		t.Errorf("playbooks after refused creates: got %d, want 1", n)
	}
}

// TestPlaybookStrategyIDs: every id must name one of the caller's
// strategies; another user's is the same 404 as an unknown one, and nothing
// changes.
func TestPlaybookStrategyIDs(t *testing.T) {
	ts := newTestServer(t)
	_, alice := ts.newUser(t, "alice")
	_, bob := ts.newUser(t, "bob")
	mine := ts.createStrategy(t, alice, `{"title":"Mine"}`)
	theirs := ts.createStrategy(t, bob, `{"title":"Theirs"}`)
	p := ts.createPlaybook(t, alice, `{"title":"ORB","strategy_ids":["`+mine.ID+`"]}`)
	want := `{"error":"Strategy not found","code":"NOT_FOUND","details":{"strategy_ids":"Strategy not found"}}` + "\n"
	for _, id := range []string{theirs.ID, idA} {
		for _, req := range []struct{ method, target string }{
			{"POST", "/api/v1/playbooks"},
			{"PUT", "/api/v1/playbooks/" + p.ID},
		} {
			body := `{"title":"ORB 2","strategy_ids":["` + mine.ID + `","` + id + `"]}`
			status, b := ts.do(t, req.method, req.target, alice, body)
			if status != http.StatusNotFound || string(b) != want {
				t.Errorf("%s with strategy %s: got %d %s, want 404 %s", req.method, id, status, b, want)
			}
		}
	}
	got := decode[dataOf[db.Playbook]](t, must200(t, ts, "/api/v1/playbooks/"+p.ID, alice)).Data
	if got.Title != "ORB" || len(got.Strategies) != 1 || got.Strategies[0].ID != mine.ID {
		t.Errorf("after refused updates: got %+v, want ORB with only %s", got, mine.ID)
	}
	if n := count(t, ts.sql(t), `SELECT count(*) FROM playbooks`); n != 1 {
		t.Errorf("playbooks after refused creates: got %d, want 1", n)
	}
}
