package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"tradejournal/db"
)

// bulk posts a bulk body and fails unless the answer is 200 with exactly
// want as its data.
func (e *tradeEnv) bulk(t *testing.T, body, want string) {
	t.Helper()
	status, b := e.do(t, "POST", "/api/v1/trades/bulk", e.key, body)
	if want = `{"data":` + want + "}\n"; status != http.StatusOK || string(b) != want {
		t.Fatalf("POST /api/v1/trades/bulk %s:\ngot  %d %s\nwant 200 %s", body, status, b, want)
	}
}

// bulkIDs is a JSON array of ids.
func bulkIDs(ids ...string) string { return `["` + strings.Join(ids, `", "`) + `"]` }

// invalidBody is the exact 400 naming one field.
func invalidBody(t *testing.T, field, message string) string {
	return jsonText(t, errBody{Error: "Validation failed", Code: "VALIDATION_ERROR", Details: map[string]string{field: message}})
}

// tagIDs are the ids of a trade's tags, in the order it lists them.
func tagIDs(tags []db.TagRef) []string {
	out := []string{}
	for _, t := range tags {
		out = append(out, t.ID)
	}
	return out
}

// total is the pagination total of a trade list query.
func (e *tradeEnv) total(t *testing.T, query string) int {
	t.Helper()
	_, l := e.list(t, query)
	return l.Pagination.Total
}

// changedLines are the lines (one answer each) that differ between two
// reads of the same answers, before and after.
func changedLines(before, after string) string {
	b, a := strings.Split(before, "\n"), strings.Split(after, "\n")
	var sb strings.Builder
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			fmt.Fprintf(&sb, "before: %s\nafter:  %s\n", b[i], a[i])
		}
	}
	return sb.String()
}

