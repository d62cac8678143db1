package server

import (
	"fmt"

	"tradejournal/db"
)

// maxChartBookDocuments bounds the documents of one chart book.
const maxChartBookDocuments = 500

// validateChartBook: title is required; description is a text that null
// clears to ""; playbook_id is optional and null clears it; document_ids
// given replaces the set (null is a 400: send [] to clear).
func validateChartBook(f fieldErrors, in *db.ChartBookInput, create bool) {
	f.title(&in.Title, create, true)
	f.text("description", in.Description, maxDescription)
	f.ref("playbook_id", &in.PlaybookID, create, false)
	if len(in.DocumentIDs.Value) > maxChartBookDocuments {
		f.add("document_ids", fmt.Sprintf("document_ids may hold at most %d documents", maxChartBookDocuments))
	}
	f.idList("document_ids", &in.DocumentIDs)
	f.idList("tag_ids", &in.TagIDs)
}
