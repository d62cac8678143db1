package server

import (
	"tradejournal/db"
	"tradejournal/server/input"
)

// validateWriteUp checks a write-up, a trader's review of one trade:
// trade_id is required on create; title and content_markdown are optional
// texts that null clears to "".
func validateWriteUp(f input.Errors, in *db.WriteUpInput, create bool) {
	checkRef(f, "trade_id", &in.TradeID, create, true)
	checkTitle(f, &in.Title, create, false)
	f.Text("content_markdown", in.ContentMarkdown, input.MaxMarkdown)
	checkIDList(f, "tag_ids", &in.TagIDs)
}
