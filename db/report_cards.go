package db

// ReportCard is a trader's grade of their own day: a date, optionally one
// of their accounts, a grade from 1 to 5 and notes. Deleting the account
// keeps the report card, with account_id set to null.
type ReportCard struct {
	ID            string   `json:"id"`
	ReportDate    string   `json:"report_date"`
	AccountID     *string  `json:"account_id"`
	Grade         *int     `json:"grade"`
	NotesMarkdown string   `json:"notes_markdown"`
	Tags          []TagRef `json:"tags"`
	CreatedAt     string   `json:"created_at"`
	UpdatedAt     string   `json:"updated_at"`
}

// ReportCardInput is the body of a report card create or partial update.
// On create, absent fields are empty; on update they are untouched.
type ReportCardInput struct {
	ReportDate    Optional[string]   `json:"report_date"`
	AccountID     Optional[string]   `json:"account_id"`
	Grade         Optional[int]      `json:"grade"`
	NotesMarkdown Optional[string]   `json:"notes_markdown"`
	TagIDs        Optional[[]string] `json:"tag_ids"`
}

// ReportCards is the store of report cards; lists filter on account_id and
// on report_date.
func (db *DB) ReportCards() Content[ReportCard, ReportCardInput] {
	return Content[ReportCard, ReportCardInput]{db, &reportCardKind}
}

var reportCardKind = contentKind[ReportCard, ReportCardInput]{
	name:    "Report card",
	table:   "report_cards",
	columns: []string{"report_date", "account_id", "grade", "notes_markdown"},
	refs: []contentRef[ReportCardInput]{
		{"account_id", "accounts", "Account", func(in ReportCardInput) Optional[string] { return in.AccountID }},
	},
	dated: "report_date",
	tags:  reportCardTags,
	row: func(c *ReportCard) contentRow {
		return contentRow{&c.ID, &c.CreatedAt, &c.UpdatedAt, &c.Tags, []any{&c.ReportDate, &c.AccountID, &c.Grade, &c.NotesMarkdown}}
	},
	apply: func(c *ReportCard, in ReportCardInput) {
		assign(&c.ReportDate, in.ReportDate)
		assignPtr(&c.AccountID, in.AccountID)
		assignPtr(&c.Grade, in.Grade)
		assign(&c.NotesMarkdown, in.NotesMarkdown)
	},
	tagIDs: func(in ReportCardInput) Optional[[]string] { return in.TagIDs },
}
