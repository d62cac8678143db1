package server_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"tradejournal/db"
	"tradejournal/files"
	"tradejournal/server"
)

// signInFrom posts a sign-in form from addr and answers the response.
func signInFrom(t *testing.T, ts *testServer, addr string, form url.Values) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest("POST", "/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.RemoteAddr = addr + ":5000"
	return ts.send(t, req)
}

// TestSignInBudgetNeverRefusesTheOwner: an address that spent its failed
// sign-ins (10 a minute) gets 429 with Retry-After for the next failure,
// but the owner's valid key, and a valid sign-in link, still sign in from
// it; failed API calls spend the same budget.
func TestSignInBudgetNeverRefusesTheOwner(t *testing.T) {
	ts, now := limitedServer(t, 0, server.DefaultAuthFailures)
	_, key := ts.newUser(t, "alice")
	const addr = "127.0.0.50"
	bad := url.Values{"key": {"tj_" + strings.Repeat("x", 49)}}
	for i := range 9 {
		if w := signInFrom(t, ts, addr, bad); w.Code != http.StatusUnauthorized {
			t.Fatalf("bad try %d: %d", i+1, w.Code)
		}
	}
	req := httptest.NewRequest("GET", "/api/v1/accounts", nil)
	req.Header.Set("Authorization", "Bearer tj_nope")
	req.RemoteAddr = addr + ":5001"
	if w := ts.send(t, req); w.Code != http.StatusUnauthorized {
		t.Fatalf("the 10th failure, an API call: %d", w.Code)
	}
	w := signInFrom(t, ts, addr, bad)
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "6" || len(w.Result().Cookies()) != 0 ||
		!strings.Contains(w.Body.String(), "retry after 6 seconds") {
		t.Fatalf("the 11th failure: %d Retry-After %q\n%s", w.Code, w.Header().Get("Retry-After"), w.Body)
	}
	if w := signInFrom(t, ts, addr, url.Values{"key": {key}}); w.Code != http.StatusSeeOther || len(w.Result().Cookies()) != 1 {
		t.Errorf("the owner's key from the spent address: %d, want 303 with a session", w.Code)
	}
	token, _, err := ts.db.CreateLoginToken(t.Context(), "alice", "")
	if err != nil {
		t.Fatal(err)
	}
	if w := signInFrom(t, ts, addr, url.Values{"token": {token}}); w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "<strong>alice</strong>") {
		t.Errorf("a sign-in link looked at from the spent address: %d", w.Code)
	}
	if w := signInFrom(t, ts, addr, url.Values{"token": {token}, "confirm": {"1"}}); w.Code != http.StatusSeeOther || len(w.Result().Cookies()) != 1 {
		t.Errorf("a sign-in link used from the spent address: %d, want 303 with a session", w.Code)
	}
	// A used link is a failure like a bad key; another address has its own
	// budget; six seconds later one failure is back.
	if w := signInFrom(t, ts, addr, url.Values{"token": {token}}); w.Code != http.StatusTooManyRequests {
		t.Errorf("a used link from the spent address: %d, want 429", w.Code)
	}
	if w := signInFrom(t, ts, "127.0.0.51", url.Values{"token": {token}}); w.Code != http.StatusUnauthorized ||
		!strings.Contains(w.Body.String(), "expired or was used already") {
		t.Errorf("a used link from another address: %d\n%s", w.Code, w.Body)
	}
	*now = now.Add(6 * time.Second)
	if w := signInFrom(t, ts, addr, bad); w.Code != http.StatusUnauthorized {
		t.Errorf("a failure 6 s later: %d, want 401", w.Code)
	}
}

