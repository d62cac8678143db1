package server_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden and openapi.json's examples from real responses")

// golden is one answer kept in testdata/golden/<name>.json and shown in
// openapi.json as the example at one of its responses.
type golden struct {
	name, method, target, body string
	status                     int
	key                        string // the caller's key; "" for alice's
	// at is the path in openapi.json to the response the example belongs
	// to: a path item and operation, or a shared response.
	at []string
}

// TestGolden builds a small journal with a pinned clock and pinned ids,
// reads the larger answers of the API, and compares each with its golden
// file and with its example in openapi.json; openapi.json must also be in
// the form this test writes. With -update it rewrites both.
func TestGolden(t *testing.T) {
	ts := newTestServer(t)
	ts.pinClock(t0)
	n := 0
	ts.db.NewID = func() string {
		n++
		return fmt.Sprintf("01940000-0000-7000-8000-%012d", n)
	}
	_, key := ts.newUser(t, "alice")
	a := ts.createAccount(t, key, `{"name": "Apex 50K", "account_number": "APEX-1", "account_type": "prop", "prop_firm": "Apex",
		"status": "evaluation", "starting_balance": 50000, "profit_target": 3000, "max_daily_loss": 1000, "max_drawdown": 2500,
		"drawdown_mode": "trailing", "drawdown_lock_at": 50100, "min_trading_days": 7, "consistency_pct": 30, "max_contracts": 4,
		"profit_split": 90}`)
	e := &tradeEnv{testServer: ts, key: key, accountID: a.ID}
	created := func(target, body string) map[string]any {
		t.Helper()
		status, b := ts.do(t, "POST", target, key, body)
		if status != http.StatusCreated {
			t.Fatalf("POST %s %s: got %d %s", target, body, status, b)
		}
		var v map[string]any
		json.Unmarshal(b, &v)
		return v
	}
	group := created("/api/v1/tags", `{"type": "tag_group", "name": "Setup"}`)["tagGroup"].(map[string]any)["id"]
	tag := created("/api/v1/tags", fmt.Sprintf(`{"type": "tag", "tag_group_id": %q, "name": "A+"}`, group))["tag"].(map[string]any)["id"]
	pb := created("/api/v1/playbooks", `{"title": "Opening drive", "entry_criteria": ["Above VWAP"], "exit_criteria": ["First target"]}`)["data"].(map[string]any)
	criterion := pb["entry_criteria"].([]any)[0].(map[string]any)["id"]
	strategy := created("/api/v1/strategies", `{"title": "One contract", "type": "risk_management",
		"strategy_rules": [{"description": "At most one contract", "severity": "critical", "check": {"kind": "max_quantity", "value": 1}}]}`)["data"].(map[string]any)["id"]
	win, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 1@5010", "sell 1@5012.25")+fmt.Sprintf(`,
		"stop_loss_levels": [{"price": 4995}], "take_profit_levels": [{"price": 5010, "quantity": 1}, {"price": 5015}],
		"star_rating": 4, "review_notes": {"type": "doc", "content": [{"type": "paragraph", "content": [{"type": "text", "text": "Waited for the pullback."}]}]},
		"playbook_id": %q, "criteria_checklist": [{"criterion_id": %q, "checked": true}], "reviewed": true,
		"risk_management_strategy_ids": [%q], "tag_ids": [%q]`, pb["id"], criterion, strategy, tag)))
	e.create(t, e.tradeBody("NQH6", "short", fills(2.5, "sell 1@21000", "buy 1@21012.5")))
	e.payout(t, fmt.Sprintf(`{"account_id": %q, "date": "2026-02-05", "total_amount": 1000, "status": "paid"}`, a.ID))
	e.expense(t, fmt.Sprintf(`{"account_id": %q, "date": "2026-02-01", "amount": 167, "category": "evaluation"}`, a.ID))
	// A mapped import, in another user's journal so as to leave alice's figures as they are.
	_, bob := ts.newUser(t, "bob")
	bobAccount := ts.createAccount(t, bob, `{"account_number": "MT-1"}`)
	mapping := ts.createMapping(t, bob, metaTraderMapping)
	mapped := ts.mustImport(t, bob, metaTraderFile, http.StatusCreated, "mapping_id", mapping.ID, "account_id", bobAccount.ID)

	cases := []golden{
		{name: "trade", method: "GET", target: "/api/v1/trades/" + win.ID, status: 200,
			at: []string{"paths", "/api/v1/trades/{id}", "get", "responses", "200"}},
		{name: "trade_list", method: "GET", target: "/api/v1/trades?limit=1", status: 200,
			at: []string{"paths", "/api/v1/trades", "get", "responses", "200"}},
		{name: "stats_summary", method: "GET", target: "/api/v1/stats/summary", status: 200,
			at: []string{"paths", "/api/v1/stats/summary", "get", "responses", "200"}},
		{name: "account", method: "GET", target: "/api/v1/accounts/" + a.ID, status: 200,
			at: []string{"paths", "/api/v1/accounts/{id}", "get", "responses", "200"}},
		{name: "account_status", method: "GET", target: "/api/v1/accounts/" + a.ID + "/status", status: 200,
			at: []string{"paths", "/api/v1/accounts/{id}/status", "get", "responses", "200"}},
		{name: "payout_summary", method: "GET", target: "/api/v1/payouts/summary", status: 200,
			at: []string{"paths", "/api/v1/payouts/summary", "get", "responses", "200"}},
		{name: "validation_error", method: "POST", target: "/api/v1/trades", status: 400,
			body: fmt.Sprintf(`{"account_id": %q, "symbol": "ESH6", "side": "long", "entry_date": "2026-02-05",
				"executions": [{"side": "buy", "quantity": 1, "price": -5000, "execution_time": "09:30:00"}]}`, a.ID),
			at: []string{"components", "responses", "BadRequest"}},
		{name: "import_mapping", method: "GET", target: "/api/v1/import-mappings/" + mapping.ID, status: 200, key: bob,
			at: []string{"paths", "/api/v1/import-mappings/{id}", "get", "responses", "200"}},
		{name: "import_mapped", method: "GET", target: "/api/v1/imports/" + *mapped.ID, status: 200, key: bob,
			at: []string{"paths", "/api/v1/imports/{id}", "get", "responses", "200"}},
		{name: "document_not_found", method: "GET", target: "/api/v1/documents/01940000-0000-7000-8000-999999999999", status: 404,
			at: []string{"components", "responses", "DocNotFound"}},
	}

	spec, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := decodeNumbers(t, spec)
	for _, c := range cases {
		caller := key
		if c.key != "" {
			caller = c.key
		}
		status, b := ts.do(t, c.method, c.target, caller, c.body)
		if status != c.status {
			t.Fatalf("%s %s: got %d %s, want %d", c.method, c.target, status, b, c.status)
		}
		got := indent(t, b)
		file := filepath.Join("testdata", "golden", c.name+".json")
		if *update {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, got, 0o644); err != nil {
				t.Fatal(err)
			}
		} else if want, err := os.ReadFile(file); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s %s differs from %s (err %v); if the change is meant, run go test ./server -run TestGolden -update\ngot:\n%s",
				c.method, c.target, file, err, got)
		}
		setExample(t, doc, c.at, c.name, decodeNumbers(t, b))
	}
	canonical := indent(t, encode(t, doc))
	if *update {
		if err := os.WriteFile("openapi.json", canonical, 0o644); err != nil {
			t.Fatal(err)
		}
	} else if !bytes.Equal(canonical, spec) {
		t.Errorf("openapi.json is not in its canonical form, or its examples are not the golden answers: run go test ./server -run TestGolden -update and review the diff")
	}
}

// setExample puts v as the named example of the application/json content
// of the response at path in doc.
func setExample(t *testing.T, doc any, path []string, name string, v any) {
	t.Helper()
	node := doc
	for _, k := range append(path, "content", "application/json") {
		m, ok := node.(map[string]any)
		if !ok || m[k] == nil {
			t.Fatalf("openapi.json has no %v", path)
		}
		node = m[k]
	}
	media := node.(map[string]any)
	examples, _ := media["examples"].(map[string]any)
	if examples == nil {
		examples = map[string]any{}
		media["examples"] = examples
	}
	examples[name] = map[string]any{"summary": "A real answer (testdata/golden/" + name + ".json)", "value": v}
}

// decodeNumbers decodes JSON keeping numbers as they were written.
func decodeNumbers(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return v
}

func encode(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// indent is b indented by two spaces with a final newline: the form of
// the golden files and of openapi.json.
func indent(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, bytes.TrimSpace(b), "", "  "); err != nil {
		t.Fatalf("indent: %v", err)
	}
	buf.WriteByte('\n')
	return buf.Bytes()
}
