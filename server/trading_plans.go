package server

import "tradejournal/db"

// validateTradingPlan: title is required; plan_date and playbook_id are
// optional, and null clears them; content_markdown is a text that null
// clears to "".
func validateTradingPlan(f fieldErrors, in *db.TradingPlanInput, create bool) {
	f.title(&in.Title, create, true)
	f.date("plan_date", in.PlanDate)
	f.ref("playbook_id", &in.PlaybookID, create, false)
	f.text("content_markdown", in.ContentMarkdown, maxMarkdown)
	f.idList("tag_ids", &in.TagIDs)
}
