package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"

	"tradejournal/db/trading"
)

// Trade is a trade as listed and created: its own fields, its fills, how
// many documents it links to, and its tags.
type Trade struct {
	ID              string      `json:"id"`
	AccountID       string      `json:"account_id"`
	Symbol          string      `json:"symbol"`
	Side            string      `json:"side"`
	Quantity        float64     `json:"quantity"`
	EntryPrice      float64     `json:"entry_price"`
	ExitPrice       *float64    `json:"exit_price"`
	EntryDate       string      `json:"entry_date"`
	EntryTime       *string     `json:"entry_time"`
	ExitDate        *string     `json:"exit_date"`
	ExitTime        *string     `json:"exit_time"`
	GrossPnL        float64     `json:"gross_pnl"`
	NetPnL          float64     `json:"net_pnl"`
	TotalCommission float64     `json:"total_commission"`
	Status          string      `json:"status"`
	AssetClass      string      `json:"asset_class"`
	PointValue      float64     `json:"point_value"`
	Executions      []Execution `json:"executions"`
	DocumentCount   int         `json:"document_count"` // documents linked to it (DESIGN §13)
	Tags            []TagRef    `json:"tags"`
	CreatedAt       string      `json:"created_at"`
	UpdatedAt       string      `json:"updated_at"`

	// Kept for the derivation, not served: the root the point value was
	// looked up by, and what the client set by hand.
	root           string
	statusOverride *string
	assetClassSet  bool
	exitDateSet    bool   // exit_date is the client's, not the entry date by default
	derivedStatus  string // the status without the override
	review         tradeReview
	stored         tradeKeys // the indexed columns as read, zero for a trade not read
	day            string    // the day the statistics count it on (stats.Day)
	holdSeconds    *int64    // from entry to exit; nil while open or unknown
}

// tradeKeys are the columns of a trade its indexes are built from, in two
// groups: SQLite rewrites the entries of every index whose column an
// UPDATE sets, changed or not, so a save sets a group only when it changed.
type tradeKeys struct {
	read   bool
	list   listKeys
	totals totalKeys
}

// listKeys are the columns of the list's indexes (trades_list, _account,
// _symbol, _root) and trades_playbook.
type listKeys struct {
	accountID, symbol, root, entryDate, entryTime, playbookID, assetClass string
	hasEntryTime, hasPlaybook                                             bool
}

// totalKeys are the columns of the statistics' indexes (trades_closed,
// trades_open).
type totalKeys struct {
	day, exitTime, status             string
	grossPnL, netPnL, totalCommission float64
	rRatio                            float64
	holdSeconds                       int64
	hasExitTime, hasRRatio, hasHold   bool
}

func (t *Trade) keys() tradeKeys {
	return tradeKeys{
		read: true,
		list: listKeys{accountID: t.AccountID, symbol: t.Symbol, root: t.root, entryDate: t.EntryDate,
			entryTime: deref(t.EntryTime), hasEntryTime: t.EntryTime != nil,
			playbookID: deref(t.review.playbookID), hasPlaybook: t.review.playbookID != nil, assetClass: t.AssetClass},
		totals: totalKeys{day: t.day, exitTime: deref(t.ExitTime), hasExitTime: t.ExitTime != nil, status: t.Status,
			grossPnL: t.GrossPnL, netPnL: t.NetPnL, totalCommission: t.TotalCommission,
			rRatio: deref(t.review.rRatio), hasRRatio: t.review.rRatio != nil,
			holdSeconds: deref(t.holdSeconds), hasHold: t.holdSeconds != nil},
	}
}

// Execution is one fill of a trade.
type Execution struct {
	ID                 string  `json:"id"`
	Side               string  `json:"side"`
	Price              float64 `json:"price"`
	Quantity           float64 `json:"quantity"`
	Commission         float64 `json:"commission"`
	ExecutionDate      string  `json:"execution_date"`
	ExecutionTime      string  `json:"execution_time"`
	ExecutionType      string  `json:"execution_type"`
	ExecutionTimestamp string  `json:"execution_timestamp"`

	clientType string // the execution_type the client sent, "" to derive it
	sourceID   string // the id the fill's source gave it; "" for a fill entered through the API, whose source id is its id
	importID   *string
}

// EnrichedTrade is the single-trade read: the trade with its review, its
// account's details, its risk-rule evaluations and its documents.
type EnrichedTrade struct {
	Trade
	TradeDetails
}

