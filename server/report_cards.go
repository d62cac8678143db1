package server

import "tradejournal/db"

// validateReportCard: report_date is required; account_id and grade (an
// integer from 1 to 5) are optional, and null clears them; notes_markdown
// is a text that null clears to "".
func validateReportCard(f fieldErrors, in *db.ReportCardInput, create bool) {
	f.required("report_date", in.ReportDate, create)
	f.date("report_date", in.ReportDate)
	f.ref("account_id", &in.AccountID, create, false)
	if g := in.Grade; g.Set && !g.Null && (g.Value < 1 || g.Value > 5) {
		f.add("grade", "grade must be an integer from 1 to 5")
	}
	f.text("notes_markdown", in.NotesMarkdown, maxMarkdown)
	f.idList("tag_ids", &in.TagIDs)
}
