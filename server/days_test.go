package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"tradejournal/db"
)

// dayJSON is GET /api/v1/days/{date}'s answer.
type dayJSON struct {
	Data struct {
		Date         string
		Summary      db.DaySummary
		Trades       []createdTrade
		TradingPlans *[]db.TradingPlan `json:"trading_plans"`
		ReportCards  *[]db.ReportCard  `json:"report_cards"`
		WriteUps     *[]db.WriteUp     `json:"write_ups"`
	}
}

// TestDay: a day is the closed trades whose exit falls on it in the
// user's timezone, by entry time, with their figures worked out by hand
// (commissions included), and the day's plan, report card and the
// write-ups of its trades; the content is null without content:read; the
// account filter narrows trades, figures and report cards; a bad date or
// account is a 400 naming it.
func TestDay(t *testing.T) {
	e := newTradeEnv(t)
	// alice's timezone is New York's.
	t1, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))    // +1,000 - 5 = +995
	t2, _ := e.create(t, e.tradeBody("NQH6", "short", fills(2.5, "sell 1@21000", "buy 1@21025"))) // -500 - 5 = -505
	t3, _ := e.create(t, strings.Replace(e.tradeBody("ESH6", "long", fills(2.5, "buy 1@5000", "sell 1@5002")),
		"2026-02-05", "2026-02-06", 1)) // another day
	_ = t3
	// 03:00 and 03:30 UTC on the 6th are 22:00 and 22:30 on the 5th in New
	// York: the 5th's. +4 x 50 = +200, less 2 x 1.25 = +197.50.
	status, body := e.do(t, "POST", "/api/v1/trades", e.key, fmt.Sprintf(`{"account_id": %q, "symbol": "ESH6", "side": "long",
		"entry_date": "2026-02-05", "executions": [
		{"side": "buy", "price": 5000, "quantity": 1, "commission": 1.25, "execution_timestamp": "2026-02-06T03:00:00Z"},
		{"side": "sell", "price": 5004, "quantity": 1, "commission": 1.25, "execution_timestamp": "2026-02-06T03:30:00Z"}]}`, e.accountID))
	if status != 201 {
		t.Fatalf("late trade: %d %s", status, body)
	}
	late := decode[struct{ Data createdTrade }](t, body).Data
	open, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 1@5000"))) // open: no day yet
	_ = open
	must201(t, e.testServer, "/api/v1/trading-plans", e.key, `{"plan_date": "2026-02-05", "title": "Trade the open only"}`)
	must201(t, e.testServer, "/api/v1/report-cards", e.key, fmt.Sprintf(`{"report_date": "2026-02-05", "account_id": %q, "grade": 4}`, e.accountID))
	must201(t, e.testServer, "/api/v1/write-ups", e.key, fmt.Sprintf(`{"trade_id": %q, "title": "Chased NQ"}`, t2.ID))
	must201(t, e.testServer, "/api/v1/write-ups", e.key, fmt.Sprintf(`{"trade_id": %q, "title": "Another day"}`, t3.ID))

	d := decode[dayJSON](t, must200(t, e.testServer, "/api/v1/days/2026-02-05", e.key)).Data
	want := db.DaySummary{Trades: 3, Wins: 2, Losses: 1, GrossPnL: 700, Commissions: 12.5, NetPnL: 687.5}
	if d.Date != "2026-02-05" || d.Summary != want {
		t.Errorf("the 5th's figures: %+v, want %+v", d.Summary, want)
	}
	var ids []string
	for _, tr := range d.Trades {
		ids = append(ids, tr.ID)
	}
	if strings.Join(ids, " ") != strings.Join([]string{t1.ID, t2.ID, late.ID}, " ") {
		t.Errorf("the 5th's trades: %v, want t1, t2 and the late one by entry time", ids)
	}
	if d.TradingPlans == nil || len(*d.TradingPlans) != 1 || d.ReportCards == nil || len(*d.ReportCards) != 1 ||
		d.WriteUps == nil || len(*d.WriteUps) != 1 || (*d.WriteUps)[0].Title != "Chased NQ" {
		t.Errorf("the 5th's journal: plans %v, cards %v, write-ups %v", d.TradingPlans, d.ReportCards, d.WriteUps)
	}

	// Without content:read the journal is null, the trades still there.
	_, tradesOnly := e.newKey(t, "alice", "trades:read", false)
	body = must200(t, e.testServer, "/api/v1/days/2026-02-05", tradesOnly)
	if !strings.Contains(string(body), `"trading_plans":null,"report_cards":null,"write_ups":null`) {
		t.Errorf("without content:read: %s", body)
	}

	// Another account: no trades, no report card; the plan stays.
	other := e.createAccount(t, e.key, `{"account_number": "OTHER-1"}`)
	d = decode[dayJSON](t, must200(t, e.testServer, "/api/v1/days/2026-02-05?account_id="+other.ID, e.key)).Data
	if d.Summary != (db.DaySummary{}) || len(d.Trades) != 0 || len(*d.ReportCards) != 0 || len(*d.TradingPlans) != 1 {
		t.Errorf("the 5th of another account: %+v", d)
	}
	// A day without trades: zeros.
	d = decode[dayJSON](t, must200(t, e.testServer, "/api/v1/days/2026-03-01", e.key)).Data
	if d.Summary != (db.DaySummary{}) || len(d.Trades) != 0 {
		t.Errorf("an empty day: %+v", d)
	}
	for target, field := range map[string]string{
		"/api/v1/days/2026-02-30":                      "date",
		"/api/v1/days/yesterday":                       "date",
		"/api/v1/days/2026-02-05?account_id=not-an-id": "account_id",
	} {
		status, body := e.do(t, "GET", target, e.key, "")
		if status != http.StatusBadRequest || !strings.Contains(string(body), `"`+field+`"`) {
			t.Errorf("GET %s: %d %s, want 400 naming %s", target, status, body, field)
		}
	}
	// bob's day of alice's account is empty.
	_, bobKey := e.newUser(t, "bob")
	d = decode[dayJSON](t, must200(t, e.testServer, "/api/v1/days/2026-02-05?account_id="+e.accountID, bobKey)).Data
	if len(d.Trades) != 0 || d.Summary != (db.DaySummary{}) || len(*d.ReportCards) != 0 || len(*d.TradingPlans) != 0 {
		t.Errorf("bob's view of alice's day: %+v", d)
	}
}
