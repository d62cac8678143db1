package server

import (
	"tradejournal/db"
	"tradejournal/server/input"
)

// validateReportCard: report_date is required; account_id and grade (an
// integer from 1 to 5) are optional, and null clears them; notes_markdown
// is a text that null clears to "".
func validateReportCard(f input.Errors, in *db.ReportCardInput, create bool) {
	f.Required("report_date", in.ReportDate, create)
	f.Date("report_date", in.ReportDate)
	checkRef(f, "account_id", &in.AccountID, create, false)
	if g := in.Grade; g.Set && !g.Null && (g.Value < 1 || g.Value > 5) {
		f.Add("grade", "grade must be an integer from 1 to 5")
	}
	f.Text("notes_markdown", in.NotesMarkdown, input.MaxMarkdown)
	checkIDList(f, "tag_ids", &in.TagIDs)
}
