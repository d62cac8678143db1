package server_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"math"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"tradejournal/db"
	"tradejournal/files"
	"tradejournal/server"
	"tradejournal/server/auth"
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

// page gets a page and parses it, failing unless it is a 200 of HTML
// whose length the answer says.
func (b *browser) page(t *testing.T, target string) *html.Node {
	t.Helper()
	w := b.send(t, "GET", target, nil, "")
	if w.Code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", target, w.Code, w.Body)
	}
	if got := w.Header().Get("Content-Type"); got != "text/html; charset=utf-8" {
		t.Errorf("GET %s: Content-Type %q", target, got)
	}
	if got, want := w.Header().Get("Content-Length"), strconv.Itoa(w.Body.Len()); got != want {
		t.Errorf("GET %s: Content-Length %q, want %s (sent whole, not in chunks)", target, got, want)
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
	clearsSession(t, w)
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
	ts.srv = server.New(server.Config{PublicURL: "https://journal.example.com", Secret: []byte(testSecret), AllowedHosts: []string{testHost}}, ts.db, store, slog.New(slog.DiscardHandler))
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
	if got := figure("win_rate"); *api.Data.WinRate != 0.33333333 || got != "33.3%" { // one win, two losses, rounded to 8 places
		t.Errorf("win rate shown %q, the API's %v; want 33.3%%", got, *api.Data.WinRate)
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
	// Another month by ?month=; a month that is none is a 400 naming it.
	if jan := b.send(t, "GET", "/dashboard?month=2026-01", nil, ""); jan.Code != http.StatusOK ||
		!strings.Contains(jan.Body.String(), "January 2026") || strings.Contains(jan.Body.String(), `data-date="2026-02-05"`) {
		t.Errorf("?month=2026-01: %d, want January 2026 without February's days", jan.Code)
	}
	if bad := b.send(t, "GET", "/dashboard?month=2026-13", nil, ""); bad.Code != http.StatusBadRequest ||
		!strings.Contains(bad.Body.String(), "month must be YYYY-MM") {
		t.Errorf("?month=2026-13: %d %s, want a 400 naming month", bad.Code, bad.Body)
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

// TestTradePageReview: a trade's page shows the API's numbers and fills;
// its review form saves through the API's checks (the API then reads the
// rating, notes, stops, checklist and tags back), refuses a bad field with
// the reason and changes nothing, and a read-only session sees no form and
// may not post one.
func TestTradePageReview(t *testing.T) {
	e := newTradeEnv(t)
	pb := e.createPlaybook(t, e.key, `{"title": "Opening drive", "entry_criteria": ["Above VWAP"]}`)
	group := decode[struct{ TagGroup db.TagGroup }](t, must201(t, e.testServer, "/api/v1/tags", e.key, `{"type": "tag_group", "name": "Setup"}`)).TagGroup
	tag := decode[struct{ Tag db.Tag }](t, must201(t, e.testServer, "/api/v1/tags", e.key, fmt.Sprintf(`{"type": "tag", "tag_group_id": %q, "name": "A+"}`, group.ID))).Tag
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")+fmt.Sprintf(`, "playbook_id": %q`, pb.ID)))
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	// The trade page shows the trade's own documents (DESIGN §13), not
	// every document of its account.
	doc := e.mustUpload(t, e.key, form("APEX-1", filePart("statement.pdf", samplePDF(t))), http.StatusCreated)
	shot := e.mustUpload(t, e.key, []part{field("trade_id", tr.ID), field("document_name", "Entry"), field("category", "receipt"),
		filePart("entry.png", widePNG(t, 640, 320))}, http.StatusCreated)
	page := b.page(t, "/trades/"+tr.ID)
	if docs := find(page, byAttr("data-document", doc.ID)); len(docs) != 0 {
		t.Error("the trade's page lists a document of its account that is not the trade's")
	}
	shots := find(page, byAttr("data-document", shot.ID))
	if len(shots) != 1 {
		t.Fatal("the trade's page does not show its screenshot")
	}
	if img := find(shots[0], func(n *html.Node) bool { return n.Data == "img" }); len(img) != 1 ||
		!strings.HasPrefix(attr(img[0], "src"), "/api/v1/files/"+shot.ID+"/entry.png?") || !strings.HasSuffix(attr(img[0], "src"), "&w=320") {
		t.Errorf("the screenshot's thumbnail: %v, want a path on this server ending &w=320", img)
	}
	if n := find(page, byAttr("data-figure", "net_pnl")); len(n) != 1 || nodeText(n[0]) != formatMoneyLike(tr.NetPnL) {
		t.Errorf("net P&L on the page: %v, want %s", n, formatMoneyLike(tr.NetPnL))
	}
	csrf := attr(find(page, byAttr("name", "csrf"))[0], "value")
	criterion := attr(find(page, byAttr("name", "criterion"))[0], "value")

	form := url.Values{"csrf": {csrf}, "star_rating": {"4"}, "notes": {"Waited for the pullback.\r\n\r\nGood exit."},
		"stop_loss_levels": {"4995"}, "take_profit_levels": {"5010@1, 5015"}, "playbook_id": {pb.ID},
		"criterion": {criterion}, "checked": {criterion}, "tags": {"shown"}, "tag_ids": {tag.ID}, "reviewed": {"true"}}
	w := b.send(t, "POST", "/trades/"+tr.ID+"/review", form, "http://example.com")
	if w.Code != http.StatusSeeOther {
		t.Fatalf("save review: %d %s", w.Code, w.Body)
	}
	got := decode[struct{ Data map[string]any }](t, must200(t, e.testServer, "/api/v1/trades/"+tr.ID, e.key)).Data
	for field, want := range map[string]string{
		"star_rating":        `4`,
		"review_notes":       `{"content":[{"content":[{"text":"Waited for the pullback.","type":"text"}],"type":"paragraph"},{"content":[{"text":"Good exit.","type":"text"}],"type":"paragraph"}],"type":"doc"}`,
		"stop_loss_levels":   `[{"price":4995}]`,
		"take_profit_levels": `[{"price":5010,"quantity":1},{"price":5015}]`,
		"criteria_checklist": fmt.Sprintf(`[{"checked":true,"criterion_id":%q,"description":"Above VWAP","type":"entry"}]`, criterion),
	} {
		if s := jsonText(t, got[field]); s != want {
			t.Errorf("%s after saving the form: %s, want %s", field, s, want)
		}
	}
	if tags := jsonText(t, got["tags"]); !strings.Contains(tags, tag.ID) || got["reviewed_at"] == nil {
		t.Errorf("tags %s, reviewed_at %v after saving", tags, got["reviewed_at"])
	}
	page = b.page(t, "/trades/"+tr.ID+"?saved=1")
	if notes := find(page, byAttr("id", "notes")); len(notes) != 1 || nodeText(notes[0]) != "Waited for the pullback.\n\nGood exit." {
		t.Errorf("the notes read back into the form: %q", nodeText(notes[0]))
	}

	before := string(must200(t, e.testServer, "/api/v1/trades/"+tr.ID, e.key))
	form.Set("stop_loss_levels", "abc")
	if w := b.send(t, "POST", "/trades/"+tr.ID+"/review", form, ""); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "stop_loss_levels") {
		t.Errorf("a bad stop: %d, want 400 naming stop_loss_levels", w.Code)
	}
	if after := string(must200(t, e.testServer, "/api/v1/trades/"+tr.ID, e.key)); after != before {
		t.Error("a refused review changed the trade")
	}

	_, readKey := e.newKey(t, "alice", "read", false)
	reader := &browser{ts: e.testServer}
	reader.signIn(t, readKey)
	page = reader.page(t, "/trades/"+tr.ID)
	if len(find(page, func(n *html.Node) bool { return n.Data == "form" && strings.Contains(attr(n, "action"), "/review") })) != 0 {
		t.Error("a read-only session sees the review form")
	}
	readCSRF := attr(find(page, byAttr("name", "csrf"))[0], "value")
	form.Set("csrf", readCSRF)
	form.Set("stop_loss_levels", "4990")
	if w := reader.send(t, "POST", "/trades/"+tr.ID+"/review", form, ""); w.Code != http.StatusForbidden {
		t.Errorf("a read-only session's review post: %d, want 403", w.Code)
	}

	// Bob's session cannot open or change alice's trade.
	_, bobKey := e.newUser(t, "bob")
	bob := &browser{ts: e.testServer}
	bob.signIn(t, bobKey)
	if w := bob.send(t, "GET", "/trades/"+tr.ID, nil, ""); w.Code != http.StatusNotFound {
		t.Errorf("bob opening alice's trade: %d, want 404", w.Code)
	}
	bobCSRF := attr(find(bob.page(t, "/dashboard"), byAttr("name", "csrf"))[0], "value")
	form.Set("csrf", bobCSRF)
	if w := bob.send(t, "POST", "/trades/"+tr.ID+"/review", form, ""); w.Code != http.StatusNotFound {
		t.Errorf("bob saving alice's review: %d, want 404", w.Code)
	}
}

// must201 posts body to target and fails unless the answer is a 201.
func must201(t *testing.T, ts *testServer, target, key, body string) []byte {
	t.Helper()
	status, b := ts.do(t, "POST", target, key, body)
	if status != http.StatusCreated {
		t.Fatalf("POST %s %s: got %d %s, want 201", target, body, status, b)
	}
	return b
}

// postMultipart posts fields (in order) and a file as the browser.
func (b *browser) postMultipart(t *testing.T, target string, fields [][2]string, fileName, content string, header map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, f := range fields {
		mw.WriteField(f[0], f[1])
	}
	if fileName != "" {
		fw, _ := mw.CreateFormFile("file", fileName)
		fw.Write([]byte(content))
	}
	mw.Close()
	req := httptest.NewRequest("POST", target, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	for k, v := range header {
		req.Header.Set(k, v)
	}
	req.AddCookie(b.cookie)
	return b.ts.send(t, req)
}

// TestImportPage: a broker file previews without writing, imports through
// the API's own reading, shows in the history and is undone from there; a
// form without the session's token first, or a read-only session's, is
// refused with nothing written; a file that does not read says why.
func TestImportPage(t *testing.T) {
	e := newTradeEnv(t)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	page := b.page(t, "/import")
	form := find(page, byAttr("id", "import"))
	if len(form) != 1 {
		t.Fatal("no import form")
	}
	inputs := find(form[0], func(n *html.Node) bool { return n.Data == "input" })
	if len(inputs) == 0 || attr(inputs[0], "name") != "csrf" {
		t.Fatal("the import form's first field is not its CSRF token")
	}
	csrf := attr(inputs[0], "value")
	trades := func() int { return count(t, e.sql(t), `SELECT count(*) FROM trades`) }

	w := b.postMultipart(t, "/import?preview=1", [][2]string{{"csrf", csrf}}, "fills.csv", morning, map[string]string{"X-Fragment": "preview"})
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "3 trades to create") || strings.Contains(w.Body.String(), "<html") {
		t.Fatalf("preview: %d %s", w.Code, w.Body)
	}
	if n := trades(); n != 0 {
		t.Fatalf("the preview wrote %d trades", n)
	}
	for name, fields := range map[string][][2]string{
		"no token":    {{"format", "auto"}},
		"wrong token": {{"csrf", strings.Repeat("A", 43)}},
	} {
		if w := b.postMultipart(t, "/import", fields, "fills.csv", morning, nil); w.Code != http.StatusForbidden {
			t.Errorf("import, %s: %d, want 403", name, w.Code)
		}
	}
	if w := b.postMultipart(t, "/import", [][2]string{{"csrf", csrf}}, "fills.csv", genericHeader+"APEX-1,MNQZ5,buy,x,21000,0.62,2025-12-01T09:31:00-05:00,A1\n", nil); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "Line 2, quantity: quantity is not a number") {
		t.Errorf("a file that does not read: %d, want 400 naming the line and column in the page's words", w.Code)
	}
	// Its preview, for the page's script, is the problem alone.
	w = b.postMultipart(t, "/import?preview=1", [][2]string{{"csrf", csrf}}, "fills.csv",
		genericHeader+"APEX-1,MNQZ5,buy,x,21000,0.62,2025-12-01T09:31:00-05:00,A1\n", map[string]string{"X-Fragment": "preview"})
	if body := w.Body.String(); w.Code != http.StatusBadRequest || !strings.HasPrefix(body, `<p role="alert" class="error">`) ||
		!strings.Contains(body, "Line 2, quantity: quantity is not a number") || strings.Contains(body, "rows[2]") || strings.Contains(body, "<html") {
		t.Errorf("a failed preview's fragment: %d %s, want a 400 alert naming the row", w.Code, body)
	}
	if n := trades(); n != 0 {
		t.Fatalf("refused imports wrote %d trades", n)
	}

	w = b.postMultipart(t, "/import", [][2]string{{"csrf", csrf}}, "fills.csv", morning, nil)
	if w.Code != http.StatusSeeOther || !strings.HasPrefix(w.Header().Get("Location"), "/import?done=") {
		t.Fatalf("import: %d %s", w.Code, w.Body)
	}
	if n := trades(); n != 3 {
		t.Fatalf("trades after the import: %d, want 3", n)
	}
	history := find(b.page(t, "/import"), func(n *html.Node) bool { return attr(n, "data-import") != "" })
	if len(history) != 1 {
		t.Fatalf("history rows: %d, want 1", len(history))
	}
	id := attr(history[0], "data-import")

	_, readKey := e.newKey(t, "alice", "read", false)
	reader := &browser{ts: e.testServer}
	reader.signIn(t, readKey)
	readCSRF := attr(find(reader.page(t, "/import"), byAttr("name", "csrf"))[0], "value")
	if w := reader.send(t, "POST", "/imports/"+id+"/undo", url.Values{"csrf": {readCSRF}}, ""); w.Code != http.StatusForbidden {
		t.Errorf("a read-only session's undo: %d, want 403", w.Code)
	}
	if w := reader.postMultipart(t, "/import", [][2]string{{"csrf", readCSRF}}, "fills.csv", morning, nil); w.Code != http.StatusForbidden {
		t.Errorf("a read-only session's import: %d, want 403", w.Code)
	}

	if w := b.send(t, "POST", "/imports/"+id+"/undo", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("undo: %d %s", w.Code, w.Body)
	}
	if n := trades(); n != 0 {
		t.Errorf("trades after the undo: %d, want 0", n)
	}
	e.noTempFiles(t)
}

// TestAccountsPage: each account shows the API's prop status: balance,
// floor and the room to it, the target's progress, and a breach.
func TestAccountsPage(t *testing.T) {
	e := newTradeEnv(t)
	if status, b := e.do(t, "PUT", "/api/v1/accounts/"+e.accountID, e.key, `{"starting_balance": 50000, "max_drawdown": 2500,
		"drawdown_mode": "trailing", "profit_target": 3000, "max_daily_loss": 400}`); status != 200 {
		t.Fatalf("set rules: %d %s", status, b)
	}
	e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010"))) // +995
	e.create(t, strings.Replace(e.tradeBody("NQH6", "short", fills(2.5, "sell 1@21000", "buy 1@21025")),
		"2026-02-05", "2026-02-06", 1)) // -505 on a day of its own: the daily loss of 400 broken
	api := decode[struct{ Data map[string]any }](t, must200(t, e.testServer, "/api/v1/accounts/"+e.accountID+"/status", e.key)).Data
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	page := b.page(t, "/accounts")
	cards := find(page, byAttr("data-account", e.accountID))
	if len(cards) != 1 {
		t.Fatal("no card for the account")
	}
	for _, field := range []string{"balance", "drawdown_floor", "drawdown_remaining", "profit_target_remaining"} {
		n := find(cards[0], byAttr("data-figure", field))
		if len(n) != 1 || nodeText(n[0]) != formatMoneyLike(api[field].(float64)) {
			t.Errorf("%s shown %v, the API's %v", field, n, api[field])
		}
	}
	if got := nodeText(find(cards[0], byAttr("data-figure", "balance"))[0]); got != "50,490.00" {
		t.Errorf("balance %q, want 50,490.00 (50,000 + 995 - 505)", got)
	}
	if len(find(cards[0], byAttr("data-breach", "max_daily_loss"))) != 1 {
		t.Errorf("the daily-loss breach is not shown; the API's breaches: %v", api["breaches"])
	}
	if bars := find(cards[0], func(n *html.Node) bool { return n.Data == "progress" }); len(bars) != 1 || attr(bars[0], "value") != "16" {
		t.Errorf("target progress: %v, want 16 (490 of 3,000)", bars)
	}
}

// formatMoneyLike is v as the pages show money: thousands and cents, half
// a cent rounded away from zero (%.2f alone would round it to even), no
// -0.00.
func formatMoneyLike(v float64) string {
	s := fmt.Sprintf("%.2f", math.Round(math.Abs(v)*100)/100)
	whole, cents, _ := strings.Cut(s, ".")
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	if v < 0 && s != "0.00" {
		return "-" + whole + "." + cents
	}
	return whole + "." + cents
}

// TestPayoutsPage: a payout and an expense added from the page's forms are
// the API's, checked by its own code (a bad amount is a 400 naming it and
// writes nothing), and the summary shows the API's net; a read-only
// session sees no forms and may not post them.
func TestPayoutsPage(t *testing.T) {
	e := newTradeEnv(t)
	if status, b := e.do(t, "PUT", "/api/v1/accounts/"+e.accountID, e.key, `{"profit_split": 90}`); status != 200 {
		t.Fatalf("set split: %d %s", status, b)
	}
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	csrf := attr(find(b.page(t, "/payouts"), byAttr("name", "csrf"))[0], "value")
	post := func(target string, form url.Values) *httptest.ResponseRecorder {
		form.Set("csrf", csrf)
		return b.send(t, "POST", target, form, "")
	}
	if w := post("/payouts", url.Values{"account_id": {e.accountID}, "date": {"2026-02-05"}, "total_amount": {"5,000"}, "status": {"paid"}, "reference": {"P-1"}}); w.Code != http.StatusSeeOther {
		t.Fatalf("add payout: %d %s", w.Code, w.Body)
	}
	if w := post("/expenses", url.Values{"account_id": {e.accountID}, "date": {"2026-02-01"}, "amount": {"167"}, "category": {"evaluation"}}); w.Code != http.StatusSeeOther {
		t.Fatalf("add expense: %d %s", w.Code, w.Body)
	}
	payouts := decode[listBody[db.Payout]](t, must200(t, e.testServer, "/api/v1/payouts", e.key)).Data
	if len(payouts) != 1 || payouts[0].TotalAmount != 5000 || payouts[0].TradersShare != 4500 || payouts[0].Reference != "P-1" {
		t.Errorf("the API's payouts after the form: %+v", payouts)
	}
	expenses := decode[listBody[db.Expense]](t, must200(t, e.testServer, "/api/v1/expenses", e.key)).Data
	if len(expenses) != 1 || expenses[0].Amount != 167 || expenses[0].Category != "evaluation" {
		t.Errorf("the API's expenses after the form: %+v", expenses)
	}
	page := b.page(t, "/payouts?added=1")
	if net := find(page, byAttr("data-figure", "net")); len(net) != 1 || nodeText(net[0]) != "4,333.00" {
		t.Errorf("net shown %v, want 4,333.00 (4,500 - 167)", net)
	}
	before := tableCounts(t, e)
	for target, form := range map[string]url.Values{
		"/payouts":  {"account_id": {e.accountID}, "total_amount": {"abc"}},
		"/expenses": {"amount": {"-5"}, "category": {"data"}},
	} {
		w := post(target, form)
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), `role="alert"`) {
			t.Errorf("POST %s with a bad amount: %d, want 400 with the reason", target, w.Code)
		}
	}
	if after := tableCounts(t, e); after != before {
		t.Error("refused forms wrote rows")
	}

	_, readKey := e.newKey(t, "alice", "read", false)
	reader := &browser{ts: e.testServer}
	reader.signIn(t, readKey)
	page = reader.page(t, "/payouts")
	if forms := find(page, func(n *html.Node) bool { return n.Data == "form" && attr(n, "action") != "/logout" }); len(forms) != 0 {
		t.Errorf("a read-only session sees %d forms", len(forms))
	}
	readCSRF := attr(find(page, byAttr("name", "csrf"))[0], "value")
	if w := reader.send(t, "POST", "/payouts", url.Values{"csrf": {readCSRF}, "account_id": {e.accountID}, "total_amount": {"1"}}, ""); w.Code != http.StatusForbidden {
		t.Errorf("a read-only session's payout: %d, want 403", w.Code)
	}
}