// TradeDetails are what the single-trade read adds to the trade, in the
// order it answers them, after the trade's own fields.
type TradeDetails struct {
	StarRating                         *int             `json:"star_rating"`
	ReviewNotes                        json.RawMessage  `json:"review_notes"`
	StopLossLevels                     []trading.Level  `json:"stop_loss_levels"`
	TakeProfitLevels                   []trading.Level  `json:"take_profit_levels"`
	RRatio                             *float64         `json:"r_ratio"`
	RRatioBasis                        *string          `json:"r_ratio_basis"`
	PlaybookID                         *string          `json:"playbook_id"`
	CriteriaChecklist                  []ChecklistItem  `json:"criteria_checklist"`
	ReviewedAt                         *string          `json:"reviewed_at"`
	AccountNumber                      string           `json:"account_number"`
	PropFirm                           *string          `json:"prop_firm"`
	FirmsLogo                          *string          `json:"firms_logo"`
	RiskManagementStrategyIDs          []string         `json:"risk_management_strategy_ids"`
	TradeGroupRiskManagementStrategies []TradeStrategy  `json:"trade_group_risk_management_strategies"`
	TradeRuleEvaluations               []RuleEvaluation `json:"trade_rule_evaluations"`
	Playbooks                          *PlaybookRef     `json:"playbooks"`
	DocumentIDs                        []string         `json:"document_ids"`
	Documents                          []TradeDocument  `json:"documents"` // in DocumentIDs' order
}

// PlaybookRef names a trade's playbook.
type PlaybookRef struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// TradeInput is the body of a trade create or partial update.
type TradeInput struct {
	AccountID  Optional[string]           `json:"account_id"`
	Symbol     Optional[string]           `json:"symbol"`
	Side       Optional[string]           `json:"side"`
	Quantity   Optional[float64]          `json:"quantity"`
	EntryPrice Optional[float64]          `json:"entry_price"`
	ExitPrice  Optional[float64]          `json:"exit_price"`
	EntryDate  Optional[string]           `json:"entry_date"`
	EntryTime  Optional[string]           `json:"entry_time"`
	ExitDate   Optional[string]           `json:"exit_date"`
	ExitTime   Optional[string]           `json:"exit_time"`
	Status     Optional[string]           `json:"status"`
	AssetClass Optional[string]           `json:"asset_class"`
	Executions Optional[[]ExecutionInput] `json:"executions"`
	TagIDs     Optional[[]string]         `json:"tag_ids"`
	// DocumentIDs given replaces the trade's documents, in its order; each
	// must be one of the user's documents, else a *NotFoundError naming
	// its place, "document_ids[1]".
	DocumentIDs Optional[[]string] `json:"document_ids"`

	// The review. The arrays of objects are decoded element by element
	// by the caller, so that errors name the element.
	StarRating                Optional[int]              `json:"star_rating"`
	ReviewNotes               Optional[json.RawMessage]  `json:"review_notes"`
	StopLossLevels            Optional[[]trading.Level]  `json:"-"`
	TakeProfitLevels          Optional[[]trading.Level]  `json:"-"`
	PlaybookID                Optional[string]           `json:"playbook_id"`
	CriteriaChecklist         Optional[[]CriterionCheck] `json:"-"`
	Reviewed                  Optional[bool]             `json:"reviewed"`
	RiskManagementStrategyIDs Optional[[]string]         `json:"risk_management_strategy_ids"`
}

// ExecutionInput is one fill in a trade body.
type ExecutionInput struct {
	Side               Optional[string]  `json:"side"`
	Price              Optional[float64] `json:"price"`
	Quantity           Optional[float64] `json:"quantity"`
	Commission         Optional[float64] `json:"commission"`
	ExecutionDate      Optional[string]  `json:"execution_date"`
	ExecutionTime      Optional[string]  `json:"execution_time"`
	ExecutionType      Optional[string]  `json:"execution_type"`
	ExecutionTimestamp Optional[string]  `json:"execution_timestamp"`
}

// Enumerations of trades.
var (
	TradeSides     = []string{"long", "short"}
	TradeStatuses  = []string{"open", "win", "loss", "breakeven"}
	AssetClasses   = []string{trading.AssetFutures, trading.AssetOptions, trading.AssetForex, trading.AssetCrypto, trading.AssetStocks}
	ExecutionSides = []string{"buy", "sell"}
	ExecutionTypes = []string{"scale_in", "scale_out", "full"}
)

