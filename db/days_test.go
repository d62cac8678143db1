package db

import (
	"strings"
	"testing"
)

// TestDayTradesPlan: a day's trades (the day page's and GET /days/{date}'s
// list) are found on trades_closed by their day, not by walking every
// trade of the user's in the list's order.
func TestDayTradesPlan(t *testing.T) {
	d := newTestDB(t)
	userID, accountID := newTradeFixture(t, d)
	seedTrades(t, d, userID, accountID, 200)
	if _, err := d.write.Exec(`ANALYZE`); err != nil {
		t.Fatal(err)
	}
	for _, f := range []TradeFilter{{Day: "2016-02-01", Closed: true}, {Day: "2016-02-01", Closed: true, AccountID: accountID}} {
		plan, err := d.QueryPlan(t.Context(), userID, f, Page{Limit: maxDayTrades})
		if err != nil {
			t.Fatal(err)
		}
		if text := strings.Join(plan, "; "); !strings.Contains(text, "USING INDEX trades_closed (user_id=? AND day=?)") {
			t.Errorf("%+v: plan %q does not find the day on trades_closed", f, text)
		}
	}
}
