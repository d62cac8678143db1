package server

import "tradejournal/db"

// validateWriteUp checks a write-up, a trader's review of one trade:
// trade_id is required on create; title and content_markdown are optional
// texts that null clears to "".
func validateWriteUp(f fieldErrors, in *db.WriteUpInput, create bool) {
	f.ref("trade_id", &in.TradeID, create, true)
	f.title(&in.Title, create, false)
	f.text("content_markdown", in.ContentMarkdown, maxMarkdown)
	f.idList("tag_ids", &in.TagIDs)
}
