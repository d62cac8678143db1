package server_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"tradejournal/db"
)

// createStrategy posts a strategy and returns it, failing unless it is a 201.
func (ts *testServer) createStrategy(t testing.TB, key, body string) db.Strategy {
	t.Helper()
	status, b := ts.do(t, "POST", "/api/v1/strategies", key, body)
	if status != http.StatusCreated {
		t.Fatalf("POST /api/v1/strategies %s: got %d %s, want 201", body, status, b)
	}
	return decode[dataOf[db.Strategy]](t, b).Data
}

// idC is a third pinned id, after idA and idB.
const idC = "0190a000-0000-7000-8000-00000000000c"

// dataOf is a single-record response.
type dataOf[T any] struct {
	Data T `json:"data"`
}

// TestStrategyCreateAndGet pins the clock and the ids to compare whole
// bodies: defaults, rule ids, sort orders from the array order, and a check
// served back as an object in its canonical form.
func TestStrategyCreateAndGet(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	ts.pinClock(t0)
	ts.pinIDs(t, idA, idB, idC)
	status, created := ts.do(t, "POST", "/api/v1/strategies", key, `{"title":"  Risk rules ",
		"strategy_rules":[
			{"description":"No more than 2 contracts","check":{"value":2,"kind":"max_quantity"}},
			{"description":"Always a stop","category":"stops","severity":"critical","check":{"kind":"require_stop_loss"},"id":"`+idA+`"}
		]}`)
	want := `{"data":{"id":"` + idA + `","title":"Risk rules","description":"","type":"risk_management","content_markdown":"",` +
		`"strategy_rules":[` +
		`{"id":"` + idB + `","description":"No more than 2 contracts","category":"","sort_order":0,"severity":"warning","check":{"kind":"max_quantity","value":2}},` +
		`{"id":"` + idC + `","description":"Always a stop","category":"stops","sort_order":1,"severity":"critical","check":{"kind":"require_stop_loss"}}],` +
		`"tags":[],"created_at":"` + t0Text + `","updated_at":"` + t0Text + `"}}` + "\n"
	if status != http.StatusCreated || string(created) != want {
		t.Fatalf("create: got %d %s\nwant 201 %s", status, created, want)
	}
	if got := must200(t, ts, "/api/v1/strategies/"+idA, key); string(got) != want {
		t.Errorf("get: got %s\nwant %s", got, want)
	}
	if got := must200(t, ts, "/api/v1/strategies/"+strings.ToUpper(idA), key); string(got) != want {
		t.Errorf("get by upper-case id: got %s, want the same body", got)
	}
}

func TestStrategyCreateFields(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	tests := []struct {
		body string
		want db.Strategy // ids and timestamps are not compared
	}{
		{`{"title":"A"}`, db.Strategy{Title: "A", Type: "risk_management", StrategyRules: []db.StrategyRule{}, Tags: []db.TagRef{}}},
		{`{"title":"B","description":"Opening range","type":"entry","content_markdown":"# ORB","description_extra":1}`,
			db.Strategy{Title: "B", Description: "Opening range", Type: "entry", ContentMarkdown: "# ORB",
				StrategyRules: []db.StrategyRule{}, Tags: []db.TagRef{}}},
		{`{"title":"C","description":null,"content_markdown":null,"strategy_rules":[]}`,
			db.Strategy{Title: "C", Type: "risk_management", StrategyRules: []db.StrategyRule{}, Tags: []db.TagRef{}}},
		{`{"title":"D","type":"trade_management","strategy_rules":[{"description":"b","sort_order":5},{"description":"a","sort_order":2,"severity":null,"check":null}]}`,
			db.Strategy{Title: "D", Type: "trade_management", Tags: []db.TagRef{}, StrategyRules: []db.StrategyRule{
				{Description: "a", SortOrder: 2, Severity: "warning"},
				{Description: "b", SortOrder: 5, Severity: "warning"},
			}}},
	}
	for _, tt := range tests {
		got := ts.createStrategy(t, key, tt.body)
		tt.want.ID, tt.want.CreatedAt, tt.want.UpdatedAt = got.ID, got.CreatedAt, got.UpdatedAt
		for i := range got.StrategyRules {
			if i < len(tt.want.StrategyRules) {
				tt.want.StrategyRules[i].ID = got.StrategyRules[i].ID
			}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("POST %s:\n got %+v\nwant %+v", tt.body, got, tt.want)
		}
	}
}