const tradeColumns = `t.id, t.account_id, t.symbol, t.root, t.side, t.quantity, t.entry_price, t.exit_price,
	t.entry_date, t.entry_time, t.exit_date, t.exit_time, t.gross_pnl, t.net_pnl, t.total_commission,
	t.status, t.status_override, t.asset_class, t.asset_class_set, t.point_value, t.created_at, t.updated_at,
	t.star_rating, t.review_notes, t.stop_loss_levels, t.take_profit_levels, t.playbook_id, t.reviewed_at,
	t.r_ratio, t.has_violations, t.exit_date_set, t.day, t.hold_seconds`

func scanTrade(s interface{ Scan(...any) error }) (Trade, error) {
	var t Trade
	err := s.Scan(&t.ID, &t.AccountID, &t.Symbol, &t.root, &t.Side, &t.Quantity, &t.EntryPrice, &t.ExitPrice,
		&t.EntryDate, &t.EntryTime, &t.ExitDate, &t.ExitTime, &t.GrossPnL, &t.NetPnL, &t.TotalCommission,
		&t.Status, &t.statusOverride, &t.AssetClass, &t.assetClassSet, &t.PointValue, &t.CreatedAt, &t.UpdatedAt,
		&t.review.starRating, &t.review.reviewNotes, &t.review.stops, &t.review.targets, &t.review.playbookID,
		&t.review.reviewedAt, &t.review.rRatio, &t.review.hasViolations, &t.exitDateSet, &t.day, &t.holdSeconds)
	t.stored = t.keys()
	return t, err
}

// CreateTrade records a trade with its fills, deriving every computed field,
// in one transaction.
func (db *DB) CreateTrade(ctx context.Context, userID string, in TradeInput) (Trade, error) {
	return inTx(ctx, db.begin, func(tx txn) (Trade, error) {
		var err error
		now := db.now()
		t := Trade{ID: db.NewID(), CreatedAt: now, UpdatedAt: now, review: tradeReview{stops: levels{}, targets: levels{}}}
		if err := db.applyTrade(ctx, tx, userID, &t, in); err != nil {
			return Trade{}, err
		}
		if err := insertTrade(ctx, tx, userID, &t); err != nil {
			return Trade{}, err
		}
		// A new trade has the tags it was given: none unless some were.
		t.Tags = []TagRef{}
		if len(in.TagIDs.Value) > 0 {
			if t.Tags, err = setTags(ctx, tx, userID, tradeTags, t.ID, in.TagIDs); err != nil {
				return Trade{}, err
			}
		}
		if err := tradeDocuments.set(ctx, tx, userID, t.ID, in.DocumentIDs); err != nil {
			return Trade{}, err
		}
		t.DocumentCount = len(uniqueInOrder(in.DocumentIDs.Value))
		if err := db.saveReviewLinks(ctx, tx, userID, &t, in, dayKey{}); err != nil {
			return Trade{}, err
		}
		return t, nil
	})
}

// insertTrade writes a new, derived trade and its fills.
func insertTrade(ctx context.Context, tx txn, userID string, t *Trade) error {
	listing, err := encodeListing(t)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO trades (user_id, id, account_id, symbol, root, side, quantity,
		entry_price, exit_price, entry_date, entry_time, exit_date, exit_time, gross_pnl, net_pnl, total_commission,
		status, status_override, asset_class, asset_class_set, point_value, created_at, updated_at,
		star_rating, review_notes, stop_loss_levels, take_profit_levels, playbook_id, reviewed_at, r_ratio, exit_date_set,
		day, hold_seconds, listing)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		userID, t.ID, t.AccountID, t.Symbol, t.root, t.Side, t.Quantity, t.EntryPrice, t.ExitPrice,
		t.EntryDate, t.EntryTime, t.ExitDate, t.ExitTime, t.GrossPnL, t.NetPnL, t.TotalCommission,
		t.Status, t.statusOverride, t.AssetClass, t.assetClassSet, t.PointValue, t.CreatedAt, t.UpdatedAt,
		t.review.starRating, t.review.reviewNotes, t.review.stops, t.review.targets, t.review.playbookID,
		t.review.reviewedAt, t.review.rRatio, t.exitDateSet, t.day, t.holdSeconds, listing)
	if err != nil {
		return err
	}
	return insertExecutions(ctx, tx, t.ID, t.Executions)
}