// TestTradeBulkChanges applies each action, alone and together, and reads
// every trade back through the API: its tags, playbook and checklist,
// reviewed_at and updated_at, and the list's totals by each filter. A
// trade not named never moves.
func TestTradeBulkChanges(t *testing.T) {
	e := newTradeEnv(t)
	e.pinClock(t0)
	g := e.newGroup(t, e.key, "Setups")
	a, b := e.newTag(t, e.key, g.ID, "A breakout"), e.newTag(t, e.key, g.ID, "B fade")
	pb := e.createPlaybook(t, e.key, `{"title": "ORB", "entry_criteria": ["Range set"]}`)
	var tr []string
	for i := range 4 {
		extra := `"entry_price": 5000, "quantity": 1`
		if i == 1 {
			extra += fmt.Sprintf(`, "tag_ids": [%q]`, a.ID)
		}
		created, _ := e.create(t, e.tradeBody("ESZ5", "long", extra))
		tr = append(tr, created.ID)
	}
	untouched, _ := e.create(t, e.tradeBody("NQZ5", "short", `"entry_price": 21000, "quantity": 1`))
	_, before := e.do(t, "GET", "/api/v1/trades/"+untouched.ID, e.key, "")

	later := t0.Add(time.Hour)
	e.pinClock(later)
	// Trade 1 has tag a already: it is counted all the same.
	e.bulk(t, fmt.Sprintf(`{"trade_ids": %s, "add_tag_ids": [%q, %q]}`, bulkIDs(tr[0], tr[1], tr[2]), b.ID, a.ID),
		`{"updated":3,"deleted":0,"warnings":[]}`)
	for i, id := range tr {
		got := e.get(t, id)
		want := []string{a.ID, b.ID}
		if i == 3 {
			want = []string{}
		}
		if !slices.Equal(tagIDs(got.Tags), want) {
			t.Errorf("trade %d tags %v, want %v", i, tagIDs(got.Tags), want)
		}
		if wantAt := later.Format(db.TimeFormat); i < 3 && got.UpdatedAt != wantAt {
			t.Errorf("trade %d updated_at %s, want %s", i, got.UpdatedAt, wantAt)
		}
	}
	if n := e.total(t, "tags="+b.ID); n != 3 {
		t.Errorf("trades tagged b: %d, want 3", n)
	}

	e.bulk(t, fmt.Sprintf(`{"trade_ids": %s, "remove_tag_ids": [%q]}`, bulkIDs(tr[0], tr[1]), a.ID),
		`{"updated":2,"deleted":0,"warnings":[]}`)
	if got := tagIDs(e.get(t, tr[0]).Tags); !slices.Equal(got, []string{b.ID}) {
		t.Errorf("trade 0 tags after removing a: %v, want [b]", got)
	}
	if got := tagIDs(e.get(t, tr[2]).Tags); !slices.Equal(got, []string{a.ID, b.ID}) {
		t.Errorf("trade 2, not named, tags %v, want [a b]", got)
	}
	if n := e.total(t, "tags="+a.ID); n != 1 {
		t.Errorf("trades tagged a: %d, want 1", n)
	}

	// A playbook with a checklist answer, then cleared with it.
	e.bulk(t, fmt.Sprintf(`{"trade_ids": %s, "playbook_id": %q}`, bulkIDs(tr[0], tr[3]), strings.ToUpper(pb.ID)),
		`{"updated":2,"deleted":0,"warnings":[]}`)
	e.put(t, tr[0], fmt.Sprintf(`{"criteria_checklist": [{"criterion_id": %q, "checked": true}]}`, pb.EntryCriteria[0].ID))
	for _, id := range []string{tr[0], tr[3]} {
		got := e.get(t, id)
		if got.PlaybookID == nil || *got.PlaybookID != pb.ID || got.Playbooks == nil || got.Playbooks.Title != "ORB" {
			t.Errorf("trade %s playbook %v %v, want ORB", id, got.PlaybookID, got.Playbooks)
		}
	}
	if n := e.total(t, "playbook_id="+pb.ID); n != 2 {
		t.Errorf("trades of the playbook: %d, want 2", n)
	}
	e.bulk(t, fmt.Sprintf(`{"trade_ids": %s, "playbook_id": null}`, bulkIDs(tr[0])), `{"updated":1,"deleted":0,"warnings":[]}`)
	if got := e.get(t, tr[0]); got.PlaybookID != nil || got.Playbooks != nil || len(got.CriteriaChecklist) != 0 {
		t.Errorf("trade 0 after clearing its playbook: %v %v %v", got.PlaybookID, got.Playbooks, got.CriteriaChecklist)
	}
	if n := e.total(t, "playbook_id="+pb.ID); n != 1 {
		t.Errorf("trades of the playbook after clearing one: %d, want 1", n)
	}

	e.bulk(t, fmt.Sprintf(`{"trade_ids": %s, "reviewed": true}`, bulkIDs(tr[1], tr[2])), `{"updated":2,"deleted":0,"warnings":[]}`)
	if got := e.get(t, tr[1]).ReviewedAt; got == nil || *got != later.Format(db.TimeFormat) {
		t.Errorf("trade 1 reviewed_at %v, want %s", got, later.Format(db.TimeFormat))
	}
	if n := e.total(t, "reviewed=true"); n != 2 {
		t.Errorf("reviewed trades: %d, want 2", n)
	}
	e.bulk(t, fmt.Sprintf(`{"trade_ids": %s, "reviewed": false}`, bulkIDs(tr[1])), `{"updated":1,"deleted":0,"warnings":[]}`)
	if got := e.get(t, tr[1]).ReviewedAt; got != nil {
		t.Errorf("trade 1 reviewed_at %s after reviewed false, want null", *got)
	}

	// Every action at once; a repeated id counts once.
	e.bulk(t, fmt.Sprintf(`{"trade_ids": %s, "add_tag_ids": [%q], "remove_tag_ids": [%q], "playbook_id": %q, "reviewed": true}`,
		bulkIDs(tr[3], tr[0], tr[3]), a.ID, b.ID, pb.ID), `{"updated":2,"deleted":0,"warnings":[]}`)
	for _, id := range []string{tr[0], tr[3]} {
		got := e.get(t, id)
		if !slices.Equal(tagIDs(got.Tags), []string{a.ID}) || got.PlaybookID == nil || got.ReviewedAt == nil {
			t.Errorf("trade %s after every action: tags %v, playbook %v, reviewed_at %v", id, tagIDs(got.Tags), got.PlaybookID, got.ReviewedAt)
		}
	}
	if n := e.total(t, "reviewed=true&playbook_id="+pb.ID+"&tags="+a.ID); n != 2 {
		t.Errorf("trades with every change: %d, want 2", n)
	}

	if _, after := e.do(t, "GET", "/api/v1/trades/"+untouched.ID, e.key, ""); string(after) != string(before) {
		t.Errorf("a trade not named changed:\n%s\n%s", before, after)
	}
}