// TestLibraryPage: the playbooks, strategies and tags as the API lists
// them, each tag with its group's colour.
func TestLibraryPage(t *testing.T) {
	e := newTradeEnv(t)
	e.createPlaybook(t, e.key, `{"title": "Opening drive", "entry_criteria": ["Above VWAP"], "exit_criteria": ["First target"]}`)
	e.createStrategy(t, e.key, `{"title": "One contract", "type": "risk_management",
		"strategy_rules": [{"description": "At most one contract", "severity": "critical", "check": {"kind": "max_quantity", "value": 1}}]}`)
	group := decode[struct{ TagGroup db.TagGroup }](t, must201(t, e.testServer, "/api/v1/tags", e.key, `{"type": "tag_group", "name": "Setup", "color": "#12AB34"}`)).TagGroup
	must201(t, e.testServer, "/api/v1/tags", e.key, fmt.Sprintf(`{"type": "tag", "tag_group_id": %q, "name": "A+"}`, group.ID))
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	page := b.page(t, "/library")
	body := nodeText(page)
	for _, want := range []string{"Opening drive", "Above VWAP", "First target", "One contract", "At most one contract", "max_quantity", "Setup", "A+"} {
		if !strings.Contains(body, want) {
			t.Errorf("the library page lacks %q", want)
		}
	}
	if rects := find(page, func(n *html.Node) bool { return n.Data == "rect" && attr(n, "fill") == "#12AB34" }); len(rects) != 1 {
		t.Errorf("the tag's swatch: %d in the group's colour, want 1", len(rects))
	}
}