// UpdateTrade changes the fields given in in (executions given replace the
// set), re-derives the computed fields, and returns the enriched trade.
func (db *DB) UpdateTrade(ctx context.Context, userID, id string, in TradeInput) (EnrichedTrade, error) {
	// Fills the body replaces are not read.
	load := loadTrade
	if in.Executions.Set {
		load = loadTradeRow
	}
	return inTx(ctx, db.begin, func(tx txn) (EnrichedTrade, error) {
		t, err := load(ctx, tx, userID, id)
		if err != nil {
			return EnrichedTrade{}, err
		}
		t.UpdatedAt = db.now()
		before := dayKey{t.AccountID, t.EntryDate}
		if err := db.applyTrade(ctx, tx, userID, &t, in); err != nil {
			return EnrichedTrade{}, err
		}
		if err := saveTrade(ctx, tx, userID, &t, in.Executions.Set); err != nil {
			return EnrichedTrade{}, err
		}
		if err := replaceTags(ctx, tx, userID, tradeTags, t.ID, in.TagIDs); err != nil {
			return EnrichedTrade{}, err
		}
		if err := tradeDocuments.set(ctx, tx, userID, t.ID, in.DocumentIDs); err != nil {
			return EnrichedTrade{}, err
		}
		if err := db.saveReviewLinks(ctx, tx, userID, &t, in, before); err != nil {
			return EnrichedTrade{}, err
		}
		return savedTrade(ctx, tx, t)
	})
}

// saveTrade writes a loaded trade's fields and listing back, and its fills
// when they were replaced (otherwise only their derived types and order may
// change).
func saveTrade(ctx context.Context, tx txn, userID string, t *Trade, replaceFills bool) error {
	listing, err := encodeListing(t)
	if err != nil {
		return err
	}
	// One statement, which sets the indexed columns a group at a time,
	// only when changed (tradeKeys); the account and the playbook, each the
	// key of indexes of their own (and the account that of the count
	// trigger), each alone.
	keys, stored := t.keys(), t.stored
	all := !stored.read
	set := []byte(`UPDATE trades SET side = ?, quantity = ?, entry_price = ?, exit_price = ?,
		exit_date = ?, status_override = ?, asset_class_set = ?, point_value = ?, updated_at = ?, star_rating = ?,
		review_notes = ?, stop_loss_levels = ?, take_profit_levels = ?, reviewed_at = ?, exit_date_set = ?, listing = ?`)
	args := []any{t.Side, t.Quantity, t.EntryPrice, t.ExitPrice, t.ExitDate, t.statusOverride, t.assetClassSet, t.PointValue,
		t.UpdatedAt, t.review.starRating, t.review.reviewNotes, t.review.stops, t.review.targets, t.review.reviewedAt,
		t.exitDateSet, listing}
	list, was := keys.list, stored.list
	if all || list.symbol != was.symbol || list.root != was.root || list.entryDate != was.entryDate ||
		list.entryTime != was.entryTime || list.hasEntryTime != was.hasEntryTime || list.assetClass != was.assetClass {
		set = append(set, `, symbol = ?, root = ?, entry_date = ?, entry_time = ?, asset_class = ?`...)
		args = append(args, t.Symbol, t.root, t.EntryDate, t.EntryTime, t.AssetClass)
	}
	if all || list.accountID != was.accountID {
		set = append(set, `, account_id = ?`...)
		args = append(args, t.AccountID)
	}
	if all || list.playbookID != was.playbookID || list.hasPlaybook != was.hasPlaybook {
		set = append(set, `, playbook_id = ?`...)
		args = append(args, t.review.playbookID)
	}
	if all || keys.totals != stored.totals {
		set = append(set, `, exit_time = ?, gross_pnl = ?, net_pnl = ?, total_commission = ?, status = ?, r_ratio = ?,
		day = ?, hold_seconds = ?`...)
		args = append(args, t.ExitTime, t.GrossPnL, t.NetPnL, t.TotalCommission, t.Status, t.review.rRatio, t.day, t.holdSeconds)
	}
	set = append(set, ` WHERE user_id = ? AND id = ?`...)
	if _, err := tx.ExecContext(ctx, string(set), append(args, userID, t.ID)...); err != nil {
		return err
	}
	t.stored = keys
	if replaceFills {
		// The new fills go in before the old ones go. A trade's fills are
		// often all the last page of the table and its indexes holds (the
		// trade a script has just created): deleting them first would free
		// those pages only for the insert to take them back, and SQLite
		// would write each, its parent and the free list.
		if err := insertExecutions(ctx, tx, t.ID, t.Executions); err != nil {
			return err
		}
		ids := make([]string, len(t.Executions))
		for i, e := range t.Executions {
			ids[i] = e.ID
		}
		_, err := tx.ExecContext(ctx, `DELETE FROM executions WHERE trade_id = ? AND id NOT IN (SELECT value FROM json_each(?))`,
			t.ID, jsonList(ids))
		return err
	}
	stmt, err := tx.stmt(ctx, `UPDATE executions SET execution_type = ?, position = ? WHERE id = ?`)
	if err != nil {
		return err
	}
	for i, e := range t.Executions {
		if _, err := stmt.ExecContext(ctx, e.ExecutionType, i, e.ID); err != nil {
			return err
		}
	}
	return nil
}

