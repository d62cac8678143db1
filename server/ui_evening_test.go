package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// TestAccountsPageShowsEveryRuleBroken: the consistency rule the status
// breaks (consistency_ok false) is listed with the breaches, never under
// "No rule broken", and the best day's share shows to one decimal.
func TestAccountsPageShowsEveryRuleBroken(t *testing.T) {
	e := newTradeEnv(t)
	if status, b := e.do(t, "PUT", "/api/v1/accounts/"+e.accountID, e.key, `{"starting_balance": 50000, "max_drawdown": 2500,
		"consistency_pct": 40}`); status != 200 {
		t.Fatalf("set rules: %d %s", status, b)
	}
	e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010"))) // +1,000 - 5 = +995
	e.create(t, strings.Replace(e.tradeBody("ESH6", "long", fills(2.5, "buy 1@5000", "sell 1@5006")),
		"2026-02-05", "2026-02-06", 1)) // +300 - 5 = +295 on a day of its own
	api := decode[struct{ Data map[string]any }](t, must200(t, e.testServer, "/api/v1/accounts/"+e.accountID+"/status", e.key)).Data
	// 995 of 1,290 is 77.1317829...%: above 40%.
	if pct, ok := api["best_day_pct"].(float64); !ok || pct < 77.1317 || pct > 77.1318 || api["consistency_ok"] != false {
		t.Fatalf("the API's status: best day %v, consistency_ok %v", api["best_day_pct"], api["consistency_ok"])
	}
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	card := find(b.page(t, "/accounts"), byAttr("data-account", e.accountID))[0]
	if n := find(card, byAttr("data-figure", "best_day_pct")); len(n) != 1 || nodeText(n[0]) != "77.1%" {
		t.Errorf("best day's share shown %q, want 77.1%%", nodeText(n[0]))
	}
	broken := find(card, byAttr("data-breach", "consistency"))
	if len(broken) != 1 || nodeText(broken[0]) != "consistency: the best day is 77.1% of the profit, above the 40.0% allowed" {
		t.Errorf("the consistency rule broken is not listed: %v", broken)
	}
	if strings.Contains(nodeText(card), "No rule broken") {
		t.Error(`the card says "No rule broken" beside a broken consistency rule`)
	}
}

// TestPagesShowTimesInTheUsersZone: an import's time in the history is the
// minute in the user's timezone, not the stored UTC timestamp.
func TestPagesShowTimesInTheUsersZone(t *testing.T) {
	e := newTradeEnv(t)
	e.db.Now = func() time.Time { return time.Date(2026, 11, 27, 8, 39, 33, 830e6, time.UTC) }
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	w := b.postMultipart(t, "/import", [][2]string{{"csrf", csrfOf(t, b, "/import")}, {"account_id", e.accountID}}, "fills.csv", morning, nil)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("import: %d %s", w.Code, w.Body)
	}
	rows := find(b.page(t, "/import"), func(n *html.Node) bool { return n.Data == "tr" && attr(n, "data-import") != "" })
	if len(rows) != 1 {
		t.Fatalf("%d imports listed", len(rows))
	}
	// alice's timezone is the default, New York: 08:39 UTC is 03:39 there.
	if when := nodeText(find(rows[0], func(n *html.Node) bool { return n.Data == "td" })[0]); when != "2026-11-27 03:39" {
		t.Errorf("the import's time shows as %q, want 2026-11-27 03:39", when)
	}
}

// TestTradeListShowsTheAccount: each row names its trade's account, and the
// net P&L comes third, before the columns a phone scrolls to.
func TestTradeListShowsTheAccount(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	row := find(b.page(t, "/trades"), byAttr("data-trade", tr.ID))
	if len(row) != 1 {
		t.Fatal("the trade is not listed")
	}
	cells := find(row[0], func(n *html.Node) bool { return n.Data == "td" })
	if nodeText(cells[2]) != "995.00" || attr(cells[2], "class") != "num win" || nodeText(cells[3]) != "APEX-1" {
		t.Errorf("row cells: P&L %q (%s), account %q; want 995.00 (num win), APEX-1", nodeText(cells[2]), attr(cells[2], "class"), nodeText(cells[3]))
	}
}

// TestEquityCurveAxes: the dashboard's equity curve has an amount axis
// (its lowest and highest equity, 0 among them) and a date axis (first and
// last day), and each point tells its day and equity on hover (an SVG
// title), as the statistics API reads them.
func TestEquityCurveAxes(t *testing.T) {
	e := newTradeEnv(t)
	e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010"))) // +995 on the 5th
	e.create(t, strings.Replace(e.tradeBody("NQH6", "short", fills(2.5, "sell 1@21000", "buy 1@21025")),
		"2026-02-05", "2026-02-06", 1)) // -505 on the 6th: 490
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	page := b.page(t, "/dashboard")
	ticks := func(attrName string) []string {
		return texts(find(page, func(n *html.Node) bool { return hasAttr(n, attrName) }))
	}
	if got := strings.Join(ticks("data-y-tick"), " "); got != "0.00 995.00" {
		t.Errorf("amount axis: %q, want 0.00 995.00", got)
	}
	if got := strings.Join(ticks("data-x-tick"), " "); got != "2026-02-05 2026-02-06" {
		t.Errorf("date axis: %q", got)
	}
	titles := texts(find(page, func(n *html.Node) bool { return n.Data == "title" && n.Parent != nil && n.Parent.Data == "circle" }))
	if strings.Join(titles, "; ") != "2026-02-05: 995.00; 2026-02-06: 490.00" {
		t.Errorf("the points' hover: %q", titles)
	}
}
