package db

import (
	"context"
	"database/sql"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"

	"tradejournal/db/trading"
)

// Instrument is a root's point value: built in, or the user's own.
type Instrument struct {
	Root       string  `json:"root"`
	PointValue float64 `json:"point_value"`
	AssetClass string  `json:"asset_class"`
	Source     string  `json:"source"` // "builtin" or "user"
}

// loadOverrides reads the user's point values by root.
func loadOverrides(ctx context.Context, q querier, userID string) (map[string]trading.Instrument, error) {
	rows, err := q.QueryContext(ctx, `SELECT root, point_value, asset_class FROM instruments WHERE user_id = ?`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[string]trading.Instrument)
	for rows.Next() {
		var i trading.Instrument
		if err := rows.Scan(&i.Root, &i.PointValue, &i.AssetClass); err != nil {
			return nil, err
		}
		out[i.Root] = i
	}
	return out, rows.Err()
}

// Instruments lists the built-in point values merged with the user's
// overrides, by root.
func (db *DB) Instruments(ctx context.Context, userID string) ([]Instrument, error) {
	overrides, err := loadOverrides(ctx, db.read, userID)
	if err != nil {
		return nil, err
	}
	out := make([]Instrument, 0, len(trading.BuiltinPointValues)+len(overrides))
	for root, pv := range trading.BuiltinPointValues {
		if _, ok := overrides[root]; !ok {
			out = append(out, Instrument{Root: root, PointValue: pv, AssetClass: trading.AssetFutures, Source: "builtin"})
		}
	}
	for _, o := range overrides {
		out = append(out, Instrument{Root: o.Root, PointValue: o.PointValue, AssetClass: o.AssetClass, Source: "user"})
	}
	slices.SortFunc(out, func(a, b Instrument) int { return strings.Compare(a.Root, b.Root) })
	return out, nil
}

// NormaliseRoot is how roots are stored and matched: trimmed, upper case,
// without a leading slash.
func NormaliseRoot(root string) string {
	return strings.TrimLeft(trading.Normalise(root), "/")
}

// SetInstrument sets the user's point value for root and re-prices the
// user's trades of that root in the same transaction, returning how many.
func (db *DB) SetInstrument(ctx context.Context, userID, root string, pointValue float64, assetClass string) (Instrument, int, error) {
	var n int // trades re-priced
	in, err := inTx(ctx, db.begin, func(tx txn) (Instrument, error) {
		now := db.now()
		if _, err := tx.ExecContext(ctx, `INSERT INTO instruments (user_id, root, point_value, asset_class, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (user_id, root) DO UPDATE SET point_value = excluded.point_value,
				asset_class = excluded.asset_class, updated_at = excluded.updated_at`,
			userID, root, pointValue, assetClass, now, now); err != nil {
			return Instrument{}, err
		}
		var err error
		n, err = db.repriceRoot(ctx, tx, userID, root)
		var inv *InvalidError
		if errors.As(err, &inv) {
			// A new asset class left the root's futures trades without a point value.
			trades, err := countRootFutures(ctx, tx, userID, root)
			if err != nil {
				return Instrument{}, err
			}
			return Instrument{}, &ConflictError{
				Message: "Trades of root " + root + " are futures and would have no point value as " + assetClass + "; change or delete them first",
				Details: map[string]string{"trades": strconv.Itoa(trades)},
			}
		}
		if err != nil {
			return Instrument{}, err
		}
		return Instrument{Root: root, PointValue: pointValue, AssetClass: assetClass, Source: "user"}, nil
	})
	if err != nil {
		return Instrument{}, 0, err
	}
	return in, n, nil
}

// DeleteInstrument removes the user's point value for root, re-pricing its
// trades with the built-in one. Removing the only point value of a root that
// still prices trades is a *ConflictError.
func (db *DB) DeleteInstrument(ctx context.Context, userID, root string) (Deleted, int, error) {
	var n int // trades re-priced
	d, err := inTx(ctx, db.begin, func(tx txn) (Deleted, error) {
		var err error
		var class string
		err = tx.QueryRowContext(ctx, `SELECT asset_class FROM instruments WHERE user_id = ? AND root = ?`, userID, root).Scan(&class)
		if errors.Is(err, sql.ErrNoRows) {
			return Deleted{}, notFound("Instrument")
		}
		if err != nil {
			return Deleted{}, err
		}
		// Without it, the root's trades would have no point value: a bare root
		// would even fall back to being a stock, quietly priced at 1.
		if _, builtin := trading.BuiltinPointValues[root]; class == trading.AssetFutures && !builtin {
			trades, err := countRootFutures(ctx, tx, userID, root)
			if err != nil {
				return Deleted{}, err
			}
			if trades > 0 {
				return Deleted{}, &ConflictError{
					Message: "Root " + root + " has no built-in point value and still prices trades; change or delete them first",
					Details: map[string]string{"trades": strconv.Itoa(trades)},
				}
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM instruments WHERE user_id = ? AND root = ?`, userID, root); err != nil {
			return Deleted{}, err
		}
		if n, err = db.repriceRoot(ctx, tx, userID, root); err != nil {
			return Deleted{}, err
		}
		d := Deleted{ID: root, Warnings: []string{}}
		d.note("Repriced", n, "trade")
		return d, nil
	})
	if err != nil {
		return Deleted{}, 0, err
	}
	return d, n, nil
}

// repriceRoot derives again every trade of the user whose root is root, or
// whose bare symbol is root, after its point value changed.
func (db *DB) repriceRoot(ctx context.Context, tx txn, userID, root string) (int, error) {
	ids, err := queryIDs(ctx, tx, `SELECT id FROM trades WHERE user_id = ? AND (root = ? OR symbol = ?)`, userID, root, root)
	if err != nil {
		return 0, err
	}
	loc, overrides, err := db.pricing(ctx, tx, userID)
	if err != nil {
		return 0, err
	}
	trades, err := loadTrades(ctx, tx, ids)
	if err != nil {
		return 0, err
	}
	now := db.now()
	days := map[dayKey]bool{}
	for i := range trades {
		t := &trades[i]
		if err := priceTrade(t, overrides, loc); err != nil {
			return 0, err
		}
		t.UpdatedAt = now
		if err := saveTrade(ctx, tx, userID, t, false); err != nil {
			return 0, err
		}
		// A new point value changes P&L, which loss rules look at: the
		// trade's own, and its day's, once all its trades have their new
		// P&L.
		if err := db.evaluateRules(ctx, tx, userID, t, false); err != nil {
			return 0, err
		}
		days[dayKey{t.AccountID, t.EntryDate}] = true
	}
	if err := db.reevaluateDays(ctx, tx, userID, "", slices.Collect(maps.Keys(days))...); err != nil {
		return 0, err
	}
	return len(trades), nil
}

// countRootFutures counts the user's futures trades of root.
func countRootFutures(ctx context.Context, tx txn, userID, root string) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM trades WHERE user_id = ? AND root = ? AND asset_class = 'futures'`,
		userID, root).Scan(&n)
	return n, err
}