// insertExecutions writes a trade's fills, up to fillsPerInsert to a
// statement, so that a trade's fills cost one statement in the writer's
// turn, not one each.
func insertExecutions(ctx context.Context, tx txn, tradeID string, fills []Execution) error {
	for at := 0; at < len(fills); at += fillsPerInsert {
		chunk := fills[at:min(at+fillsPerInsert, len(fills))]
		var args []any
		for i, e := range chunk {
			source := e.sourceID
			if source == "" {
				source = e.ID
			}
			args = append(args, e.ID, tradeID, at+i, e.Side, e.Price, e.Quantity, e.Commission,
				e.ExecutionDate, e.ExecutionTime, e.ExecutionType, e.ExecutionTimestamp, source, e.importID)
		}
		if _, err := tx.ExecContext(ctx, insertExecutionsSQL(len(chunk)), args...); err != nil {
			return err
		}
	}
	return nil
}

const (
	fillsPerInsert         = 8
	executionInsertColumns = `id, trade_id, position, side, price, quantity, commission, execution_date, execution_time, execution_type, execution_timestamp, source_id, import_id`
)

// insertExecutionsSQL inserts n fills, each bound as executionInsertColumns.
func insertExecutionsSQL(n int) string {
	row := `, (?` + strings.Repeat(", ?", strings.Count(executionInsertColumns, ",")) + `)`
	return `INSERT INTO executions (` + executionInsertColumns + `) VALUES ` + strings.Repeat(row, n)[2:]
}

// loadTrade reads one of the user's trades with its fills.
func loadTrade(ctx context.Context, q querier, userID, id string) (Trade, error) {
	t, err := loadTradeRow(ctx, q, userID, id)
	if err != nil {
		return Trade{}, err
	}
	fills, err := loadExecutions(ctx, q, []string{id})
	t.Executions = fills[id]
	return t, err
}

