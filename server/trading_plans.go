package server

import (
	"tradejournal/db"
	"tradejournal/server/input"
)

// validateTradingPlan: title is required; plan_date and playbook_id are
// optional, and null clears them; content_markdown is a text that null
// clears to "".
func validateTradingPlan(f input.Errors, in *db.TradingPlanInput, create bool) {
	checkTitle(f, &in.Title, create, true)
	f.Date("plan_date", in.PlanDate)
	checkRef(f, "playbook_id", &in.PlaybookID, create, false)
	f.Text("content_markdown", in.ContentMarkdown, input.MaxMarkdown)
	checkIDList(f, "tag_ids", &in.TagIDs)
}
