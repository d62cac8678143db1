package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"tradejournal/db"
	"tradejournal/server/input"
)

// A strategy's rules are typed a line each: the rule as the trader reads
// it, then, each after a "|", its severity and the check the journal runs
// on every trade ("At most 2 contracts | critical | max_quantity 2").
// The check is parsed by db.ParseRuleCheck, the API's own parser, so each
// kind takes the parameters and bounds the API takes.

// strategyRoutes are the strategy's pages.
func (s *Pages) strategyRoutes() []Route {
	// The strategies are listed on the library page, which has no message:
	// a post goes back there.
	routes := []Route{{Pattern: "GET /strategies", Handler: http.RedirectHandler("/library", http.StatusSeeOther)}}
	return append(routes, s.strategyPages().routes(s, "playbooks:write", "/api/v1/strategies", true,
		s.describeStrategyDelete, deleteOnly(s.db.DeleteStrategy))...)
}

// strategyBaseFields are the strategy form's own fields; the tags to tick
// are the user's, when the session may read them (without them a save
// leaves the strategy's tags as they are).
var strategyBaseFields = []field{
	{Name: "title", Label: "Title", Kind: "text", Required: true},
	{Name: "type", Label: "Type", Kind: "select", Required: true, Options: []option{
		{"entry", "Entries"}, {"exit", "Exits"}, {"trade_management", "Managing a trade"}, {"risk_management", "Managing risk"}}},
	{Name: "description", Label: "Description", Kind: "textarea"},
	{Name: "strategy_rules", Label: "Rules", Kind: "textarea", Hint: "One a line: the rule, then after a | critical or warning " +
		"(the default), then after a | the check the journal runs on each trade, if any: max_quantity 2, max_loss_per_trade 500, " +
		"require_stop_loss, trading_window 09:30-11:30, allowed_symbols ES NQ, max_trades_per_day 3, max_daily_loss 1000, " +
		"min_r_ratio 1.5. For example: At most 2 contracts | critical | max_quantity 2"},
	{Name: "content_markdown", Label: "The strategy written out (Markdown)", Kind: "textarea"},
}

// strategyPages are the strategy's new, edit and delete pages; a new one
// is for managing risk, as the API's default is.
func (s *Pages) strategyPages() livePages[db.StrategyInput, db.Strategy] {
	return livePages[db.StrategyInput, db.Strategy]{recordPages[db.StrategyInput, db.Strategy]{
		kind: "Strategy", path: "/strategies", nav: "library",
		read: readStrategyForm, check: input.Strategy, values: strategyValues,
		get: s.db.Strategy, create: s.db.CreateStrategy, update: s.updateStrategy,
		describe: func(st db.Strategy) string { return st.Title },
		defaults: func(*http.Request, *db.Session) url.Values { return url.Values{"type": {"risk_management"}} },
	}, func(r *http.Request, sess *db.Session) ([]field, error) {
		return s.withTagChoices(r.Context(), sess, slices.Clone(strategyBaseFields))
	}}
}

// readStrategyForm reads the strategy form as the API's body would carry
// it: the rules box is the whole set (an emptied one on an edit removes
// them all).
func readStrategyForm(r *formReader) db.StrategyInput {
	return db.StrategyInput{
		Title: r.required("title"), Type: r.text("type", false), Description: r.text("description", true),
		ContentMarkdown: r.text("content_markdown", true), StrategyRules: readRules(r), TagIDs: r.ids("tag_ids"),
	}
}

// readRules reads the rules box, a rule a line.
func readRules(r *formReader) db.Optional[[]db.RuleInput] {
	v := r.values.Get("strategy_rules")
	if !r.values.Has("strategy_rules") || (r.create && strings.TrimSpace(v) == "") {
		return db.Optional[[]db.RuleInput]{}
	}
	out := []db.RuleInput{}
	for _, line := range strings.Split(v, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		path := fmt.Sprintf("strategy_rules[%d]", len(out))
		parts := strings.Split(line, "|")
		rule := db.RuleInput{Description: strings.TrimSpace(parts[0])}
		for _, part := range parts[1:] {
			part = strings.TrimSpace(part)
			switch word := strings.ToLower(part); {
			case part == "":
			case input.IsOneOf(word, db.RuleSeverities):
				rule.Severity = word
			default:
				c, err := db.ParseRuleCheck(checkJSON(part), path+".check")
				var inv *db.InvalidError
				if errors.As(err, &inv) {
					r.errs.Add(inv.Field, inv.Message)
				} else if err == nil {
					rule.Check = &c
				}
			}
		}
		out = append(out, rule)
	}
	return db.Some(out)
}

