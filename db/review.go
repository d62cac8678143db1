package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"tradejournal/db/trading"
)

// CriterionCheck is a checklist answer in a trade body.
type CriterionCheck struct {
	CriterionID string
	Checked     bool
}

// ChecklistItem is one criterion of the trade's playbook, as the trade's
// checklist shows it.
type ChecklistItem struct {
	CriterionID string `json:"criterion_id"`
	Description string `json:"description"`
	Type        string `json:"type"` // entry or exit
	Checked     bool   `json:"checked"`
}

// TradeStrategy is a risk-management strategy a trade is checked against.
type TradeStrategy struct {
	StrategyID string             `json:"strategy_id"`
	Strategies TradeStrategyRules `json:"strategies"`
}

// TradeStrategyRules is the strategy with its rules.
type TradeStrategyRules struct {
	ID            string         `json:"id"`
	Title         string         `json:"title"`
	StrategyRules []StrategyRule `json:"strategy_rules"`
}

// RuleEvaluation is the result of checking one rule against a trade when
// it was saved. RuleSnapshot is the rule as it was then, so editing the
// strategy later does not rewrite the trade's history.
type RuleEvaluation struct {
	ID            string          `json:"id"`
	StrategyID    *string         `json:"strategy_id"`
	Result        string          `json:"result"`
	Severity      *string         `json:"severity"`
	ViolationData json.RawMessage `json:"violation_data"`
	RuleSnapshot  json.RawMessage `json:"rule_snapshot"`
	EvaluatedAt   string          `json:"evaluated_at"`
}

// tradeReview holds a trade's review fields as stored.
type tradeReview struct {
	starRating    *int
	reviewNotes   *string // rich-text document, JSON
	stops         levels
	targets       levels
	playbookID    *string
	reviewedAt    *string
	rRatio        *float64
	hasViolations bool
}

// applyReview copies the review fields given in in onto t.
func (db *DB) applyReview(ctx context.Context, tx txn, userID string, t *Trade, in TradeInput) error {
	r := &t.review
	if in.StarRating.Set {
		r.starRating = in.StarRating.Ptr()
	}
	if in.ReviewNotes.Set {
		r.reviewNotes = nil
		if !in.ReviewNotes.Null {
			s := string(in.ReviewNotes.Value)
			r.reviewNotes = &s
		}
	}
	if in.StopLossLevels.Set {
		r.stops = in.StopLossLevels.Value
	}
	if in.TakeProfitLevels.Set {
		r.targets = in.TakeProfitLevels.Value
	}
	if in.PlaybookID.Set {
		r.playbookID = in.PlaybookID.Ptr()
		if r.playbookID != nil {
			var one int
			err := tx.QueryRowContext(ctx, `SELECT 1 FROM playbooks WHERE user_id = ? AND id = ?`, userID, *r.playbookID).Scan(&one)
			if errors.Is(err, sql.ErrNoRows) {
				return &NotFoundError{Kind: "Playbook", Field: "playbook_id"}
			}
			if err != nil {
				return err
			}
		}
	}
	if in.Reviewed.Set {
		r.reviewedAt = nil
		if in.Reviewed.Value {
			now := db.now()
			r.reviewedAt = &now
		}
	}
	return nil
}

// levels are a trade's stop or target levels, stored as a JSON array.
type levels []trading.Level

// Scan reads the stored JSON array.
func (l *levels) Scan(src any) error {
	*l = nil
	var b []byte
	switch v := src.(type) {
	case string:
		if v == "[]" { // most trades: nothing to decode (a GET reads two)
			return nil
		}
		b = []byte(v)
	case []byte:
		if string(v) == "[]" {
			return nil
		}
		b = v
	default:
		return fmt.Errorf("levels: cannot scan %T", src)
	}
	return json.Unmarshal(b, (*[]trading.Level)(l))
}

// Value writes the levels as a JSON array, never null.
func (l levels) Value() (driver.Value, error) {
	if l == nil {
		return "[]", nil
	}
	b, err := json.Marshal([]trading.Level(l))
	return string(b), err
}

// orEmpty is the levels as a trade shows them: an empty array, never null.
func orEmpty(l levels) []trading.Level {
	if l == nil {
		return []trading.Level{}
	}
	return l
}

// planR is the trade's R multiple on its planned risk.
func planR(t *Trade) (*float64, error) {
	return trading.R(t.Side, t.EntryPrice, t.ExitPrice, t.review.stops)
}

