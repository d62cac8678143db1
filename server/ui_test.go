package server_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"tradejournal/db"
	"tradejournal/files"
	"tradejournal/server"
)

// browser is a test's browser: the session cookie it holds.
type browser struct {
	ts     *testServer
	cookie *http.Cookie
}

// send makes a request as the browser; form, when not nil, is posted
// url-encoded, with origin as its Origin ("" sends none).
func (b *browser) send(t *testing.T, method, target string, form url.Values, origin string) *httptest.ResponseRecorder {
	t.Helper()
	var body string
	if form != nil {
		body = form.Encode()
	}
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	if b.cookie != nil {
		req.AddCookie(b.cookie)
	}
	return b.ts.send(t, req)
}

// signIn posts the key to /login and keeps the session cookie.
func (b *browser) signIn(t *testing.T, key string) {
	t.Helper()
	w := b.send(t, "POST", "/login", url.Values{"key": {key}}, "http://example.com")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/dashboard" {
		t.Fatalf("sign in: %d %s", w.Code, w.Body)
	}
	for _, c := range w.Result().Cookies() {
		if c.Name == "tj_session" {
			b.cookie = c
		}
	}
	if b.cookie == nil {
		t.Fatal("sign in set no session cookie")
	}
}

// page gets a page and parses it, failing unless it is a 200.
func (b *browser) page(t *testing.T, target string) *html.Node {
	t.Helper()
	w := b.send(t, "GET", target, nil, "")
	if w.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", target, w.Code, w.Body)
	}
	if got := w.Header().Get("Content-Type"); got != "text/html; charset=utf-8" {
		t.Errorf("GET %s: Content-Type %q", target, got)
	}
	doc, err := html.Parse(w.Body)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// find returns the elements of doc for which match is true, in order.
func find(doc *html.Node, match func(*html.Node) bool) []*html.Node {
	var out []*html.Node
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && match(n) {
			out = append(out, n)
		}
	}
	return out
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

func nodeText(n *html.Node) string {
	var b strings.Builder
	for c := range n.Descendants() {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return strings.TrimSpace(b.String())
}

// byAttr matches elements whose attribute name is value.
func byAttr(name, value string) func(*html.Node) bool {
	return func(n *html.Node) bool { return attr(n, name) == value }
}

// TestPagesSignIn: / leads to the dashboard, which sends a browser that is
// not signed in to /login; a wrong key or a post from another site is
// refused and sets no cookie; a valid key starts a session whose cookie is
// HttpOnly, SameSite=Lax, 30 days (and Secure behind https); sign-out needs
// the CSRF token and ends the session; a revoked key's session ends.
func TestPagesSignIn(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	b := &browser{ts: ts}
	for target, want := range map[string]string{"/": "/dashboard", "/dashboard": "/login", "/trades": "/login"} {
		if w := b.send(t, "GET", target, nil, ""); w.Code != http.StatusSeeOther || w.Header().Get("Location") != want {
			t.Errorf("GET %s signed out: %d to %q, want 303 to %s", target, w.Code, w.Header().Get("Location"), want)
		}
	}
	login := b.page(t, "/login")
	if inputs := find(login, byAttr("id", "key")); len(inputs) != 1 || attr(inputs[0], "type") != "password" ||
		len(find(login, byAttr("for", "key"))) != 1 {
		t.Error("the login page has no labelled password input for the key")
	}

	for _, tt := range []struct {
		name, key, origin string
		want              int
	}{
		{"wrong key", "tj_" + strings.Repeat("x", 49), "", http.StatusUnauthorized},
		{"not a key", "hello", "", http.StatusUnauthorized},
		{"another site", key, "http://evil.example", http.StatusForbidden},
	} {
		w := b.send(t, "POST", "/login", url.Values{"key": {tt.key}}, tt.origin)
		if w.Code != tt.want || len(w.Result().Cookies()) != 0 || !strings.Contains(w.Body.String(), `role="alert"`) {
			t.Errorf("%s: %d, cookies %v; want %d, none, and the reason", tt.name, w.Code, w.Result().Cookies(), tt.want)
		}
	}

	b.signIn(t, key)
	c := b.cookie
	if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.MaxAge != 30*24*3600 || c.Secure || len(c.Value) != 43 {
		t.Errorf("session cookie %+v: want HttpOnly, SameSite=Lax, Path=/, 30 days, not Secure over http, a 256-bit id", c)
	}
	dash := b.page(t, "/dashboard")
	csrf := find(dash, byAttr("name", "csrf"))
	if len(csrf) != 1 || len(attr(csrf[0], "value")) != 43 {
		t.Fatal("the dashboard has no sign-out form with a CSRF token")
	}
	token := attr(csrf[0], "value")

	for _, tt := range []struct {
		name   string
		form   url.Values
		origin string
	}{
		{"no token", url.Values{}, ""},
		{"wrong token", url.Values{"csrf": {strings.Repeat("A", 43)}}, ""},
		{"another site", url.Values{"csrf": {token}}, "http://evil.example"},
	} {
		if w := b.send(t, "POST", "/logout", tt.form, tt.origin); w.Code != http.StatusForbidden {
			t.Errorf("sign-out, %s: %d, want 403", tt.name, w.Code)
		}
	}
	b.page(t, "/dashboard") // still signed in
	w := b.send(t, "POST", "/logout", url.Values{"csrf": {token}}, "http://example.com")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/login" {
		t.Fatalf("sign-out: %d %s", w.Code, w.Body)
	}
	if w := b.send(t, "GET", "/dashboard", nil, ""); w.Code != http.StatusSeeOther {
		t.Errorf("after sign-out the old cookie still opens the dashboard: %d", w.Code)
	}

	// A revoked key's sessions end.
	k, key2 := ts.newKey(t, "alice", "read", false)
	b.signIn(t, key2)
	b.page(t, "/dashboard")
	if err := ts.db.RevokeKey(t.Context(), k.ID); err != nil {
		t.Fatal(err)
	}
	if w := b.send(t, "GET", "/dashboard", nil, ""); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/login" {
		t.Errorf("a revoked key's session: %d, want 303 to /login", w.Code)
	}

	// A key without trades:read signs in but may not see trades.
	_, tagsOnly := ts.newKey(t, "alice", "tags:read", false)
	b.signIn(t, tagsOnly)
	if w := b.send(t, "GET", "/trades", nil, ""); w.Code != http.StatusForbidden {
		t.Errorf("a tags-only session on /trades: %d, want 403", w.Code)
	}
}

