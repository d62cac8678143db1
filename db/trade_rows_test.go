package db

import "testing"

// TestTradeRowsFollowTheFilters: the trade list page's rows are the trades
// and total the API's list reads for every filter the page passes on,
// including a day's closed trades (read through trades_closed) and a page
// deep enough to be found on the index first (a deferred join).
func TestTradeRowsFollowTheFilters(t *testing.T) {
	d := newTestDB(t)
	userID, accountID := newTradeFixture(t, d)
	seedTrades(t, d, userID, accountID, 600)
	for name, f := range map[string]TradeFilter{
		"none":       {},
		"root":       {Symbol: "NQ"},
		"contract":   {Symbol: "esz5"},
		"status":     {Status: "loss"},
		"account":    {AccountID: accountID},
		"dates":      {StartDate: "2016-02-01", EndDate: "2016-03-15"},
		"closed day": {Day: "2016-01-02", Closed: true},
		"min P&L":    {MinPnL: new(100.0)},
	} {
		for _, page := range []Page{{Limit: 50}, {Limit: 50, Offset: deferFrom + 20}} {
			trades, total, err := d.Trades(t.Context(), userID, f, page)
			if err != nil {
				t.Fatal(err)
			}
			if total == 0 {
				t.Fatalf("%s: no trades to compare", name)
			}
			checkTradeRows(t, d, userID, f, page, trades, total)
		}
	}
}