// setChecklist replaces the trade's checklist answers when given, and drops
// answers about criteria of any playbook but the trade's.
func setChecklist(ctx context.Context, tx txn, userID string, t *Trade, checks Optional[[]CriterionCheck]) error {
	if checks.Set && len(checks.Value) > 0 && t.review.playbookID == nil {
		return &InvalidError{Field: "criteria_checklist", Message: "criteria_checklist needs the trade to have a playbook_id"}
	}
	if checks.Set {
		if _, err := tx.ExecContext(ctx, `DELETE FROM trade_criteria_checks WHERE trade_id = ?`, t.ID); err != nil {
			return err
		}
		// The playbook of each criterion named, in one query.
		ids := make([]string, len(checks.Value))
		for i, c := range checks.Value {
			ids[i] = c.CriterionID
		}
		playbookOf := map[string]string{}
		rows, err := tx.QueryContext(ctx, `SELECT c.id, c.playbook_id FROM playbook_criteria c
			JOIN playbooks p ON p.id = c.playbook_id WHERE p.user_id = ? AND c.id IN (SELECT value FROM json_each(?))`,
			userID, jsonList(ids))
		if err != nil {
			return err
		}
		for rows.Next() {
			var id, playbookID string
			if err := rows.Scan(&id, &playbookID); err != nil {
				rows.Close()
				return err
			}
			playbookOf[id] = playbookID
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for i, c := range checks.Value {
			field := "criteria_checklist[" + strconv.Itoa(i) + "].criterion_id"
			playbookID, ok := playbookOf[c.CriterionID]
			if !ok {
				return &NotFoundError{Kind: "Criterion", Field: field}
			}
			if playbookID != *t.review.playbookID {
				return &InvalidError{Field: field, Message: "criterion " + c.CriterionID + " is not a criterion of the trade's playbook"}
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO trade_criteria_checks (trade_id, criterion_id, checked) VALUES (?, ?, ?)
				ON CONFLICT (trade_id, criterion_id) DO UPDATE SET checked = excluded.checked`, t.ID, c.CriterionID, c.Checked); err != nil {
				return err
			}
		}
	}
	_, err := tx.ExecContext(ctx, `DELETE FROM trade_criteria_checks WHERE trade_id = ? AND criterion_id NOT IN
		(SELECT id FROM playbook_criteria WHERE playbook_id = coalesce(?, ''))`, t.ID, t.review.playbookID)
	return err
}

// setTradeStrategies replaces the strategies the trade is checked against.
func setTradeStrategies(ctx context.Context, tx txn, userID, tradeID string, ids Optional[[]string]) error {
	if !ids.Set {
		return nil
	}
	var owned int
	unique := uniqueInOrder(ids.Value)
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM strategies WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))`,
		userID, jsonList(unique)).Scan(&owned); err != nil {
		return err
	}
	if owned != len(unique) {
		return &NotFoundError{Kind: "Strategy", Field: "risk_management_strategy_ids"}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM trade_strategies WHERE trade_id = ?`, tradeID); err != nil {
		return err
	}
	for i, id := range unique {
		if _, err := tx.ExecContext(ctx, `INSERT INTO trade_strategies (trade_id, strategy_id, position) VALUES (?, ?, ?)`, tradeID, id, i); err != nil {
			return err
		}
	}
	return nil
}

func uniqueInOrder(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := []string{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// loadChecklist lists every criterion of the trade's playbook with the
// trade's answer, entry criteria first.
func loadChecklist(ctx context.Context, q querier, tradeID string, playbookID *string) ([]ChecklistItem, error) {
	items := []ChecklistItem{}
	if playbookID == nil {
		return items, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT c.id, c.description, c.kind, coalesce(k.checked, 0)
		FROM playbook_criteria c LEFT JOIN trade_criteria_checks k ON k.criterion_id = c.id AND k.trade_id = ?
		WHERE c.playbook_id = ? ORDER BY c.kind = 'exit', c.position`, tradeID, *playbookID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var it ChecklistItem
		if err := rows.Scan(&it.CriterionID, &it.Description, &it.Type, &it.Checked); err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return items, rows.Err()
}

// loadTradeStrategies lists the strategies the trade is checked against,
// with their current rules.
func loadTradeStrategies(ctx context.Context, q querier, tradeID string) ([]TradeStrategy, error) {
	rows, err := q.QueryContext(ctx, `SELECT s.id, s.title FROM trade_strategies ts JOIN strategies s ON s.id = ts.strategy_id
		WHERE ts.trade_id = ? ORDER BY ts.position`, tradeID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []TradeStrategy{}
	var ids []string
	for rows.Next() {
		var s TradeStrategy
		if err := rows.Scan(&s.StrategyID, &s.Strategies.Title); err != nil {
			return nil, err
		}
		s.Strategies.ID = s.StrategyID
		out = append(out, s)
		ids = append(ids, s.StrategyID)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rules, err := loadRules(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	for i := range out {
		out[i].Strategies.StrategyRules = rules[out[i].StrategyID]
	}
	return out, nil
}

// loadEvaluations reads the trade's rule evaluations in the order made.
func loadEvaluations(ctx context.Context, q querier, tradeID string) ([]RuleEvaluation, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, strategy_id, result, severity, violation_data, rule_snapshot, evaluated_at
		FROM trade_rule_evaluations WHERE trade_id = ? ORDER BY position`, tradeID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []RuleEvaluation{}
	for rows.Next() {
		var e RuleEvaluation
		var violation sql.NullString
		var snapshot string
		if err := rows.Scan(&e.ID, &e.StrategyID, &e.Result, &e.Severity, &violation, &snapshot, &e.EvaluatedAt); err != nil {
			return nil, err
		}
		e.ViolationData = rawOr(violation.String, "null")
		e.RuleSnapshot = json.RawMessage(snapshot)
		out = append(out, e)
	}
	return out, rows.Err()
}