// TestSessionCookieSecureBehindHTTPS: with an https public URL the cookie
// never travels in clear.
func TestSessionCookieSecureBehindHTTPS(t *testing.T) {
	ts := newTestServer(t)
	store, err := files.Open(ts.files)
	if err != nil {
		t.Fatal(err)
	}
	ts.srv = server.New(server.Config{PublicURL: "https://journal.example.com", Secret: []byte(testSecret)}, ts.db, store, slog.New(slog.DiscardHandler))
	_, key := ts.newUser(t, "alice")
	b := &browser{ts: ts}
	b.signIn(t, key)
	if !b.cookie.Secure {
		t.Errorf("cookie %+v behind https: want Secure", b.cookie)
	}
}

// TestDashboardShowsTheAPIFigures: the dashboard's figures, calendar and
// filters show what the statistics API answers, and the trade list the
// trades; another user's session sees none of them, even asking by id.
func TestDashboardShowsTheAPIFigures(t *testing.T) {
	e := newTradeEnv(t)
	e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010.25")))                                              // +1020
	e.create(t, e.tradeBody("NQH6", "short", fills(2.5, "sell 1@21000", "buy 1@21012.5")))                                            // -255
	e.create(t, strings.Replace(e.tradeBody("ESH6", "long", fills(2.5, "buy 1@5000", "sell 1@4990")), "2026-02-05", "2026-02-09", 1)) // -505
	api := decode[struct{ Data db.StatsSummary }](t, must200(t, e.testServer, "/api/v1/stats/summary", e.key))
	if api.Data.NetPnL != 260 {
		t.Fatalf("the API's net P&L %v, want 260 (1020 - 255 - 505)", api.Data.NetPnL)
	}
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	dash := b.page(t, "/dashboard")
	figure := func(name string) string {
		n := find(dash, byAttr("data-figure", name))
		if len(n) != 1 {
			t.Fatalf("no %s figure", name)
		}
		return nodeText(n[0])
	}
	if got := figure("net_pnl"); got != "260.00" {
		t.Errorf("net P&L shown %q, want 260.00", got)
	}
	if got := figure("trades"); got != "3" {
		t.Errorf("trades shown %q, want 3", got)
	}
	if got := figure("win_rate"); got != fmt.Sprintf("%.1f%%", *api.Data.WinRate) {
		t.Errorf("win rate shown %q, want %.1f%%", got, *api.Data.WinRate)
	}
	for date, want := range map[string]string{"2026-02-05": "765.00", "2026-02-09": "-505.00"} {
		cell := find(dash, byAttr("data-date", date))
		if len(cell) != 1 || !strings.Contains(nodeText(cell[0]), want) {
			t.Errorf("calendar %s: %v, want %s", date, cell, want)
		}
	}
	if len(find(dash, func(n *html.Node) bool { return n.Data == "polyline" })) != 1 {
		t.Error("no equity curve")
	}
	trades := b.page(t, "/trades")
	rows := find(trades, func(n *html.Node) bool { return attr(n, "data-trade") != "" })
	if len(rows) != 3 {
		t.Fatalf("trade rows: %d, want 3", len(rows))
	}
	if !strings.Contains(nodeText(rows[0]), "-505.00") { // newest first, as the API lists
		t.Errorf("first row %q, want the -505.00 trade", nodeText(rows[0]))
	}

	// Bob signed in sees none of alice's, even naming her account.
	_, bobKey := e.newUser(t, "bob")
	bob := &browser{ts: e.testServer}
	bob.signIn(t, bobKey)
	for _, target := range []string{"/dashboard", "/dashboard?account_id=" + e.accountID, "/trades", "/trades?account_id=" + e.accountID} {
		w := bob.send(t, "GET", target, nil, "")
		if w.Code != http.StatusOK || strings.Contains(w.Body.String(), "ESH6") || strings.Contains(w.Body.String(), "765.00") ||
			strings.Contains(w.Body.String(), e.accountID) && !strings.Contains(target, e.accountID) {
			t.Errorf("bob's %s shows alice's records: %d", target, w.Code)
		}
	}
}