// TestStrategyUpdate: absent fields are untouched, null clears a nullable
// one, rules given replace the set and keep the ids they name.
func TestStrategyUpdate(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	s := ts.createStrategy(t, key, `{"title":"Risk","description":"d","type":"risk_management","content_markdown":"md",
		"strategy_rules":[{"description":"one"},{"description":"two","check":{"kind":"max_daily_loss","value":1000}}]}`)
	one, two := s.StrategyRules[0].ID, s.StrategyRules[1].ID

	put := func(body string) db.Strategy {
		t.Helper()
		status, b := ts.do(t, "PUT", "/api/v1/strategies/"+s.ID, key, body)
		if status != http.StatusOK {
			t.Fatalf("PUT %s: got %d %s, want 200", body, status, b)
		}
		return decode[dataOf[db.Strategy]](t, b).Data
	}

	got := put(`{"title":"Risk v2"}`)
	if got.Title != "Risk v2" || got.Description != "d" || got.ContentMarkdown != "md" || got.Type != "risk_management" ||
		len(got.StrategyRules) != 2 || got.StrategyRules[0].ID != one || got.StrategyRules[1].ID != two {
		t.Errorf("title only: got %+v, want the rest untouched", got)
	}
	if got.CreatedAt != s.CreatedAt {
		t.Errorf("created_at: got %s, want %s", got.CreatedAt, s.CreatedAt)
	}
	got = put(`{"description":null,"content_markdown":null,"type":"exit"}`)
	if got.Title != "Risk v2" || got.Description != "" || got.ContentMarkdown != "" || got.Type != "exit" {
		t.Errorf("nulls: got %+v, want cleared texts and type exit", got)
	}

	// Rules: "two" keeps its id and comes first, "one" is dropped, a new
	// rule and a rule naming an unknown id get new ids.
	got = put(`{"strategy_rules":[
		{"id":"` + strings.ToUpper(two) + `","description":"two","severity":"critical","check":{"kind":"max_daily_loss","value":800}},
		{"description":"three"},
		{"id":"` + idA + `","description":"four"}]}`)
	rules := got.StrategyRules
	if len(rules) != 3 || rules[0].ID != two || rules[0].Severity != "critical" || rules[0].Check.Value != 800 {
		t.Fatalf("replaced rules: got %+v, want two (kept id, critical, 800), three, four", rules)
	}
	for _, r := range rules[1:] {
		if r.ID == one || r.ID == two || r.ID == idA {
			t.Errorf("rule %q: got id %s, want a new one", r.Description, r.ID)
		}
	}
	if n := count(t, ts.sql(t), `SELECT count(*) FROM strategy_rules WHERE strategy_id = ?`, s.ID); n != 3 {
		t.Errorf("stored rules: got %d, want 3", n)
	}
	if got = put(`{"strategy_rules":[]}`); len(got.StrategyRules) != 0 {
		t.Errorf("empty rules: got %+v, want none", got.StrategyRules)
	}
}