// loadTradeRow reads one of the user's trades without its fills.
func loadTradeRow(ctx context.Context, q querier, userID, id string) (Trade, error) {
	t, err := scanTrade(q.QueryRowContext(ctx, `SELECT `+tradeColumns+` FROM trades t WHERE t.user_id = ? AND t.id = ?`, userID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Trade{}, notFound("Trade")
	}
	return t, err
}

// loadTrades reads trades by id with their fills, in one query each. The
// ids are not checked against a user: the caller found them among one
// user's trades, or lists every user's.
func loadTrades(ctx context.Context, q querier, ids []string) ([]Trade, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+tradeColumns+` FROM trades t WHERE t.id IN (SELECT value FROM json_each(?))`,
		jsonList(ids))
	if err != nil {
		return nil, err
	}
	var out []Trade
	for rows.Next() {
		t, err := scanTrade(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	fills, err := loadExecutions(ctx, q, ids)
	for i := range out {
		out[i].Executions = fills[out[i].ID]
	}
	return out, err
}

// loadExecutions reads the fills of many trades in one query.
func loadExecutions(ctx context.Context, q querier, tradeIDs []string) (map[string][]Execution, error) {
	out := make(map[string][]Execution, len(tradeIDs))
	for _, id := range tradeIDs {
		out[id] = []Execution{}
	}
	if len(tradeIDs) == 0 {
		return out, nil
	}
	const cols = `SELECT trade_id, id, side, price, quantity, commission, execution_date,
		execution_time, execution_type, execution_timestamp, coalesce(source_id, id), import_id FROM executions`
	var rows *sql.Rows
	var err error
	if len(tradeIDs) == 1 { // a single read: the plain index lookup is cheaper than json_each
		rows, err = q.QueryContext(ctx, cols+` WHERE trade_id = ? ORDER BY position`, tradeIDs[0])
	} else {
		rows, err = q.QueryContext(ctx, cols+` WHERE trade_id IN (SELECT value FROM json_each(?)) ORDER BY trade_id, position`, jsonList(tradeIDs))
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var tradeID string
		var e Execution
		if err := rows.Scan(&tradeID, &e.ID, &e.Side, &e.Price, &e.Quantity, &e.Commission, &e.ExecutionDate,
			&e.ExecutionTime, &e.ExecutionType, &e.ExecutionTimestamp, &e.sourceID, &e.importID); err != nil {
			return nil, err
		}
		// Stored fills keep their types: the client's or derived from the
		// same fills, which a save that does not replace them cannot change.
		e.clientType = e.ExecutionType
		out[tradeID] = append(out[tradeID], e)
	}
	return out, rows.Err()
}

// Trade reads one of the user's trades, enriched.
func (db *DB) Trade(ctx context.Context, userID, id string) (EnrichedTrade, error) {
	return inTx(ctx, db.beginRead, func(tx txn) (EnrichedTrade, error) {
		return enrichedTrade(ctx, tx, userID, id)
	})
}

func enrichedTrade(ctx context.Context, q querier, userID, id string) (EnrichedTrade, error) {
	// The trade with its account's and playbook's fields, in one query, and
	// whether it has tags, strategies, evaluations and documents: most
	// trades lack some,
	// and an index probe here is cheaper than a query that finds nothing.
	var l tradeLinks
	t, err := scanTrade(scanPlus{q.QueryRowContext(ctx, `SELECT `+tradeColumns+`, a.account_number, a.prop_firm, a.firms_logo, p.title, `+
		tradeLinksExist+`
		FROM trades t JOIN accounts a ON a.id = t.account_id LEFT JOIN playbooks p ON p.id = t.playbook_id
		WHERE t.user_id = ? AND t.id = ?`, userID, id), l.dest()})
	if errors.Is(err, sql.ErrNoRows) {
		return EnrichedTrade{}, notFound("Trade")
	}
	if err != nil {
		return EnrichedTrade{}, err
	}
	fills, err := loadExecutions(ctx, q, []string{id})
	if err != nil {
		return EnrichedTrade{}, err
	}
	t.Executions = fills[id]
	return l.enrich(ctx, q, t)
}

// TradeJSON is the single-trade read (Trade) as the API encodes it, for a
// trade that links to nothing its row does not hold, as most trades: no
// tags, documents, strategies, rule evaluations or playbook. Such a trade
// is its stored listing (which holds its fields and fills as Trade reads
// them) followed by its details, read in one statement, which needs no
// transaction to see one snapshot. For any other trade, or one not listed
// yet, it is nil, and the caller reads the trade with Trade.
func (db *DB) TradeJSON(ctx context.Context, userID, id string) ([]byte, error) {
	stmt, err := db.readStmts.prepared(ctx, tradeJSONQuery)
	if err != nil {
		return nil, err
	}
	var listing []byte
	var r tradeReview
	var l tradeLinks
	dest := append([]any{&listing, &r.starRating, &r.reviewNotes, &r.stops, &r.targets, &r.playbookID, &r.reviewedAt, &r.rRatio},
		l.dest()...)
	err = stmt.QueryRowContext(ctx, userID, id).Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Trade")
	}
	if err != nil {
		return nil, err
	}
	if len(listing) < 2 || listing[len(listing)-1] != '}' || r.playbookID != nil ||
		l.hasTags || l.hasStrategies || l.hasEvaluations || l.hasDocuments {
		return nil, nil
	}
	details, err := EncodeJSON(l.details(r))
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(listing)+len(details))
	out = append(out, listing[:len(listing)-1]...)
	out = append(out, ',')
	return append(out, details[1:]...), nil
}

// tradeJSONQuery reads what TradeJSON needs, in tradeLinks' order after the
// listing and the review (no playbook's title: a trade with a playbook is
// read whole).
const tradeJSONQuery = `SELECT t.listing, t.star_rating, t.review_notes, t.stop_loss_levels, t.take_profit_levels,
	t.playbook_id, t.reviewed_at, t.r_ratio, a.account_number, a.prop_firm, a.firms_logo, NULL, ` + tradeLinksExist + `
	FROM trades t JOIN accounts a ON a.id = t.account_id
	WHERE t.user_id = ? AND t.id = ?`

