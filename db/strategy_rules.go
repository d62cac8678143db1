package db

import (
	"context"
	"database/sql"
	"encoding/json"
)

// setRules replaces a strategy's rules with rules when they were given, and
// returns the strategy's rules either way.
func (db *DB) setRules(ctx context.Context, tx txn, strategyID string, rules Optional[[]RuleInput]) ([]StrategyRule, error) {
	if rules.Set {
		if err := db.replaceRules(ctx, tx, strategyID, rules.Value); err != nil {
			return nil, err
		}
	}
	return loadOneRuleSet(ctx, tx, strategyID)
}

// replaceRules writes rules as the strategy's whole set. A rule that names
// one of the strategy's current rules by id keeps that id (so what was
// evaluated against it still names it); every other rule gets a new id.
func (db *DB) replaceRules(ctx context.Context, tx txn, strategyID string, rules []RuleInput) error {
	rows, err := tx.QueryContext(ctx, `SELECT id FROM strategy_rules WHERE strategy_id = ?`, strategyID)
	if err != nil {
		return err
	}
	current := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		current[id] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM strategy_rules WHERE strategy_id = ?`, strategyID); err != nil {
		return err
	}
	if len(rules) == 0 {
		return nil
	}
	stmt, err := tx.stmt(ctx, `INSERT INTO strategy_rules (id, strategy_id, description, category, sort_order,
		severity, check_json, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	for i, r := range rules {
		id := r.ID
		if !current[id] {
			id = db.NewID()
		}
		delete(current, id) // a second rule with the same id gets a new one
		sortOrder := i
		if r.SortOrder != nil {
			sortOrder = *r.SortOrder
		}
		severity := r.Severity
		if severity == "" {
			severity = "warning"
		}
		var check *string
		if r.Check != nil {
			b, err := json.Marshal(r.Check)
			if err != nil {
				return err
			}
			s := string(b)
			check = &s
		}
		if _, err := stmt.ExecContext(ctx, id, strategyID, r.Description, r.Category, sortOrder, severity, check, i); err != nil {
			return err
		}
	}
	return nil
}

// loadOneRuleSet reads one strategy's rules.
func loadOneRuleSet(ctx context.Context, q querier, strategyID string) ([]StrategyRule, error) {
	rules, err := loadRules(ctx, q, []string{strategyID})
	return rules[strategyID], err
}

// loadRules reads the rules of many strategies in one query, keyed by
// strategy id, in sort_order and then the order they were given. Every id
// gets a non-nil slice, so a strategy without rules serves `[]`.
func loadRules(ctx context.Context, q querier, strategyIDs []string) (map[string][]StrategyRule, error) {
	out := make(map[string][]StrategyRule, len(strategyIDs))
	for _, id := range strategyIDs {
		out[id] = []StrategyRule{}
	}
	if len(strategyIDs) == 0 {
		return out, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT strategy_id, id, description, category, sort_order, severity, check_json
		FROM strategy_rules WHERE strategy_id IN (SELECT value FROM json_each(?))
		ORDER BY strategy_id, sort_order, position`, jsonList(strategyIDs))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var strategyID string
		var r StrategyRule
		var check sql.NullString
		if err := rows.Scan(&strategyID, &r.ID, &r.Description, &r.Category, &r.SortOrder, &r.Severity, &check); err != nil {
			return nil, err
		}
		if check.Valid {
			r.Check = new(RuleCheck)
			if err := json.Unmarshal([]byte(check.String), r.Check); err != nil {
				return nil, err
			}
		}
		out[strategyID] = append(out[strategyID], r)
	}
	return out, rows.Err()
}
