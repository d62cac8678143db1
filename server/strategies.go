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
	checkTitle(f, &in.Title, create, true)
	f.Text("description", in.Description, input.MaxDescription)
	f.Text("content_markdown", in.ContentMarkdown, input.MaxMarkdown)
	input.NotNull(f, "type", in.Type)
	f.OneOf("type", in.Type, db.StrategyTypes)
	if req.StrategyRules.Set {
		in.StrategyRules = db.Optional[[]db.RuleInput]{Set: true, Value: []db.RuleInput{}}
		if req.StrategyRules.Null {
			f.Add("strategy_rules", "strategy_rules cannot be null; send [] to remove every rule")
		}
		if len(req.StrategyRules.Value) > input.MaxRules {
			f.Add("strategy_rules", fmt.Sprintf("strategy_rules may hold at most %d rules", input.MaxRules))
		}
		for i, raw := range req.StrategyRules.Value {
			path := fmt.Sprintf("strategy_rules[%d]", i)
			if rule, ok := decodeRule(f, raw, path); ok {
				in.StrategyRules.Value = append(in.StrategyRules.Value, rule)
			}
		}
	}
	f.UUIDs("tag_ids", in.TagIDs)
	input.LowerIDs(&in.TagIDs)
	return in, f.Err()
}

// decodeRule decodes and validates one rule, recording its failures in f
// by path.
func decodeRule(f input.Errors, raw json.RawMessage, path string) (db.RuleInput, bool) {
	var rr ruleRequest
	if err := decodeElement(raw, &rr, path); err != nil {
		f.Merge(err)
		return db.RuleInput{}, false
	}
	ok := true
	fail := func(field, message string) {
		f.Add(path+"."+field, path+"."+field+" "+message)
		ok = false
	}
	rule := db.RuleInput{Description: rr.Description, Category: rr.Category, SortOrder: rr.SortOrder}
	if rr.ID != "" {
		var valid bool
		if rule.ID, valid = f.UUID(path+".id", rr.ID); !valid {
			ok = false
		}
		rule.ID = strings.ToLower(rule.ID)
	}
	if utf8.RuneCountInString(rr.Description) > input.MaxRuleText {
		fail("description", fmt.Sprintf("must be at most %d characters", input.MaxRuleText))
	}
	if utf8.RuneCountInString(rr.Category) > input.MaxCategory {
		fail("category", fmt.Sprintf("must be at most %d characters", input.MaxCategory))
	}
	if rr.SortOrder != nil && (*rr.SortOrder < 0 || *rr.SortOrder > input.MaxSortOrder) {
		fail("sort_order", fmt.Sprintf("must be an integer from 0 to %d", input.MaxSortOrder))
	}
	if rr.Severity != nil {
		if !input.IsOneOf(*rr.Severity, db.RuleSeverities) {
			fail("severity", "must be one of "+strings.Join(db.RuleSeverities, ", "))
		}
		rule.Severity = *rr.Severity
	}
	if len(rr.Check) > 0 && string(rr.Check) != "null" {
		c, err := db.ParseRuleCheck(rr.Check, path+".check")
		var inv *db.InvalidError
		switch {
		case errors.As(err, &inv):
			f.Add(inv.Field, inv.Message)
			ok = false
		case err != nil:
			fail("check", "is malformed")
		default:
			rule.Check = &c
		}
	}
	return rule, ok
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
