package server

import (
	"fmt"

	"tradejournal/db"
	"tradejournal/server/input"
)

// maxChartBookDocuments bounds the documents of one chart book.
const maxChartBookDocuments = 500

// validateChartBook: title is required; description is a text that null
// clears to ""; playbook_id is optional and null clears it; document_ids
// given replaces the set (null is a 400: send [] to clear).
func validateChartBook(f input.Errors, in *db.ChartBookInput, create bool) {
	checkTitle(f, &in.Title, create, true)
	f.Text("description", in.Description, input.MaxDescription)
	checkRef(f, "playbook_id", &in.PlaybookID, create, false)
	if len(in.DocumentIDs.Value) > maxChartBookDocuments {
		f.Add("document_ids", fmt.Sprintf("document_ids may hold at most %d documents", maxChartBookDocuments))
	}
	checkIDList(f, "document_ids", &in.DocumentIDs)
	checkIDList(f, "tag_ids", &in.TagIDs)
}
