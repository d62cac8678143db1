package input

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"tradejournal/db"
	"tradejournal/db/trading"
)

// The checks of playbooks, strategies, tags and instruments, on their
// typed values: the API reads a body into them (its JSON decoding names a
// wrong type by path), a page reads a form into them.

// Bounds of a playbook's criteria, per kind, and of a tag's name.
const (
	MaxCriteria     = 100
	MaxCriterionLen = 1000
	MaxTagName      = 100
)

// DefaultGroupColor is a new tag group's colour when none is given: a
// neutral grey.
const DefaultGroupColor = "#6B7280"

var (
	hexColor       = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)
	instrumentRoot = regexp.MustCompile(`^[A-Z0-9]{1,12}$`)
)

// Title checks a record's title: trimmed, at most MaxTitle characters,
// and when required present on create and never blank or null.
func Title(f Errors, v *db.Optional[string], create, required bool) {
	v.Value = strings.TrimSpace(v.Value)
	if required {
		f.Required("title", *v, create)
	}
	f.Text("title", *v, MaxTitle)
}

// Playbook checks a playbook whose criteria are read, and normalises it in
// place.
func Playbook(in *db.PlaybookInput, create bool) error {
	f := Errors{}
	Title(f, &in.Title, create, true)
	f.Text("description", in.Description, MaxDescription)
	f.Text("content_markdown", in.ContentMarkdown, MaxMarkdown)
	Criteria(f, "entry_criteria", &in.EntryCriteria)
	Criteria(f, "exit_criteria", &in.ExitCriteria)
	f.UUIDs("strategy_ids", in.StrategyIDs)
	LowerIDs(&in.StrategyIDs)
	f.UUIDs("tag_ids", in.TagIDs)
	LowerIDs(&in.TagIDs)
	return f.Err()
}

// Criteria checks a playbook's criteria of one kind: at most MaxCriteria,
// each a non-blank text of at most MaxCriterionLen characters, stored
// trimmed; a kept criterion's id is lower-cased.
func Criteria(f Errors, field string, v *db.Optional[[]db.CriterionInput]) {
	if !v.Set {
		return
	}
	if len(v.Value) > MaxCriteria {
		f.Add(field, fmt.Sprintf("%s may hold at most %d criteria", field, MaxCriteria))
	}
	for i := range v.Value {
		c := &v.Value[i]
		path := fmt.Sprintf("%s[%d]", field, i)
		c.Description, c.ID = strings.TrimSpace(c.Description), strings.ToLower(c.ID)
		switch n := utf8.RuneCountInString(c.Description); {
		case n == 0:
			f.Add(path, path+" must not be empty")
		case n > MaxCriterionLen:
			f.Add(path, fmt.Sprintf("%s must be at most %d characters", path, MaxCriterionLen))
		}
	}
}

// Strategy checks a strategy whose rules are read (each rule's check
// parsed by db.ParseRuleCheck), and normalises it in place.
func Strategy(in *db.StrategyInput, create bool) error {
	f := Errors{}
	Title(f, &in.Title, create, true)
	f.Text("description", in.Description, MaxDescription)
	f.Text("content_markdown", in.ContentMarkdown, MaxMarkdown)
	NotNull(f, "type", in.Type)
	f.OneOf("type", in.Type, db.StrategyTypes)
	if in.StrategyRules.Set {
		if len(in.StrategyRules.Value) > MaxRules {
			f.Add("strategy_rules", fmt.Sprintf("strategy_rules may hold at most %d rules", MaxRules))
		}
		for i := range in.StrategyRules.Value {
			Rule(f, fmt.Sprintf("strategy_rules[%d]", i), &in.StrategyRules.Value[i])
		}
	}
	f.UUIDs("tag_ids", in.TagIDs)
	LowerIDs(&in.TagIDs)
	return f.Err()
}