func TestStrategyValidation(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	s := ts.createStrategy(t, key, `{"title":"Risk"}`)
	long := func(n int) string { return `"` + strings.Repeat("x", n) + `"` }
	rules := func(rs ...string) string { return `"strategy_rules":[` + strings.Join(rs, ",") + `]` }
	tests := []struct {
		method string
		body   string
		want   string // the keys of details, sorted and joined
	}{
		{"POST", `{}`, "title"},
		{"POST", `{"title":"  "}`, "title"},
		{"POST", `{"title":null}`, "title"},
		{"PUT", `{"title":null}`, "title"},
		{"PUT", `{"title":""}`, "title"},
		{"POST", `{"title":` + long(201) + `}`, "title"},
		{"POST", `{"title":"t","description":` + long(10_001) + `}`, "description"},
		{"POST", `{"title":"t","type":"scalping"}`, "type"},
		{"PUT", `{"type":null}`, "type"},
		{"POST", `{"title":"t","strategy_rules":null}`, "strategy_rules"},
		{"POST", `{"title":"t","strategy_rules":{}}`, "strategy_rules"},
		{"POST", `{"title":"t","tag_ids":["nope"]}`, "tag_ids[0]"},
		{"POST", `{"title":"t",` + rules(`{}`, `"rule"`) + `}`, "strategy_rules[1]"},
		{"POST", `{"title":"t",` + rules(`{"severity":"fatal"}`) + `}`, "strategy_rules[0].severity"},
		{"POST", `{"title":"t",` + rules(`{"severity":""}`) + `}`, "strategy_rules[0].severity"},
		{"POST", `{"title":"t",` + rules(`{"sort_order":1.5}`) + `}`, "strategy_rules[0].sort_order"},
		{"POST", `{"title":"t",` + rules(`{"sort_order":-1}`) + `}`, "strategy_rules[0].sort_order"},
		{"POST", `{"title":"t",` + rules(`{"id":"r1"}`) + `}`, "strategy_rules[0].id"},
		{"POST", `{"title":"t",` + rules(`{"description":`+long(1001)+`}`) + `}`, "strategy_rules[0].description"},
		{"POST", `{"title":"t",` + rules(`{"description":7}`) + `}`, "strategy_rules[0].description"},
		{"POST", `{"title":"t",` + rules(`{}`, `{"check":{"kind":"max_contracts"}}`) + `}`, "strategy_rules[1].check.kind"},
		{"POST", `{"title":"t",` + rules(`{"check":{"value":2}}`) + `}`, "strategy_rules[0].check.kind"},
		{"POST", `{"title":"t",` + rules(`{}`, `{}`, `{"check":{"kind":"max_quantity","value":"2"}}`) + `}`, "strategy_rules[2].check.value"},
		{"POST", `{"title":"t",` + rules(`{"check":{"kind":"max_loss_per_trade","value":0}}`) + `}`, "strategy_rules[0].check.value"},
		{"POST", `{"title":"t",` + rules(`{"check":{"kind":"max_trades_per_day","value":1.5}}`) + `}`, "strategy_rules[0].check.value"},
		{"POST", `{"title":"t",` + rules(`{"check":{"kind":"max_daily_loss"}}`) + `}`, "strategy_rules[0].check.value"},
		{"POST", `{"title":"t",` + rules(`{"check":{"kind":"min_r_ratio","value":-1}}`) + `}`, "strategy_rules[0].check.value"},
		{"POST", `{"title":"t",` + rules(`{"check":{"kind":"trading_window","start":"9:30","end":"11:30:00"}}`) + `}`, "strategy_rules[0].check.start"},
		{"POST", `{"title":"t",` + rules(`{"check":{"kind":"trading_window","start":"11:30:00","end":"09:30:00"}}`) + `}`, "strategy_rules[0].check.end"},
		{"POST", `{"title":"t",` + rules(`{"check":{"kind":"allowed_symbols","symbols":[]}}`) + `}`, "strategy_rules[0].check.symbols"},
		{"POST", `{"title":"t",` + rules(`{"check":{"kind":"allowed_symbols","symbols":["ES",""]}}`) + `}`, "strategy_rules[0].check.symbols[1]"},
		{"POST", `{"title":"t",` + rules(`{"check":{"kind":"require_stop_loss","value":1}}`) + `}`, "strategy_rules[0].check.value"},
		{"POST", `{"title":"t",` + rules(`{"check":"max_quantity"}`) + `}`, "strategy_rules[0].check"},
		{"PUT", `{` + rules(`{"severity":"info","check":{"kind":"max_quantity","value":0}}`) + `}`, "strategy_rules[0].check.value,strategy_rules[0].severity"},
	}
	for _, tt := range tests {
		target := "/api/v1/strategies"
		if tt.method == "PUT" {
			target += "/" + s.ID
		}
		status, b := ts.do(t, tt.method, target, key, tt.body)
		e := decode[errBody](t, b)
		if status != http.StatusBadRequest || e.Code != "VALIDATION_ERROR" || keys(e.Details) != tt.want {
			t.Errorf("%s %.80s: got %d %s, want 400 naming %s", tt.method, tt.body, status, b, tt.want)
		}
	}
	if n := count(t, ts.sql(t), `SELECT count(*) FROM strategies`); n != 1 {
		t.Errorf("strategies after refused writes: got %d, want 1", n)
	}
	if got := ts.createStrategy(t, key, `{"title":"t","content_markdown":`+long(200_000)+`}`); len(got.ContentMarkdown) != 200_000 {
		t.Errorf("content_markdown of 200,000 characters: got %d", len(got.ContentMarkdown))
	}
}

func TestStrategyRuleCheckMessage(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	status, b := ts.do(t, "POST", "/api/v1/strategies", key,
		`{"title":"t","strategy_rules":[{},{},{"check":{"kind":"max_quantity","value":-2}}]}`)
	want := `{"error":"Validation failed","code":"VALIDATION_ERROR","details":{"strategy_rules[2].check.value":` +
		`"strategy_rules[2].check.value must be a number greater than 0"}}` + "\n"
	if status != http.StatusBadRequest || string(b) != want {
		t.Errorf("got %d %s\nwant 400 %s", status, b, want)
	}
}
