package db

import "context"

// ExportRow is one fill as the journal's export writes it (DESIGN §8): the
// generic import format.
type ExportRow struct {
	AccountNumber string
	Symbol        string
	Side          string
	Quantity      float64
	Price         float64
	Commission    float64
	Timestamp     string // RFC 3339, UTC
	ExecID        string // the fill's source id: its own id for a fill entered through the API
}

// ExportFills calls each for every fill of the user's trades the filter
// selects, in the order they happened, streaming from one query.
func (db *DB) ExportFills(ctx context.Context, userID string, f TradeFilter, each func(ExportRow) error) error {
	where, args := f.where(userID)
	rows, err := db.read.QueryContext(ctx, `SELECT a.account_number, t.symbol, e.side, e.quantity, e.price,
		e.commission, e.execution_timestamp, coalesce(e.source_id, e.id)
		FROM trades t JOIN accounts a ON a.id = t.account_id JOIN executions e ON e.trade_id = t.id
		WHERE `+where+` ORDER BY e.execution_timestamp, t.id, e.position`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var r ExportRow
		if err := rows.Scan(&r.AccountNumber, &r.Symbol, &r.Side, &r.Quantity, &r.Price, &r.Commission,
			&r.Timestamp, &r.ExecID); err != nil {
			return err
		}
		if err := each(r); err != nil {
			return err
		}
	}
	return rows.Err()
}
