package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"

	"tradejournal/db"
	"tradejournal/server/input"
)

// Bounds of a playbook's criteria, per kind.
const (
	maxCriteria     = 100
	maxCriterionLen = 1000
)

// playbookRequest is a playbook body. Its criteria are decoded one by one,
// so a wrong type names the element: "entry_criteria[2]".
type playbookRequest struct {
	db.PlaybookInput
	EntryCriteria db.Optional[[]json.RawMessage] `json:"entry_criteria"`
	ExitCriteria  db.Optional[[]json.RawMessage] `json:"exit_criteria"`
}

// decodePlaybook reads and validates a playbook body.
func decodePlaybook(w http.ResponseWriter, r *http.Request, create bool) (db.PlaybookInput, error) {
	var req playbookRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return db.PlaybookInput{}, err
	}
	in := req.PlaybookInput
	f := input.Errors{}
	checkTitle(f, &in.Title, create, true)
	f.Text("description", in.Description, input.MaxDescription)
	f.Text("content_markdown", in.ContentMarkdown, input.MaxMarkdown)
	in.EntryCriteria = criteria(f, "entry_criteria", req.EntryCriteria)
	in.ExitCriteria = criteria(f, "exit_criteria", req.ExitCriteria)
	f.UUIDs("strategy_ids", in.StrategyIDs)
	input.LowerIDs(&in.StrategyIDs)
	f.UUIDs("tag_ids", in.TagIDs)
	input.LowerIDs(&in.TagIDs)
	return in, f.Err()
}

// criteria reads a list of criteria: each a non-blank string, stored
// trimmed.
func criteria(f input.Errors, field string, v db.Optional[[]json.RawMessage]) db.Optional[[]db.CriterionInput] {
	if !v.Set {
		return db.Optional[[]db.CriterionInput]{}
	}
	out := db.Optional[[]db.CriterionInput]{Set: true, Value: []db.CriterionInput{}}
	if v.Null {
		f.Add(field, field+" cannot be null; send [] to clear")
		return out
	}
	if len(v.Value) > maxCriteria {
		f.Add(field, fmt.Sprintf("%s may hold at most %d criteria", field, maxCriteria))
	}
	for i, raw := range v.Value {
		path := fmt.Sprintf("%s[%d]", field, i)
		// A string, or a criterion as read ({id, description, order}), so a
		// client can send back what it read and keep the criterion's id.
		var c struct {
			ID          string  `json:"id"`
			Description *string `json:"description"`
		}
		var s string
		if err := json.Unmarshal(raw, &s); err == nil && string(raw) != "null" {
			c.Description = &s
		} else if err := json.Unmarshal(raw, &c); err != nil || len(raw) == 0 || raw[0] != '{' || c.Description == nil {
			f.Add(path, path+` must be a string or an object {"id", "description"}`)
			continue
		} else if err := checkNames(raw, reflect.TypeOf(&c), path); err != nil {
			f.Merge(err) // {"Description": …}: names are case-sensitive
			continue
		}
		s = strings.TrimSpace(*c.Description)
		switch n := utf8.RuneCountInString(s); {
		case n == 0:
			f.Add(path, path+" must not be empty")
		case n > maxCriterionLen:
			f.Add(path, fmt.Sprintf("%s must be at most %d characters", path, maxCriterionLen))
		}
		out.Value = append(out.Value, db.CriterionInput{ID: strings.ToLower(c.ID), Description: s})
	}
	return out
}
