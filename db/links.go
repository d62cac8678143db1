package db

import (
	"context"
	"errors"
)

// orderedLinks is a join table that keeps the records one record links to
// in the order a body gave them: a playbook's strategies, a chart book's
// documents. Its names are constants of this package, safe in SQL.
type orderedLinks struct {
	table, owner, target string // "chart_book_documents", "chart_book_id", "document_id"
	targets              string // the linked records' table, "documents"
	kind, field          string // what a missing one is: "Document", "document_ids"
	indexed              bool   // a missing one is named by its place in the body: "document_ids[1]"
}

// set replaces the links of owner with ids when they were given, in their
// order; a repeated id counts once, where it first appears. Every id must
// name a record of the user's, else it is a *NotFoundError naming the
// field (and, when indexed, the place of the first that does not:
// "document_ids[1]"), and nothing changes.
func (l orderedLinks) set(ctx context.Context, tx txn, userID, owner string, ids Optional[[]string]) error {
	if !ids.Set {
		return nil
	}
	if err := checkOwned(ctx, tx, l.targets, l.kind, l.field, userID, ids.Value); err != nil {
		var nf *NotFoundError
		if errors.As(err, &nf) && !l.indexed {
			return &NotFoundError{Kind: l.kind, Field: l.field}
		}
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM `+l.table+` WHERE `+l.owner+` = ?`, owner); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO `+l.table+` (`+l.owner+`, `+l.target+`, position)
		SELECT ?, value, key FROM json_each(?)`, owner, jsonList(uniqueInOrder(ids.Value)))
	return err
}

// load reads the linked ids of many owners in one query, in their order,
// keyed by owner. Every owner gets a non-nil slice.
func (l orderedLinks) load(ctx context.Context, q querier, owners []string) (map[string][]string, error) {
	out := make(map[string][]string, len(owners))
	for _, id := range owners {
		out[id] = []string{}
	}
	rows, err := q.QueryContext(ctx, `SELECT `+l.owner+`, `+l.target+` FROM `+l.table+`
		WHERE `+l.owner+` IN (SELECT value FROM json_each(?)) ORDER BY `+l.owner+`, position`, jsonList(owners))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var owner, target string
		if err := rows.Scan(&owner, &target); err != nil {
			return nil, err
		}
		out[owner] = append(out[owner], target)
	}
	return out, rows.Err()
}