// checkJSON writes a check as typed ("max_quantity 2", "trading_window
// 09:30-11:30", "allowed_symbols ES, NQ") as the API's JSON of it, for
// db.ParseRuleCheck to read and judge: a kind and its parameters.
func checkJSON(typed string) []byte {
	words := strings.Fields(strings.NewReplacer(",", " ").Replace(typed))
	kind, rest := strings.ToLower(words[0]), words[1:]
	c := map[string]any{"kind": kind}
	switch kind {
	case db.CheckRequireStopLoss:
	case db.CheckTradingWindow:
		times := strings.Fields(strings.ReplaceAll(strings.Join(rest, " "), "-", " "))
		for i, name := range []string{"start", "end"} {
			if i < len(times) {
				c[name] = clockOf(times[i])
			}
		}
	case db.CheckAllowedSymbols:
		c["symbols"] = rest
	default:
		if len(rest) > 0 {
			if n, err := strconv.ParseFloat(rest[0], 64); err == nil {
				c["value"] = n
			} else {
				c["value"] = rest[0] // the parser says what it must be
			}
		}
	}
	b, _ := json.Marshal(c)
	return b
}

// clockOf is a time typed as HH:MM as the API's HH:MM:SS.
func clockOf(s string) string {
	if len(s) == 5 && s[2] == ':' {
		return s + ":00"
	}
	return s
}

// checkText is a rule's check as the rules box shows it, which reads back
// as the same check.
func checkText(c db.RuleCheck) string {
	switch c.Kind {
	case db.CheckRequireStopLoss:
		return c.Kind
	case db.CheckTradingWindow:
		return c.Kind + " " + c.Start + "-" + c.End
	case db.CheckAllowedSymbols:
		return c.Kind + " " + strings.Join(c.Symbols, " ")
	}
	return c.Kind + " " + strconv.FormatFloat(c.Value, 'f', -1, 64)
}

// strategyValues fills the form with a strategy.
func strategyValues(st db.Strategy) url.Values {
	rules := make([]string, len(st.StrategyRules))
	for i, r := range st.StrategyRules {
		line := r.Description
		if r.Check != nil {
			line += " | " + r.Severity + " | " + checkText(*r.Check)
		} else if r.Severity != "warning" {
			line += " | " + r.Severity
		}
		rules[i] = line
	}
	return url.Values{
		"title": {st.Title}, "type": {st.Type}, "description": {st.Description},
		"content_markdown": {st.ContentMarkdown}, "strategy_rules": {strings.Join(rules, "\n")}, "tag_ids": tagIDsOf(st.Tags),
	}
}

// updateStrategy saves an edit as the API's PUT does, sending back the id
// of each rule whose text is unchanged (and its category, which the form
// does not show): so trades' evaluations still name it. The rules are
// ordered as the lines are.
func (s *Pages) updateStrategy(ctx context.Context, userID, id string, in db.StrategyInput) (db.Strategy, error) {
	old, err := s.db.Strategy(ctx, userID, id)
	if err != nil {
		return db.Strategy{}, err
	}
	given := map[string]bool{}
	for i := range in.StrategyRules.Value {
		rule := &in.StrategyRules.Value[i]
		for _, o := range old.StrategyRules {
			if !given[o.ID] && o.Description == rule.Description {
				rule.ID, rule.Category, given[o.ID] = o.ID, o.Category, true
				break
			}
		}
	}
	return s.db.UpdateStrategy(ctx, userID, id, in)
}

// describeStrategyDelete names what deleting a strategy takes with it or
// unlinks, from the counts DeleteStrategy's warnings give.
func (s *Pages) describeStrategyDelete(ctx context.Context, userID, id string) (string, []string, error) {
	st, err := s.db.Strategy(ctx, userID, id)
	if err != nil {
		return "", nil, err
	}
	n, err := s.db.StrategyDependents(ctx, userID, id)
	if err != nil {
		return "", nil, err
	}
	var out []string
	if len(st.StrategyRules) > 0 {
		out = append(out, "deletes its "+count(len(st.StrategyRules), "rule", "rules"))
	}
	if n.Playbooks > 0 {
		out = append(out, "takes it off "+count(n.Playbooks, "playbook", "playbooks")+", which "+agree(n.Playbooks, "stays", "stay"))
	}
	if n.Trades > 0 {
		out = append(out, "takes it off "+count(n.Trades, "trade", "trades")+", which "+
			agree(n.Trades, "keeps what its rules found", "keep what its rules found"))
	}
	if n.TagLinks > 0 {
		out = append(out, "removes its "+count(n.TagLinks, "tag", "tags"))
	}
	return "the strategy " + st.Title, out, nil
}
