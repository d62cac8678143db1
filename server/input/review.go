package input

import (
	"bytes"
	"encoding/json"
	"fmt"

	"tradejournal/db"
	"tradejournal/db/trading"
)

// MaxReviewNotes bounds a trade's rich-text notes.
const MaxReviewNotes = 256 << 10

// Review checks the review fields of a trade body.
func Review(f Errors, in *db.TradeInput) {
	if v := in.StarRating; v.Set && !v.Null && (v.Value < 1 || v.Value > 5) {
		f.Add("star_rating", "star_rating must be an integer from 1 to 5")
	}
	if v := in.ReviewNotes; v.Set && !v.Null {
		var compact bytes.Buffer
		switch {
		case len(v.Value) > MaxReviewNotes:
			f.Add("review_notes", fmt.Sprintf("review_notes must be at most %d KiB", MaxReviewNotes>>10))
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
		in.PlaybookID.Value = BodyUUID(f, "playbook_id", in.PlaybookID, true)
	}
	if in.Reviewed.Null {
		in.Reviewed = db.Some(false) // null clears reviewed_at, like false
	}
	f.UUIDs("risk_management_strategy_ids", in.RiskManagementStrategyIDs)
	LowerIDs(&in.RiskManagementStrategyIDs)
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

// MaxLevels bounds a trade's stop-loss or take-profit levels.
const MaxLevels = 20

// Levels checks stop-loss or take-profit levels: at most MaxLevels, each
// price, and each quantity given, a positive amount.
func Levels(f Errors, field string, levels []trading.Level) {
	if len(levels) > MaxLevels {
		f.Add(field, fmt.Sprintf("%s may hold at most %d levels", field, MaxLevels))
	}
	for i, l := range levels {
		path := fmt.Sprintf("%s[%d]", field, i)
		f.Amount(path+".price", db.Some(l.Price))
		if l.Quantity != nil {
			f.Amount(path+".quantity", db.Some(*l.Quantity))
		}
	}
}

// Checklist checks a trade's criteria checklist answers: each names its
// criterion by UUID, lower-cased in place as ids are stored.
func Checklist(f Errors, checks []db.CriterionCheck) {
	for i := range checks {
		checks[i].CriterionID, _ = f.UUID(fmt.Sprintf("criteria_checklist[%d].criterion_id", i), checks[i].CriterionID)
	}
}
