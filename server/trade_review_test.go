package server_test

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"tradejournal/db"
)

// get reads a trade, enriched.
func (e *tradeEnv) get(t *testing.T, id string) db.EnrichedTrade {
	t.Helper()
	status, b := e.do(t, "GET", "/api/v1/trades/"+id, e.key, "")
	if status != http.StatusOK {
		t.Fatalf("GET trade %s: %d %s", id, status, b)
	}
	return decode[struct{ Data db.EnrichedTrade }](t, b).Data
}

// put updates a trade and fails unless it is a 200 whose body is, byte
// for byte, what a GET of the trade answers next: the answer is built from
// the trade as saved, not read back (UpdateTrade).
func (e *tradeEnv) put(t *testing.T, id, body string) db.EnrichedTrade {
	t.Helper()
	return decode[struct{ Data db.EnrichedTrade }](t, e.putAnswer(t, id, body)).Data
}

// putAnswer is put's answer as served.
func (e *tradeEnv) putAnswer(t *testing.T, id, body string) []byte {
	t.Helper()
	status, b := e.do(t, "PUT", "/api/v1/trades/"+id, e.key, body)
	if status != http.StatusOK {
		t.Fatalf("PUT trade %s: %d %s", body, status, b)
	}
	if _, read := e.do(t, "GET", "/api/v1/trades/"+id, e.key, ""); !bytes.Equal(b, read) {
		t.Errorf("PUT trade %s answered\n%s\nand a GET then\n%s", body, b, read)
	}
	return b
}

// readsBack fails the test unless each field of the JSON object want reads
// back in the trade answer b with want's value (see within).
func readsBack(t *testing.T, body string, b []byte, want string) {
	t.Helper()
	var got struct{ Data map[string]any }
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("answer %s: %v", b, err)
	}
	var fields map[string]any
	if err := json.Unmarshal([]byte(want), &fields); err != nil {
		t.Fatalf("want %s: %v", want, err)
	}
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		v, ok := got.Data[name]
		if !ok || !within(fields[name], v) {
			t.Errorf("PUT %s: %s reads back %s, want %s", body, name, jsonText(t, v), jsonText(t, fields[name]))
		}
	}
}

