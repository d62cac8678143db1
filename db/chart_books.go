package db

import "context"

// ChartBook is a collection of the trader's chart images and other
// documents, in their order, optionally for one of their playbooks.
// Deleting the playbook keeps the chart book, with playbook_id set to null;
// deleting a document removes it from the chart books that held it.
type ChartBook struct {
	ID          string   `json:"id"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	PlaybookID  *string  `json:"playbook_id"`
	DocumentIDs []string `json:"document_ids"`
	Tags        []TagRef `json:"tags"`
	CreatedAt   string   `json:"created_at"`
	UpdatedAt   string   `json:"updated_at"`
}

// ChartBookInput is the body of a chart book create or partial update. On
// create, absent fields are empty; on update they are untouched.
// DocumentIDs given replaces the set, in its order.
type ChartBookInput struct {
	Title       Optional[string]   `json:"title"`
	Description Optional[string]   `json:"description"`
	PlaybookID  Optional[string]   `json:"playbook_id"`
	DocumentIDs Optional[[]string] `json:"document_ids"`
	TagIDs      Optional[[]string] `json:"tag_ids"`
}

// ChartBooks is the store of chart books; lists filter on playbook_id.
func (db *DB) ChartBooks() Content[ChartBook, ChartBookInput] {
	return Content[ChartBook, ChartBookInput]{db, &chartBookKind}
}

// chartBookDocuments keeps a chart book's documents in the order given.
var chartBookDocuments = orderedLinks{table: "chart_book_documents", owner: "chart_book_id", target: "document_id",
	targets: "documents", kind: "Document", field: "document_ids"}

var chartBookKind = contentKind[ChartBook, ChartBookInput]{
	name:    "Chart book",
	table:   "chart_books",
	columns: []string{"title", "description", "playbook_id"},
	refs: []contentRef[ChartBookInput]{
		{"playbook_id", "playbooks", "Playbook", func(in ChartBookInput) Optional[string] { return in.PlaybookID }},
	},
	tags:  chartBookTags,
	links: []contentLink{{"chart_book_documents", "chart_book_id", "Unlinked", "document"}},
	row: func(b *ChartBook) contentRow {
		return contentRow{&b.ID, &b.CreatedAt, &b.UpdatedAt, &b.Tags, []any{&b.Title, &b.Description, &b.PlaybookID}}
	},
	apply: func(b *ChartBook, in ChartBookInput) {
		assign(&b.Title, in.Title)
		assign(&b.Description, in.Description)
		assignPtr(&b.PlaybookID, in.PlaybookID)
	},
	tagIDs: func(in ChartBookInput) Optional[[]string] { return in.TagIDs },
	saveParts: func(ctx context.Context, tx txn, userID, id string, in ChartBookInput) error {
		return chartBookDocuments.set(ctx, tx, userID, id, in.DocumentIDs)
	},
	loadParts: func(ctx context.Context, q querier, books []ChartBook) error {
		ids := make([]string, len(books))
		for i, b := range books {
			ids[i] = b.ID
		}
		docs, err := chartBookDocuments.load(ctx, q, ids)
		for i := range books {
			books[i].DocumentIDs = docs[books[i].ID]
		}
		return err
	},
}
