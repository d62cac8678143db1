package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"

	"tradejournal/db"
	"tradejournal/server/input"
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
	in.EntryCriteria = criteria(f, "entry_criteria", req.EntryCriteria)
	in.ExitCriteria = criteria(f, "exit_criteria", req.ExitCriteria)
	f.Merge(input.Playbook(&in, create))
	return in, f.Err()
}

// refusedCriterion stands in for a criterion whose JSON was refused, so
// that input.Criteria names each later one by its index in the body; it
// passes the check, and a body with it is refused anyway.
var refusedCriterion = db.CriterionInput{Description: "-"}

// criteria reads a list of criteria, each a string or a criterion as read;
// input.Playbook checks them.
func criteria(f input.Errors, field string, v db.Optional[[]json.RawMessage]) db.Optional[[]db.CriterionInput] {
	if !v.Set {
		return db.Optional[[]db.CriterionInput]{}
	}
	out := db.Optional[[]db.CriterionInput]{Set: true, Value: []db.CriterionInput{}}
	if v.Null {
		f.Add(field, field+" cannot be null; send [] to clear")
		return out
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
			out.Value = append(out.Value, refusedCriterion)
			continue
		} else if err := checkNames(raw, reflect.TypeOf(&c), path); err != nil {
			f.Merge(err) // {"Description": …}: names are case-sensitive
			out.Value = append(out.Value, refusedCriterion)
			continue
		}
		out.Value = append(out.Value, db.CriterionInput{ID: c.ID, Description: *c.Description})
	}
	return out
}
