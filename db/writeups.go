package db

// WriteUp is a trader's written review of one of their trades. Deleting the
// trade deletes its write-ups with it.
type WriteUp struct {
	ID              string   `json:"id"`
	TradeID         string   `json:"trade_id"`
	Title           string   `json:"title"`
	ContentMarkdown string   `json:"content_markdown"`
	Tags            []TagRef `json:"tags"`
	CreatedAt       string   `json:"created_at"`
	UpdatedAt       string   `json:"updated_at"`
}

// WriteUpInput is the body of a write-up create or partial update. On
// create, absent fields are empty; on update they are untouched.
type WriteUpInput struct {
	TradeID         Optional[string]   `json:"trade_id"`
	Title           Optional[string]   `json:"title"`
	ContentMarkdown Optional[string]   `json:"content_markdown"`
	TagIDs          Optional[[]string] `json:"tag_ids"`
}

// WriteUps is the store of trade write-ups; lists filter on trade_id.
func (db *DB) WriteUps() Content[WriteUp, WriteUpInput] {
	return Content[WriteUp, WriteUpInput]{db, &writeUpKind}
}

var writeUpKind = contentKind[WriteUp, WriteUpInput]{
	name:    "Write-up",
	table:   "write_ups",
	columns: []string{"trade_id", "title", "content_markdown"},
	refs: []contentRef[WriteUpInput]{
		{"trade_id", "trades", "Trade", func(in WriteUpInput) Optional[string] { return in.TradeID }},
	},
	tags: writeUpTags,
	row: func(w *WriteUp) contentRow {
		return contentRow{&w.ID, &w.CreatedAt, &w.UpdatedAt, &w.Tags, []any{&w.TradeID, &w.Title, &w.ContentMarkdown}}
	},
	apply: func(w *WriteUp, in WriteUpInput) {
		assign(&w.TradeID, in.TradeID)
		assign(&w.Title, in.Title)
		assign(&w.ContentMarkdown, in.ContentMarkdown)
	},
	tagIDs: func(in WriteUpInput) Optional[[]string] { return in.TagIDs },
}
