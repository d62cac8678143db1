package db

import "context"

// TradeRemoval counts what deleting some of a user's trades takes with
// it: their fills, write-ups and tag associations, which go, and the
// documents they link to (each once), which stay, unlinked. These are the
// counts DeleteTrade's and BulkTrades' warnings give, read before
// anything changes, for a delete's confirm step.
type TradeRemoval struct {
	Trades, Fills, WriteUps, TagLinks, Documents int
}

// tradeRemovalQuery counts what goes with the trades of the JSON list ?1.
const tradeRemovalQuery = `SELECT
	(SELECT count(*) FROM executions WHERE trade_id IN (SELECT value FROM json_each(?1))),
	(SELECT count(*) FROM write_ups WHERE trade_id IN (SELECT value FROM json_each(?1))),
	(SELECT count(*) FROM trade_tags WHERE trade_id IN (SELECT value FROM json_each(?1))),
	(SELECT count(DISTINCT document_id) FROM trade_documents WHERE trade_id IN (SELECT value FROM json_each(?1)))`

// TradeRemoval counts what deleting the user's trades ids (repeats count
// once) would take with it. Every id must name a trade of the user's,
// else it is a *NotFoundError naming, by its index, the first that does
// not (trade_ids[3]), as BulkTrades answers. It only reads.
func (db *DB) TradeRemoval(ctx context.Context, userID string, ids []string) (TradeRemoval, error) {
	return inTx(ctx, db.beginRead, func(tx txn) (TradeRemoval, error) {
		if err := checkOwned(ctx, tx, "trades", "Trade", "trade_ids", userID, ids); err != nil {
			return TradeRemoval{}, err
		}
		unique := uniqueInOrder(ids)
		n := TradeRemoval{Trades: len(unique)}
		err := tx.QueryRowContext(ctx, tradeRemovalQuery, jsonList(unique)).Scan(&n.Fills, &n.WriteUps, &n.TagLinks, &n.Documents)
		return n, err
	})
}
