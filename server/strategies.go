package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"tradejournal/db"
	"tradejournal/server/input"
)

// strategyRequest is a strategy body. Its rules are decoded one by one, so
// a wrong type names the rule: "strategy_rules[2].sort_order".
type strategyRequest struct {
	db.StrategyInput
	StrategyRules db.Optional[[]json.RawMessage] `json:"strategy_rules"`
}

// ruleRequest is one rule of a strategy body. Rules are whole objects, not
// partial updates, so null is the same as absent: the default.
type ruleRequest struct {
	ID          string          `json:"id"`
	Description string          `json:"description"`
	Category    string          `json:"category"`
	SortOrder   *int            `json:"sort_order"`
	Severity    *string         `json:"severity"`
	Check       json.RawMessage `json:"check"`
}

// decodeStrategy reads and validates a strategy body, rule by rule.
func decodeStrategy(w http.ResponseWriter, r *http.Request, create bool) (db.StrategyInput, error) {
	var req strategyRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return db.StrategyInput{}, err
	}
	in := req.StrategyInput
	f := input.Errors{}
	if req.StrategyRules.Set {
		in.StrategyRules = db.Optional[[]db.RuleInput]{Set: true, Value: []db.RuleInput{}}
		if req.StrategyRules.Null {
			f.Add("strategy_rules", "strategy_rules cannot be null; send [] to remove every rule")
		}
		for i, raw := range req.StrategyRules.Value {
			// A rule refused here keeps its place (as a rule that passes
			// input.Rule), so input.Strategy names each later one by its
			// index in the body; a body with it is refused anyway.
			in.StrategyRules.Value = append(in.StrategyRules.Value, decodeRule(f, raw, fmt.Sprintf("strategy_rules[%d]", i)))
		}
	}
	f.Merge(input.Strategy(&in, create))
	return in, f.Err()
}

// decodeRule decodes one rule and parses its check, recording its
// failures in f by path; input.Rule checks the rest. A rule that fails to
// decode is the zero rule.
func decodeRule(f input.Errors, raw json.RawMessage, path string) db.RuleInput {
	var rr ruleRequest
	if err := decodeElement(raw, &rr, path); err != nil {
		f.Merge(err)
		return db.RuleInput{}
	}
	rule := db.RuleInput{ID: rr.ID, Description: rr.Description, Category: rr.Category, SortOrder: rr.SortOrder}
	if rr.Severity != nil {
		// Sent as "", it is no severity: input.Rule takes "" as the default.
		if *rr.Severity == "" {
			f.Add(path+".severity", path+".severity must be one of "+strings.Join(db.RuleSeverities, ", "))
		}
		rule.Severity = *rr.Severity
	}
	if len(rr.Check) > 0 && string(rr.Check) != "null" {
		c, err := db.ParseRuleCheck(rr.Check, path+".check")
		var inv *db.InvalidError
		switch {
		case errors.As(err, &inv):
			f.Add(inv.Field, inv.Message)
		case err != nil:
			f.Add(path+".check", path+".check is malformed")
		default:
			rule.Check = &c
		}
	}
	return rule
}

// parseStrategyFilter reads the list filters; a malformed value is a 400
// naming the parameter.
func parseStrategyFilter(q url.Values) (db.StrategyFilter, error) {
	f := input.Errors{}
	v := func(name string) string {
		if vs := q[name]; len(vs) > 0 {
			return strings.TrimSpace(vs[0])
		}
		return ""
	}
	filter := db.StrategyFilter{
		Type:   f.QueryEnum("type", v("type"), db.StrategyTypes),
		Search: v("search"),
	}
	if utf8.RuneCountInString(filter.Search) > input.MaxSearch {
		f.Add("search", fmt.Sprintf("search must be at most %d characters", input.MaxSearch))
	}
	return filter, f.Err()
}