// TestDocumentsPage: a document uploaded from the page is the API's, and
// the page links its signed URL, which serves the file; a file of the
// wrong type says why and leaves nothing; a read-only session sees no form
// and may not post one.
func TestDocumentsPage(t *testing.T) {
	e := newTradeEnv(t)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	csrf := attr(find(b.page(t, "/documents"), byAttr("name", "csrf"))[0], "value")
	fields := [][2]string{{"csrf", csrf}, {"document_name", "Payout March"}, {"category", "payout-confirmation"}, {"account_number", "APEX-1"}}
	if w := b.postMultipart(t, "/documents", fields, "payout.pdf", string(samplePDF(t)), nil); w.Code != http.StatusSeeOther {
		t.Fatalf("upload: %d %s", w.Code, w.Body)
	}
	docs := decode[listBody[docJSON]](t, must200(t, e.testServer, "/api/v1/documents", e.key)).Data
	if len(docs) != 1 || docs[0].DocumentName != "Payout March" {
		t.Fatalf("the API's documents after the upload: %+v", docs)
	}
	rows := find(b.page(t, "/documents?uploaded=1"), byAttr("data-document", docs[0].ID))
	if len(rows) != 1 {
		t.Fatal("the page does not list the document")
	}
	link := attr(find(rows[0], func(n *html.Node) bool { return n.Data == "a" })[0], "href")
	if w := e.download(t, link, nil); w.Code != http.StatusOK || w.Header().Get("Content-Type") != "application/pdf" {
		t.Errorf("the page's link %s: %d %s", link, w.Code, w.Header().Get("Content-Type"))
	}

	before := tableCounts(t, e)
	if w := b.postMultipart(t, "/documents", fields, "notes.txt", "just text", nil); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "file must be a JPEG, PNG, WebP or PDF") {
		t.Errorf("a text file: %d, want 400 saying which types", w.Code)
	}
	if after := tableCounts(t, e); after != before {
		t.Error("a refused upload wrote rows")
	}
	e.noTempFiles(t)

	_, readKey := e.newKey(t, "alice", "read", false)
	reader := &browser{ts: e.testServer}
	reader.signIn(t, readKey)
	page := reader.page(t, "/documents")
	if len(find(page, byAttr("id", "upload"))) != 0 {
		t.Error("a read-only session sees the upload form")
	}
	readCSRF := attr(find(page, byAttr("name", "csrf"))[0], "value")
	if w := reader.postMultipart(t, "/documents", [][2]string{{"csrf", readCSRF}}, "payout.pdf", string(samplePDF(t)), nil); w.Code != http.StatusForbidden {
		t.Errorf("a read-only session's upload: %d, want 403", w.Code)
	}
}

