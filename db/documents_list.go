package db

import (
	"context"
	"strings"
	"time"
)

// DocumentFilter narrows a document list; zero fields do not filter.
type DocumentFilter struct {
	AccountID string
	Category  string
	// Search matches a substring of the document name or of its account's
	// number, ignoring case (ASCII letters only: SQLite's LIKE).
	Search string
	// StartDate and EndDate (YYYY-MM-DD, inclusive) bound the day the
	// document was uploaded, as a day in Timezone.
	StartDate string
	EndDate   string
	Timezone  string // the user's; "" is UTC
}

// where builds the filter's SQL condition over documents d, with its
// arguments; every value is a parameter.
func (f DocumentFilter) where(userID string) (string, []any, error) {
	conds := []string{"d.user_id = ?"}
	args := []any{userID}
	add := func(cond string, a ...any) {
		conds = append(conds, cond)
		args = append(args, a...)
	}
	if f.AccountID != "" {
		add("d.account_id = ?", f.AccountID)
	}
	if f.Category != "" {
		add("d.category = ?", f.Category)
	}
	if f.Search != "" {
		pattern := "%" + escapeLike(f.Search) + "%"
		add(`(d.document_name LIKE ? ESCAPE '\' OR d.account_id IN
			(SELECT id FROM accounts WHERE user_id = ? AND account_number LIKE ? ESCAPE '\'))`,
			pattern, userID, pattern)
	}
	days, dayArgs, err := createdOnDays("d.created_at", f.StartDate, f.EndDate, f.Timezone)
	if err != nil {
		return "", nil, err
	}
	conds, args = append(conds, days...), append(args, dayArgs...)
	return strings.Join(conds, " AND "), args, nil
}

// dayStart is the stored form of the first instant of the day date plus
// days, in loc.
func dayStart(date string, loc *time.Location, days int) (string, error) {
	d, err := time.ParseInLocation(DateLayout, date, loc)
	if err != nil {
		return "", &InvalidError{Field: "date", Message: "date must be YYYY-MM-DD"}
	}
	return d.AddDate(0, 0, days).UTC().Format(TimeFormat), nil
}

// createdOnDays is the condition that column, a stored timestamp, falls on
// the days start to end (YYYY-MM-DD, inclusive; "" leaves that end open) as
// days in timezone: its conditions and their arguments. Stored timestamps
// are UTC text of one width, so the bounds compare as text, on an index.
func createdOnDays(column, start, end, timezone string) ([]string, []any, error) {
	if start == "" && end == "" {
		return nil, nil, nil
	}
	loc, err := time.LoadLocation(timezone)
	if err != nil {
		return nil, nil, err
	}
	var conds []string
	var args []any
	if start != "" {
		from, err := dayStart(start, loc, 0)
		if err != nil {
			return nil, nil, err
		}
		conds, args = append(conds, column+" >= ?"), append(args, from)
	}
	if end != "" {
		until, err := dayStart(end, loc, 1)
		if err != nil {
			return nil, nil, err
		}
		conds, args = append(conds, column+" < ?"), append(args, until)
	}
	return conds, args, nil
}

// escapeLike makes s match itself in a LIKE pattern with ESCAPE '\'.
func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// documentOrder is the list order: newest upload first, stable by id.
const documentOrder = `d.created_at DESC, d.id DESC`

// Documents lists a page of the user's documents matching f, and the total.
func (db *DB) Documents(ctx context.Context, userID string, f DocumentFilter, page Page) ([]Document, int, error) {
	where, args, err := f.where(userID)
	if err != nil {
		return nil, 0, err
	}
	var total int
	out, err := inTx(ctx, db.beginRead, func(tx txn) ([]Document, error) {
		if err := tx.Tx.QueryRowContext(ctx, `SELECT count(*) FROM documents d WHERE `+where, args...).Scan(&total); err != nil {
			return nil, err
		}
		rows, err := tx.Tx.QueryContext(ctx, `SELECT `+documentColumns+` FROM documents d WHERE `+where+`
			ORDER BY `+documentOrder+` LIMIT ? OFFSET ?`, append(args, page.Limit, page.Offset)...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := []Document{}
		for rows.Next() {
			d, err := scanDocument(rows)
			if err != nil {
				return nil, err
			}
			out = append(out, d)
		}
		return out, rows.Err()
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}
