package db

import (
	"context"
	"database/sql"
	"errors"
)

// DocumentLinks counts the records a document is linked to, which its
// delete unlinks (the records stay): a delete's confirm step shows them
// before anything changes, as DeleteDocument's warnings count them after.
type DocumentLinks struct {
	Trades, ChartBooks, Payouts, Expenses int
}

// documentLinksQuery counts a document's links, of the user's document
// only, each on its table's document index.
const documentLinksQuery = `SELECT
	(SELECT count(*) FROM trade_documents WHERE document_id = d.id),
	(SELECT count(*) FROM chart_book_documents WHERE document_id = d.id),
	(SELECT count(*) FROM payout_documents WHERE document_id = d.id),
	(SELECT count(*) FROM expense_documents WHERE document_id = d.id)
	FROM documents d WHERE d.user_id = ? AND d.id = ?`

// DocumentLinks counts what one of the user's documents is linked to. It
// only reads.
func (db *DB) DocumentLinks(ctx context.Context, userID, id string) (DocumentLinks, error) {
	return documentLinks(ctx, db.read, userID, id)
}

// documentLinks counts what one of the user's documents is linked to; a
// document not the user's is a *NotFoundError.
func documentLinks(ctx context.Context, q querier, userID, id string) (DocumentLinks, error) {
	var n DocumentLinks
	err := q.QueryRowContext(ctx, documentLinksQuery, userID, id).Scan(&n.Trades, &n.ChartBooks, &n.Payouts, &n.Expenses)
	if errors.Is(err, sql.ErrNoRows) {
		return n, notFound("Document")
	}
	return n, err
}
