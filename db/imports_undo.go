package db

import (
	"context"
	"database/sql"
	"errors"
	"maps"
	"slices"
	"strconv"
)

const importColumns = `id, format, mapping_id, file_name, timezone, account_ids, unknown_accounts, rows, fills, skipped,
	duplicates, trades_created, trades_updated, warnings, created_at`

func scanImport(s interface{ Scan(...any) error }) (Import, error) {
	var imp Import
	var id, accounts, unknown, warnings string
	err := s.Scan(&id, &imp.Format, &imp.MappingID, &imp.FileName, &imp.Timezone, &accounts, &unknown, &imp.Rows, &imp.Fills, &imp.Skipped,
		&imp.Duplicates, &imp.TradesCreated, &imp.TradesUpdated, &warnings, &imp.CreatedAt)
	imp.ID, imp.AccountIDs, imp.UnknownAccounts, imp.Warnings = &id, jsonStrings(accounts), jsonStrings(unknown), jsonStrings(warnings)
	return imp, err
}

// ImportRecord reads one of the user's imports.
func (db *DB) ImportRecord(ctx context.Context, userID, id string) (Import, error) {
	imp, err := scanImport(db.read.QueryRowContext(ctx, `SELECT `+importColumns+` FROM imports WHERE user_id = ? AND id = ?`, userID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Import{}, notFound("Import")
	}
	return imp, err
}

// Imports lists the user's imports, newest first, with their total.
func (db *DB) Imports(ctx context.Context, userID string, page Page) ([]Import, int, error) {
	var total int
	if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM imports WHERE user_id = ?`, userID).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := db.read.QueryContext(ctx, `SELECT `+importColumns+` FROM imports WHERE user_id = ?
		ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, userID, page.Limit, page.Offset)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []Import{}
	for rows.Next() {
		imp, err := scanImport(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, imp)
	}
	return out, total, rows.Err()
}

// DeleteImport undoes an import: the fills it added go, trades left without
// fills go with them (their documents stay, unlinked), and trades it
// continued are derived again from the fills they had before. A trade that
// would go but carries review work (rating, notes, reviewed, tags,
// playbook, checklist, write-ups) makes it a *ConflictError counting them,
// unless force.
func (db *DB) DeleteImport(ctx context.Context, userID, id string, force bool) (Deleted, error) {
	return inTx(ctx, db.beginAlone, func(tx txn) (Deleted, error) {
		var err error
		var format string
		err = tx.QueryRowContext(ctx, `SELECT format FROM imports WHERE user_id = ? AND id = ?`, userID, id).Scan(&format)
		if errors.Is(err, sql.ErrNoRows) {
			return Deleted{}, notFound("Import")
		}
		if err != nil {
			return Deleted{}, err
		}

		type touched struct {
			id       string
			left     int // fills not from this import
			reviewed bool
		}
		rows, err := tx.QueryContext(ctx, `SELECT t.id,
			(SELECT count(*) FROM executions o WHERE o.trade_id = t.id AND o.import_id IS NOT ?),
			t.star_rating IS NOT NULL OR t.review_notes IS NOT NULL OR t.reviewed_at IS NOT NULL OR t.playbook_id IS NOT NULL
			OR EXISTS (SELECT 1 FROM trade_tags WHERE trade_id = t.id)
			OR EXISTS (SELECT 1 FROM trade_criteria_checks WHERE trade_id = t.id)
			OR EXISTS (SELECT 1 FROM write_ups WHERE trade_id = t.id)
			FROM trades t WHERE t.user_id = ? AND t.id IN (SELECT DISTINCT trade_id FROM executions WHERE import_id = ?)
			ORDER BY t.id`, id, userID, id)
		if err != nil {
			return Deleted{}, err
		}
		var trades []touched
		reviewed := 0
		for rows.Next() {
			var t touched
			if err := rows.Scan(&t.id, &t.left, &t.reviewed); err != nil {
				rows.Close()
				return Deleted{}, err
			}
			if t.left == 0 && t.reviewed {
				reviewed++
			}
			trades = append(trades, t)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return Deleted{}, err
		}
		if reviewed > 0 && !force {
			return Deleted{}, &ConflictError{
				Message:  "Undoing this import would delete " + plural(reviewed, "reviewed trade"),
				Override: "force",
				Details:  map[string]string{"trades": strconv.Itoa(reviewed)},
			}
		}

		res, err := tx.ExecContext(ctx, `DELETE FROM executions WHERE import_id = ?`, id)
		if err != nil {
			return Deleted{}, err
		}
		fills, err := res.RowsAffected()
		if err != nil {
			return Deleted{}, err
		}
		loc, overrides, err := db.pricing(ctx, tx, userID)
		if err != nil {
			return Deleted{}, err
		}
		ids := make([]string, len(trades))
		for i, tt := range trades {
			ids[i] = tt.id
		}
		loaded, err := loadTrades(ctx, tx, ids)
		if err != nil {
			return Deleted{}, err
		}
		byID := make(map[string]*Trade, len(loaded))
		for i := range loaded {
			byID[loaded[i].ID] = &loaded[i]
		}
		days := map[dayKey]bool{}
		removed, rederived := 0, 0
		kept := map[string]bool{}
		now := db.now()
		for _, tt := range trades {
			t := byID[tt.id]
			days[dayKey{t.AccountID, t.EntryDate}] = true
			if tt.left == 0 {
				if err := keptDocuments(ctx, tx, t.ID, kept); err != nil {
					return Deleted{}, err
				}
				if _, err := tx.ExecContext(ctx, `DELETE FROM trades WHERE user_id = ? AND id = ?`, userID, t.ID); err != nil {
					return Deleted{}, err
				}
				removed++
				continue
			}
			t.UpdatedAt = now
			var inv *InvalidError
			if err := priceTrade(t, overrides, loc); errors.As(err, &inv) {
				// What is left does not open a position: a later import
				// continued this one's trade.
				return Deleted{}, &ConflictError{
					Message: "A later import continued trade " + t.ID + " of this import; undo that import first",
					Details: map[string]string{"trades": "1"},
				}
			} else if err != nil {
				return Deleted{}, err
			}
			if err := saveTrade(ctx, tx, userID, t, false); err != nil {
				return Deleted{}, err
			}
			if err := db.evaluateRules(ctx, tx, userID, t, false); err != nil {
				return Deleted{}, err
			}
			rederived++
		}
		if err := db.reevaluateDays(ctx, tx, userID, "", slices.Collect(maps.Keys(days))...); err != nil {
			return Deleted{}, err
		}
		accounts, err := removeCreatedAccounts(ctx, tx, userID, id, format)
		if err != nil {
			return Deleted{}, err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM imports WHERE user_id = ? AND id = ?`, userID, id); err != nil {
			return Deleted{}, err
		}
		d := Deleted{ID: id, Warnings: []string{}}
		d.note("Deleted", int(fills), "execution")
		d.note("Deleted", removed, "trade")
		if rederived > 0 {
			d.Warnings = append(d.Warnings, "Derived "+plural(rederived, "trade")+" again from the fills they had before")
		}
		d.note("Kept", len(kept), "document")
		d.Warnings = append(d.Warnings, accounts...)
		return d, nil
	})
}
