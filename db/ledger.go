package db

import (
	"context"
	"database/sql"
	"errors"
)

// ledger describes a kind of money record (payouts, expenses) to the code
// they share: a row of the user's, with the user's documents linked to it
// in order, listed newest first. Its names are constants of this package,
// safe in SQL.
type ledger[T any] struct {
	kind    string // "Payout", as its not-found error names it
	table   string // "payouts"
	columns string // the row's columns, the id first
	links   orderedLinks
	fields  func(*T) []any     // pointers to the fields, in the order of columns
	docs    func(*T) *[]string // the linked documents' ids
}

// load reads one of the user's records with its documents.
func (l ledger[T]) load(ctx context.Context, q querier, userID, id string) (T, error) {
	var rec T
	err := q.QueryRowContext(ctx, `SELECT `+l.columns+` FROM `+l.table+` WHERE user_id = ? AND id = ?`,
		userID, id).Scan(l.fields(&rec)...)
	if errors.Is(err, sql.ErrNoRows) {
		return rec, notFound(l.kind)
	}
	if err != nil {
		return rec, err
	}
	docs, err := l.links.load(ctx, q, []string{id})
	*l.docs(&rec) = docs[id]
	return rec, err
}

// insert writes a new record of the user's and links the documents given,
// then reads it back.
func (l ledger[T]) insert(ctx context.Context, tx txn, userID string, rec *T, docs Optional[[]string]) (T, error) {
	fields := l.fields(rec)
	if _, err := tx.ExecContext(ctx, insertSQL(l.table, l.columns, len(fields)), append([]any{userID}, fields...)...); err != nil {
		return *rec, err
	}
	id := *fields[0].(*string)
	if err := l.links.set(ctx, tx, userID, id, docs); err != nil {
		return *rec, err
	}
	return l.load(ctx, tx, userID, id)
}

// update writes every column of a record of the user's back, replaces its
// documents when given, then reads it back.
func (l ledger[T]) update(ctx context.Context, tx txn, userID string, rec *T, docs Optional[[]string]) (T, error) {
	fields := l.fields(rec)
	id := *fields[0].(*string)
	if _, err := tx.ExecContext(ctx, updateSQL(l.table, l.columns, len(fields)), append(fields, userID, id)...); err != nil {
		return *rec, err
	}
	if err := l.links.set(ctx, tx, userID, id, docs); err != nil {
		return *rec, err
	}
	return l.load(ctx, tx, userID, id)
}

// delete removes one of the user's records; its document links go by ON
// DELETE CASCADE, counted in the warnings. The documents stay.
func (l ledger[T]) delete(ctx context.Context, db *DB, userID, id string) (Deleted, error) {
	return inTx(ctx, db.begin, func(tx txn) (Deleted, error) {
		var docs int
		err := tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM `+l.links.table+` WHERE `+l.links.owner+` = x.id)
			FROM `+l.table+` x WHERE x.user_id = ? AND x.id = ?`, userID, id).Scan(&docs)
		if errors.Is(err, sql.ErrNoRows) {
			return Deleted{}, notFound(l.kind)
		}
		if err != nil {
			return Deleted{}, err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+l.table+` WHERE user_id = ? AND id = ?`, userID, id); err != nil {
			return Deleted{}, err
		}
		d := Deleted{ID: id, Warnings: []string{}}
		d.note("Unlinked", docs, "document")
		return d, nil
	})
}

// list reads a page of the user's records matching f, newest first (by
// created_at, then id), with their documents (one query for the page), and
// the total.
func (l ledger[T]) list(ctx context.Context, db *DB, f *filter, page Page) ([]T, int, error) {
	where := f.where()
	var total int
	items, err := inTx(ctx, db.beginRead, func(tx txn) ([]T, error) {
		// The filter's text varies, so these run unprepared (see txn).
		if err := tx.Tx.QueryRowContext(ctx, `SELECT count(*) FROM `+l.table+` WHERE `+where, f.args...).Scan(&total); err != nil {
			return nil, err
		}
		rows, err := tx.Tx.QueryContext(ctx, `SELECT `+l.columns+` FROM `+l.table+` WHERE `+where+`
			ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, append(f.args, page.Limit, page.Offset)...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := []T{}
		var ids []string
		for rows.Next() {
			var rec T
			fields := l.fields(&rec)
			if err := rows.Scan(fields...); err != nil {
				return nil, err
			}
			out = append(out, rec)
			ids = append(ids, *fields[0].(*string))
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		docs, err := l.links.load(ctx, tx, ids)
		for i := range out {
			*l.docs(&out[i]) = docs[ids[i]]
		}
		return out, err
	})
	return items, total, err
}
