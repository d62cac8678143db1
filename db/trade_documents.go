package db

import (
	"context"
	"database/sql"
	"errors"
)

// A trade's documents (DESIGN §13): screenshots and other files of the
// user's, linked to the trade in the order a body gave them. A document
// belongs to an account, and may be linked to trades of any of the user's
// accounts. Deleting the document unlinks it; deleting the trade keeps it.

// TradeDocument is a document as a trade shows it. The server adds its
// signed links (document_url, thumbnail_url); BlobHash, not served, names
// its file in the store.
type TradeDocument struct {
	ID           string `json:"id"`
	DocumentName string `json:"document_name"`
	FileName     string `json:"file_name"`
	MIMEType     string `json:"mime_type"`
	BlobHash     string `json:"-"`
}

// tradeDocuments keeps a trade's documents in the order given; a document
// not the user's is named by its place, "document_ids[1]".
var tradeDocuments = orderedLinks{table: "trade_documents", owner: "trade_id", target: "document_id",
	targets: "documents", kind: "Document", field: "document_ids", indexed: true}

// loadTradeDocuments reads a trade's documents in their order.
func loadTradeDocuments(ctx context.Context, q querier, tradeID string) ([]TradeDocument, error) {
	docs, err := queryTradeDocuments(ctx, q, []string{tradeID}, `x.trade_id = ?`, tradeID)
	return docs[tradeID], err
}

// queryTradeDocuments reads, in one query, the documents of the trades
// ids whose links match where, in their order, keyed by trade. Every
// trade of ids gets a non-nil slice.
func queryTradeDocuments(ctx context.Context, q querier, ids []string, where string, args ...any) (map[string][]TradeDocument, error) {
	out := make(map[string][]TradeDocument, len(ids))
	for _, id := range ids {
		out[id] = []TradeDocument{}
	}
	rows, err := q.QueryContext(ctx, `SELECT x.trade_id, d.id, d.document_name, d.file_name, d.mime_type, d.blob_hash
		FROM trade_documents x JOIN documents d ON d.id = x.document_id
		WHERE `+where+` ORDER BY x.trade_id, x.position`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var trade string
		var d TradeDocument
		if err := rows.Scan(&trade, &d.ID, &d.DocumentName, &d.FileName, &d.MIMEType, &d.BlobHash); err != nil {
			return nil, err
		}
		out[trade] = append(out[trade], d)
	}
	return out, rows.Err()
}

// TradeDocuments reads the documents of one of the user's trades, in
// their order: a trade not the user's has none. It only reads.
func (db *DB) TradeDocuments(ctx context.Context, userID, tradeID string) ([]TradeDocument, error) {
	docs, err := db.TradesDocuments(ctx, userID, []string{tradeID})
	if err != nil {
		return []TradeDocument{}, err
	}
	return docs[tradeID], nil
}

// TradesDocuments reads, in one query, the documents of many of the
// user's trades, in their order, keyed by trade id: a trade not the
// user's has none. It only reads.
func (db *DB) TradesDocuments(ctx context.Context, userID string, tradeIDs []string) (map[string][]TradeDocument, error) {
	return queryTradeDocuments(ctx, db.read, tradeIDs, usersTradesLinks, jsonList(tradeIDs), userID)
}

// usersTradesLinks selects the links of the trades named (a JSON list)
// that are the user's: each link's trade is looked up by its id, where a
// list of the user's trades (IN (SELECT id FROM trades WHERE user_id = ?))
// would read every one of them for a page that shows a day's few.
const usersTradesLinks = `x.trade_id IN (SELECT value FROM json_each(?))
	AND EXISTS (SELECT 1 FROM trades t WHERE t.id = x.trade_id AND t.user_id = ?)`

// tradeAccount is the account of one of the user's trades, which an upload
// for the trade names by trade_id.
func tradeAccount(ctx context.Context, tx txn, userID, tradeID string) (string, error) {
	var account string
	err := tx.QueryRowContext(ctx, `SELECT account_id FROM trades WHERE user_id = ? AND id = ?`, userID, tradeID).Scan(&account)
	if errors.Is(err, sql.ErrNoRows) {
		return "", &NotFoundError{Kind: "Trade", Field: "trade_id"}
	}
	return account, err
}

// appendTradeDocument links a document to a trade after its others; a
// document already linked keeps its place.
func appendTradeDocument(ctx context.Context, tx txn, tradeID, documentID string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO trade_documents (trade_id, document_id, position)
		SELECT ?1, ?2, coalesce(max(position) + 1, 0) FROM trade_documents WHERE trade_id = ?1
		ON CONFLICT (trade_id, document_id) DO NOTHING`, tradeID, documentID)
	return err
}

// keptDocuments adds to kept the documents a trade about to be deleted
// links to: they stay, and the delete says how many ("Kept 2 documents"),
// each once however many of the deleted trades held it.
func keptDocuments(ctx context.Context, tx txn, tradeID string, kept map[string]bool) error {
	ids, err := queryIDs(ctx, tx, `SELECT document_id FROM trade_documents WHERE trade_id = ?`, tradeID)
	for _, id := range ids {
		kept[id] = true
	}
	return err
}
