package db

import (
	"context"
	"encoding/json"
	"slices"

	"tradejournal/db/trading"
)

// tradeFacts is what a trade's rule checks look at.
type tradeFacts struct {
	quantity   float64
	netPnL     float64
	stops      int
	entryTime  *string
	exitTime   *string
	instrument string // futures and options by root, everything else by symbol
	rRatio     *float64
}

// dayFacts places a trade among its account's trades of its entry date,
// ordered by entry time: its 1-based position and the day's net P&L up to
// and including it.
type dayFacts struct {
	position int
	net      float64
}

// violation is a failed check's violation_data.
type violation struct {
	Actual any `json:"actual"`
	Limit  any `json:"limit"`
}

// dayLevel reports whether a check looks at the other trades of the day.
func dayLevel(kind string) bool {
	return kind == CheckMaxTradesPerDay || kind == CheckMaxDailyLoss
}

// evaluateCheck checks one rule against a trade. ok is false when the
// check does not apply (min_r_ratio without an R, a window without times).
func evaluateCheck(c RuleCheck, t tradeFacts, day dayFacts) (v *violation, ok bool) {
	switch c.Kind {
	case CheckMaxQuantity:
		if t.quantity > c.Value {
			return &violation{t.quantity, c.Value}, true
		}
	case CheckMaxLossPerTrade:
		if loss := -t.netPnL; loss > c.Value {
			return &violation{trading.Round8(loss), c.Value}, true
		}
	case CheckRequireStopLoss:
		if t.stops == 0 {
			return &violation{0, 1}, true
		}
	case CheckTradingWindow:
		if t.entryTime == nil && t.exitTime == nil {
			return nil, false
		}
		for _, at := range []*string{t.entryTime, t.exitTime} {
			if at != nil && (*at < c.Start || *at > c.End) {
				return &violation{*at, c.Start + "-" + c.End}, true
			}
		}
	case CheckAllowedSymbols:
		if !slices.Contains(c.Symbols, t.instrument) {
			return &violation{t.instrument, c.Symbols}, true
		}
	case CheckMaxTradesPerDay:
		if float64(day.position) > c.Value {
			return &violation{day.position, c.Value}, true
		}
	case CheckMaxDailyLoss:
		if loss := -day.net; loss > c.Value {
			return &violation{trading.Round8(loss), c.Value}, true
		}
	case CheckMinRRatio:
		if t.rRatio == nil {
			return nil, false
		}
		if *t.rRatio < c.Value {
			return &violation{*t.rRatio, c.Value}, true
		}
	default:
		return nil, false
	}
	return nil, true
}

func factsOf(t *Trade) tradeFacts {
	f := tradeFacts{quantity: t.Quantity, netPnL: t.NetPnL, entryTime: t.EntryTime, exitTime: t.ExitTime,
		instrument: t.Symbol, rRatio: t.review.rRatio}
	if t.AssetClass == trading.AssetFutures || t.AssetClass == trading.AssetOptions {
		f.instrument = t.root
	}
	f.stops = len(t.review.stops)
	return f
}

// dayKey names the trades day-level rules count together.
type dayKey struct{ accountID, date string }

