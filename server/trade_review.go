package server

import (
	"encoding/json"
	"fmt"

	"tradejournal/db"
	"tradejournal/server/input"

	"tradejournal/db/trading"
)

// levelRequest is one stop-loss or take-profit level in a body.
type levelRequest struct {
	Price    db.Optional[float64] `json:"price"`
	Quantity db.Optional[float64] `json:"quantity"`
}

// checkRequest is one criteria checklist answer in a body.
type checkRequest struct {
	CriterionID db.Optional[string] `json:"criterion_id"`
	Checked     db.Optional[bool]   `json:"checked"`
}

// decodeLevels reads stop-loss or take-profit levels element by element,
// then checks them as input.Levels does; null clears them like [].
func decodeLevels(f input.Errors, field string, raw db.Optional[[]json.RawMessage]) db.Optional[[]trading.Level] {
	out := db.Optional[[]trading.Level]{Set: raw.Set, Value: []trading.Level{}}
	for i, r := range raw.Value {
		path := fmt.Sprintf("%s[%d]", field, i)
		var l levelRequest
		if err := decodeElement(r, &l, path); err != nil {
			f.Merge(err)
			continue
		}
		if !l.Price.Set || l.Price.Null {
			f.Add(path+".price", path+".price must be a positive number")
		}
		out.Value = append(out.Value, trading.Level{Price: l.Price.Value, Quantity: l.Quantity.Ptr()})
	}
	input.Levels(f, field, out.Value)
	return out
}

// decodeChecklist reads criteria checklist answers element by element.
func decodeChecklist(f input.Errors, raw db.Optional[[]json.RawMessage]) db.Optional[[]db.CriterionCheck] {
	out := db.Optional[[]db.CriterionCheck]{Set: raw.Set, Value: []db.CriterionCheck{}}
	for i, r := range raw.Value {
		path := fmt.Sprintf("criteria_checklist[%d]", i)
		var c checkRequest
		if err := decodeElement(r, &c, path); err != nil {
			f.Merge(err)
			continue
		}
		id := input.BodyUUID(f, path+".criterion_id", c.CriterionID, true)
		if !c.Checked.Set || c.Checked.Null {
			f.Add(path+".checked", path+".checked must be true or false")
		}
		out.Value = append(out.Value, db.CriterionCheck{CriterionID: id, Checked: c.Checked.Value})
	}
	return out
}
