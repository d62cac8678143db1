package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestDayPage: the calendar's days lead to their day page, which shows the
// API's figures for the day, its trades with their screenshots, the
// day's report card and plan with the links to write them, and the
// trading days around it; bob's day page shows nothing of alice's.
func TestDayPage(t *testing.T) {
	e := newTradeEnv(t)
	t1, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	e.create(t, strings.Replace(e.tradeBody("NQH6", "short", fills(2.5, "sell 1@21000", "buy 1@21025")), "2026-02-05", "2026-02-09", 1))
	e.create(t, strings.Replace(e.tradeBody("ESH6", "long", fills(2.5, "buy 1@5000", "sell 1@5002")), "2026-02-05", "2026-02-02", 1))
	e.mustUpload(t, e.key, []part{field("trade_id", t1.ID), field("document_name", "Entry"), field("category", "receipt"),
		filePart("entry.png", widePNG(t, 640, 320))}, http.StatusCreated)
	must201(t, e.testServer, "/api/v1/report-cards", e.key, `{"report_date": "2026-02-05", "grade": 4, "notes_markdown": "Waited for the pullback."}`)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)

	dash := b.page(t, "/dashboard?month=2026-02")
	links := find(dash, func(n *html.Node) bool { return n.Data == "a" && attr(n, "href") == "/days/2026-02-05" })
	if len(links) != 1 {
		t.Fatal("the calendar's 5 February leads nowhere")
	}
	page := b.page(t, "/days/2026-02-05")
	api := decode[dayJSON](t, must200(t, e.testServer, "/api/v1/days/2026-02-05", e.key)).Data
	if n := find(page, byAttr("data-figure", "net_pnl")); len(n) != 1 || nodeText(n[0]) != formatMoneyLike(api.Summary.NetPnL) || nodeText(n[0]) != "995.00" {
		t.Errorf("the day's net P&L: %v, the API's %v", texts(n), api.Summary.NetPnL)
	}
	if rows := find(page, byAttr("data-trade", t1.ID)); len(rows) != 1 {
		t.Error("the day page does not list its trade")
	}
	if imgs := find(page, func(n *html.Node) bool { return n.Data == "img" && strings.HasSuffix(attr(n, "src"), "&w=320") }); len(imgs) != 1 {
		t.Errorf("the day page shows %d screenshots, want the trade's one", len(imgs))
	}
	if cards := find(page, func(n *html.Node) bool { return hasAttr(n, "data-report-card") }); len(cards) != 1 || !strings.Contains(nodeText(cards[0]), "Waited for the pullback.") {
		t.Error("the day page does not show its report card")
	}
	if plan := find(page, byAttr("id", "plan-tomorrow")); len(plan) != 1 || attr(plan[0], "href") != "/journal/trading-plans/new?date=2026-02-06" {
		t.Error("the day page has no link to plan the next day")
	}
	if prev, next := find(page, func(n *html.Node) bool { return hasAttr(n, "data-prev") }), find(page, func(n *html.Node) bool { return hasAttr(n, "data-next") }); len(prev) != 1 || attr(prev[0], "href") != "/days/2026-02-02" ||
		len(next) != 1 || attr(next[0], "href") != "/days/2026-02-09" {
		t.Errorf("the trading days around the 5th: %v %v", texts(prev), texts(next))
	}
	if w := b.send(t, "GET", "/days/2026-02-31", nil, ""); w.Code != http.StatusBadRequest {
		t.Errorf("a bad day: %d, want 400", w.Code)
	}
	_, bobKey := e.newUser(t, "bob")
	bob := &browser{ts: e.testServer}
	bob.signIn(t, bobKey)
	for _, target := range []string{"/days/2026-02-05", "/days/2026-02-05?account_id=" + url.QueryEscape(e.accountID)} {
		w := bob.send(t, "GET", target, nil, "")
		if w.Code != 200 || strings.Contains(w.Body.String(), t1.ID) || strings.Contains(w.Body.String(), "pullback") || strings.Contains(w.Body.String(), "ESH6") {
			t.Errorf("bob's %s: %d, or shows alice's day", target, w.Code)
		}
	}
}

// TestDayPageMarkdown: a write-up shows as CommonMark on the day page, its
// <script> and javascript: link inert.
func TestDayPageMarkdown(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	must201(t, e.testServer, "/api/v1/write-ups", e.key, `{"trade_id": "`+tr.ID+`", "title": "Lesson",
		"content_markdown": "**Patience** paid.\n\n<script>alert('x')</script>\n\n[more](javascript:alert(1))"}`)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	w := b.send(t, "GET", "/days/2026-02-05", nil, "")
	body := w.Body.String()
	if w.Code != 200 || !strings.Contains(body, "<strong>Patience</strong> paid.") || strings.Contains(body, "<script>alert") ||
		!strings.Contains(body, "&lt;script&gt;alert") || strings.Contains(body, "javascript:") {
		t.Errorf("the write-up on the day page: %d\n%s", w.Code, body)
	}
}
