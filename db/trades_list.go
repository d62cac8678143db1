package db

import (
	"context"
	"strings"

	"tradejournal/db/trading"
)

// TradeFilter narrows a trade list; zero fields do not filter.
type TradeFilter struct {
	Symbol        string   // exact symbol, or every contract of a futures root
	TagIDs        []string // trades carrying any of these tags
	AccountID     string
	StartDate     string // entry date, inclusive
	EndDate       string // entry date, inclusive
	Status        string
	Side          string
	AssetClass    string
	PlaybookID    string
	MinPnL        *float64 // net
	MaxPnL        *float64 // net
	Reviewed      *bool
	MinRating     *int
	HasViolations *bool
	ImportID      string // trades holding a fill of this import
	// Day is a trade's day as the statistics bucket it: its exit's, in
	// the user's timezone (DESIGN §9); Closed leaves open trades out.
	Day    string
	Closed bool
	// IDs narrows the list to these trades (a page's, read at once).
	IDs []string
	// NotReviewedBefore, a time (TimeFormat), selects the trades not
	// reviewed, or reviewed at or after it: a review queue's, which keeps
	// the trades reviewed during its walk.
	NotReviewedBefore string
}

// unfiltered is the condition of a filter that only names the user, and
// byAccount the account filter's.
const (
	unfiltered = "t.user_id = ?"
	byAccount  = "t.account_id = ?"
)

// where builds the filter's SQL condition over trades t, with its arguments.
// Every value is a parameter; the text varies only with which filters are set.
func (f TradeFilter) where(userID string) (string, []any) {
	return f.conditions(userID, "t.entry_date")
}

// conditions is where with the start and end dates on dateColumn.
func (f TradeFilter) conditions(userID, dateColumn string) (string, []any) {
	conds := []string{unfiltered}
	args := []any{userID}
	add := func(cond string, a ...any) {
		conds = append(conds, cond)
		args = append(args, a...)
	}
	if f.Symbol != "" {
		s := trading.Normalise(f.Symbol)
		if root := trading.FuturesRoot(s); root == strings.TrimPrefix(s, "/") {
			// A bare root: the symbol itself, or every contract of the root.
			add("t.root = ? AND (t.asset_class = 'futures' OR t.symbol = ?)", root, s)
		} else {
			add("t.symbol = ?", s)
		}
	}
	if f.IDs != nil {
		add("t.id IN (SELECT value FROM json_each(?))", jsonList(f.IDs))
	}
	if len(f.TagIDs) > 0 {
		add("t.id IN (SELECT trade_id FROM trade_tags WHERE tag_id IN (SELECT value FROM json_each(?)))", jsonList(f.TagIDs))
	}
	for _, c := range []struct{ cond, value string }{
		{byAccount, f.AccountID},
		{dateColumn + " >= ?", f.StartDate},
		{dateColumn + " <= ?", f.EndDate},
		{"t.status = ?", f.Status},
		{"t.side = ?", f.Side},
		{"t.asset_class = ?", f.AssetClass},
		{"t.playbook_id = ?", f.PlaybookID},
		{"t.id IN (SELECT trade_id FROM executions WHERE import_id = ?)", f.ImportID},
		{"t.day = ?", f.Day},
	} {
		if c.value != "" {
			add(c.cond, c.value)
		}
	}
	if f.Closed {
		add("t.status <> 'open'")
	}
	if f.MinPnL != nil {
		add("t.net_pnl >= ?", *f.MinPnL)
	}
	if f.MaxPnL != nil {
		add("t.net_pnl <= ?", *f.MaxPnL)
	}
	if f.Reviewed != nil {
		if *f.Reviewed {
			add("t.reviewed_at IS NOT NULL")
		} else {
			add("t.reviewed_at IS NULL")
		}
	}
	if f.NotReviewedBefore != "" {
		add("(t.reviewed_at IS NULL OR t.reviewed_at >= ?)", f.NotReviewedBefore)
	}
	if f.MinRating != nil {
		add("t.star_rating >= ?", *f.MinRating)
	}
	if f.HasViolations != nil {
		add("t.has_violations = ?", *f.HasViolations)
	}
	return strings.Join(conds, " AND "), args
}

// source is the table the filter's list reads: a day's closed trades (Day
// and Closed, the day page's) through trades_closed, whose equality on the
// day finds them at once and leaves a few to sort, where the list's order
// would lead SQLite to walk every one of the user's trades in entry order.
func (f TradeFilter) source() string {
	if f.Day != "" && f.Closed {
		return "trades t INDEXED BY trades_closed"
	}
	return "trades t"
}

