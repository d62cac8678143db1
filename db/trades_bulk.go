package db

import (
	"context"
	"errors"
	"slices"
	"strconv"
)

// TradeBulk is one change to many of a user's trades (POST
// /trades/bulk): tags added and removed, the playbook set or cleared, the
// reviewed flag set, or, alone, a delete. The server has checked its shape:
// ids well formed and lower-cased, at least one action, a delete alone.
type TradeBulk struct {
	TradeIDs     []string // repeated ids count once
	AddTagIDs    []string
	RemoveTagIDs []string
	PlaybookID   Optional[string] // null clears
	Reviewed     Optional[bool]
	Delete       bool
}

// TradeBulkResult is what a bulk change did: the trades it saved, those it
// deleted, and what went with them (as DeleteTrade's warnings count it).
type TradeBulkResult struct {
	Updated  int      `json:"updated"`
	Deleted  int      `json:"deleted"`
	Warnings []string `json:"warnings"`
}

// BulkTrades applies b to each of the user's trades it names, in one
// transaction: all of them change, or, on any error, none. Every id in
// trade_ids, add_tag_ids and remove_tag_ids must name a record of the
// user's, else it is a *NotFoundError naming, by its index, the first that
// does not (trade_ids[3]); so must playbook_id (naming playbook_id). Each
// trade is saved as UpdateTrade saves it (derived fields, listing,
// checklist, rules) and deleted as DeleteTrade deletes it.
func (db *DB) BulkTrades(ctx context.Context, userID string, b TradeBulk) (TradeBulkResult, error) {
	// Up to 500 trades, each a save or a delete with its re-checks: a long
	// write, which no other write's commit should wait for.
	return inTx(ctx, db.beginAlone, func(tx txn) (TradeBulkResult, error) {
		if err := checkOwned(ctx, tx, "trades", "Trade", "trade_ids", userID, b.TradeIDs); err != nil {
			return TradeBulkResult{}, err
		}
		ids := uniqueInOrder(b.TradeIDs)
		if b.Delete {
			return db.bulkDelete(ctx, tx, userID, ids)
		}
		if err := checkOwned(ctx, tx, "tags", "Tag", "add_tag_ids", userID, b.AddTagIDs); err != nil {
			return TradeBulkResult{}, err
		}
		if err := checkOwned(ctx, tx, "tags", "Tag", "remove_tag_ids", userID, b.RemoveTagIDs); err != nil {
			return TradeBulkResult{}, err
		}
		return db.bulkUpdate(ctx, tx, userID, ids, b)
	})
}

// bulkDelete deletes the trades, then checks the day-level rules of the
// days they left once each.
func (db *DB) bulkDelete(ctx context.Context, tx txn, userID string, ids []string) (TradeBulkResult, error) {
	var gone tradeRemoval
	days := make([]dayKey, 0, len(ids))
	for _, id := range ids {
		day, err := deleteTrade(ctx, tx, userID, id, &gone)
		if err != nil {
			return TradeBulkResult{}, err
		}
		days = append(days, day)
	}
	// No trade of those days is one of the deleted: none to leave out.
	if err := db.reevaluateDays(ctx, tx, userID, "", days...); err != nil {
		return TradeBulkResult{}, err
	}
	return TradeBulkResult{Deleted: len(ids), Warnings: gone.warnings()}, nil
}

// bulkUpdate saves each trade with the change, as UpdateTrade saves a
// trade whose body holds playbook_id, reviewed and tag_ids, then checks
// the rules as saveReviewLinks does: each trade against its strategies,
// and the day-level rules of its day's trades. A day is checked once, not
// once for each of its trades named: for n trades of one day that is n
// evaluations of the day, not n times n.
func (db *DB) bulkUpdate(ctx context.Context, tx txn, userID string, ids []string, b TradeBulk) (TradeBulkResult, error) {
	trades, err := loadTrades(ctx, tx, ids)
	if err != nil {
		return TradeBulkResult{}, err
	}
	byID := make(map[string]*Trade, len(trades))
	for i := range trades {
		byID[trades[i].ID] = &trades[i]
	}
	retag := len(b.AddTagIDs) > 0 || len(b.RemoveTagIDs) > 0
	var tags map[string][]TagRef
	if retag {
		if tags, err = loadTags(ctx, tx, tradeTags, ids); err != nil {
			return TradeBulkResult{}, err
		}
	}
	in := TradeInput{PlaybookID: b.PlaybookID, Reviewed: b.Reviewed}
	now := db.now()
	days := make([]dayKey, 0, len(ids))
	for _, id := range ids {
		t := byID[id]
		t.UpdatedAt = now
		if err := db.applyTrade(ctx, tx, userID, t, in); err != nil {
			return TradeBulkResult{}, namingTrade(err, b.TradeIDs, id)
		}
		if err := saveTrade(ctx, tx, userID, t, false); err != nil {
			return TradeBulkResult{}, err
		}
		if retag {
			if err := replaceTags(ctx, tx, userID, tradeTags, id, Some(retagged(tags[id], b))); err != nil {
				return TradeBulkResult{}, err
			}
		}
		if in.PlaybookID.Set {
			// Checklist answers are about the trade's playbook: another's go.
			if err := setChecklist(ctx, tx, userID, t, Optional[[]CriterionCheck]{}); err != nil {
				return TradeBulkResult{}, err
			}
		}
		days = append(days, dayKey{t.AccountID, t.EntryDate})
	}
	for _, id := range ids {
		if err := db.evaluateRules(ctx, tx, userID, byID[id], false); err != nil {
			return TradeBulkResult{}, err
		}
	}
	// No trade is left out: a named one's day-level rules come out as they
	// just did.
	if err := db.reevaluateDays(ctx, tx, userID, "", days...); err != nil {
		return TradeBulkResult{}, err
	}
	return TradeBulkResult{Updated: len(ids), Warnings: []string{}}, nil
}

// retagged is a trade's tag ids with b's added and removed.
func retagged(tags []TagRef, b TradeBulk) []string {
	ids := make([]string, 0, len(tags)+len(b.AddTagIDs))
	for _, t := range tags {
		ids = append(ids, t.ID)
	}
	ids = append(ids, b.AddTagIDs...)
	return slices.DeleteFunc(ids, func(id string) bool { return slices.Contains(b.RemoveTagIDs, id) })
}

// namingTrade is a save's *InvalidError about one trade (a field of it the
// save cannot derive) as the bulk answers it: naming the trade, by its
// place in trade_ids, not a field the request did not send.
func namingTrade(err error, given []string, id string) error {
	var inv *InvalidError
	if !errors.As(err, &inv) {
		return err
	}
	field := "trade_ids[" + strconv.Itoa(slices.Index(given, id)) + "]"
	return &InvalidError{Field: field, Message: "trade " + id + " cannot be saved: " + inv.Message}
}

// checkOwned is a *NotFoundError naming, by its index in field, the first
// of ids that names no row of the user's in table (a constant of this
// package, so safe in SQL), or nil when they all do.
func checkOwned(ctx context.Context, tx txn, table, kind, field, userID string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	found, err := queryIDs(ctx, tx, `SELECT id FROM `+table+` WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))`,
		userID, jsonList(ids))
	if err != nil {
		return err
	}
	owned := make(map[string]bool, len(found))
	for _, id := range found {
		owned[id] = true
	}
	for i, id := range ids {
		if !owned[id] {
			return &NotFoundError{Kind: kind, Field: field + "[" + strconv.Itoa(i) + "]"}
		}
	}
	return nil
}