// TestTradeBulkRules: a bulk change checks the rules again as a trade's
// update does, each trade named against its strategies and the day's other
// trades against the day-level rules, with the same results.
func TestTradeBulkRules(t *testing.T) {
	e := newTradeEnv(t)
	e.pinClock(t0)
	tag := e.newTag(t, e.key, e.newGroup(t, e.key, "Setups").ID, "Breakout")
	s := e.createStrategy(t, e.key, `{"title": "One a day", "strategy_rules": [{"check": {"kind": "max_trades_per_day", "value": 1}},
		{"check": {"kind": "max_quantity", "value": 1}}]}`)
	var tr []string
	for i := range 3 {
		created, _ := e.create(t, e.tradeBody("ESZ5", "long", fmt.Sprintf(`"entry_time": "09:%02d:00", "risk_management_strategy_ids": [%q],
			%s`, 30+i, s.ID, fills(1, "buy 1@5000", "sell 1@5001"))))
		tr = append(tr, created.ID)
	}
	later := t0.Add(time.Hour)
	e.pinClock(later)
	e.bulk(t, fmt.Sprintf(`{"trade_ids": %s, "add_tag_ids": [%q]}`, bulkIDs(tr[1], tr[2]), tag.ID), `{"updated":2,"deleted":0,"warnings":[]}`)
	for i, want := range [][]string{
		{"pass 2026-02-05T16:17:54.123Z", "pass 2026-02-05T15:17:54.123Z"}, // not named: its day-level rule only
		{"fail 2026-02-05T16:17:54.123Z", "pass 2026-02-05T16:17:54.123Z"},
		{"fail 2026-02-05T16:17:54.123Z", "pass 2026-02-05T16:17:54.123Z"},
	} {
		var got []string
		for _, ev := range e.get(t, tr[i]).TradeRuleEvaluations {
			got = append(got, ev.Result+" "+ev.EvaluatedAt)
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("trade %d evaluations %v, want %v", i, got, want)
		}
	}
	if n := e.total(t, "has_violations=true"); n != 2 {
		t.Errorf("trades over the day's limit: %d, want 2", n)
	}
}

// TestTradeBulkDelete deletes trades with what goes with them, counted in
// the warnings, and checks the day-level rules of the day they left again:
// the trade that was over the day's limit is within it once the two before
// it are gone.
func TestTradeBulkDelete(t *testing.T) {
	e := newTradeEnv(t)
	tag := e.newTag(t, e.key, e.newGroup(t, e.key, "Setups").ID, "Breakout")
	s := e.createStrategy(t, e.key, `{"title": "One a day", "strategy_rules": [{"check": {"kind": "max_trades_per_day", "value": 1}}]}`)
	var tr []string
	for i := range 3 {
		created, _ := e.create(t, e.tradeBody("ESZ5", "long", fmt.Sprintf(`"entry_time": "09:%02d:00", "tag_ids": [%q],
			"risk_management_strategy_ids": [%q], %s`, 30+i, tag.ID, s.ID, fills(1, "buy 1@5000", "sell 1@5001"))))
		tr = append(tr, created.ID)
	}
	e.post(t, e.key, "/api/v1/write-ups", fmt.Sprintf(`{"trade_id": %q, "title": "Why"}`, tr[0]))
	if n := e.total(t, "has_violations=true"); n != 2 {
		t.Fatalf("trades over the day's limit before the delete: %d, want 2", n)
	}
	total := e.total(t, "")

	e.bulk(t, fmt.Sprintf(`{"trade_ids": %s, "delete": true}`, bulkIDs(tr[0], tr[1], tr[0])),
		`{"updated":0,"deleted":2,"warnings":["Deleted 4 executions","Deleted 1 trade write-up","Removed 2 tag associations"]}`)
	for _, id := range tr[:2] {
		if status, b := e.do(t, "GET", "/api/v1/trades/"+id, e.key, ""); status != http.StatusNotFound {
			t.Errorf("GET deleted trade %s: %d %s, want 404", id, status, b)
		}
	}
	if n := e.total(t, ""); n != total-2 {
		t.Errorf("trades after the delete: %d, want %d", n, total-2)
	}
	if n := e.total(t, "tags="+tag.ID); n != 1 {
		t.Errorf("trades tagged after the delete: %d, want 1", n)
	}
	if n := e.total(t, "has_violations=true"); n != 0 {
		t.Errorf("trades over the day's limit after the delete: %d, want 0", n)
	}
	var results []string
	for _, ev := range e.get(t, tr[2]).TradeRuleEvaluations {
		results = append(results, ev.Result)
	}
	if !slices.Equal(results, []string{"pass"}) {
		t.Errorf("the day's last trade's evaluations: %v, want [pass]", results)
	}
	if status, b := e.do(t, "GET", "/api/v1/write-ups?trade_id="+tr[0], e.key, ""); status != http.StatusOK ||
		!strings.Contains(string(b), `"total":0`) {
		t.Errorf("write-ups of the deleted trade: %d %s, want none", status, b)
	}
}

