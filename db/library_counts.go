package db

import (
	"context"
	"database/sql"
	"errors"
	"strings"
)

// The counts here are what a playbook's, a strategy's, a tag's or a tag
// group's delete takes with it or unlinks, and how many trades an
// instrument's point value prices: the counts the deletes' warnings give,
// read before anything changes, for the pages' confirm steps. They only
// read.

// PlaybookDependents counts what DeletePlaybook unlinks: strategy links,
// the trades, trading plans and chart books that name it (they stay,
// without it), trades' checklist answers about its criteria, and its tag
// associations.
type PlaybookDependents struct {
	Strategies, Trades, TradingPlans, ChartBooks, Checks, TagLinks int
}

// playbookDependentsQuery counts a playbook's dependents, of the user's
// playbook only: what DeletePlaybook's warnings count.
const playbookDependentsQuery = `SELECT
	(SELECT count(*) FROM playbook_strategies WHERE playbook_id = p.id),
	(SELECT count(*) FROM trades WHERE playbook_id = p.id),
	(SELECT count(*) FROM trading_plans WHERE playbook_id = p.id),
	(SELECT count(*) FROM chart_books WHERE playbook_id = p.id),
	(SELECT count(*) FROM trade_criteria_checks k JOIN playbook_criteria c ON c.id = k.criterion_id
	 WHERE c.playbook_id = p.id),
	(SELECT count(*) FROM playbook_tags WHERE playbook_id = p.id)
	FROM playbooks p WHERE p.user_id = ? AND p.id = ?`

func scanPlaybookDependents(row *sql.Row) (PlaybookDependents, error) {
	var n PlaybookDependents
	err := row.Scan(&n.Strategies, &n.Trades, &n.TradingPlans, &n.ChartBooks, &n.Checks, &n.TagLinks)
	if errors.Is(err, sql.ErrNoRows) {
		return n, notFound("Playbook")
	}
	return n, err
}

// PlaybookDependents counts what deleting one of the user's playbooks
// unlinks, by the query DeletePlaybook's warnings count with.
func (db *DB) PlaybookDependents(ctx context.Context, userID, id string) (PlaybookDependents, error) {
	return scanPlaybookDependents(db.read.QueryRowContext(ctx, playbookDependentsQuery, userID, id))
}

// StrategyDependents counts what DeleteStrategy unlinks: the playbooks
// and trades that name it, and its tag associations.
type StrategyDependents struct {
	Playbooks, Trades, TagLinks int
}

// strategyDependentsQuery counts a strategy's dependents, of the user's
// strategy only: what DeleteStrategy's warnings count.
const strategyDependentsQuery = `SELECT
	(SELECT count(*) FROM playbook_strategies WHERE strategy_id = s.id),
	(SELECT count(*) FROM trade_strategies WHERE strategy_id = s.id),
	(SELECT count(*) FROM strategy_tags WHERE strategy_id = s.id)
	FROM strategies s WHERE s.user_id = ? AND s.id = ?`

func scanStrategyDependents(row *sql.Row) (StrategyDependents, error) {
	var n StrategyDependents
	err := row.Scan(&n.Playbooks, &n.Trades, &n.TagLinks)
	if errors.Is(err, sql.ErrNoRows) {
		return n, notFound("Strategy")
	}
	return n, err
}

// StrategyDependents counts what deleting one of the user's strategies
// unlinks, by the query DeleteStrategy's warnings count with.
func (db *DB) StrategyDependents(ctx context.Context, userID, id string) (StrategyDependents, error) {
	return scanStrategyDependents(db.read.QueryRowContext(ctx, strategyDependentsQuery, userID, id))
}

// TagUses counts the records a tag (or a group's tags) is on, by kind:
// what its delete removes the tag from. Tags is the group's number of
// tags (1 for a tag).
type TagUses struct {
	Tags                                            int
	Trades, Accounts, Playbooks, Strategies         int
	WriteUps, TradingPlans, ChartBooks, ReportCards int
}

// Links is every association counted, the number the delete's warning
// "Removed N tag associations" gives.
func (u TagUses) Links() int {
	return u.Trades + u.Accounts + u.Playbooks + u.Strategies + u.WriteUps + u.TradingPlans + u.ChartBooks + u.ReportCards
}

// tagUsesQuery counts the associations of the tags that cond (over tags
// t, of the arguments ?1 and ?2) picks, one column per join table, in the
// order of tagJoinTables, as countTagLinks adds them up.
func tagUsesQuery(cond string) string {
	parts := []string{`(SELECT count(*) FROM tags t WHERE ` + cond + `)`}
	for _, table := range tagJoinTables {
		parts = append(parts, `(SELECT count(*) FROM `+table+` WHERE tag_id IN (SELECT t.id FROM tags t WHERE `+cond+`))`)
	}
	return `SELECT ` + strings.Join(parts, ", ")
}

func scanTagUses(row *sql.Row) (TagUses, error) {
	var u TagUses
	// tagJoinTables: trade, account, playbook, strategy, write-up, trading
	// plan, chart book, report card.
	err := row.Scan(&u.Tags, &u.Trades, &u.Accounts, &u.Playbooks, &u.Strategies,
		&u.WriteUps, &u.TradingPlans, &u.ChartBooks, &u.ReportCards)
	return u, err
}

// TagUses counts what one of the user's tags is on.
func (db *DB) TagUses(ctx context.Context, userID, id string) (TagUses, error) {
	u, err := scanTagUses(db.read.QueryRowContext(ctx, tagUsesQuery("t.user_id = ?1 AND t.id = ?2"), userID, id))
	if err == nil && u.Tags == 0 {
		return TagUses{}, notFound("Tag")
	}
	return u, err
}

// TagGroupUses counts one of the user's tag groups' tags and what they
// are on.
func (db *DB) TagGroupUses(ctx context.Context, userID, id string) (TagUses, error) {
	var one int
	err := db.read.QueryRowContext(ctx, `SELECT 1 FROM tag_groups WHERE user_id = ? AND id = ?`, userID, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return TagUses{}, notFound("Tag group")
	}
	if err != nil {
		return TagUses{}, err
	}
	return scanTagUses(db.read.QueryRowContext(ctx, tagUsesQuery("t.user_id = ?1 AND t.tag_group_id = ?2"), userID, id))
}

// RootTrades counts the user's trades that root's point value prices: the
// trades SetInstrument and DeleteInstrument re-price.
func (db *DB) RootTrades(ctx context.Context, userID, root string) (int, error) {
	var n int
	err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM trades WHERE user_id = ? AND (root = ? OR symbol = ?)`,
		userID, root, root).Scan(&n)
	return n, err
}
