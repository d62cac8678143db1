package db

import (
	"context"
	"strings"
)

// ContentFilter narrows a list of write-ups, trading plans, chart books or
// report cards; zero fields do not filter.
type ContentFilter struct {
	// Refs maps a reference column of the kind (Content.RefFilters) to the
	// id it must hold; other keys are ignored.
	Refs map[string]string
	// RefsIn maps a reference column to ids it may hold, any of them.
	RefsIn map[string][]string
	// StartDate and EndDate (YYYY-MM-DD, inclusive) bound the kind's own
	// date (a plan's plan_date, a report card's report_date), or else the
	// day the record was created, as a day in Timezone.
	StartDate string
	EndDate   string
	Timezone  string // the user's; "" is UTC
}

// where builds the filter's condition over the kind's table, with its
// arguments. The text depends only on which filters are set, and every
// value is a parameter.
func (c Content[T, In]) where(userID string, f ContentFilter) (string, []any, error) {
	conds := []string{"user_id = ?"}
	args := []any{userID}
	add := func(cond string, a any) {
		conds = append(conds, cond)
		args = append(args, a)
	}
	for _, r := range c.kind.refs {
		if id := f.Refs[r.column]; id != "" {
			add(r.column+" = ?", id)
		}
		if ids, ok := f.RefsIn[r.column]; ok {
			add(r.column+" IN (SELECT value FROM json_each(?))", jsonList(ids))
		}
	}
	if col := c.kind.dated; col != "" {
		if f.StartDate != "" {
			add(col+" >= ?", f.StartDate)
		}
		if f.EndDate != "" {
			add(col+" <= ?", f.EndDate)
		}
	} else {
		days, dayArgs, err := createdOnDays("created_at", f.StartDate, f.EndDate, f.Timezone)
		if err != nil {
			return "", nil, err
		}
		conds, args = append(conds, days...), append(args, dayArgs...)
	}
	return strings.Join(conds, " AND "), args, nil
}

// List reads a page of the user's records matching f, newest first (by
// created_at, then id), with their tags and parts, and the total. Tags and
// parts load in one query each, whatever the page's size.
func (c Content[T, In]) List(ctx context.Context, userID string, f ContentFilter, page Page) ([]T, int, error) {
	where, args, err := c.where(userID, f)
	if err != nil {
		return nil, 0, err
	}
	var total int
	items, err := inTx(ctx, c.db.beginRead, func(tx txn) ([]T, error) {
		// The filter's text varies, so these run unprepared (see txn).
		if err := tx.Tx.QueryRowContext(ctx, `SELECT count(*) FROM `+c.kind.table+` WHERE `+where, args...).Scan(&total); err != nil {
			return nil, err
		}
		rows, err := tx.Tx.QueryContext(ctx, `SELECT `+c.selectList()+` FROM `+c.kind.table+` WHERE `+where+`
			ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, append(args, page.Limit, page.Offset)...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := []T{}
		for rows.Next() {
			rec, err := c.scan(rows)
			if err != nil {
				return nil, err
			}
			out = append(out, rec)
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		return out, c.attach(ctx, tx, out)
	})
	return items, total, err
}
