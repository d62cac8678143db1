package db

import (
	"context"
	"database/sql"
	"errors"
)

// Strategy is a set of rules a trader follows: for entries, exits, managing
// a trade or managing risk. Playbooks link strategies, and trades name the
// risk-management strategies they are checked against.
type Strategy struct {
	ID              string         `json:"id"`
	Title           string         `json:"title"`
	Description     string         `json:"description"`
	Type            string         `json:"type"`
	ContentMarkdown string         `json:"content_markdown"`
	StrategyRules   []StrategyRule `json:"strategy_rules"`
	Tags            []TagRef       `json:"tags"`
	CreatedAt       string         `json:"created_at"`
	UpdatedAt       string         `json:"updated_at"`
}

// StrategyRule is one rule of a strategy. Check, when set, makes the rule
// machine-checkable; a rule without one is for the trader to judge.
type StrategyRule struct {
	ID          string     `json:"id"`
	Description string     `json:"description"`
	Category    string     `json:"category"`
	SortOrder   int        `json:"sort_order"`
	Severity    string     `json:"severity"`
	Check       *RuleCheck `json:"check"`
}

// StrategyInput is the body of a strategy create or partial update. On
// create, absent fields take their defaults; on update they are untouched.
// StrategyRules is decoded and validated by the caller, rule by rule; given,
// it replaces the strategy's rules.
type StrategyInput struct {
	Title           Optional[string]      `json:"title"`
	Description     Optional[string]      `json:"description"`
	Type            Optional[string]      `json:"type"`
	ContentMarkdown Optional[string]      `json:"content_markdown"`
	StrategyRules   Optional[[]RuleInput] `json:"-"`
	TagIDs          Optional[[]string]    `json:"tag_ids"`
}

// RuleInput is one validated rule of a strategy body.
type RuleInput struct {
	ID          string // kept when it names a rule of the same strategy; else the rule gets a new id
	Description string
	Category    string
	SortOrder   *int   // nil: the rule's index in the body's array
	Severity    string // "" is warning
	Check       *RuleCheck
}

// Enumerations of strategies.
var (
	StrategyTypes  = []string{"entry", "exit", "trade_management", "risk_management"}
	RuleSeverities = []string{"warning", "critical"}
)

const strategyColumns = `id, title, description, type, content_markdown, created_at, updated_at`

func scanStrategy(s interface{ Scan(...any) error }) (Strategy, error) {
	var st Strategy
	err := s.Scan(&st.ID, &st.Title, &st.Description, &st.Type, &st.ContentMarkdown, &st.CreatedAt, &st.UpdatedAt)
	return st, err
}

// apply copies the fields set in in onto s; null clears a text to "".
func (in *StrategyInput) apply(s *Strategy) {
	if in.Title.Set {
		s.Title = in.Title.Value
	}
	if in.Description.Set {
		s.Description = in.Description.Value
	}
	if in.Type.Set && !in.Type.Null {
		s.Type = in.Type.Value
	}
	if in.ContentMarkdown.Set {
		s.ContentMarkdown = in.ContentMarkdown.Value
	}
}

// CreateStrategy adds a strategy for the user with its rules and tags.
func (db *DB) CreateStrategy(ctx context.Context, userID string, in StrategyInput) (Strategy, error) {
	now := db.now()
	s := Strategy{ID: db.NewID(), Type: "risk_management", CreatedAt: now, UpdatedAt: now}
	in.apply(&s)
	return inTx(ctx, db.begin, func(tx txn) (Strategy, error) {
		var err error
		if _, err := tx.ExecContext(ctx, `INSERT INTO strategies (user_id, `+strategyColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			userID, s.ID, s.Title, s.Description, s.Type, s.ContentMarkdown, s.CreatedAt, s.UpdatedAt); err != nil {
			return Strategy{}, err
		}
		if s.StrategyRules, err = db.setRules(ctx, tx, s.ID, in.StrategyRules); err != nil {
			return Strategy{}, err
		}
		if s.Tags, err = setTags(ctx, tx, userID, strategyTags, s.ID, in.TagIDs); err != nil {
			return Strategy{}, err
		}
		return s, nil
	})
}

// Strategy reads one of the user's strategies with its rules and tags.
func (db *DB) Strategy(ctx context.Context, userID, id string) (Strategy, error) {
	return inTx(ctx, db.beginRead, func(tx txn) (Strategy, error) {
		s, err := loadStrategy(ctx, tx, userID, id)
		if err != nil {
			return Strategy{}, err
		}
		if s.StrategyRules, err = loadOneRuleSet(ctx, tx, id); err != nil {
			return Strategy{}, err
		}
		tags, err := loadTags(ctx, tx, strategyTags, []string{id})
		s.Tags = tags[id]
		return s, err
	})
}

// loadStrategy reads one of the user's strategies without its rules and tags.
func loadStrategy(ctx context.Context, q querier, userID, id string) (Strategy, error) {
	s, err := scanStrategy(q.QueryRowContext(ctx,
		`SELECT `+strategyColumns+` FROM strategies WHERE user_id = ? AND id = ?`, userID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Strategy{}, notFound("Strategy")
	}
	return s, err
}

// UpdateStrategy changes the fields set in in; rules given replace the set.
func (db *DB) UpdateStrategy(ctx context.Context, userID, id string, in StrategyInput) (Strategy, error) {
	return inTx(ctx, db.begin, func(tx txn) (Strategy, error) {
		s, err := loadStrategy(ctx, tx, userID, id)
		if err != nil {
			return Strategy{}, err
		}
		in.apply(&s)
		s.UpdatedAt = db.now()
		if _, err := tx.ExecContext(ctx, `UPDATE strategies SET title = ?, description = ?, type = ?,
			content_markdown = ?, updated_at = ? WHERE user_id = ? AND id = ?`,
			s.Title, s.Description, s.Type, s.ContentMarkdown, s.UpdatedAt, userID, id); err != nil {
			return Strategy{}, err
		}
		if s.StrategyRules, err = db.setRules(ctx, tx, id, in.StrategyRules); err != nil {
			return Strategy{}, err
		}
		if s.Tags, err = setTags(ctx, tx, userID, strategyTags, id, in.TagIDs); err != nil {
			return Strategy{}, err
		}
		return s, nil
	})
}

// DeleteStrategy removes one of the user's strategies with its rules, its
// links to playbooks and trades and its tag associations, in one
// transaction; the warnings count the links. Rule evaluations of trades keep
// their snapshot of the rule and lose only the reference.
func (db *DB) DeleteStrategy(ctx context.Context, userID, id string) (Deleted, error) {
	return inTx(ctx, db.begin, func(tx txn) (Deleted, error) {
		n, err := scanStrategyDependents(tx.QueryRowContext(ctx, strategyDependentsQuery, userID, id))
		if err != nil {
			return Deleted{}, err
		}
		// The links and the rules go by ON DELETE CASCADE.
		if _, err := tx.ExecContext(ctx, `DELETE FROM strategies WHERE user_id = ? AND id = ?`, userID, id); err != nil {
			return Deleted{}, err
		}
		d := Deleted{ID: id, Warnings: []string{}}
		d.note("Removed from", n.Playbooks, "playbook")
		d.note("Removed from", n.Trades, "trade")
		d.note("Removed", n.TagLinks, "tag association")
		return d, nil
	})
}