// TestTradeReviewKeepsWhatTheSessionCannotSee: a session that may write
// trades but not read playbooks or tags is shown neither, and saving its
// review leaves the trade's playbook and tags as they were.
func TestTradeReviewKeepsWhatTheSessionCannotSee(t *testing.T) {
	e := newTradeEnv(t)
	pb := e.createPlaybook(t, e.key, `{"title": "Secret setup"}`)
	group := decode[struct{ TagGroup db.TagGroup }](t, must201(t, e.testServer, "/api/v1/tags", e.key, `{"type": "tag_group", "name": "Setup"}`)).TagGroup
	tag := decode[struct{ Tag db.Tag }](t, must201(t, e.testServer, "/api/v1/tags", e.key, fmt.Sprintf(`{"type": "tag", "tag_group_id": %q, "name": "A+"}`, group.ID))).Tag
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 1@5000", "sell 1@5010")+
		fmt.Sprintf(`, "playbook_id": %q, "tag_ids": [%q]`, pb.ID, tag.ID)))
	_, tradesOnly := e.newKey(t, "alice", "trades:write", false)
	b := &browser{ts: e.testServer}
	b.signIn(t, tradesOnly)
	page := b.page(t, "/trades/"+tr.ID)
	if strings.Contains(nodeText(page), "Secret setup") || len(find(page, byAttr("name", "tag_ids"))) != 0 {
		t.Error("a session without playbooks:read and tags:read is shown playbooks or tags")
	}
	form := url.Values{"csrf": {attr(find(page, byAttr("name", "csrf"))[0], "value")}, "star_rating": {"2"}}
	if w := b.send(t, "POST", "/trades/"+tr.ID+"/review", form, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("save review: %d %s", w.Code, w.Body)
	}
	got := decode[struct{ Data db.EnrichedTrade }](t, must200(t, e.testServer, "/api/v1/trades/"+tr.ID, e.key)).Data
	if got.StarRating == nil || *got.StarRating != 2 || got.PlaybookID == nil || *got.PlaybookID != pb.ID || len(got.Tags) != 1 {
		t.Errorf("after the review: rating %v, playbook %v, tags %v; want 2, the playbook and the tag kept", got.StarRating, got.PlaybookID, got.Tags)
	}
}