// tradeLinksExist says whether the trade t has tags, strategies, rule
// evaluations and documents, in tradeLinks' order: an index probe each,
// cheaper than a query that finds nothing.
const tradeLinksExist = `EXISTS (SELECT 1 FROM trade_tags WHERE trade_id = t.id),
	EXISTS (SELECT 1 FROM trade_strategies WHERE trade_id = t.id),
	EXISTS (SELECT 1 FROM trade_rule_evaluations WHERE trade_id = t.id),
	EXISTS (SELECT 1 FROM trade_documents WHERE trade_id = t.id)`

// savedTrade is the enriched answer to a save, built from the trade as it
// was just written, fills included: only what it links to is read.
func savedTrade(ctx context.Context, q querier, t Trade) (EnrichedTrade, error) {
	var l tradeLinks
	if err := q.QueryRowContext(ctx, `SELECT a.account_number, a.prop_firm, a.firms_logo,
		(SELECT title FROM playbooks WHERE id = ?),
		EXISTS (SELECT 1 FROM trade_tags WHERE trade_id = ?),
		EXISTS (SELECT 1 FROM trade_strategies WHERE trade_id = ?),
		EXISTS (SELECT 1 FROM trade_rule_evaluations WHERE trade_id = ?),
		EXISTS (SELECT 1 FROM trade_documents WHERE trade_id = ?)
		FROM accounts a WHERE a.id = ?`, t.review.playbookID, t.ID, t.ID, t.ID, t.ID, t.AccountID).Scan(l.dest()...); err != nil {
		return EnrichedTrade{}, err
	}
	return l.enrich(ctx, q, t)
}

// tradeLinks are what an enriched trade shows of the records it links to,
// read beside it, and whether it has tags, strategies, evaluations and
// documents to load.
type tradeLinks struct {
	accountNumber                          string
	propFirm, firmsLogo                    *string
	playbookTitle                          sql.NullString
	hasTags, hasStrategies, hasEvaluations bool
	hasDocuments                           bool
}

func (l *tradeLinks) dest() []any {
	return []any{&l.accountNumber, &l.propFirm, &l.firmsLogo, &l.playbookTitle, &l.hasTags, &l.hasStrategies, &l.hasEvaluations,
		&l.hasDocuments}
}

// details are a trade's details from its review and the links read beside
// it, with every list empty: enrich loads those the trade has.
func (l *tradeLinks) details(r tradeReview) TradeDetails {
	d := TradeDetails{AccountNumber: l.accountNumber, PropFirm: l.propFirm, FirmsLogo: l.firmsLogo}
	d.StarRating = r.starRating
	d.ReviewNotes = rawOr(deref(r.reviewNotes), "null")
	d.StopLossLevels = orEmpty(r.stops)
	d.TakeProfitLevels = orEmpty(r.targets)
	d.RRatio, d.PlaybookID, d.ReviewedAt = r.rRatio, r.playbookID, r.reviewedAt
	if d.RRatio != nil {
		basis := "planned"
		d.RRatioBasis = &basis
	}
	if d.PlaybookID != nil {
		d.Playbooks = &PlaybookRef{ID: *d.PlaybookID, Title: l.playbookTitle.String}
	}
	d.CriteriaChecklist = []ChecklistItem{}
	d.TradeGroupRiskManagementStrategies = []TradeStrategy{}
	d.RiskManagementStrategyIDs = []string{}
	d.TradeRuleEvaluations = []RuleEvaluation{}
	d.Documents, d.DocumentIDs = []TradeDocument{}, []string{}
	return d
}