// documentCount is the column of a trade t's count of documents, read on
// trade_documents' primary key.
const documentCount = `(SELECT count(*) FROM trade_documents WHERE trade_id = t.id)`

// tradeOrder is the list order: newest entry first, stable by id.
const tradeOrder = `t.entry_date DESC, t.entry_time DESC, t.id DESC`

// Trades lists a page of the user's trades matching f, with their fills,
// document counts and tags, and the total. The page's ids are found on the
// index alone and only their rows are read (a deferred join), so a deep
// page costs little more than the first; fills and tags load in one query
// each.
func (db *DB) Trades(ctx context.Context, userID string, f TradeFilter, page Page) ([]Trade, int, error) {
	var total int
	out, err := inTx(ctx, db.beginRead, func(tx txn) ([]Trade, error) {
		where, args := f.where(userID)
		var err error
		if total, err = countTrades(ctx, tx, where, args); err != nil {
			return nil, err
		}
		rows, err := tx.QueryContext(ctx, pageQuery(tradeColumns+`, `+documentCount, f.source(), where, page),
			append(args, page.Limit, page.Offset)...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := []Trade{}
		var ids []string
		for rows.Next() {
			var documents int
			t, err := scanTrade(scanPlus{rows, []any{&documents}})
			if err != nil {
				return nil, err
			}
			t.DocumentCount = documents
			out = append(out, t)
			ids = append(ids, t.ID)
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		fills, err := loadExecutions(ctx, tx, ids)
		if err != nil {
			return nil, err
		}
		tags, err := loadTags(ctx, tx, tradeTags, ids)
		if err != nil {
			return nil, err
		}
		for i := range out {
			out[i].Executions = fills[out[i].ID]
			out[i].Tags = tags[out[i].ID]
		}
		return out, nil
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// pageQuery reads columns of the page of trades matching where, from
// source (TradeFilter.source); its last two parameters are the page's
// limit and offset.
func pageQuery(columns, source, where string, page Page) string {
	if page.Offset >= deferFrom {
		return `SELECT ` + columns + ` FROM trades t
			JOIN (SELECT t.id FROM ` + source + ` WHERE ` + where + ` ORDER BY ` + tradeOrder + `
			      LIMIT ? OFFSET ?) page ON page.id = t.id
			ORDER BY ` + tradeOrder
	}
	return `SELECT ` + columns + ` FROM ` + source + ` WHERE ` + where + ` ORDER BY ` + tradeOrder + ` LIMIT ? OFFSET ?`
}

// deferFrom is the offset from which a page's ids are found on the index
// alone before its rows are read (a deferred join): skipping rows on the
// index reads none of them, while for the first pages reading each row as
// the index finds it saves a second lookup per row.
const deferFrom = 500

// countTrades counts the trades matching where. Without a filter, or with
// only the account's, the count is the one the triggers of trade_counts
// keep; any other filter counts the entries of the index that serves it.
func countTrades(ctx context.Context, tx txn, where string, args []any) (int, error) {
	var total int
	var err error
	switch where {
	case unfiltered:
		err = tx.QueryRowContext(ctx, `SELECT coalesce(sum(trades), 0) FROM trade_counts WHERE user_id = ?`, args...).Scan(&total)
	case unfiltered + " AND " + byAccount:
		err = tx.QueryRowContext(ctx, `SELECT coalesce((SELECT trades FROM trade_counts WHERE user_id = ? AND account_id = ?), 0)`,
			args...).Scan(&total)
	default:
		err = tx.QueryRowContext(ctx, `SELECT count(*) FROM trades t WHERE `+where, args...).Scan(&total)
	}
	return total, err
}

// QueryPlan returns SQLite's plan for the list query of f, for tests that
// show the list never scans the whole table.
func (db *DB) QueryPlan(ctx context.Context, userID string, f TradeFilter, page Page) ([]string, error) {
	where, args := f.where(userID)
	return db.explain(ctx, `SELECT t.id FROM `+f.source()+` WHERE `+where+` ORDER BY `+tradeOrder+` LIMIT ? OFFSET ?`,
		append(args, page.Limit, page.Offset)...)
}

// explain returns the details of SQLite's plan for query.
func (db *DB) explain(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := db.read.QueryContext(ctx, `EXPLAIN QUERY PLAN `+query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			return nil, err
		}
		plan = append(plan, detail)
	}
	return plan, rows.Err()
}