// TestPageOnFullDisk: a form saved on a full disk gets the API's 507 as a
// page, with the API's Retry-After, and nothing written; with space again
// the same form saves.
func TestPageOnFullDisk(t *testing.T) {
	e := newTradeEnv(t)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	csrf := attr(find(b.page(t, "/payouts"), byAttr("name", "csrf"))[0], "value")
	note := strings.Repeat("n", 3000)
	add := func() *httptest.ResponseRecorder {
		return b.send(t, "POST", "/payouts", url.Values{"csrf": {csrf}, "account_id": {e.accountID}, "date": {"2026-02-05"},
			"total_amount": {"500"}, "status": {"paid"}, "notes": {note}}, "")
	}
	if err := e.db.CapSize(t.Context(), 1); err != nil { // no page past those there are
		t.Fatal(err)
	}
	var w *httptest.ResponseRecorder
	before := 0
	for i := 0; ; i++ {
		if i == 2000 {
			t.Fatal("the capped database never filled")
		}
		before = count(t, e.sql(t), `SELECT count(*) FROM payouts`)
		if w = add(); w.Code != http.StatusSeeOther {
			break
		}
	}
	if w.Code != http.StatusInsufficientStorage || w.Header().Get("Retry-After") != "60" ||
		!strings.Contains(w.Body.String(), "disk") {
		t.Errorf("a form on a full disk: %d, Retry-After %q, %s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	if after := count(t, e.sql(t), `SELECT count(*) FROM payouts`); after != before {
		t.Errorf("payouts after the refused form: %d, want %d", after, before)
	}
	if err := e.db.CapSize(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	if w := add(); w.Code != http.StatusSeeOther {
		t.Errorf("the form with space again: %d %s", w.Code, w.Body)
	}
}

// clearsSession fails unless the answer tells the browser to drop its
// session cookie: the same name and path, no value, expired, HttpOnly.
func clearsSession(t *testing.T, w *httptest.ResponseRecorder) {
	t.Helper()
	for _, c := range (&http.Response{Header: w.Header()}).Cookies() {
		if c.Name == auth.SessionCookie {
			if c.Value != "" || c.MaxAge >= 0 || c.Path != "/" || !c.HttpOnly {
				t.Errorf("sign-out's session cookie: %q, want it cleared", c.String())
			}
			return
		}
	}
	t.Errorf("sign-out sets no %s cookie: the browser keeps its session cookie", auth.SessionCookie)
}
