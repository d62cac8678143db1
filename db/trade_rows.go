package db

import "context"

// TradeRow is a trade as the trade list page shows it: the columns of its
// row and its tags, without its fills, review or documents.
type TradeRow struct {
	ID, AccountID, Symbol, Side string
	Quantity, EntryPrice        float64
	ExitPrice                   *float64
	EntryDate                   string
	EntryTime                   *string
	NetPnL                      float64
	Status                      string
	Tags                        []TagRef
}

// TradeRows is the page of Trades (the same trades, order and total) as
// the trade list page shows it: only the columns it shows, and the tags of
// the trades that have some (found on trade_tags' primary key, as
// TradeListing finds them), so a page reads no fills and decodes nothing.
func (db *DB) TradeRows(ctx context.Context, userID string, f TradeFilter, page Page) ([]TradeRow, int, error) {
	var total int
	out, err := inTx(ctx, db.beginRead, func(tx txn) ([]TradeRow, error) {
		where, args := f.where(userID)
		var err error
		if total, err = countTrades(ctx, tx, where, args); err != nil {
			return nil, err
		}
		rows, err := tx.QueryContext(ctx, pageQuery(`t.id, t.account_id, t.symbol, t.side, t.quantity, t.entry_price,
			t.exit_price, t.entry_date, t.entry_time, t.net_pnl, t.status, EXISTS (SELECT 1 FROM trade_tags WHERE trade_id = t.id)`,
			f.source(), where, page), append(args, page.Limit, page.Offset)...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := []TradeRow{}
		var tagged []string
		for rows.Next() {
			var t TradeRow
			var hasTags bool
			if err := rows.Scan(&t.ID, &t.AccountID, &t.Symbol, &t.Side, &t.Quantity, &t.EntryPrice,
				&t.ExitPrice, &t.EntryDate, &t.EntryTime, &t.NetPnL, &t.Status, &hasTags); err != nil {
				return nil, err
			}
			out = append(out, t)
			if hasTags {
				tagged = append(tagged, t.ID)
			}
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		tags, err := loadTags(ctx, tx, tradeTags, tagged)
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i].Tags = tags[out[i].ID]
		}
		return out, nil
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}
