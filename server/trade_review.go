package server

import (
	"bytes"
	"encoding/json"
	"fmt"

	"tradejournal/db"
	"tradejournal/server/input"

	"tradejournal/db/trading"
)

// maxReviewNotes bounds a trade's rich-text notes.
const maxReviewNotes = 256 << 10

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

// decodeLevels reads stop-loss or take-profit levels element by element;
// null clears them like [].
func decodeLevels(f input.Errors, field string, raw db.Optional[[]json.RawMessage]) db.Optional[[]trading.Level] {
	out := db.Optional[[]trading.Level]{Set: raw.Set, Value: []trading.Level{}}
	if len(raw.Value) > 20 {
		f.Add(field, field+" may hold at most 20 levels")
	}
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
		f.Amount(path+".price", l.Price)
		f.Amount(path+".quantity", l.Quantity)
		out.Value = append(out.Value, trading.Level{Price: l.Price.Value, Quantity: l.Quantity.Ptr()})
	}
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

// validateReview checks the review fields of a trade body.
func validateReview(f input.Errors, in *db.TradeInput) {
	if v := in.StarRating; v.Set && !v.Null && (v.Value < 1 || v.Value > 5) {
		f.Add("star_rating", "star_rating must be an integer from 1 to 5")
	}
	if v := in.ReviewNotes; v.Set && !v.Null {
		var compact bytes.Buffer
		switch {
		case len(v.Value) > maxReviewNotes:
			f.Add("review_notes", fmt.Sprintf("review_notes must be at most %d KiB", maxReviewNotes>>10))
		case json.Compact(&compact, v.Value) != nil:
			f.Add("review_notes", "review_notes must be a JSON document")
		default:
			if msg := checkRichText(v.Value); msg != "" {
				f.Add("review_notes", msg)
			}
			in.ReviewNotes.Value = compact.Bytes()
		}
	}
	if in.PlaybookID.Set && !in.PlaybookID.Null {
		in.PlaybookID.Value = input.BodyUUID(f, "playbook_id", in.PlaybookID, true)
	}
	if in.Reviewed.Null {
		in.Reviewed = db.Some(false) // null clears reviewed_at, like false
	}
	f.UUIDs("risk_management_strategy_ids", in.RiskManagementStrategyIDs)
	input.LowerIDs(&in.RiskManagementStrategyIDs)
}

// checkRichText checks a rich-text document: {"type": "doc", "content":
// [...]}, whose nodes are objects with a string "type" and, optionally,
// their own "content" array. It returns what is wrong, or "".
func checkRichText(raw json.RawMessage) string {
	var doc struct {
		Type    *string           `json:"type"`
		Content []json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || doc.Type == nil || *doc.Type != "doc" || doc.Content == nil {
		return `review_notes must be a rich-text document {"type": "doc", "content": [...]}`
	}
	return checkNodes(doc.Content, "review_notes.content", 0)
}

func checkNodes(nodes []json.RawMessage, path string, depth int) string {
	if depth > 64 {
		return path + " is nested too deeply"
	}
	for i, raw := range nodes {
		at := fmt.Sprintf("%s[%d]", path, i)
		var n struct {
			Type    *string           `json:"type"`
			Content []json.RawMessage `json:"content"`
		}
		if len(raw) == 0 || raw[0] != '{' || json.Unmarshal(raw, &n) != nil || n.Type == nil || *n.Type == "" {
			return at + ` must be a node: an object with a string "type"`
		}
		if msg := checkNodes(n.Content, at+".content", depth+1); msg != "" {
			return msg
		}
	}
	return ""
}
