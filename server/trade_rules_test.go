package server_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"tradejournal/db"
)

// evaluation is the one evaluation of a single-rule strategy on a trade,
// with its violation data decoded.
func onlyEvaluation(t *testing.T, got db.EnrichedTrade) (db.RuleEvaluation, map[string]any) {
	t.Helper()
	if len(got.TradeRuleEvaluations) != 1 {
		t.Fatalf("%d evaluations, want 1: %+v", len(got.TradeRuleEvaluations), got.TradeRuleEvaluations)
	}
	ev := got.TradeRuleEvaluations[0]
	var v map[string]any
	if err := json.Unmarshal(ev.ViolationData, &v); err != nil {
		t.Fatalf("violation_data %s: %v", ev.ViolationData, err)
	}
	return ev, v
}

func TestRuleChecks(t *testing.T) {
	e := newTradeEnv(t)
	tests := []struct {
		name, check, trade string
		wantFail           bool
		wantViolation      string // JSON of violation_data on a fail
	}{
		{"max_quantity pass", `{"kind": "max_quantity", "value": 2}`, `"entry_price": 100, "quantity": 2`, false, ""},
		{"max_quantity fail", `{"kind": "max_quantity", "value": 2}`, `"entry_price": 100, "quantity": 3`, true, `{"actual":3,"limit":2}`},
		{"max_loss_per_trade pass", `{"kind": "max_loss_per_trade", "value": 500}`, `"entry_price": 100, "quantity": 100, "exit_price": 95`, false, ""},
		{"max_loss_per_trade fail", `{"kind": "max_loss_per_trade", "value": 500}`, fills(25, "buy 100@100", "sell 100@95"), true, `{"actual":550,"limit":500}`},
		{"require_stop_loss pass", `{"kind": "require_stop_loss"}`, `"entry_price": 100, "quantity": 1, "stop_loss_levels": [{"price": 99}]`, false, ""},
		{"require_stop_loss fail", `{"kind": "require_stop_loss"}`, `"entry_price": 100, "quantity": 1`, true, `{"actual":0,"limit":1}`},
		{"trading_window pass, bounds inclusive", `{"kind": "trading_window", "start": "09:30:00", "end": "11:30:00"}`,
			`"entry_price": 100, "quantity": 1, "entry_time": "09:30:00", "exit_price": 101, "exit_time": "11:30:00"`, false, ""},
		{"trading_window fail on the exit", `{"kind": "trading_window", "start": "09:30:00", "end": "11:30:00"}`,
			`"executions": [{"side": "buy", "price": 100, "quantity": 1, "execution_time": "10:00:00"}, {"side": "sell", "price": 101, "quantity": 1, "execution_time": "15:02:00"}]`,
			true, `{"actual":"15:02:00","limit":"09:30:00-11:30:00"}`},
		{"allowed_symbols pass by root", `{"kind": "allowed_symbols", "symbols": ["ES", "NQ"]}`, `"entry_price": 100, "quantity": 1`, false, ""},
		{"allowed_symbols fail", `{"kind": "allowed_symbols", "symbols": ["ES", "NQ"]}`, `"entry_price": 70, "quantity": 1`, true, `{"actual":"CL","limit":["ES","NQ"]}`},
		{"min_r_ratio pass", `{"kind": "min_r_ratio", "value": 1.5}`, `"entry_price": 100, "quantity": 1, "exit_price": 110, "stop_loss_levels": [{"price": 95}]`, false, ""},
		{"min_r_ratio fail", `{"kind": "min_r_ratio", "value": 1.5}`, `"entry_price": 100, "quantity": 1, "exit_price": 105, "stop_loss_levels": [{"price": 95}]`, true, `{"actual":1,"limit":1.5}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := e.createStrategy(t, e.key, fmt.Sprintf(`{"title": %q, "strategy_rules": [{"description": "r", "severity": "critical", "check": %s}]}`, tt.name, tt.check))
			symbol := map[string]string{"allowed_symbols pass by root": "NQZ5", "allowed_symbols fail": "CLZ5"}[tt.name]
			if symbol == "" {
				symbol = "AAPL"
			}
			tr, _ := e.create(t, e.tradeBody(symbol, "long", tt.trade+fmt.Sprintf(`, "risk_management_strategy_ids": [%q]`, s.ID)))
			ev, v := onlyEvaluation(t, e.get(t, tr.ID))
			if got := ev.Result == "fail"; got != tt.wantFail {
				t.Fatalf("result %s, want fail %v; violation %s", ev.Result, tt.wantFail, ev.ViolationData)
			}
			if tt.wantFail && (string(ev.ViolationData) != tt.wantViolation || ev.Severity == nil || *ev.Severity != "critical") {
				t.Errorf("violation_data %s severity %v, want %s critical", ev.ViolationData, deref(ev.Severity), tt.wantViolation)
			}
			if !tt.wantFail && (v != nil || ev.Severity != nil) {
				t.Errorf("a pass with violation %v severity %v", v, deref(ev.Severity))
			}
			if ev.ID == "" || ev.EvaluatedAt == "" || len(ev.RuleSnapshot) == 0 {
				t.Errorf("evaluation lacks id, evaluated_at or snapshot: %+v", ev)
			}
		})
	}
	// Without an R, min_r_ratio is not evaluated at all.
	s := e.createStrategy(t, e.key, `{"title": "R", "strategy_rules": [{"check": {"kind": "min_r_ratio", "value": 1}}]}`)
	tr, _ := e.create(t, e.tradeBody("AAPL", "long", fmt.Sprintf(`"entry_price": 1, "quantity": 1, "risk_management_strategy_ids": [%q]`, s.ID)))
	if got := e.get(t, tr.ID).TradeRuleEvaluations; len(got) != 0 {
		t.Errorf("min_r_ratio without an R evaluated: %+v", got)
	}
}

// TestDayLevelRules checks max_trades_per_day and max_daily_loss across
// three trades of one day: each fails only from the trade that crosses the
// limit onwards, and changing one trade re-evaluates the others.
func TestDayLevelRules(t *testing.T) {
	e := newTradeEnv(t)
	s := e.createStrategy(t, e.key, `{"title": "Daily", "strategy_rules": [
		{"description": "two a day", "check": {"kind": "max_trades_per_day", "value": 2}},
		{"description": "lose at most 300", "check": {"kind": "max_daily_loss", "value": 300}}]}`)
	mk := func(clock string, exit float64) string {
		tr, _ := e.create(t, e.tradeBody("AAPL", "long", fmt.Sprintf(`"entry_price": 100, "quantity": 100, "exit_price": %g,
			"entry_time": %q, "risk_management_strategy_ids": [%q]`, exit, clock, s.ID)))
		return tr.ID
	}
	// Created out of time order: the rules go by entry time.
	third := mk("11:00:00", 98)  // -200: day -600
	first := mk("09:30:00", 99)  // -100: day -100
	second := mk("10:00:00", 97) // -300: day -400
	results := func(id string) [2]string {
		var out [2]string
		for _, ev := range e.get(t, id).TradeRuleEvaluations {
			var snap struct{ Check db.RuleCheck }
			json.Unmarshal(ev.RuleSnapshot, &snap)
			i := 0
			if snap.Check.Kind == "max_daily_loss" {
				i = 1
			}
			out[i] = ev.Result + string(ev.ViolationData)
		}
		return out
	}
	want := map[string][2]string{
		first:  {"passnull", "passnull"},
		second: {"passnull", `fail{"actual":400,"limit":300}`},
		third:  {`fail{"actual":3,"limit":2}`, `fail{"actual":600,"limit":300}`},
	}
	for id, w := range want {
		if got := results(id); got != w {
			t.Errorf("trade %s: got %v, want %v", id, got, w)
		}
	}
	// Moving the first trade to another day re-evaluates the others.
	e.put(t, first, `{"entry_date": "2026-02-06"}`)
	want = map[string][2]string{
		first:  {"passnull", "passnull"},
		second: {"passnull", "passnull"}, // a 300 loss is not more than 300
		third:  {"passnull", `fail{"actual":500,"limit":300}`},
	}
	for id, w := range want {
		if got := results(id); got != w {
			t.Errorf("after the move, trade %s: got %v, want %v", id, got, w)
		}
	}
	// Deleting a trade re-evaluates the rest of its day.
	if status, b := e.do(t, "DELETE", "/api/v1/trades/"+second, e.key, ""); status != 200 {
		t.Fatalf("DELETE: %d %s", status, b)
	}
	if got := results(third); got != [2]string{"passnull", "passnull"} {
		t.Errorf("after the delete, the last trade: got %v, want both passing", got)
	}
	if got, _ := e.list(t, "has_violations=true"); len(got) != 0 {
		t.Errorf("has_violations=true lists %v after the day was cleaned up", ids(got))
	}
}

func TestRuleSnapshotKeepsHistory(t *testing.T) {
	e := newTradeEnv(t)
	s := e.createStrategy(t, e.key, `{"title": "Size", "strategy_rules": [{"description": "one lot", "check": {"kind": "max_quantity", "value": 1}}]}`)
	tr, _ := e.create(t, e.tradeBody("AAPL", "long", fmt.Sprintf(`"entry_price": 1, "quantity": 2, "risk_management_strategy_ids": [%q]`, s.ID)))
	before := e.get(t, tr.ID).TradeRuleEvaluations
	status, b := e.do(t, "PUT", "/api/v1/strategies/"+s.ID, e.key, `{"strategy_rules": [{"description": "five lots", "check": {"kind": "max_quantity", "value": 5}}]}`)
	if status != 200 {
		t.Fatalf("edit strategy: %d %s", status, b)
	}
	after := e.get(t, tr.ID).TradeRuleEvaluations
	if len(after) != 1 || string(after[0].RuleSnapshot) != string(before[0].RuleSnapshot) || after[0].Result != "fail" {
		t.Errorf("evaluation changed with the strategy:\nbefore %+v\nafter  %+v", before, after)
	}
	var snap struct {
		Description string       `json:"description"`
		Check       db.RuleCheck `json:"check"`
		StrategyID  string       `json:"strategy_id"`
	}
	if err := json.Unmarshal(before[0].RuleSnapshot, &snap); err != nil || snap.Description != "one lot" || snap.Check.Value != 1 || snap.StrategyID != s.ID {
		t.Errorf("snapshot %s", before[0].RuleSnapshot)
	}
	// Saving the trade again evaluates it against the rule as it is now.
	got := e.put(t, tr.ID, `{"star_rating": 2}`).TradeRuleEvaluations
	if len(got) != 1 || got[0].Result != "pass" {
		t.Errorf("re-saved against the edited rule: %+v", got)
	}
}

// TestDayLevelRulesCountUnruledTrades: a trade checked against no strategy
// still counts in its day, so creating one re-checks the day's other
// trades, and moving it away re-checks them again.
func TestDayLevelRulesCountUnruledTrades(t *testing.T) {
	e := newTradeEnv(t)
	s := e.createStrategy(t, e.key, `{"title": "Daily", "strategy_rules": [{"check": {"kind": "max_trades_per_day", "value": 2}}]}`)
	for _, clock := range []string{"10:00:00", "11:00:00"} {
		e.create(t, e.tradeBody("AAPL", "long", fmt.Sprintf(`"entry_price": 100, "quantity": 1, "entry_time": %q,
			"risk_management_strategy_ids": [%q]`, clock, s.ID)))
	}
	violating := func() []string {
		t.Helper()
		got, _ := e.list(t, "has_violations=true")
		return ids(got)
	}
	if got := violating(); len(got) != 0 {
		t.Fatalf("two trades on a day of two break the rule: %v", got)
	}
	unruled, _ := e.create(t, e.tradeBody("AAPL", "long", `"entry_price": 100, "quantity": 1, "entry_time": "09:00:00"`))
	if got := violating(); len(got) != 1 {
		t.Errorf("a third trade that day, unruled and first: violating %v, want the 11:00 trade", got)
	}
	e.put(t, unruled.ID, `{"entry_date": "2026-02-06"}`)
	if got := violating(); len(got) != 0 {
		t.Errorf("the unruled trade moved away: violating %v, want none", got)
	}
}

// TestRepricingRechecksTheDay: a new point value changes every trade of its
// root, and each day's loss rule is checked again once all of them have
// their new P&L. The 10:00 trade is created first, so it is repriced while
// the 09:30 one still has its old P&L: only the day's check afterwards
// sees the day at -600 against its limit of 500.
func TestRepricingRechecksTheDay(t *testing.T) {
	e := newTradeEnv(t)
	s := e.createStrategy(t, e.key, `{"title": "Daily", "strategy_rules": [{"check": {"kind": "max_daily_loss", "value": 500}}]}`)
	mk := func(clock string, exit float64) string {
		tr, _ := e.create(t, e.tradeBody("ESZ5", "long", fmt.Sprintf(`"entry_price": 6000, "quantity": 1, "exit_price": %g,
			"entry_time": %q, "risk_management_strategy_ids": [%q]`, exit, clock, s.ID)))
		return tr.ID
	}
	later := mk("10:00:00", 5998)   // -2 points: -100 at 50, -400 at 200
	earlier := mk("09:30:00", 5999) // -1 point: -50 at 50, -200 at 200
	if got, _ := e.list(t, "has_violations=true"); len(got) != 0 {
		t.Fatalf("a day of -150 breaks a limit of 500: %v", ids(got))
	}
	if status, b := e.do(t, "PUT", "/api/v1/instruments/ES", e.key, `{"point_value": 200}`); status != 200 {
		t.Fatalf("PUT instrument: %d %s", status, b)
	}
	got, _ := e.list(t, "has_violations=true")
	if len(got) != 1 || got[0].ID != later {
		t.Errorf("after ES went to 200 a point: violating %v, want only the 10:00 trade %s (not %s)", ids(got), later, earlier)
	}
}
