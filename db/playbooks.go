package db

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
)

// Playbook is a trader's written method for a setup: entry and exit
// criteria to check off, and the strategies it follows. Name is Title, as
// SPEC.md's read shape calls it.
type Playbook struct {
	ID              string             `json:"id"`
	Name            string             `json:"name"`
	Title           string             `json:"title"`
	Description     string             `json:"description"`
	ContentMarkdown string             `json:"content_markdown"`
	EntryCriteria   []Criterion        `json:"entry_criteria"`
	ExitCriteria    []Criterion        `json:"exit_criteria"`
	Strategies      []PlaybookStrategy `json:"strategies"`
	Tags            []TagRef           `json:"tags"`
	CreatedAt       string             `json:"created_at"`
	UpdatedAt       string             `json:"updated_at"`
}

// Criterion is one entry or exit criterion of a playbook; Order counts
// from 1 within its kind.
type Criterion struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Order       int    `json:"order"`
}

// PlaybookStrategy is a strategy as a playbook lists it.
type PlaybookStrategy struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	CreatedAt   string `json:"created_at"`
}

// PlaybookInput is the body of a playbook create or partial update. On
// create, absent fields take their defaults; on update they are untouched.
// StrategyIDs, EntryCriteria and ExitCriteria given replace their sets;
// the criteria are decoded and validated by the caller, element by element.
type PlaybookInput struct {
	Title           Optional[string]           `json:"title"`
	Description     Optional[string]           `json:"description"`
	ContentMarkdown Optional[string]           `json:"content_markdown"`
	StrategyIDs     Optional[[]string]         `json:"strategy_ids"`
	EntryCriteria   Optional[[]CriterionInput] `json:"-"`
	ExitCriteria    Optional[[]CriterionInput] `json:"-"`
	TagIDs          Optional[[]string]         `json:"tag_ids"`
}

// CriterionInput is one criterion of a playbook body: a description, and
// the id of the criterion it keeps, when it is one of the playbook's (so
// trades' checklist answers about it survive the edit).
type CriterionInput struct {
	ID          string
	Description string
}

const playbookColumns = `id, title, description, content_markdown, created_at, updated_at`

func scanPlaybook(s interface{ Scan(...any) error }) (Playbook, error) {
	var p Playbook
	err := s.Scan(&p.ID, &p.Title, &p.Description, &p.ContentMarkdown, &p.CreatedAt, &p.UpdatedAt)
	p.Name = p.Title
	return p, err
}

// apply copies the fields set in in onto p; null clears a text to "".
func (in *PlaybookInput) apply(p *Playbook) {
	if in.Title.Set {
		p.Title, p.Name = in.Title.Value, in.Title.Value
	}
	if in.Description.Set {
		p.Description = in.Description.Value
	}
	if in.ContentMarkdown.Set {
		p.ContentMarkdown = in.ContentMarkdown.Value
	}
}

// CreatePlaybook adds a playbook for the user with its criteria, strategy
// links and tags. A strategy id that is not one of the user's is a
// *NotFoundError naming strategy_ids.
func (db *DB) CreatePlaybook(ctx context.Context, userID string, in PlaybookInput) (Playbook, error) {
	now := db.now()
	p := Playbook{ID: db.NewID(), CreatedAt: now, UpdatedAt: now}
	in.apply(&p)
	return inTx(ctx, db.begin, func(tx txn) (Playbook, error) {
		var err error
		if _, err := tx.ExecContext(ctx, `INSERT INTO playbooks (user_id, `+playbookColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			userID, p.ID, p.Title, p.Description, p.ContentMarkdown, p.CreatedAt, p.UpdatedAt); err != nil {
			return Playbook{}, err
		}
		if err := db.setPlaybookParts(ctx, tx, userID, p.ID, in); err != nil {
			return Playbook{}, err
		}
		p, err = loadPlaybook(ctx, tx, userID, p.ID)
		if err != nil {
			return Playbook{}, err
		}
		return p, nil
	})
}

