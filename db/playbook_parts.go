package db

import (
	"context"
	"database/sql"
	"errors"
)

// Playbooks lists a page of the user's playbooks, newest first, with their
// criteria, strategies and tags, and the total. Whatever the page's size it
// takes five queries: the total, the page, then criteria, strategies and
// tags for all of the page's playbooks at once.
func (db *DB) Playbooks(ctx context.Context, userID string, page Page) ([]Playbook, int, error) {
	var total int
	out, err := inTx(ctx, db.beginRead, func(tx txn) ([]Playbook, error) {
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM playbooks WHERE user_id = ?`, userID).Scan(&total); err != nil {
			return nil, err
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+playbookColumns+` FROM playbooks WHERE user_id = ?
			ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, userID, page.Limit, page.Offset)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := []Playbook{}
		for rows.Next() {
			p, err := scanPlaybook(rows)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if err := fillPlaybooks(ctx, tx, out); err != nil {
			return nil, err
		}
		return out, nil
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// loadPlaybook reads one of the user's playbooks with all its parts.
func loadPlaybook(ctx context.Context, q querier, userID, id string) (Playbook, error) {
	p, err := scanPlaybook(q.QueryRowContext(ctx,
		`SELECT `+playbookColumns+` FROM playbooks WHERE user_id = ? AND id = ?`, userID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Playbook{}, notFound("Playbook")
	}
	if err != nil {
		return Playbook{}, err
	}
	ps := []Playbook{p}
	err = fillPlaybooks(ctx, q, ps)
	return ps[0], err
}

// fillPlaybooks loads the criteria, strategies and tags of ps, one query
// for each, whatever the number of playbooks.
func fillPlaybooks(ctx context.Context, q querier, ps []Playbook) error {
	ids := make([]string, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
	}
	entry, exit, err := loadCriteria(ctx, q, ids)
	if err != nil {
		return err
	}
	strategies, err := loadPlaybookStrategies(ctx, q, ids)
	if err != nil {
		return err
	}
	tags, err := loadTags(ctx, q, playbookTags, ids)
	if err != nil {
		return err
	}
	for i := range ps {
		id := ps[i].ID
		ps[i].EntryCriteria, ps[i].ExitCriteria = entry[id], exit[id]
		ps[i].Strategies, ps[i].Tags = strategies[id], tags[id]
	}
	return nil
}

// loadCriteria reads the entry and exit criteria of many playbooks in one
// query, keyed by playbook id, in order. Every id gets non-nil slices.
func loadCriteria(ctx context.Context, q querier, ids []string) (entry, exit map[string][]Criterion, err error) {
	entry = make(map[string][]Criterion, len(ids))
	exit = make(map[string][]Criterion, len(ids))
	for _, id := range ids {
		entry[id], exit[id] = []Criterion{}, []Criterion{}
	}
	if len(ids) == 0 {
		return entry, exit, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT playbook_id, kind, id, description, position FROM playbook_criteria
		WHERE playbook_id IN (SELECT value FROM json_each(?)) ORDER BY playbook_id, kind, position`, jsonList(ids))
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var playbookID, kind string
		var c Criterion
		if err := rows.Scan(&playbookID, &kind, &c.ID, &c.Description, &c.Order); err != nil {
			return nil, nil, err
		}
		if kind == "entry" {
			entry[playbookID] = append(entry[playbookID], c)
		} else {
			exit[playbookID] = append(exit[playbookID], c)
		}
	}
	return entry, exit, rows.Err()
}

// loadPlaybookStrategies reads the strategies of many playbooks in one
// query, keyed by playbook id, in the order they were given.
func loadPlaybookStrategies(ctx context.Context, q querier, ids []string) (map[string][]PlaybookStrategy, error) {
	out := make(map[string][]PlaybookStrategy, len(ids))
	for _, id := range ids {
		out[id] = []PlaybookStrategy{}
	}
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT ps.playbook_id, s.id, s.title, s.description, s.created_at
		FROM playbook_strategies ps JOIN strategies s ON s.id = ps.strategy_id
		WHERE ps.playbook_id IN (SELECT value FROM json_each(?)) ORDER BY ps.playbook_id, ps.position`, jsonList(ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var playbookID string
		var s PlaybookStrategy
		if err := rows.Scan(&playbookID, &s.ID, &s.Name, &s.Description, &s.CreatedAt); err != nil {
			return nil, err
		}
		out[playbookID] = append(out[playbookID], s)
	}
	return out, rows.Err()
}

// setCriteria replaces a playbook's criteria of one kind when they were
// given: new ids, ordered 1..n as given.
func (db *DB) setCriteria(ctx context.Context, tx txn, playbookID, kind string, criteria Optional[[]CriterionInput]) error {
	if !criteria.Set {
		return nil
	}
	// Criteria sent with the id of one of this kind's criteria keep it;
	// the rest of the old ones go, with trades' answers about them.
	existing := map[string]bool{}
	rows, err := tx.QueryContext(ctx, `SELECT id FROM playbook_criteria WHERE playbook_id = ? AND kind = ?`, playbookID, kind)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		existing[id] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	ids := make([]string, len(criteria.Value))
	kept := []string{}
	for i, c := range criteria.Value {
		if existing[c.ID] {
			ids[i] = c.ID
			kept = append(kept, c.ID)
			delete(existing, c.ID) // a repeated id is a new criterion
		} else {
			ids[i] = db.NewID()
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM playbook_criteria WHERE playbook_id = ? AND kind = ?
		AND id NOT IN (SELECT value FROM json_each(?))`, playbookID, kind, jsonList(kept)); err != nil {
		return err
	}
	// Move the kept ones out of the way of the unique positions first.
	if _, err := tx.ExecContext(ctx, `UPDATE playbook_criteria SET position = position + 1000000
		WHERE playbook_id = ? AND kind = ?`, playbookID, kind); err != nil {
		return err
	}
	stmt, err := tx.stmt(ctx, `INSERT INTO playbook_criteria (id, playbook_id, kind, description, position)
		VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET description = excluded.description, position = excluded.position`)
	if err != nil {
		return err
	}
	for i, c := range criteria.Value {
		if _, err := stmt.ExecContext(ctx, ids[i], playbookID, kind, c.Description, i+1); err != nil {
			return err
		}
	}
	return nil
}

// playbookStrategies keeps a playbook's strategies in the order given.
var playbookStrategies = orderedLinks{table: "playbook_strategies", owner: "playbook_id", target: "strategy_id",
	targets: "strategies", kind: "Strategy", field: "strategy_ids"}
