package db

import (
	"context"
	"strings"
)

// StrategyFilter narrows a strategy list; zero fields do not filter.
type StrategyFilter struct {
	Type   string // one of StrategyTypes
	Search string // case-insensitive substring of the title or the description
}

// strategyWhere is the list's condition. Each filter is a fixed clause that
// an empty argument switches off, so the text never changes and the query
// stays a cached prepared statement.
const strategyWhere = `user_id = ? AND (? = '' OR type = ?)
	AND (? = '' OR title LIKE ? ESCAPE '\' OR description LIKE ? ESCAPE '\')`

func (f StrategyFilter) args(userID string) []any {
	pattern := ""
	if f.Search != "" {
		pattern = "%" + likeEscaper.Replace(f.Search) + "%"
	}
	return []any{userID, f.Type, f.Type, pattern, pattern, pattern}
}

// likeEscaper makes a search text match itself in LIKE … ESCAPE '\'.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// Strategies lists a page of the user's strategies matching f, newest
// first, with their rules and tags, and the total. Rules and tags load in
// one query each, whatever the page's size.
func (db *DB) Strategies(ctx context.Context, userID string, f StrategyFilter, page Page) ([]Strategy, int, error) {
	var total int
	out, err := inTx(ctx, db.beginRead, func(tx txn) ([]Strategy, error) {
		args := f.args(userID)
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM strategies WHERE `+strategyWhere, args...).Scan(&total); err != nil {
			return nil, err
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+strategyColumns+` FROM strategies WHERE `+strategyWhere+`
			ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, append(args, page.Limit, page.Offset)...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := []Strategy{}
		var ids []string
		for rows.Next() {
			s, err := scanStrategy(rows)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
			ids = append(ids, s.ID)
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		rules, err := loadRules(ctx, tx, ids)
		if err != nil {
			return nil, err
		}
		tags, err := loadTags(ctx, tx, strategyTags, ids)
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i].StrategyRules = rules[out[i].ID]
			out[i].Tags = tags[out[i].ID]
		}
		return out, nil
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}