// Rule checks one rule of a strategy, its reasons named by path below
// path ("strategy_rules[2].severity").
func Rule(f Errors, path string, r *db.RuleInput) {
	fail := func(field, message string) { f.Add(path+"."+field, path+"."+field+" "+message) }
	if r.ID != "" {
		r.ID, _ = f.UUID(path+".id", r.ID)
	}
	if utf8.RuneCountInString(r.Description) > MaxRuleText {
		fail("description", fmt.Sprintf("must be at most %d characters", MaxRuleText))
	}
	if utf8.RuneCountInString(r.Category) > MaxCategory {
		fail("category", fmt.Sprintf("must be at most %d characters", MaxCategory))
	}
	if r.SortOrder != nil && (*r.SortOrder < 0 || *r.SortOrder > MaxSortOrder) {
		fail("sort_order", fmt.Sprintf("must be an integer from 0 to %d", MaxSortOrder))
	}
	if r.Severity != "" && !IsOneOf(r.Severity, db.RuleSeverities) {
		fail("severity", "must be one of "+strings.Join(db.RuleSeverities, ", "))
	}
}

// TagName checks a tag's or a group's name, required, and returns it
// trimmed.
func TagName(f Errors, v db.Optional[string]) string {
	v.Value = strings.TrimSpace(v.Value)
	f.Required("name", v, true)
	f.Text("name", v, MaxTagName)
	return v.Value
}

// GroupColor checks a #RRGGBB colour and returns it upper-cased; absent on
// create, it is DefaultGroupColor.
func GroupColor(f Errors, v db.Optional[string], create bool) string {
	if !v.Set && create {
		return DefaultGroupColor
	}
	if v.Null || !hexColor.MatchString(v.Value) {
		f.Add("color", "color must be a hex colour #RRGGBB")
	}
	return strings.ToUpper(v.Value)
}

// SortOrder checks an optional sort order.
func SortOrder(f Errors, field string, v db.Optional[int]) db.Optional[int] {
	if v.Null || (v.Set && v.Value < 0) {
		f.Add(field, field+" must be an integer of at least 0")
	}
	return v
}

// TagGroup checks a tag group's create (name required, colour defaulted)
// or change (what is set), and normalises it in place.
func TagGroup(in *db.TagGroupUpdate, create bool) error {
	f := Errors{}
	if create || in.Name.Set {
		in.Name = db.Some(TagName(f, in.Name))
	}
	if create || in.Color.Set {
		in.Color = db.Some(GroupColor(f, in.Color, create))
	}
	SortOrder(f, "sort_order", in.SortOrder)
	return f.Err()
}

// Tag checks a tag's create (name and group required) or change (what is
// set), and normalises it in place.
func Tag(in *db.TagUpdate, create bool) error {
	f := Errors{}
	if create || in.Name.Set {
		in.Name = db.Some(TagName(f, in.Name))
	}
	if create || in.TagGroupID.Set {
		in.TagGroupID = db.Some(BodyUUID(f, "tag_group_id", in.TagGroupID, true))
	}
	SortOrder(f, "sort_order", in.SortOrder)
	return f.Err()
}

// Instrument checks a point-value override of root (as db.NormaliseRoot
// has it) and returns its asset class, futures when none is given.
func Instrument(root string, pointValue db.Optional[float64], assetClass db.Optional[string]) (string, error) {
	f := Errors{}
	if !instrumentRoot.MatchString(root) {
		f.Add("root", "root must be 1 to 12 letters or digits, such as NQ or 6E")
	}
	if !pointValue.Set || pointValue.Null {
		f.Add("point_value", "point_value must be a positive number")
	}
	f.Amount("point_value", pointValue)
	NotNull(f, "asset_class", assetClass)
	f.OneOf("asset_class", assetClass, db.AssetClasses)
	class := assetClass.Value
	if class == "" {
		class = trading.AssetFutures
	}
	return class, f.Err()
}

// IsInstrumentRoot reports whether root (as db.NormaliseRoot has it) is
// the form of a futures root: a path naming another is a 404.
func IsInstrumentRoot(root string) bool { return instrumentRoot.MatchString(root) }