// TestSignInLink: a link's token shows whom it signs in as (and with which
// key's scopes) without signing in; the click signs in once; a token that
// is unknown, expired or of a revoked key signs in as nobody.
func TestSignInLink(t *testing.T) {
	ts := newTestServer(t)
	ts.newUser(t, "alice")
	b := &browser{ts: ts}
	token, _, err := ts.db.CreateLoginToken(t.Context(), "alice", "")
	if err != nil {
		t.Fatal(err)
	}
	w := b.send(t, "POST", "/login", url.Values{"token": {token}}, "http://example.com")
	if w.Code != http.StatusOK || len(w.Result().Cookies()) != 0 {
		t.Fatalf("looking at a link: %d, cookies %v", w.Code, w.Result().Cookies())
	}
	doc := parseHTML(t, w.Body.String())
	as := find(doc, func(n *html.Node) bool {
		return slices.ContainsFunc(n.Attr, func(a html.Attribute) bool { return a.Key == "data-sign-in-as" })
	})
	if len(as) != 1 || !strings.Contains(strings.Join(strings.Fields(nodeText(as[0])), " "), "as alice, with the key “test” (accounts:write") {
		t.Errorf("the link's page says %q", nodeText(doc))
	}
	if buttons := find(doc, byAttr("id", "sign-in-as")); len(buttons) != 1 || nodeText(buttons[0]) != "Sign in as alice" {
		t.Error("the link's page has no button signing in as alice")
	}
	// From another site: refused, the token kept.
	if w := b.send(t, "POST", "/login", url.Values{"token": {token}, "confirm": {"1"}}, "http://evil.example"); w.Code != http.StatusForbidden {
		t.Errorf("a link used from another site: %d, want 403", w.Code)
	}
	w = b.send(t, "POST", "/login", url.Values{"token": {token}, "confirm": {"1"}}, "http://example.com")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/dashboard" || len(w.Result().Cookies()) != 1 {
		t.Fatalf("using the link: %d, cookies %v", w.Code, w.Result().Cookies())
	}
	b.cookie = w.Result().Cookies()[0]
	b.page(t, "/dashboard")
	for _, form := range []url.Values{{"token": {token}}, {"token": {token}, "confirm": {"1"}}, {"token": {"nope"}, "confirm": {"1"}}} {
		w := (&browser{ts: ts}).send(t, "POST", "/login", form, "")
		if w.Code != http.StatusUnauthorized || len(w.Result().Cookies()) != 0 || !strings.Contains(w.Body.String(), "login-link --user NAME") {
			t.Errorf("%v: %d\n%s", form, w.Code, w.Body)
		}
	}
}