// within reports whether got holds want: an object every key of want with
// its value (other keys, such as a fill's id, are not looked at), an array
// as many elements each holding want's, anything else the same value.
func within(want, got any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range w {
			if gv, ok := g[k]; !ok || !within(v, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !within(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return want == got
}

// TestPutAnswersAsRead puts a trade through every kind of change, each
// answer checked against a GET of it by put and each change read back in
// it: review fields as a client writes them (spaced notes, levels in
// exponent form), a playbook with its checklist and then none, a failing
// rule, tags, another account, fills replaced and kept (one with a
// commission of -0, stored as 0), a status and an asset class set by hand,
// exit fields cleared. A change reads back as sent, or as its row's want
// says when the answer shows it otherwise.
func TestPutAnswersAsRead(t *testing.T) {
	e := newTradeEnv(t)
	e.pinClock(t0) // when the trade is marked reviewed
	pb := e.createPlaybook(t, e.key, `{"title": "ORB", "entry_criteria": ["Range set"], "exit_criteria": ["Target hit"]}`)
	strat := e.createStrategy(t, e.key, `{"title": "One lot", "strategy_rules": [{"check": {"kind": "max_quantity", "value": 1}}]}`)
	tag := e.newTag(t, e.key, e.newGroup(t, e.key, "Setups").ID, "Breakout")
	other := e.createAccount(t, e.key, `{"account_number": "TOPSTEP-2", "prop_firm": "Topstep"}`)
	tr, _ := e.create(t, e.tradeBody("ESZ5", "long", fills(2, "buy 2@6000", "sell 2@6010")))
	for _, step := range []struct {
		body string
		want string // "": the body
	}{
		{body: `{"review_notes": {"type": "doc", "content": [ {"type": "paragraph"} ]}, "star_rating": 3}`},
		{
			body: `{"stop_loss_levels": [{"price": 5.99e3}], "take_profit_levels": [{"price": 6020.50, "quantity": 1E0}], "reviewed": true}`,
			want: `{"stop_loss_levels": [{"price": 5990}], "take_profit_levels": [{"price": 6020.5, "quantity": 1}], "reviewed_at": "` + t0Text + `"}`,
		},
		{
			body: fmt.Sprintf(`{"playbook_id": %q, "criteria_checklist": [{"criterion_id": %q, "checked": true}]}`, pb.ID, pb.EntryCriteria[0].ID),
			// The exit criterion, not sent, is listed unchecked.
			want: fmt.Sprintf(`{"playbook_id": %q, "playbooks": {"id": %[1]q, "title": "ORB"}, "criteria_checklist": [
				{"criterion_id": %q, "checked": true}, {"criterion_id": %q, "checked": false}]}`,
				pb.ID, pb.EntryCriteria[0].ID, pb.ExitCriteria[0].ID),
		},
		{
			body: fmt.Sprintf(`{"risk_management_strategy_ids": [%q], "tag_ids": [%q]}`, strat.ID, tag.ID),
			// Two contracts against a limit of one: the rule fails.
			want: fmt.Sprintf(`{"risk_management_strategy_ids": [%q], "tags": [{"id": %q, "name": "Breakout"}],
				"trade_rule_evaluations": [{"strategy_id": %[1]q, "result": "fail"}]}`, strat.ID, tag.ID),
		},
		{
			body: fmt.Sprintf(`{"account_id": %q, "entry_date": "2026-02-06"}`, other.ID),
			// With fills the entry date is the first fill's (DESIGN §6),
			// still the 5th.
			want: fmt.Sprintf(`{"account_id": %q, "account_number": "TOPSTEP-2", "entry_date": "2026-02-05"}`, other.ID),
		},
		{body: "{" + fills(1.5, "buy 1@6000.25", "buy 1@6001", "sell 2@5990.75") + "}"},
		{body: `{"executions": [{"side": "buy", "quantity": 1, "price": 6000, "commission": -0, "execution_time": "09:30:00"}]}`},
		{body: `{"status": "breakeven", "asset_class": "stocks"}`},
		{body: `{"playbook_id": null, "exit_price": null, "exit_date": null, "exit_time": null, "executions": []}`},
		{
			body: `{"symbol": "NQZ5", "status": null, "asset_class": null, "tag_ids": [], "risk_management_strategy_ids": []}`,
			// Without the client's status and class, the derived ones.
			want: `{"symbol": "NQZ5", "status": "open", "asset_class": "futures", "point_value": 20, "tags": [],
				"risk_management_strategy_ids": []}`,
		},
	} {
		readsBack(t, step.body, e.putAnswer(t, tr.ID, step.body), cmp.Or(step.want, step.body))
	}
}

func TestTradeReviewRoundTrip(t *testing.T) {
	e := newTradeEnv(t)
	pb := e.createPlaybook(t, e.key, `{"title": "ORB", "entry_criteria": ["Range set", "Volume up"], "exit_criteria": ["Target hit"]}`)
	strat := e.createStrategy(t, e.key, `{"title": "Risk", "strategy_rules": [{"description": "One lot", "check": {"kind": "max_quantity", "value": 1}}]}`)
	notes := `{"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"Waited for the retest."}]}]}`
	e.pinClock(t0)
	tr, _ := e.create(t, e.tradeBody("ES", "long", fmt.Sprintf(`"entry_price": 100, "quantity": 1, "exit_price": 110,
		"star_rating": 4, "review_notes": %s, "stop_loss_levels": [{"price": 95}], "take_profit_levels": [{"price": 110, "quantity": 1}],
		"playbook_id": %q, "criteria_checklist": [{"criterion_id": %q, "checked": true}], "reviewed": true,
		"risk_management_strategy_ids": [%q]`, notes, pb.ID, pb.EntryCriteria[1].ID, strat.ID)))
	got := e.get(t, tr.ID)
	if *got.StarRating != 4 || string(got.ReviewNotes) != notes || jsonText(t, got.StopLossLevels) != `[{"price":95}]` ||
		jsonText(t, got.TakeProfitLevels) != `[{"price":110,"quantity":1}]` || *got.ReviewedAt != t0Text {
		t.Errorf("review fields: rating %v notes %s stops %+v targets %+v reviewed_at %v",
			got.StarRating, got.ReviewNotes, got.StopLossLevels, got.TakeProfitLevels, got.ReviewedAt)
	}
	if *got.RRatio != 2 || *got.RRatioBasis != "planned" {
		t.Errorf("r_ratio %v basis %v, want 2 planned", *got.RRatio, *got.RRatioBasis)
	}
	if got.Playbooks == nil || got.Playbooks.ID != pb.ID || got.Playbooks.Title != "ORB" || *got.PlaybookID != pb.ID {
		t.Errorf("playbooks = %+v", got.Playbooks)
	}
	wantChecklist := []db.ChecklistItem{
		{CriterionID: pb.EntryCriteria[0].ID, Description: "Range set", Type: "entry"},
		{CriterionID: pb.EntryCriteria[1].ID, Description: "Volume up", Type: "entry", Checked: true},
		{CriterionID: pb.ExitCriteria[0].ID, Description: "Target hit", Type: "exit"},
	}
	if !slices.Equal(got.CriteriaChecklist, wantChecklist) {
		t.Errorf("criteria_checklist = %+v, want %+v", got.CriteriaChecklist, wantChecklist)
	}
	if !slices.Equal(got.RiskManagementStrategyIDs, []string{strat.ID}) || len(got.TradeGroupRiskManagementStrategies) != 1 ||
		got.TradeGroupRiskManagementStrategies[0].Strategies.Title != "Risk" ||
		len(got.TradeGroupRiskManagementStrategies[0].Strategies.StrategyRules) != 1 {
		t.Errorf("strategies = %+v", got.TradeGroupRiskManagementStrategies)
	}
	if len(got.TradeRuleEvaluations) != 1 || got.TradeRuleEvaluations[0].Result != "pass" ||
		got.TradeRuleEvaluations[0].Severity != nil || string(got.TradeRuleEvaluations[0].ViolationData) != "null" {
		t.Errorf("evaluations = %+v", got.TradeRuleEvaluations)
	}

	// Clearing: null and false empty every field again.
	got = e.put(t, tr.ID, `{"star_rating": null, "review_notes": null, "stop_loss_levels": null, "take_profit_levels": [],
		"playbook_id": null, "reviewed": false, "risk_management_strategy_ids": []}`)
	if got.StarRating != nil || string(got.ReviewNotes) != "null" || jsonText(t, got.StopLossLevels) != "[]" ||
		got.PlaybookID != nil || got.Playbooks != nil || got.ReviewedAt != nil || got.RRatio != nil || got.RRatioBasis != nil ||
		len(got.CriteriaChecklist) != 0 || len(got.RiskManagementStrategyIDs) != 0 || len(got.TradeRuleEvaluations) != 0 {
		t.Errorf("after clearing: %+v", got)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trade_criteria_checks`); n != 0 {
		t.Errorf("%d checklist answers left after the playbook was cleared", n)
	}
}

func TestTradeRRatio(t *testing.T) {
	e := newTradeEnv(t)
	tests := []struct {
		name, side, extra string
		want              *float64
	}{
		{"long 100 to 110, stop 95", "long", `"entry_price": 100, "quantity": 1, "exit_price": 110, "stop_loss_levels": [{"price": 95}]`, ptr(2.0)},
		{"short 50 to 52, stop 51", "short", `"entry_price": 50, "quantity": 1, "exit_price": 52, "stop_loss_levels": [{"price": 51}]`, ptr(-2.0)},
		{"first stop counts", "long", `"entry_price": 100, "quantity": 2, "exit_price": 104, "stop_loss_levels": [{"price": 98, "quantity": 1}, {"price": 90}]`, ptr(2.0)},
		{"from fills", "long", fills(0, "buy 1@100", "buy 1@102", "sell 2@104.5") + `, "stop_loss_levels": [{"price": 99}]`, ptr(1.75)},
		{"no stop", "long", `"entry_price": 100, "quantity": 1, "exit_price": 110`, nil},
		{"no exit", "long", `"entry_price": 100, "quantity": 1, "stop_loss_levels": [{"price": 95}]`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, _ := e.create(t, e.tradeBody("AAPL", tt.side, tt.extra))
			got := e.get(t, tr.ID)
			if (got.RRatio == nil) != (tt.want == nil) || (tt.want != nil && *got.RRatio != *tt.want) {
				t.Errorf("r_ratio = %v, want %v", deref(got.RRatio), deref(tt.want))
			}
			if (got.RRatioBasis == nil) != (tt.want == nil) {
				t.Errorf("r_ratio_basis = %v with r_ratio %v", deref(got.RRatioBasis), deref(got.RRatio))
			}
		})
	}
}

func TestTradeReviewValidation(t *testing.T) {
	e := newTradeEnv(t)
	pb := e.createPlaybook(t, e.key, `{"title": "A", "entry_criteria": ["x"]}`)
	otherPB := e.createPlaybook(t, e.key, `{"title": "B", "entry_criteria": ["y"]}`)
	_, bobKey := e.newUser(t, "bob")
	bobPB := e.createPlaybook(t, bobKey, `{"title": "Bob's"}`)
	bobStrat := e.createStrategy(t, bobKey, `{"title": "Bob's"}`)
	base := `"entry_price": 100, "quantity": 1`
	tests := []struct {
		name, extra string
		wantStatus  int
		wantField   string
	}{
		{"rating 0", `"star_rating": 0`, 400, "star_rating"},
		{"rating 6", `"star_rating": 6`, 400, "star_rating"},
		{"rating 2.5", `"star_rating": 2.5`, 400, "star_rating"},
		{"notes not a doc", `"review_notes": {"type": "paragraph", "content": []}`, 400, "review_notes"},
		{"notes a string", `"review_notes": "text"`, 400, "review_notes"},
		{"notes node without type", `"review_notes": {"type": "doc", "content": [{"text": "x"}]}`, 400, "review_notes"},
		{"notes deep node not an object", `"review_notes": {"type": "doc", "content": [{"type": "p", "content": [5]}]}`, 400, "review_notes"},
		{"notes too large", `"review_notes": {"type": "doc", "content": [{"type": "text", "text": "` + strings.Repeat("x", 300<<10) + `"}]}`, 400, "review_notes"},
		{"stop price missing", `"stop_loss_levels": [{"quantity": 1}]`, 400, "stop_loss_levels[0].price"},
		{"stop price negative", `"stop_loss_levels": [{"price": -1}]`, 400, "stop_loss_levels[0].price"},
		{"stop on the wrong side", `"stop_loss_levels": [{"price": 99}, {"price": 101}]`, 400, "stop_loss_levels[1].price"},
		{"target quantity zero", `"take_profit_levels": [{"price": 110, "quantity": 0}]`, 400, "take_profit_levels[0].quantity"},
		{"target not an object", `"take_profit_levels": [110]`, 400, "take_profit_levels[0]"},
		{"playbook malformed", `"playbook_id": "pb"`, 400, "playbook_id"},
		{"playbook of another user", fmt.Sprintf(`"playbook_id": %q`, bobPB.ID), 404, "playbook_id"},
		{"checklist without playbook", fmt.Sprintf(`"criteria_checklist": [{"criterion_id": %q, "checked": true}]`, pb.EntryCriteria[0].ID), 400, "criteria_checklist"},
		{"checklist of another playbook", fmt.Sprintf(`"playbook_id": %q, "criteria_checklist": [{"criterion_id": %q, "checked": true}]`, pb.ID, otherPB.EntryCriteria[0].ID), 400, "criteria_checklist[0].criterion_id"},
		{"checklist unknown criterion", fmt.Sprintf(`"playbook_id": %q, "criteria_checklist": [{"criterion_id": %q, "checked": true}]`, pb.ID, bobPB.ID), 404, "criteria_checklist[0].criterion_id"},
		{"checklist checked missing", fmt.Sprintf(`"playbook_id": %q, "criteria_checklist": [{"criterion_id": %q}]`, pb.ID, pb.EntryCriteria[0].ID), 400, "criteria_checklist[0].checked"},
		{"reviewed not a bool", `"reviewed": "yes"`, 400, "reviewed"},
		{"strategy of another user", fmt.Sprintf(`"risk_management_strategy_ids": [%q]`, bobStrat.ID), 404, "risk_management_strategy_ids"},
		{"strategy malformed", `"risk_management_strategy_ids": ["s"]`, 400, "risk_management_strategy_ids[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, b := e.do(t, "POST", "/api/v1/trades", e.key, e.tradeBody("AAPL", "long", base+", "+tt.extra))
			if got := decode[errBody](t, b); status != tt.wantStatus || got.Details[tt.wantField] == "" {
				t.Errorf("got %d %s, want %d naming %s", status, b, tt.wantStatus, tt.wantField)
			}
		})
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trades`); n != 0 {
		t.Errorf("%d trades stored by failed creates", n)
	}
}

func TestTradeChecklistAfterCriteriaReplaced(t *testing.T) {
	e := newTradeEnv(t)
	pb := e.createPlaybook(t, e.key, `{"title": "A", "entry_criteria": ["old one", "old two"]}`)
	tr, _ := e.create(t, e.tradeBody("AAPL", "long", fmt.Sprintf(`"entry_price": 1, "quantity": 1, "playbook_id": %q,
		"criteria_checklist": [{"criterion_id": %q, "checked": true}]`, pb.ID, pb.EntryCriteria[0].ID)))
	pb = e.putPlaybook(t, e.key, pb.ID, `{"entry_criteria": ["new one"]}`)
	got := e.get(t, tr.ID).CriteriaChecklist
	want := []db.ChecklistItem{{CriterionID: pb.EntryCriteria[0].ID, Description: "new one", Type: "entry"}}
	if !slices.Equal(got, want) {
		t.Errorf("checklist = %+v, want %+v (the stale check dropped)", got, want)
	}
}

func TestTradeReviewFilters(t *testing.T) {
	e := newTradeEnv(t)
	strat := e.createStrategy(t, e.key, `{"title": "R", "strategy_rules": [{"check": {"kind": "max_quantity", "value": 1}}]}`)
	reviewed, _ := e.create(t, e.tradeBody("AAPL", "long", `"entry_price": 1, "quantity": 1, "reviewed": true, "star_rating": 5`))
	rated, _ := e.create(t, e.tradeBody("AAPL", "long", `"entry_price": 1, "quantity": 1, "star_rating": 3`))
	violating, _ := e.create(t, e.tradeBody("AAPL", "long", fmt.Sprintf(`"entry_price": 1, "quantity": 2, "risk_management_strategy_ids": [%q]`, strat.ID)))
	for query, want := range map[string][]string{
		"reviewed=true":        {reviewed.ID},
		"min_rating=4":         {reviewed.ID},
		"min_rating=3":         {rated.ID, reviewed.ID},
		"has_violations=true":  {violating.ID},
		"has_violations=false": {rated.ID, reviewed.ID},
	} {
		got, _ := e.list(t, query)
		gotIDs := ids(got)
		slices.Sort(gotIDs)
		slices.Sort(want)
		if !slices.Equal(gotIDs, want) {
			t.Errorf("?%s: got %v, want %v", query, gotIDs, want)
		}
	}
	// Fixing the trade clears the violation.
	e.put(t, violating.ID, `{"quantity": 1}`)
	if got, _ := e.list(t, "has_violations=true"); len(got) != 0 {
		t.Errorf("has_violations=true after the fix: %v", ids(got))
	}
	// So does taking the strategy off a violating trade, and a later save
	// without strategies keeps it clear.
	e.put(t, violating.ID, `{"quantity": 2}`)
	if got, _ := e.list(t, "has_violations=true"); len(got) != 1 {
		t.Errorf("has_violations=true after breaking the rule again: %v", ids(got))
	}
	for _, body := range []string{`{"risk_management_strategy_ids": []}`, `{"quantity": 3}`} {
		e.put(t, violating.ID, body)
		if got, _ := e.list(t, "has_violations=true"); len(got) != 0 {
			t.Errorf("has_violations=true after %s: %v", body, ids(got))
		}
	}
}
