package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"tradejournal/db"
)

// TestPlaybookStrategyPagination walks both lists by offset and by page:
// newest first, every item once, the pagination object right.
func TestPlaybookStrategyPagination(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	var strategies, playbooks []string
	for i := 1; i <= 23; i++ {
		ts.pinClock(t0.Add(time.Duration(i) * time.Second))
		s := ts.createStrategy(t, key, fmt.Sprintf(`{"title":"S%02d","strategy_rules":[{"description":"r%d"}]}`, i, i))
		p := ts.createPlaybook(t, key, fmt.Sprintf(`{"title":"P%02d","strategy_ids":["%s"],"entry_criteria":["e%d"]}`, i, s.ID, i))
		strategies, playbooks = append(strategies, s.ID), append(playbooks, p.ID)
	}
	slices.Reverse(strategies)
	slices.Reverse(playbooks)
	tests := []struct {
		query            string
		wantFrom, wantTo int
		wantHasMore      bool
	}{
		{"", 0, 20, true},
		{"?limit=5&page=2", 5, 10, true},
		{"?offset=18&limit=5", 18, 23, false},
		{"?offset=30", 23, 23, false},
		{"?limit=100", 0, 23, false},
	}
	for _, tt := range tests {
		s := decode[listBody[db.Strategy]](t, must200(t, ts, "/api/v1/strategies"+tt.query, key))
		var got []string
		for _, item := range s.Data {
			got = append(got, item.ID)
			if len(item.StrategyRules) != 1 || item.StrategyRules[0].Description != "r"+strings.TrimPrefix(item.Title[1:], "0") {
				t.Errorf("strategy %s: got rules %+v, want its own one", item.Title, item.StrategyRules)
			}
		}
		if want := strategies[tt.wantFrom:tt.wantTo]; !slices.Equal(got, want) || s.Pagination.Total != 23 || s.Pagination.HasMore != tt.wantHasMore {
			t.Errorf("strategies%s: got %v %+v, want %v, total 23, has_more %v", tt.query, got, s.Pagination, want, tt.wantHasMore)
		}
		p := decode[listBody[db.Playbook]](t, must200(t, ts, "/api/v1/playbooks"+tt.query, key))
		got = nil
		for _, item := range p.Data {
			got = append(got, item.ID)
			n := strings.TrimPrefix(item.Title[1:], "0")
			if len(item.EntryCriteria) != 1 || item.EntryCriteria[0].Description != "e"+n ||
				len(item.Strategies) != 1 || item.Strategies[0].Name != "S"+item.Title[1:] {
				t.Errorf("playbook %s: got %+v, want its own criterion and strategy", item.Title, item)
			}
		}
		if want := playbooks[tt.wantFrom:tt.wantTo]; !slices.Equal(got, want) || p.Pagination.Total != 23 || p.Pagination.HasMore != tt.wantHasMore {
			t.Errorf("playbooks%s: got %v %+v, want %v, total 23, has_more %v", tt.query, got, p.Pagination, want, tt.wantHasMore)
		}
	}
	for _, target := range []string{"/api/v1/strategies?limit=0", "/api/v1/playbooks?limit=101", "/api/v1/playbooks?page=0"} {
		if status, b := ts.do(t, "GET", target, key, ""); status != http.StatusBadRequest {
			t.Errorf("GET %s: got %d %s, want 400", target, status, b)
		}
	}
}

