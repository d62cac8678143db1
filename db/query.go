package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"strings"
)

// What the package's queries share: the page of a list, the reads a
// *sql.DB and a *sql.Tx both answer, a list of ids bound as one parameter,
// and a list's condition built from its filters.

// Page is which slice of a list to read.
type Page struct {
	Limit  int
	Offset int
}

// querier is what reads need from a *sql.DB or *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// queryIDs runs a query of one text column (ids) and returns its values.
func queryIDs(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// jsonList encodes ids as a JSON array, bound as one parameter and read
// with json_each, so a statement's text does not depend on how many ids a
// page holds.
func jsonList(ids []string) string {
	if ids == nil {
		ids = []string{}
	}
	b, _ := json.Marshal(ids)
	return string(b)
}

// insertSQL writes a new row of the user's: user_id, then n columns, bound
// in that order.
func insertSQL(table, columns string, n int) string {
	return `INSERT INTO ` + table + ` (user_id, ` + columns + `) VALUES (?` + strings.Repeat(", ?", n) + `)`
}

// updateSQL writes all n columns of one of the user's rows back, bound in
// their order, then the user id and the row's id.
func updateSQL(table, columns string, n int) string {
	return `UPDATE ` + table + ` SET (` + columns + `) = (?` + strings.Repeat(", ?", n-1) + `) WHERE user_id = ? AND id = ?`
}

// filter is the condition of a list's query, every value a parameter.
type filter struct {
	conds []string
	args  []any
}

// filterOf starts a filter with the user's rows: column names the user id.
func filterOf(column, userID string) *filter {
	return &filter{conds: []string{column + " = ?"}, args: []any{userID}}
}

// where is the condition's text.
func (f *filter) where() string { return strings.Join(f.conds, " AND ") }

// eq adds column = value when value is set.
func (f *filter) eq(column, value string) {
	if value != "" {
		f.conds, f.args = append(f.conds, column+" = ?"), append(f.args, value)
	}
}

// dates bounds a date column, both ends inclusive, when they are set.
func (f *filter) dates(column, start, end string) {
	if start != "" {
		f.conds, f.args = append(f.conds, column+" >= ?"), append(f.args, start)
	}
	if end != "" {
		f.conds, f.args = append(f.conds, column+" <= ?"), append(f.args, end)
	}
}
