package db

import (
	"bytes"
	"context"
	"fmt"
	"slices"
)

// BlobRefs counts the documents using each stored blob, by hash.
func (db *DB) BlobRefs(ctx context.Context) (map[string]int, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT blob_hash, count(*) FROM documents GROUP BY blob_hash`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	refs := make(map[string]int)
	for rows.Next() {
		var hash string
		var n int
		if err := rows.Scan(&hash, &n); err != nil {
			return nil, err
		}
		refs[hash] = n
	}
	return refs, rows.Err()
}

// BlobUses counts the documents using one blob, for a check about to
// remove it.
func (db *DB) BlobUses(ctx context.Context, hash string) (int, error) {
	var n int
	err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM documents WHERE blob_hash = ?`, hash).Scan(&n)
	return n, err
}

// IntegrityCheck runs SQLite's integrity_check and foreign_key_check,
// compares the trade counts the triggers keep with a count of the trades,
// each settled day of the statistics with its trades, and each trade's
// listing with its rows, and returns what they found, nothing when the
// database is sound.
func (db *DB) IntegrityCheck(ctx context.Context) ([]string, error) {
	var problems []string
	rows, err := db.read.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return nil, err
		}
		if line != "ok" {
			problems = append(problems, "integrity_check: "+line)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = db.read.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var table, parent string
		var rowid, fk any
		if err := rows.Scan(&table, &rowid, &parent, &fk); err != nil {
			return nil, err
		}
		problems = append(problems, fmt.Sprintf("foreign_key_check: %s row %v points at a missing %s", table, rowid, parent))
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	counts, err := db.countProblems(ctx)
	if err != nil {
		return nil, err
	}
	days, err := db.dayProblems(ctx)
	if err != nil {
		return nil, err
	}
	tradeDays, err := db.tradeDayProblems(ctx)
	if err != nil {
		return nil, err
	}
	listings, err := db.listingProblems(ctx)
	return slices.Concat(problems, counts, days, tradeDays, listings), err
}

// listingProblems names each trade whose stored listing is not the trade as
// read from its rows and fills. A trade not listed yet is not a problem:
// the list reads it from its rows, and the next Open lists it. The trades
// are walked by id, a batch at a time, in one snapshot.
func (db *DB) listingProblems(ctx context.Context) ([]string, error) {
	return inTx(ctx, db.beginRead, func(tx txn) ([]string, error) {
		var problems []string
		for after := ""; ; {
			rows, err := tx.QueryContext(ctx, `SELECT id, listing FROM trades
				WHERE listing IS NOT NULL AND id > ? ORDER BY id LIMIT 500`, after)
			if err != nil {
				return nil, err
			}
			stored := map[string][]byte{}
			var ids []string
			for rows.Next() {
				var id string
				var listing []byte
				if err := rows.Scan(&id, &listing); err != nil {
					rows.Close()
					return nil, err
				}
				stored[id] = listing
				ids = append(ids, id)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return nil, err
			}
			if len(ids) == 0 {
				return problems, nil
			}
			trades, err := loadTrades(ctx, tx, ids)
			if err != nil {
				return nil, err
			}
			for _, t := range trades {
				want, err := encodeListing(&t)
				if err != nil {
					return nil, err
				}
				if !bytes.Equal(stored[t.ID], want) {
					problems = append(problems, fmt.Sprintf("trades: trade %s's listing differs from its rows", t.ID))
				}
			}
			after = ids[len(ids)-1]
		}
	})
}

// dayProblems names each trade whose kept day (stats.Day, which the
// statistics bucket by) is not its exit date, or its entry date without one.
func (db *DB) dayProblems(ctx context.Context) ([]string, error) {
	rows, err := db.read.QueryContext(ctx, `SELECT id, day, coalesce(exit_date, entry_date) FROM trades
		WHERE day <> coalesce(exit_date, entry_date)`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var id, kept, actual string
		if err := rows.Scan(&id, &kept, &actual); err != nil {
			return nil, err
		}
		problems = append(problems, fmt.Sprintf("trades: trade %s counts on %s but its day is %s", id, kept, actual))
	}
	return problems, rows.Err()
}

// countProblems names each account whose kept trade count differs from
// its trades.
func (db *DB) countProblems(ctx context.Context) ([]string, error) {
	rows, err := db.read.QueryContext(ctx, `
		WITH actual AS (SELECT user_id, account_id, count(*) AS n FROM trades GROUP BY user_id, account_id)
		SELECT coalesce(a.account_id, c.account_id), coalesce(c.trades, 0), coalesce(a.n, 0)
		FROM actual a FULL JOIN trade_counts c ON c.user_id = a.user_id AND c.account_id = a.account_id
		WHERE coalesce(c.trades, 0) <> coalesce(a.n, 0)`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var account string
		var kept, actual int
		if err := rows.Scan(&account, &kept, &actual); err != nil {
			return nil, err
		}
		problems = append(problems, fmt.Sprintf("trade_counts: account %s is counted as %d trades but holds %d", account, kept, actual))
	}
	return problems, rows.Err()
}

// VacuumInto writes a consistent, compacted copy of the database to path,
// which must not exist, while other connections go on reading and writing.
func (db *DB) VacuumInto(ctx context.Context, path string) error {
	_, err := db.write.ExecContext(ctx, `VACUUM INTO ?`, path)
	return err
}
