package db

import (
	"errors"
	"sort"
	"strings"
	"testing"
	"time"
)

// TestReviewQueue: a walk through the review queue goes through the
// selection's closed trades not reviewed before it began, by day, exit
// time (none first) and id; a trade reviewed during the walk stays in it,
// counted as reviewed; open trades, trades reviewed before the walk and
// trades outside the dates are not in it; another user's trade is not
// found.
func TestReviewQueue(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	began := time.Date(2026, 2, 6, 18, 0, 0, 0, time.UTC)
	trade := func(day, exitTime string, closed bool) string {
		t.Helper()
		in := TradeInput{AccountID: Some(accountID), Symbol: Some("ESH6"), Side: Some("long"), EntryDate: Some(day),
			EntryTime: Some("08:00:00"), Quantity: Some(1.0), EntryPrice: Some(5000.0)}
		if closed {
			in.ExitPrice, in.ExitDate = Some(5001.0), Some(day)
			if exitTime != "" {
				in.ExitTime = Some(exitTime)
			}
		}
		tr, err := d.CreateTrade(ctx, userID, in)
		if err != nil {
			t.Fatal(err)
		}
		return tr.ID
	}
	review := func(id string, at time.Time) {
		t.Helper()
		pinClock(d, at)
		if _, err := d.UpdateTrade(ctx, userID, id, TradeInput{Reviewed: Some(true)}); err != nil {
			t.Fatal(err)
		}
	}
	old := trade("2026-01-20", "10:00:00", true)
	a := trade("2026-02-02", "10:00:00", true)
	b := trade("2026-02-03", "", true) // no exit time: first of its day
	pair := []string{trade("2026-02-03", "09:00:00", true), trade("2026-02-03", "09:00:00", true)}
	sort.Strings(pair) // the same day and time: by id
	c, dd := pair[0], pair[1]
	e := trade("2026-02-04", "09:00:00", true)
	trade("2026-02-04", "", false) // open
	review(e, began.Add(-time.Minute))
	review(a, began.Add(time.Minute))
	q := ReviewQueue{Filter: TradeFilter{StartDate: "2026-02-01"}, Began: began.Format(TimeFormat)}

	for _, c := range []struct {
		name  string
		at    string
		after bool
		want  ReviewPlace
	}{
		{"the first", "", false, ReviewPlace{TradeID: a, NextID: b, Position: 1, Total: 4, Unreviewed: 3}},
		{"a trade", b, false, ReviewPlace{TradeID: b, PrevID: a, NextID: c, Position: 2, Total: 4, Unreviewed: 3}},
		{"the same time", dd, false, ReviewPlace{TradeID: dd, PrevID: c, Position: 4, Total: 4, Unreviewed: 3}},
		{"after a trade", b, true, ReviewPlace{TradeID: c, PrevID: b, NextID: dd, Position: 3, Total: 4, Unreviewed: 3}},
		{"after the last", dd, true, ReviewPlace{Total: 4, Unreviewed: 3}},
		// Reviewed before the walk: shown where it would be, not in it.
		{"a trade not in it", e, false, ReviewPlace{TradeID: e, PrevID: dd, Total: 4, Unreviewed: 3}},
		{"outside the dates", old, false, ReviewPlace{TradeID: old, NextID: a, Total: 4, Unreviewed: 3}},
	} {
		got, err := d.ReviewPlace(ctx, userID, q, c.at, c.after)
		if err != nil || got != c.want {
			t.Errorf("%s: %+v, %v; want %+v", c.name, got, err, c.want)
		}
	}

	// A filter narrows it; a reviewed filter of the trade list does not
	// apply (the queue is the unreviewed).
	yes := true
	narrow := ReviewQueue{Filter: TradeFilter{StartDate: "2026-02-03", EndDate: "2026-02-03", Reviewed: &yes}, Began: q.Began}
	if got, err := d.ReviewPlace(ctx, userID, narrow, "", false); err != nil || got != (ReviewPlace{TradeID: b, NextID: c, Position: 1, Total: 3, Unreviewed: 3}) {
		t.Errorf("one day: %+v, %v", got, err)
	}

	other := newTestUser(t, d, "bob")
	var nf *NotFoundError
	if _, err := d.ReviewPlace(ctx, other.ID, q, a, false); !errors.As(err, &nf) || nf.Field != "trade_id" {
		t.Errorf("bob's walk at alice's trade: %v, want not found", err)
	}
	if got, err := d.ReviewPlace(ctx, other.ID, q, "", false); err != nil || got != (ReviewPlace{}) {
		t.Errorf("bob's queue: %+v, %v, want empty", got, err)
	}

	// The navigation's count: closed, not reviewed, of the days since.
	for since, want := range map[string]int{"2026-02-01": 3, "2026-02-04": 0, "2026-01-01": 4} {
		if n, err := d.UnreviewedTrades(ctx, userID, since); err != nil || n != want {
			t.Errorf("unreviewed since %s: %d, %v; want %d", since, n, err, want)
		}
	}
}

// TestUnreviewedCountPlan: the navigation's count, on every page, reads
// the closed trades' index over the days counted, never the whole table.
func TestUnreviewedCountPlan(t *testing.T) {
	d := newTestDB(t)
	userID, accountID := newTradeFixture(t, d)
	seedTrades(t, d, userID, accountID, 200)
	if _, err := d.write.Exec(`ANALYZE`); err != nil {
		t.Fatal(err)
	}
	where, args := unreviewedSince(userID, "2016-02-01")
	plan, err := d.explain(t.Context(), `SELECT count(*) FROM trades t WHERE `+where, args...)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(plan, "; ")
	if !strings.Contains(text, "USING INDEX trades_closed (user_id=? AND day>?)") {
		t.Errorf("plan %q does not search trades_closed by day", text)
	}
}