// TestTradeBulkRefusals: every refusal answers its exact status and body,
// and changes nothing of anyone's.
func TestTradeBulkRefusals(t *testing.T) {
	e := newTradeEnv(t)
	tag := e.newTag(t, e.key, e.newGroup(t, e.key, "Setups").ID, "Breakout")
	var tr []string
	for range 4 {
		created, _ := e.create(t, e.tradeBody("ESZ5", "long", `"entry_price": 5000, "quantity": 1`))
		tr = append(tr, created.ID)
	}
	_, bob := e.newUser(t, "bob")
	bobAcct := e.createAccount(t, bob, `{"account_number": "B-1"}`)
	status, raw := e.do(t, "POST", "/api/v1/trades", bob, (&tradeEnv{accountID: bobAcct.ID}).tradeBody("ES", "long", `"entry_price": 1, "quantity": 1`))
	if status != http.StatusCreated {
		t.Fatalf("bob's trade: %d %s", status, raw)
	}
	bobTrade := decode[struct{ Data createdTrade }](t, raw).Data.ID
	bobTag := e.newTag(t, bob, e.newGroup(t, bob, "Mine").ID, "Mine")
	bobPlaybook := e.createPlaybook(t, bob, `{"title": "Bob's"}`)
	_, readOnly := e.newKey(t, "alice", "read", false)

	state := func() string {
		var sb strings.Builder
		for _, target := range []string{"/api/v1/trades", "/api/v1/tags"} {
			for _, key := range []string{e.key, bob} {
				_, b := e.do(t, "GET", target, key, "")
				sb.Write(b) // an answer is one line
			}
		}
		for _, id := range tr {
			_, b := e.do(t, "GET", "/api/v1/trades/"+id, e.key, "")
			sb.Write(b)
		}
		_, b := e.do(t, "GET", "/api/v1/trades/"+bobTrade, bob, "")
		sb.Write(b)
		return sb.String()
	}
	before := state()

	many := make([]string, 501)
	for i := range many {
		many[i] = tr[i%len(tr)]
	}
	four := bulkIDs(tr[0], tr[1], tr[2], bobTrade)
	invalid := func(field, message string) string { return invalidBody(t, field, message) }
	notFound := func(kind, field string) string {
		return fmt.Sprintf(`{"error":"%s not found","code":"NOT_FOUND","details":{%q:"%s not found"}}`, kind, field, kind)
	}
	tests := []struct {
		name, key, body string
		status          int
		want            string
	}{
		{"no action", e.key, fmt.Sprintf(`{"trade_ids": [%q]}`, tr[0]), 400,
			invalid("body", "name an action: add_tag_ids, remove_tag_ids, playbook_id, reviewed or delete")},
		{"empty lists are no action", e.key, fmt.Sprintf(`{"trade_ids": [%q], "add_tag_ids": [], "remove_tag_ids": [], "delete": false}`, tr[0]), 400,
			invalid("body", "name an action: add_tag_ids, remove_tag_ids, playbook_id, reviewed or delete")},
		{"delete with another action", e.key, fmt.Sprintf(`{"trade_ids": [%q], "delete": true, "reviewed": true, "add_tag_ids": [%q]}`, tr[0], tag.ID), 400,
			invalid("delete", "delete goes alone: send add_tag_ids, reviewed in a request of their own")},
		{"no trade ids", e.key, `{"reviewed": true}`, 400, invalid("trade_ids", "trade_ids is required")},
		{"null trade ids", e.key, `{"trade_ids": null, "reviewed": true}`, 400, invalid("trade_ids", "trade_ids is required")},
		{"0 trade ids", e.key, `{"trade_ids": [], "reviewed": true}`, 400, invalid("trade_ids", "trade_ids must hold 1 to 500 trade ids, not 0")},
		{"501 trade ids", e.key, fmt.Sprintf(`{"trade_ids": %s, "reviewed": true}`, bulkIDs(many...)), 400,
			invalid("trade_ids", "trade_ids must hold 1 to 500 trade ids, not 501")},
		{"malformed trade id", e.key, fmt.Sprintf(`{"trade_ids": [%q, "42"], "reviewed": true}`, tr[0]), 400,
			invalid("trade_ids[1]", "trade_ids[1] must be a UUID")},
		{"malformed tag id", e.key, fmt.Sprintf(`{"trade_ids": [%q], "remove_tag_ids": ["x"]}`, tr[0]), 400,
			invalid("remove_tag_ids[0]", "remove_tag_ids[0] must be a UUID")},
		{"malformed playbook id", e.key, fmt.Sprintf(`{"trade_ids": [%q], "playbook_id": "x"}`, tr[0]), 400,
			invalid("playbook_id", "playbook_id must be a UUID")},
		{"null tag list", e.key, fmt.Sprintf(`{"trade_ids": [%q], "add_tag_ids": null, "reviewed": true}`, tr[0]), 400,
			invalid("add_tag_ids", "add_tag_ids cannot be null")},
		{"null delete", e.key, fmt.Sprintf(`{"trade_ids": [%q], "delete": null, "reviewed": true}`, tr[0]), 400,
			invalid("delete", "delete must be true or false")},
		{"a tag added and removed", e.key, fmt.Sprintf(`{"trade_ids": [%q], "add_tag_ids": [%q], "remove_tag_ids": [%q]}`, tr[0], tag.ID, tag.ID), 400,
			invalid("remove_tag_ids[0]", "remove_tag_ids[0] is also in add_tag_ids: a tag is added or removed, not both")},
		{"trade ids not an array", e.key, fmt.Sprintf(`{"trade_ids": %q, "reviewed": true}`, tr[0]), 400,
			invalid("trade_ids", "trade_ids must be an array")},
		{"a trade id not a string", e.key, `{"trade_ids": [1], "reviewed": true}`, 400, invalid("trade_ids", "trade_ids must be a string")},
		{"reviewed not a boolean", e.key, fmt.Sprintf(`{"trade_ids": [%q], "reviewed": "yes"}`, tr[0]), 400,
			invalid("reviewed", "reviewed must be a boolean")},
		{"delete not a boolean", e.key, fmt.Sprintf(`{"trade_ids": [%q], "delete": 1}`, tr[0]), 400, invalid("delete", "delete must be a boolean")},
		{"playbook id not a string", e.key, fmt.Sprintf(`{"trade_ids": [%q], "playbook_id": 7}`, tr[0]), 400,
			invalid("playbook_id", "playbook_id must be a string")},
		{"body not an object", e.key, fmt.Sprintf(`[%q]`, tr[0]), 400, invalid("body", "body must be a JSON object")},
		{"a name in another case", e.key, fmt.Sprintf(`{"trade_ids": [%q], "Delete": true}`, tr[0]), 400,
			invalid("Delete", "Delete is not a field: names are case-sensitive (did you mean delete?)")},
		{"a name given twice", e.key, fmt.Sprintf(`{"trade_ids": [%q], "delete": false, "delete": true}`, tr[0]), 400,
			invalid("delete", "delete is given twice; send each field once")},
		{"another user's trade at index 3", e.key, fmt.Sprintf(`{"trade_ids": %s, "reviewed": true}`, four), 404, notFound("Trade", "trade_ids[3]")},
		{"another user's trade, delete", e.key, fmt.Sprintf(`{"trade_ids": %s, "delete": true}`, four), 404, notFound("Trade", "trade_ids[3]")},
		{"an unknown trade", e.key, fmt.Sprintf(`{"trade_ids": [%q, %q], "reviewed": true}`, tr[0], uuid.NewString()), 404, notFound("Trade", "trade_ids[1]")},
		{"another user's tag to add", e.key, fmt.Sprintf(`{"trade_ids": %s, "add_tag_ids": [%q, %q]}`, bulkIDs(tr...), tag.ID, bobTag.ID), 404,
			notFound("Tag", "add_tag_ids[1]")},
		{"another user's tag to remove", e.key, fmt.Sprintf(`{"trade_ids": %s, "reviewed": true, "remove_tag_ids": [%q]}`, bulkIDs(tr...), bobTag.ID), 404,
			notFound("Tag", "remove_tag_ids[0]")},
		{"another user's playbook", e.key, fmt.Sprintf(`{"trade_ids": %s, "add_tag_ids": [%q], "playbook_id": %q}`, bulkIDs(tr...), tag.ID, bobPlaybook.ID), 404,
			notFound("Playbook", "playbook_id")},
		{"bob naming alice's trades", bob, fmt.Sprintf(`{"trade_ids": [%q], "delete": true}`, tr[0]), 404, notFound("Trade", "trade_ids[0]")},
		{"a read-only key", readOnly, fmt.Sprintf(`{"trade_ids": [%q], "delete": true}`, tr[0]), 403,
			`{"error":"This API key lacks the trades:write scope","code":"FORBIDDEN"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, b := e.do(t, "POST", "/api/v1/trades/bulk", tt.key, tt.body)
			if status != tt.status || string(b) != tt.want+"\n" {
				t.Errorf("got  %d %s\nwant %d %s", status, b, tt.status, tt.want)
			}
		})
	}
	if after := state(); after != before {
		t.Errorf("a refused bulk request changed something:\n%s", changedLines(before, after))
	}

	// Unknown names are ignored, as in every body (a client may send back
	// what it read); 500 ids are taken, a repeated one counted once.
	e.bulk(t, fmt.Sprintf(`{"trade_ids": [%q], "reviewed": true, "note": "x"}`, tr[0]), `{"updated":1,"deleted":0,"warnings":[]}`)
	e.bulk(t, fmt.Sprintf(`{"trade_ids": %s, "reviewed": true}`, bulkIDs(many[:500]...)), `{"updated":4,"deleted":0,"warnings":[]}`)
}

// TestTradeBulkAllOrNothing: when a trade part-way through the list cannot
// be saved (one written by an older version whose futures root has no
// point value any more), the trades saved before it in the same request
// are as they were, and the answer names the trade by its place.
func TestTradeBulkAllOrNothing(t *testing.T) {
	e := newTradeEnv(t)
	tag := e.newTag(t, e.key, e.newGroup(t, e.key, "Setups").ID, "Breakout")
	pb := e.createPlaybook(t, e.key, `{"title": "ORB"}`)
	var tr []string
	for range 2 {
		created, _ := e.create(t, e.tradeBody("ESZ5", "long", `"entry_price": 5000, "quantity": 1`))
		tr = append(tr, created.ID)
	}
	raw := e.sql(t)
	broken := insertTrade(t, raw, e.userID, e.accountID)
	if _, err := raw.ExecContext(t.Context(), `UPDATE trades SET symbol = 'XYZH6', root = 'XYZ' WHERE id = ?`, broken); err != nil {
		t.Fatal(err)
	}
	last, _ := e.create(t, e.tradeBody("ESZ5", "long", `"entry_price": 5000, "quantity": 1`))
	tr = append(tr, broken, last.ID)

	state := func() string {
		var sb strings.Builder
		for _, id := range tr {
			_, b := e.do(t, "GET", "/api/v1/trades/"+id, e.key, "")
			sb.Write(b)
		}
		_, b := e.do(t, "GET", "/api/v1/trades", e.key, "")
		sb.Write(b)
		return sb.String()
	}
	before := state()
	e.pinClock(t0)
	status, b := e.do(t, "POST", "/api/v1/trades/bulk", e.key, fmt.Sprintf(`{"trade_ids": %s, "add_tag_ids": [%q], "playbook_id": %q, "reviewed": true}`,
		bulkIDs(tr...), tag.ID, pb.ID))
	want := invalidBody(t, "trade_ids[2]", "trade "+broken+" cannot be saved: no point value is known for futures root XYZ: set one with PUT /api/v1/instruments/XYZ")
	if status != http.StatusBadRequest || string(b) != want+"\n" {
		t.Errorf("bulk over a trade that cannot be saved:\ngot  %d %s\nwant 400 %s", status, b, want)
	}
	if after := state(); after != before {
		t.Errorf("a failed bulk request left changes:\n%s", changedLines(before, after))
	}
}
