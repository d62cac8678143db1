package input

import (
	"fmt"
	"strings"

	"tradejournal/db"
)

// The checks of the four kinds of content (write-ups, trading plans, chart
// books, report cards), for the API's body and the journal pages' forms
// alike: each normalises its input in place and returns its reasons. A
// title is checked by Title, as a playbook's is.

// MaxChartBookDocuments bounds the documents of one chart book.
const MaxChartBookDocuments = 500

// WriteUp checks a write-up, a trader's review of one trade: trade_id is
// required on create; title and content_markdown are optional texts that
// null clears to "".
func WriteUp(in *db.WriteUpInput, create bool) error {
	f := Errors{}
	Ref(f, "trade_id", &in.TradeID, create, true)
	Title(f, &in.Title, create, false)
	f.Text("content_markdown", in.ContentMarkdown, MaxMarkdown)
	IDList(f, "tag_ids", &in.TagIDs)
	return f.Err()
}

// TradingPlan checks a trading plan: title is required; plan_date and
// playbook_id are optional, and null clears them; content_markdown is a
// text that null clears to "".
func TradingPlan(in *db.TradingPlanInput, create bool) error {
	f := Errors{}
	Title(f, &in.Title, create, true)
	f.Date("plan_date", in.PlanDate)
	Ref(f, "playbook_id", &in.PlaybookID, create, false)
	f.Text("content_markdown", in.ContentMarkdown, MaxMarkdown)
	IDList(f, "tag_ids", &in.TagIDs)
	return f.Err()
}

// ChartBook checks a chart book: title is required; description is a text
// that null clears to ""; playbook_id is optional and null clears it;
// document_ids given replaces the set (null is refused: send [] to clear).
func ChartBook(in *db.ChartBookInput, create bool) error {
	f := Errors{}
	Title(f, &in.Title, create, true)
	f.Text("description", in.Description, MaxDescription)
	Ref(f, "playbook_id", &in.PlaybookID, create, false)
	if len(in.DocumentIDs.Value) > MaxChartBookDocuments {
		f.Add("document_ids", fmt.Sprintf("document_ids may hold at most %d documents", MaxChartBookDocuments))
	}
	IDList(f, "document_ids", &in.DocumentIDs)
	IDList(f, "tag_ids", &in.TagIDs)
	return f.Err()
}

// ReportCard checks a report card: report_date is required; account_id
// and grade (an integer from 1 to 5) are optional, and null clears them;
// notes_markdown is a text that null clears to "".
func ReportCard(in *db.ReportCardInput, create bool) error {
	f := Errors{}
	f.Required("report_date", in.ReportDate, create)
	f.Date("report_date", in.ReportDate)
	Ref(f, "account_id", &in.AccountID, create, false)
	if g := in.Grade; g.Set && !g.Null && (g.Value < 1 || g.Value > 5) {
		f.Add("grade", "grade must be an integer from 1 to 5")
	}
	f.Text("notes_markdown", in.NotesMarkdown, MaxMarkdown)
	IDList(f, "tag_ids", &in.TagIDs)
	return f.Err()
}

// Ref checks a body's reference to another record by id, and lower-cases
// it. A required one must be present on create and is never null; an
// optional one is cleared by null.
func Ref(f Errors, field string, v *db.Optional[string], create, required bool) {
	switch {
	case required && v.Null:
		f.Add(field, field+" cannot be null")
	case required && create && !v.Set:
		f.Add(field, field+" is required")
	case v.Set && !v.Null:
		f.UUID(field, v.Value)
	}
	v.Value = strings.ToLower(v.Value)
}

// IDList checks a list of ids in a body and lower-cases them.
func IDList(f Errors, field string, v *db.Optional[[]string]) {
	f.UUIDs(field, *v)
	LowerIDs(v)
}

// MaxDocumentName bounds a document's name, in characters, on upload and
// on update.
const MaxDocumentName = 200

// DocumentUpdate checks a document's new name and category, the fields
// PUT /api/v1/documents/{id} changes: each may be left out, neither
// emptied; the name is stored trimmed.
func DocumentUpdate(upd *db.DocumentUpdate, _ bool) error {
	f := Errors{}
	upd.DocumentName.Value = strings.TrimSpace(upd.DocumentName.Value)
	f.Required("document_name", upd.DocumentName, false)
	f.Text("document_name", upd.DocumentName, MaxDocumentName)
	f.Required("category", upd.Category, false)
	f.OneOf("category", upd.Category, db.DocumentCategories)
	return f.Err()
}
