package db

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Kinds of machine-checkable rule.
const (
	CheckMaxQuantity     = "max_quantity"       // value: largest position, > 0
	CheckMaxLossPerTrade = "max_loss_per_trade" // value: net loss in account currency, > 0
	CheckRequireStopLoss = "require_stop_loss"  // no parameters
	CheckTradingWindow   = "trading_window"     // start, end: HH:MM:SS, start < end
	CheckAllowedSymbols  = "allowed_symbols"    // symbols: upper-case symbols or futures roots
	CheckMaxTradesPerDay = "max_trades_per_day" // value: integer >= 1
	CheckMaxDailyLoss    = "max_daily_loss"     // value: net loss of a day, > 0
	CheckMinRRatio       = "min_r_ratio"        // value: smallest realised R, > 0
)

// RuleCheckKinds lists every kind of RuleCheck, in the order error
// messages name them.
var RuleCheckKinds = []string{CheckMaxQuantity, CheckMaxLossPerTrade, CheckRequireStopLoss, CheckTradingWindow,
	CheckAllowedSymbols, CheckMaxTradesPerDay, CheckMaxDailyLoss, CheckMinRRatio}

// Bounds of a check's parameters.
const (
	maxCheckValue   = 1e9 // as prices and quantities of trades
	maxCheckCount   = 100_000
	maxCheckSymbols = 500
	maxSymbolLength = 64
)

// RuleCheck is the machine-checkable condition of a strategy rule,
// {"kind": K, …params}. Only the parameters of its kind are set; the
// others are zero and left out of its JSON, so json.Marshal of a parsed
// RuleCheck is its canonical, stored form.
type RuleCheck struct {
	Kind    string   `json:"kind"`
	Value   float64  `json:"value,omitempty"`   // every kind but require_stop_loss, trading_window, allowed_symbols
	Start   string   `json:"start,omitempty"`   // trading_window, HH:MM:SS
	End     string   `json:"end,omitempty"`     // trading_window, HH:MM:SS
	Symbols []string `json:"symbols,omitempty"` // allowed_symbols, upper-case
}

// ParseRuleCheck reads and validates a check from its JSON. It is strict:
// an unknown kind, a missing, wrong-typed or out-of-range parameter, or a
// parameter the kind does not take is an *InvalidError naming the field by
// path below path (the check's own path, such as "strategy_rules[2].check":
// "strategy_rules[2].check.value").
func ParseRuleCheck(raw []byte, path string) (RuleCheck, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return RuleCheck{}, &InvalidError{Field: path, Message: path + ` must be an object such as {"kind": "max_quantity", "value": 2}`}
	}
	p := checkParser{fields: fields, path: path}
	var c RuleCheck
	kindRaw, ok := fields["kind"]
	if !ok {
		return RuleCheck{}, p.fail("kind", "is required: one of "+strings.Join(RuleCheckKinds, ", "))
	}
	if err := json.Unmarshal(kindRaw, &c.Kind); err != nil || !slices.Contains(RuleCheckKinds, c.Kind) {
		return RuleCheck{}, p.fail("kind", "must be one of "+strings.Join(RuleCheckKinds, ", "))
	}
	var err error
	switch c.Kind {
	case CheckMaxQuantity, CheckMaxLossPerTrade, CheckMaxDailyLoss, CheckMinRRatio:
		c.Value, err = p.positive("value")
	case CheckMaxTradesPerDay:
		c.Value, err = p.count("value")
	case CheckTradingWindow:
		c.Start, c.End, err = p.window()
	case CheckAllowedSymbols:
		c.Symbols, err = p.symbols("symbols")
	}
	if err != nil {
		return RuleCheck{}, err
	}
	if err := p.noOthers(c.Kind); err != nil {
		return RuleCheck{}, err
	}
	return c, nil
}

// checkParser reads the parameters of one check, remembering which it used.
type checkParser struct {
	fields map[string]json.RawMessage
	path   string
	used   []string
}

func (p *checkParser) fail(name, message string) error {
	field := p.path + "." + name
	return &InvalidError{Field: field, Message: field + " " + message}
}

// param is the raw value of a required parameter, or nil and an error.
func (p *checkParser) param(name, what string) (json.RawMessage, error) {
	p.used = append(p.used, name)
	raw, ok := p.fields[name]
	if !ok || string(raw) == "null" {
		return nil, p.fail(name, "is required: "+what)
	}
	return raw, nil
}

func (p *checkParser) number(name, what string) (float64, error) {
	raw, err := p.param(name, what)
	if err != nil {
		return 0, err
	}
	var v float64
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0, p.fail(name, "must be "+what)
	}
	return v, nil
}

func (p *checkParser) positive(name string) (float64, error) {
	const what = "a number greater than 0"
	v, err := p.number(name, what)
	if err == nil && (v <= 0 || v > maxCheckValue) {
		if v > maxCheckValue {
			return 0, p.fail(name, fmt.Sprintf("must be at most %.0f", float64(maxCheckValue)))
		}
		return 0, p.fail(name, "must be "+what)
	}
	return v, err
}

func (p *checkParser) count(name string) (float64, error) {
	what := fmt.Sprintf("an integer from 1 to %d", maxCheckCount)
	v, err := p.number(name, what)
	if err == nil && (v < 1 || v > maxCheckCount || v != math.Trunc(v)) {
		return 0, p.fail(name, "must be "+what)
	}
	return v, err
}

func (p *checkParser) clock(name string) (string, error) {
	const what = "a time HH:MM:SS"
	raw, err := p.param(name, what)
	if err != nil {
		return "", err
	}
	var s string
	if json.Unmarshal(raw, &s) != nil || len(s) != 8 {
		return "", p.fail(name, "must be "+what)
	}
	if _, err := time.Parse(TimeLayout, s); err != nil {
		return "", p.fail(name, "must be "+what)
	}
	return s, nil
}

func (p *checkParser) window() (start, end string, err error) {
	if start, err = p.clock("start"); err != nil {
		return "", "", err
	}
	if end, err = p.clock("end"); err != nil {
		return "", "", err
	}
	if start >= end {
		return "", "", p.fail("end", "must be after start")
	}
	return start, end, nil
}

func (p *checkParser) symbols(name string) ([]string, error) {
	const what = "a non-empty array of symbols"
	raw, err := p.param(name, what)
	if err != nil {
		return nil, err
	}
	var elems []json.RawMessage
	if json.Unmarshal(raw, &elems) != nil || len(elems) == 0 {
		return nil, p.fail(name, "must be "+what)
	}
	if len(elems) > maxCheckSymbols {
		return nil, p.fail(name, fmt.Sprintf("may hold at most %d symbols", maxCheckSymbols))
	}
	out := make([]string, 0, len(elems))
	for i, e := range elems {
		var s string
		elem := fmt.Sprintf("%s[%d]", name, i)
		if json.Unmarshal(e, &s) != nil {
			return nil, p.fail(elem, "must be a string")
		}
		s = strings.ToUpper(strings.TrimSpace(s))
		if s == "" || utf8.RuneCountInString(s) > maxSymbolLength {
			return nil, p.fail(elem, fmt.Sprintf("must be a symbol of 1 to %d characters", maxSymbolLength))
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out, nil
}

// noOthers refuses parameters the kind does not take: a rule that silently
// ignored one ("timezone" on a trading window) would not be the rule its
// author meant.
func (p *checkParser) noOthers(kind string) error {
	var extra []string
	for name := range p.fields {
		if name != "kind" && !slices.Contains(p.used, name) {
			extra = append(extra, name)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	slices.Sort(extra)
	return p.fail(extra[0], "is not a parameter of "+kind)
}