// Playbook reads one of the user's playbooks with its criteria, strategies
// and tags.
func (db *DB) Playbook(ctx context.Context, userID, id string) (Playbook, error) {
	return inTx(ctx, db.beginRead, func(tx txn) (Playbook, error) {
		return loadPlaybook(ctx, tx, userID, id)
	})
}

// UpdatePlaybook changes the fields set in in. Criteria not given keep
// their ids and order; criteria given are renumbered with new ids.
func (db *DB) UpdatePlaybook(ctx context.Context, userID, id string, in PlaybookInput) (Playbook, error) {
	return inTx(ctx, db.begin, func(tx txn) (Playbook, error) {
		p, err := scanPlaybook(tx.QueryRowContext(ctx,
			`SELECT `+playbookColumns+` FROM playbooks WHERE user_id = ? AND id = ?`, userID, id))
		if errors.Is(err, sql.ErrNoRows) {
			return Playbook{}, notFound("Playbook")
		}
		if err != nil {
			return Playbook{}, err
		}
		in.apply(&p)
		p.UpdatedAt = db.now()
		if _, err := tx.ExecContext(ctx, `UPDATE playbooks SET title = ?, description = ?, content_markdown = ?,
			updated_at = ? WHERE user_id = ? AND id = ?`,
			p.Title, p.Description, p.ContentMarkdown, p.UpdatedAt, userID, id); err != nil {
			return Playbook{}, err
		}
		if err := db.setPlaybookParts(ctx, tx, userID, id, in); err != nil {
			return Playbook{}, err
		}
		p, err = loadPlaybook(ctx, tx, userID, id)
		if err != nil {
			return Playbook{}, err
		}
		return p, nil
	})
}

// setPlaybookParts replaces the criteria, strategy links and tags that in
// gives.
func (db *DB) setPlaybookParts(ctx context.Context, tx txn, userID, id string, in PlaybookInput) error {
	if err := db.setCriteria(ctx, tx, id, "entry", in.EntryCriteria); err != nil {
		return err
	}
	if err := db.setCriteria(ctx, tx, id, "exit", in.ExitCriteria); err != nil {
		return err
	}
	if err := playbookStrategies.set(ctx, tx, userID, id, in.StrategyIDs); err != nil {
		return err
	}
	return replaceTags(ctx, tx, userID, playbookTags, id, in.TagIDs)
}

// DeletePlaybook removes one of the user's playbooks with its criteria,
// strategy links and tag associations, in one transaction. Trades, trading
// plans and chart books that named it are kept, their playbook_id set to
// null (by the foreign keys); trades lose their checklist entries of its
// criteria. The warnings count each of these.
func (db *DB) DeletePlaybook(ctx context.Context, userID, id string) (Deleted, error) {
	return inTx(ctx, db.begin, func(tx txn) (Deleted, error) {
		n, err := scanPlaybookDependents(tx.QueryRowContext(ctx, playbookDependentsQuery, userID, id))
		if err != nil {
			return Deleted{}, err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM playbooks WHERE user_id = ? AND id = ?`, userID, id); err != nil {
			return Deleted{}, err
		}
		d := Deleted{ID: id, Warnings: []string{}}
		for _, w := range []struct {
			n                   int
			prefix, one, plural string
		}{
			{n.Strategies, "Unlinked ", "strategy", "strategies"},
			{n.Trades, "Cleared the playbook of ", "trade", "trades"},
			{n.TradingPlans, "Cleared the playbook of ", "trading plan", "trading plans"},
			{n.ChartBooks, "Cleared the playbook of ", "chart book", "chart books"},
			{n.Checks, "Removed ", "criteria checklist entry", "criteria checklist entries"},
			{n.TagLinks, "Removed ", "tag association", "tag associations"},
		} {
			if w.n == 1 {
				d.Warnings = append(d.Warnings, w.prefix+"1 "+w.one)
			} else if w.n > 1 {
				d.Warnings = append(d.Warnings, w.prefix+strconv.Itoa(w.n)+" "+w.plural)
			}
		}
		return d, nil
	})
}