func TestStrategyListFilters(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	for i, body := range []string{
		`{"title":"Opening range","type":"entry","description":"Break of the first 30 minutes"}`,
		`{"title":"Scale out","type":"exit","description":"Take half at 1R"}`,
		`{"title":"Daily stop","description":"Stop at 100% of the daily loss limit"}`,
		`{"title":"Max_size","type":"risk_management","description":"two lots"}`,
		`{"title":"Trail","type":"trade_management","description":"Café rules"}`,
	} {
		ts.pinClock(t0.Add(time.Duration(i) * time.Second))
		ts.createStrategy(t, key, body)
	}
	tests := []struct {
		query string
		want  string // titles, newest first
	}{
		{"", "Trail,Max_size,Daily stop,Scale out,Opening range"},
		{"type=entry", "Opening range"},
		{"type=risk_management", "Max_size,Daily stop"},
		{"search=OPENING", "Opening range"},
		{"search=" + url.QueryEscape("1r"), "Scale out"},
		{"search=stop", "Daily stop"},
		{"search=" + url.QueryEscape("100%"), "Daily stop"},
		{"search=" + url.QueryEscape("%"), "Daily stop"},
		{"search=" + url.QueryEscape("_"), "Max_size"},
		{"search=" + url.QueryEscape(`\`), ""},
		{"search=" + url.QueryEscape("café"), "Trail"},
		{"search=the&type=exit", ""},
		{"search=the&type=entry", "Opening range"},
		{"search=+the+", "Daily stop,Opening range"},
		{"type=entry&limit=1&offset=1", ""},
	}
	for _, tt := range tests {
		l := decode[listBody[db.Strategy]](t, must200(t, ts, "/api/v1/strategies?"+tt.query, key))
		var titles []string
		for _, s := range l.Data {
			titles = append(titles, s.Title)
		}
		if got := strings.Join(titles, ","); got != tt.want {
			t.Errorf("?%s: got %q, want %q", tt.query, got, tt.want)
		}
		if tt.query != "type=entry&limit=1&offset=1" && l.Pagination.Total != len(titles) {
			t.Errorf("?%s: got total %d, want %d", tt.query, l.Pagination.Total, len(titles))
		}
	}
	for _, tt := range []struct{ query, field string }{
		{"type=scalping", "type"},
		{"search=" + strings.Repeat("x", 201), "search"},
	} {
		status, b := ts.do(t, "GET", "/api/v1/strategies?"+tt.query, key, "")
		if e := decode[errBody](t, b); status != http.StatusBadRequest || keys(e.Details) != tt.field {
			t.Errorf("?%.40s: got %d %s, want 400 naming %s", tt.query, status, b, tt.field)
		}
	}
}

// TestPlaybookStrategyTags: tag_ids replace the set on create and update,
// absent leaves it, [] clears it; tags show on every read, list items too;
// a tag that is not the caller's is a 404 naming tag_ids.
func TestPlaybookStrategyTags(t *testing.T) {
	ts := newTestServer(t)
	aliceID, alice := ts.newUser(t, "alice")
	bobID, _ := ts.newUser(t, "bob")
	raw := ts.sql(t)
	t1, t2 := insertTag(t, raw, aliceID, "A+"), insertTag(t, raw, aliceID, "B")
	theirs := insertTag(t, raw, bobID, "C")
	for _, resource := range []string{"strategies", "playbooks"} {
		target := "/api/v1/" + resource
		status, b := ts.do(t, "POST", target, alice, `{"title":"x","tag_ids":["`+t1+`","`+strings.ToUpper(t2)+`","`+t1+`"]}`)
		if status != http.StatusCreated {
			t.Fatalf("POST %s: got %d %s, want 201", target, status, b)
		}
		// Both shapes are decoded strictly elsewhere; here only id and tags.
		var created dataOf[struct{ ID string }]
		json.Unmarshal(b, &created)
		id := created.Data.ID
		tagIDs := func(body []byte) string {
			t.Helper()
			var v dataOf[struct{ Tags []db.TagRef }]
			if err := json.Unmarshal(body, &v); err != nil {
				t.Fatalf("decode %s: %v", body, err)
			}
			var ids []string
			for _, tg := range v.Data.Tags {
				ids = append(ids, tg.ID)
			}
			slices.Sort(ids)
			return strings.Join(ids, ",")
		}
		want := strings.Join(slices.Sorted(slices.Values([]string{t1, t2})), ",")
		if got := tagIDs(b); got != want {
			t.Errorf("POST %s tags: got %s, want %s", target, got, want)
		}
		for _, tt := range []struct{ body, want string }{
			{`{"title":"y"}`, want},
			{`{"tag_ids":["` + t2 + `"]}`, t2},
			{`{"tag_ids":[]}`, ""},
		} {
			_, b := ts.do(t, "PUT", target+"/"+id, alice, tt.body)
			if got := tagIDs(b); got != tt.want {
				t.Errorf("PUT %s %s: got tags %s, want %s", target, tt.body, got, tt.want)
			}
		}
		ts.do(t, "PUT", target+"/"+id, alice, `{"tag_ids":["`+t1+`"]}`)
		if l := must200(t, ts, target, alice); !strings.Contains(string(l), `"tags":[{"id":"`+t1+`","name":"A+","tag_group_id":`) {
			t.Errorf("GET %s: got %s, want the tag on the list item", target, l)
		}
		for _, req := range []struct{ method, target string }{{"POST", target}, {"PUT", target + "/" + id}} {
			status, b := ts.do(t, req.method, req.target, alice, `{"title":"z","tag_ids":["`+theirs+`"]}`)
			if e := decode[errBody](t, b); status != http.StatusNotFound || e.Error != "Tag not found" || keys(e.Details) != "tag_ids" {
				t.Errorf("%s %s with bob's tag: got %d %s, want 404 naming tag_ids", req.method, req.target, status, b)
			}
		}
	}
}
