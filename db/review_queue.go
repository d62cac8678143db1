package db

import (
	"context"
	"database/sql"
	"errors"
)

// ReviewQueue is a walk through the trades to review (DESIGN §13): the
// closed trades Filter selects (its dates select by a trade's day, as the
// statistics' do) that were not reviewed before the walk Began, oldest
// first, in the order of the index trades_closed (day, exit time, id). A
// trade reviewed during the walk stays in it, so that the walk can go
// back to it.
type ReviewQueue struct {
	Filter TradeFilter
	Began  string // TimeFormat
}

// ReviewPlace is where a walk through a review queue stands.
type ReviewPlace struct {
	// TradeID is the trade at this place: "" when the queue has none
	// there (it is empty, or the walk went past its last trade).
	TradeID string
	// PrevID and NextID are the queue's trades before and after it, ""
	// at either end.
	PrevID, NextID string
	// Position is the trade's place in the queue, from 1; 0 when the
	// trade was named but the queue does not hold it.
	Position int
	// Total counts the queue's trades, and Unreviewed those of them not
	// reviewed now.
	Total, Unreviewed int
}

// reviewKey is a trade's place in the queue's order; a NULL exit time,
// which sorts first, is "".
type reviewKey struct{ day, exitTime, id string }

// Queue order and its neighbours, on trades_closed. The conditions take
// the key's day twice, then its exit time twice and its id.
const (
	reviewOrder     = `t.day, t.exit_time, t.id`
	reviewOrderDesc = `t.day DESC, t.exit_time DESC, t.id DESC`
	reviewAfter     = `t.day >= ? AND (t.day > ? OR coalesce(t.exit_time, '') > ? OR (coalesce(t.exit_time, '') = ? AND t.id > ?))`
	reviewBefore    = `t.day <= ? AND (t.day < ? OR coalesce(t.exit_time, '') < ? OR (coalesce(t.exit_time, '') = ? AND t.id < ?))`
)

func (k reviewKey) args() []any { return []any{k.day, k.day, k.exitTime, k.exitTime, k.id} }

// ReviewPlace finds a place in the queue: its first trade (at ""), the
// user's trade at (a *NotFoundError naming trade_id when it is not the
// user's), or, with after, the queue's first trade after at's place.
// It only reads.
func (db *DB) ReviewPlace(ctx context.Context, userID string, q ReviewQueue, at string, after bool) (ReviewPlace, error) {
	f := q.Filter
	f.Closed, f.Reviewed, f.NotReviewedBefore = true, nil, q.Began
	where, args := f.statsWhere(userID)
	return inTx(ctx, db.beginRead, func(tx txn) (ReviewPlace, error) {
		// first finds the queue's first trade in order matching cond
		// (with its arguments), "" when none does.
		first := func(cond, order string, condArgs []any) (reviewKey, error) {
			var k reviewKey
			err := tx.QueryRowContext(ctx, `SELECT t.day, coalesce(t.exit_time, ''), t.id FROM trades t WHERE `+where+cond+
				` ORDER BY `+order+` LIMIT 1`, append(append([]any{}, args...), condArgs...)...).Scan(&k.day, &k.exitTime, &k.id)
			if errors.Is(err, sql.ErrNoRows) {
				return reviewKey{}, nil
			}
			return k, err
		}
		var cur reviewKey
		var err error
		switch {
		case at == "":
			cur, err = first("", reviewOrder, nil)
		default:
			var k reviewKey
			err = tx.QueryRowContext(ctx, `SELECT day, coalesce(exit_time, ''), id FROM trades WHERE user_id = ? AND id = ?`,
				userID, at).Scan(&k.day, &k.exitTime, &k.id)
			if errors.Is(err, sql.ErrNoRows) {
				return ReviewPlace{}, &NotFoundError{Kind: "Trade", Field: "trade_id"}
			}
			if err == nil && after {
				k, err = first(" AND "+reviewAfter, reviewOrder, k.args())
			}
			cur = k
		}
		if err != nil {
			return ReviewPlace{}, err
		}
		p := ReviewPlace{TradeID: cur.id}
		if cur.id != "" {
			prev, err := first(" AND "+reviewBefore, reviewOrderDesc, cur.args())
			if err != nil {
				return ReviewPlace{}, err
			}
			next, err := first(" AND "+reviewAfter, reviewOrder, cur.args())
			if err != nil {
				return ReviewPlace{}, err
			}
			p.PrevID, p.NextID = prev.id, next.id
		}
		// The counts, and the trade's place, in one pass over the queue.
		var before, held int
		err = tx.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(t.reviewed_at IS NULL), 0),
			coalesce(sum(`+reviewBefore+`), 0), coalesce(sum(t.id = ?), 0) FROM trades t WHERE `+where,
			append(append(cur.args(), cur.id), args...)...).Scan(&p.Total, &p.Unreviewed, &before, &held)
		if err != nil {
			return ReviewPlace{}, err
		}
		if held > 0 {
			p.Position = before + 1
		}
		return p, nil
	})
}

// UnreviewedTrades counts the user's closed trades of days since (a date,
// inclusive) that are not reviewed, as the pages' navigation shows them:
// one count on the index trades_closed, a statement kept prepared (every
// page runs it: parsing it cost as much as running it). It only reads.
func (db *DB) UnreviewedTrades(ctx context.Context, userID, since string) (int, error) {
	where, args := unreviewedSince(userID, since)
	stmt, err := db.readStmts.prepared(ctx, `SELECT count(*) FROM trades t WHERE `+where)
	if err != nil {
		return 0, err
	}
	var n int
	err = stmt.QueryRowContext(ctx, args...).Scan(&n)
	return n, err
}

func unreviewedSince(userID, since string) (string, []any) {
	no := false
	return TradeFilter{StartDate: since, Closed: true, Reviewed: &no}.statsWhere(userID)
}