// enrich adds the review, the links and what the trade has to t.
func (l *tradeLinks) enrich(ctx context.Context, q querier, t Trade) (EnrichedTrade, error) {
	var err error
	id := t.ID
	e := EnrichedTrade{TradeDetails: l.details(t.review)}
	t.Tags = []TagRef{}
	if l.hasTags {
		tags, err := loadTags(ctx, q, tradeTags, []string{id})
		if err != nil {
			return EnrichedTrade{}, err
		}
		t.Tags = tags[id]
	}
	if l.hasDocuments {
		if e.Documents, err = loadTradeDocuments(ctx, q, id); err != nil {
			return EnrichedTrade{}, err
		}
	}
	for _, d := range e.Documents {
		e.DocumentIDs = append(e.DocumentIDs, d.ID)
	}
	t.DocumentCount = len(e.Documents)
	e.Trade = t
	if e.CriteriaChecklist, err = loadChecklist(ctx, q, id, e.PlaybookID); err != nil {
		return EnrichedTrade{}, err
	}
	if l.hasStrategies {
		if e.TradeGroupRiskManagementStrategies, err = loadTradeStrategies(ctx, q, id); err != nil {
			return EnrichedTrade{}, err
		}
	}
	for _, s := range e.TradeGroupRiskManagementStrategies {
		e.RiskManagementStrategyIDs = append(e.RiskManagementStrategyIDs, s.StrategyID)
	}
	if l.hasEvaluations {
		if e.TradeRuleEvaluations, err = loadEvaluations(ctx, q, id); err != nil {
			return EnrichedTrade{}, err
		}
	}
	return e, nil
}

// scanPlus scans a trade's columns followed by more.
type scanPlus struct {
	row  interface{ Scan(...any) error }
	more []any
}

func (s scanPlus) Scan(dest ...any) error { return s.row.Scan(append(dest, s.more...)...) }

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

func rawOr(s, fallback string) json.RawMessage {
	if s == "" {
		return json.RawMessage(fallback)
	}
	return json.RawMessage(s)
}

// DeleteTrade removes one of the user's trades with its fills, write-ups
// and tag associations, in one transaction; its documents stay, unlinked.
// The warnings count them: "Kept 2 documents".
func (db *DB) DeleteTrade(ctx context.Context, userID, id string) (Deleted, error) {
	return inTx(ctx, db.begin, func(tx txn) (Deleted, error) {
		var gone tradeRemoval
		day, err := deleteTrade(ctx, tx, userID, id, &gone)
		if err != nil {
			return Deleted{}, err
		}
		if err := db.reevaluateDays(ctx, tx, userID, id, day); err != nil {
			return Deleted{}, err
		}
		return Deleted{ID: id, Warnings: gone.warnings()}, nil
	})
}

// tradeRemoval counts what went with deleted trades, and the documents
// they linked to, which stay (each once), for the warnings.
type tradeRemoval struct {
	fills, writeUps, tagLinks int
	documents                 map[string]bool
}

func (r tradeRemoval) warnings() []string {
	d := Deleted{Warnings: []string{}}
	d.note("Deleted", r.fills, "execution")
	d.note("Deleted", r.writeUps, "trade write-up")
	d.note("Removed", r.tagLinks, "tag association")
	d.note("Kept", len(r.documents), "document")
	return d.Warnings
}

// deleteTrade removes one of the user's trades (its fills, write-ups, tag
// associations and document links go by cascade, its documents stay), adds
// what went and what stayed to gone, and returns the day it left, whose
// day-level rules the caller checks again (reevaluateDays) once every trade
// it deletes has gone.
func deleteTrade(ctx context.Context, tx txn, userID, id string, gone *tradeRemoval) (dayKey, error) {
	var fills, writeUps, tagLinks int
	var hasDocuments bool
	var day dayKey
	err := tx.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM executions WHERE trade_id = t.id),
		(SELECT count(*) FROM write_ups WHERE trade_id = t.id),
		(SELECT count(*) FROM trade_tags WHERE trade_id = t.id),
		EXISTS (SELECT 1 FROM trade_documents WHERE trade_id = t.id),
		t.account_id, t.entry_date
		FROM trades t WHERE t.user_id = ? AND t.id = ?`, userID, id).
		Scan(&fills, &writeUps, &tagLinks, &hasDocuments, &day.accountID, &day.date)
	if errors.Is(err, sql.ErrNoRows) {
		return dayKey{}, notFound("Trade")
	}
	if err != nil {
		return dayKey{}, err
	}
	if hasDocuments {
		if gone.documents == nil {
			gone.documents = map[string]bool{}
		}
		if err := keptDocuments(ctx, tx, id, gone.documents); err != nil {
			return dayKey{}, err
		}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM trades WHERE user_id = ? AND id = ?`, userID, id); err != nil {
		return dayKey{}, err
	}
	gone.fills += fills
	gone.writeUps += writeUps
	gone.tagLinks += tagLinks
	return day, nil
}