// TestFormOriginIsSchemeHostAndPort: a form post's Origin must be the
// origin the request came to (scheme, host and port), or the public URL's;
// the same host over another scheme or port is another site.
func TestFormOriginIsSchemeHostAndPort(t *testing.T) {
	ts := newTestServer(t)
	store, err := files.Open(ts.files)
	if err != nil {
		t.Fatal(err)
	}
	ts.srv = server.New(server.Config{PublicURL: "https://journal.example.com", Secret: []byte(testSecret), AllowedHosts: []string{testHost}}, ts.db, store, slog.New(slog.DiscardHandler))
	_, key := ts.newUser(t, "alice")
	for _, tt := range []struct {
		origin string
		want   int
	}{
		{"http://127.0.0.1:8080", http.StatusSeeOther},
		{"HTTP://127.0.0.1:8080", http.StatusSeeOther},
		{"https://journal.example.com", http.StatusSeeOther},
		{"https://journal.example.com:443", http.StatusSeeOther},
		{"https://127.0.0.1:8080", http.StatusForbidden},
		{"http://127.0.0.1:8081", http.StatusForbidden},
		{"http://127.0.0.1", http.StatusForbidden},
		{"http://journal.example.com", http.StatusForbidden},
		{"https://journal.example.com.evil.example", http.StatusForbidden},
		{"null", http.StatusForbidden},
	} {
		req := httptest.NewRequest("POST", "http://127.0.0.1:8080/login", strings.NewReader(url.Values{"key": {key}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", tt.origin)
		if w := ts.send(t, req); w.Code != tt.want {
			t.Errorf("Origin %s to http://127.0.0.1:8080: %d, want %d", tt.origin, w.Code, tt.want)
		}
	}
}

// TestSessionSpendsItsKeysRequests: with --rate-limit, a browser session
// spends its key's requests as the key's API calls do, and its 429 says
// when to come back.
func TestSessionSpendsItsKeysRequests(t *testing.T) {
	ts, now := limitedServer(t, 2, 0)
	_, key := ts.newUser(t, "alice")
	b := &browser{ts: ts}
	b.signIn(t, key)
	*now = now.Add(time.Second)
	b.page(t, "/dashboard")
	if status, _ := ts.do(t, "GET", "/api/v1/accounts", key, ""); status != 200 {
		t.Fatalf("the key's second request: %d", status)
	}
	w := b.send(t, "GET", "/dashboard", nil, "")
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") != "1" {
		t.Errorf("the session's third request of the second: %d Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
}

// TestReadOnlySessionSeesNoImportForm: a session whose key cannot write
// trades sees the import history but no upload form and no Undo.
func TestReadOnlySessionSeesNoImportForm(t *testing.T) {
	e := newTradeEnv(t)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	w := b.postMultipart(t, "/import", [][2]string{{"csrf", csrfOf(t, b, "/import")}, {"account_id", e.accountID}}, "fills.csv", morning, nil)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("import: %d %s", w.Code, w.Body)
	}
	writer := b.page(t, "/import")
	if len(find(writer, byAttr("id", "file"))) != 1 || len(find(writer, byAttr("class", "quiet"))) != 1 {
		t.Fatal("the writer's import page lacks the form or the Undo")
	}
	_, readKey := e.newKey(t, "alice", "read", false)
	b.signIn(t, readKey)
	page := b.page(t, "/import")
	if len(find(page, func(n *html.Node) bool { return n.Data == "form" && attr(n, "class") != "signout" })) != 0 {
		t.Errorf("the read-only import page has a form:\n%s", renderHTML(page))
	}
	if rows := find(page, func(n *html.Node) bool { return n.Data == "tr" && attr(n, "data-import") != "" }); len(rows) != 1 {
		t.Errorf("the read-only import page lists %d imports, want 1", len(rows))
	}
}

// parseHTML parses a page's body.
func parseHTML(t *testing.T, body string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// renderHTML is a parsed page as text, for a failure's message.
func renderHTML(n *html.Node) string {
	var b strings.Builder
	html.Render(&b, n)
	return b.String()
}

// csrfOf reads the session's form token from a page.
func csrfOf(t *testing.T, b *browser, target string) string {
	t.Helper()
	inputs := find(b.page(t, target), byAttr("name", "csrf"))
	if len(inputs) == 0 {
		t.Fatalf("%s has no CSRF token", target)
	}
	return attr(inputs[0], "value")
}

// TestRefusedReviewKeepsWhatWasTyped: a review refused for a bad stop comes
// back as a 400 with every value typed still in the form and the reason in
// the form's words (its label, not the JSON name); notes of 70,000
// characters save; a form over 1 MiB is a 413 that says what is wrong, and
// nothing changes.
func TestRefusedReviewKeepsWhatWasTyped(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	csrf := csrfOf(t, b, "/trades/"+tr.ID)
	before := string(must200(t, e.testServer, "/api/v1/trades/"+tr.ID, e.key))

	form := url.Values{"csrf": {csrf}, "star_rating": {"3"}, "notes": {"Chased the open.\r\nNext time wait."},
		"stop_loss_levels": {"4995, abc"}, "take_profit_levels": {"5020"}, "reviewed": {"true"}}
	w := b.send(t, "POST", "/trades/"+tr.ID+"/review", form, "")
	if w.Code != http.StatusBadRequest {
		t.Fatalf("a bad stop: %d", w.Code)
	}
	doc := parseHTML(t, w.Body.String())
	alert := find(doc, byAttr("role", "alert"))
	if len(alert) != 1 || nodeText(alert[0]) != "Stops: must be prices such as 4995, 4990@1" {
		t.Errorf("the reason: %q, want it in the form's words", nodeText(doc))
	}
	if n := find(doc, byAttr("id", "notes")); len(n) != 1 || nodeText(n[0]) != "Chased the open.\nNext time wait." {
		t.Errorf("the notes typed are gone: %v", n)
	}
	for id, want := range map[string]string{"stop_loss_levels": "4995, abc", "take_profit_levels": "5020"} {
		if n := find(doc, byAttr("id", id)); len(n) != 1 || attr(n[0], "value") != want {
			t.Errorf("%s typed %q is gone", id, want)
		}
	}
	if n := find(doc, func(n *html.Node) bool { return n.Data == "option" && attr(n, "value") == "3" }); len(n) != 1 ||
		!slices.ContainsFunc(n[0].Attr, func(a html.Attribute) bool { return a.Key == "selected" }) {
		t.Error("the rating typed is not selected")
	}
	if n := find(doc, byAttr("name", "reviewed")); len(n) != 1 || !slices.ContainsFunc(n[0].Attr, func(a html.Attribute) bool { return a.Key == "checked" }) {
		t.Error("reviewed, ticked, is not ticked")
	}
	if after := string(must200(t, e.testServer, "/api/v1/trades/"+tr.ID, e.key)); after != before {
		t.Error("a refused review changed the trade")
	}

	form.Set("stop_loss_levels", "4995")
	form.Set("notes", strings.Repeat("Patience. ", 7000))
	if w := b.send(t, "POST", "/trades/"+tr.ID+"/review", form, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("70,000 characters of notes: %d %s", w.Code, w.Body)
	}
	got := decode[struct{ Data db.EnrichedTrade }](t, must200(t, e.testServer, "/api/v1/trades/"+tr.ID, e.key)).Data
	if !strings.Contains(string(got.ReviewNotes), strings.Repeat("Patience. ", 6999)+"Patience.") {
		t.Errorf("the long notes read back as %d bytes", len(got.ReviewNotes))
	}
	before = string(must200(t, e.testServer, "/api/v1/trades/"+tr.ID, e.key))
	form.Set("notes", strings.Repeat("x", 1<<20))
	w = b.send(t, "POST", "/trades/"+tr.ID+"/review", form, "")
	if w.Code != http.StatusRequestEntityTooLarge || !strings.Contains(w.Body.String(), "The form is larger than 1024 KiB, so nothing was saved") {
		t.Errorf("a form over 1 MiB: %d\n%s", w.Code, w.Body)
	}
	if after := string(must200(t, e.testServer, "/api/v1/trades/"+tr.ID, e.key)); after != before {
		t.Error("a refused form changed the trade")
	}
}