// evaluateRules checks the trade against the rules of its strategies and
// stores the results, replacing earlier ones (only the day-level ones when
// onlyDayLevel), and marks whether any failed.
func (db *DB) evaluateRules(ctx context.Context, tx txn, userID string, t *Trade, onlyDayLevel bool) error {
	strategies, err := loadTradeStrategies(ctx, tx, t.ID)
	if err != nil {
		return err
	}
	if len(strategies) == 0 {
		// Nothing to check: the common case, kept to one cheap statement,
		// and a second when the trade had violations.
		if _, err := tx.ExecContext(ctx, `DELETE FROM trade_rule_evaluations WHERE trade_id = ?`, t.ID); err != nil {
			return err
		}
		if !t.review.hasViolations {
			return nil
		}
		_, err := tx.ExecContext(ctx, `UPDATE trades SET has_violations = 0 WHERE id = ?`, t.ID)
		t.review.hasViolations = false
		return err
	}
	if onlyDayLevel {
		_, err = tx.ExecContext(ctx, `DELETE FROM trade_rule_evaluations WHERE trade_id = ?
			AND json_extract(rule_snapshot, '$.check.kind') IN ('max_trades_per_day', 'max_daily_loss')`, t.ID)
	} else {
		_, err = tx.ExecContext(ctx, `DELETE FROM trade_rule_evaluations WHERE trade_id = ?`, t.ID)
	}
	if err != nil {
		return err
	}
	day, err := placeInDay(ctx, tx, userID, t)
	if err != nil {
		return err
	}
	facts, now := factsOf(t), db.now()
	var position int
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(position) + 1, 0) FROM trade_rule_evaluations WHERE trade_id = ?`, t.ID).Scan(&position); err != nil {
		return err
	}
	for _, s := range strategies {
		for _, rule := range s.Strategies.StrategyRules {
			if rule.Check == nil || (onlyDayLevel && !dayLevel(rule.Check.Kind)) {
				continue
			}
			v, applies := evaluateCheck(*rule.Check, facts, day)
			if !applies {
				continue
			}
			snapshot, _ := json.Marshal(struct {
				StrategyRule
				StrategyID    string `json:"strategy_id"`
				StrategyTitle string `json:"strategy_title"`
			}{rule, s.StrategyID, s.Strategies.Title})
			result, severity, data := "pass", (*string)(nil), (*string)(nil)
			if v != nil {
				b, _ := json.Marshal(v)
				result, severity, data = "fail", &rule.Severity, ptrTo(string(b))
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO trade_rule_evaluations (id, trade_id, strategy_id, rule_id, result,
				severity, violation_data, rule_snapshot, evaluated_at, position) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				db.NewID(), t.ID, s.StrategyID, rule.ID, result, severity, data, string(snapshot), now, position); err != nil {
				return err
			}
			position++
		}
	}
	return tx.QueryRowContext(ctx, `UPDATE trades SET has_violations =
		EXISTS (SELECT 1 FROM trade_rule_evaluations WHERE trade_id = ? AND result = 'fail') WHERE id = ?
		RETURNING has_violations`, t.ID, t.ID).Scan(&t.review.hasViolations)
}

func ptrTo[T any](v T) *T { return &v }

// placeInDay finds the trade's place among its account's trades of its
// entry date, by entry time (then creation).
func placeInDay(ctx context.Context, tx txn, userID string, t *Trade) (dayFacts, error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, net_pnl FROM trades WHERE user_id = ? AND account_id = ? AND entry_date = ?
		ORDER BY coalesce(entry_time, ''), created_at, id`, userID, t.AccountID, t.EntryDate)
	if err != nil {
		return dayFacts{}, err
	}
	defer rows.Close()
	var day dayFacts
	for rows.Next() {
		var id string
		var net float64
		if err := rows.Scan(&id, &net); err != nil {
			return dayFacts{}, err
		}
		day.position++
		day.net = trading.Round8(day.net + net) // a sum of cents must not drift past a limit
		if id == t.ID {
			return day, rows.Close()
		}
	}
	return day, rows.Err()
}

// reevaluateDays checks the day-level rules again for the trades of the
// given days, but except, after a trade of theirs was saved, moved or
// deleted.
func (db *DB) reevaluateDays(ctx context.Context, tx txn, userID, except string, days ...dayKey) error {
	done := map[dayKey]bool{}
	for _, d := range days {
		if done[d] || d.accountID == "" {
			continue
		}
		done[d] = true
		ids, err := queryIDs(ctx, tx, `SELECT DISTINCT t.id FROM trades t JOIN trade_strategies ts ON ts.trade_id = t.id
			WHERE t.user_id = ? AND t.account_id = ? AND t.entry_date = ? AND t.id != ?`, userID, d.accountID, d.date, except)
		if err != nil {
			return err
		}
		for _, id := range ids {
			other, err := loadTrade(ctx, tx, userID, id)
			if err != nil {
				return err
			}
			if err := db.evaluateRules(ctx, tx, userID, &other, true); err != nil {
				return err
			}
		}
	}
	return nil
}
