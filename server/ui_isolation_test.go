package server_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestPagesIsolation walks every page of the web interface with bob's
// session and alice's ids: no page shows, changes or undoes anything of
// alice's. A page without a case here fails the walk.
func TestPagesIsolation(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010.25")+`, "star_rating": 3`))
	imp := e.mustImport(t, e.key, morning, http.StatusCreated)
	e.createPlaybook(t, e.key, `{"title": "Alice's setup"}`)
	aliceIDs := []string{e.accountID, tr.ID, *imp.ID}

	_, bobKey := e.newUser(t, "bob")
	bob := &browser{ts: e.testServer}
	bob.signIn(t, bobKey)
	csrf := attr(find(bob.page(t, "/dashboard"), byAttr("name", "csrf"))[0], "value")
	walk := &pageWalk{e: e, bob: bob, csrf: csrf, aliceIDs: aliceIDs}
	// Each group of pages adds alice's records it needs and its cases,
	// before the journal's counts are taken.
	more := []map[string][]func(t *testing.T){
		libraryPageCases(t, walk), tradePageCases(t, walk), contentPageCases(t, walk), settingsPageCases(t, walk),
		mappingPageCases(t, walk),
	}
	before := tableCounts(t, e)
	shows, redirects, notFound := walk.shows, walk.redirects, walk.notFound
	cases := map[string][]func(t *testing.T){
		"GET /{$}":         {redirects("/", "/dashboard")},
		"GET /login":       {redirects("/login", "/dashboard")},
		"POST /login":      {}, // no record named: TestPagesSignIn
		"POST /logout":     {}, // ends bob's own session only: TestPagesSignIn
		"GET /dashboard":   {shows("/dashboard"), shows("/dashboard?account_id=" + e.accountID)},
		"GET /trades":      {shows("/trades"), shows("/trades?account_id=" + e.accountID), shows("/trades?import_id=" + *imp.ID)},
		"GET /trades/{id}": {notFound("GET", "/trades/"+tr.ID, nil)},
		"POST /trades/{id}/documents": {func(t *testing.T) {
			// bob attaches to alice's trade: her trade is not his.
			w := bob.postMultipart(t, "/trades/"+tr.ID+"/documents", [][2]string{{"csrf", csrf}, {"trade_id", tr.ID}, {"category", "receipt"}},
				"x.pdf", string(samplePDF(t)), nil)
			if w.Code != http.StatusNotFound {
				t.Errorf("bob attaching to alice's trade: %d, want 404", w.Code)
			}
		}},
		"GET /ui/trade.js":         {},
		"GET /days/{date}":         {shows("/days/2026-02-05"), shows("/days/2026-02-05?account_id=" + e.accountID), shows("/days/2025-12-01")},
		"POST /trades/{id}/review": {notFound("POST", "/trades/"+tr.ID+"/review", url.Values{"csrf": {csrf}, "star_rating": {"1"}})},
		"GET /import":              {shows("/import")},
		"GET /accounts":            {shows("/accounts")},
		"GET /payouts":             {shows("/payouts")},
		"GET /documents":           {shows("/documents")},
		"POST /documents": {func(t *testing.T) {
			// bob names alice's account by its number: not his.
			w := bob.postMultipart(t, "/documents", [][2]string{{"csrf", csrf}, {"document_name", "x"}, {"category", "receipt"}, {"account_number", "APEX-1"}}, "p.pdf", string(samplePDF(t)), nil)
			if w.Code != http.StatusNotFound {
				t.Errorf("bob uploading to alice's account: %d, want 404", w.Code)
			}
		}},
		"GET /library": {shows("/library"), func(t *testing.T) {
			if w := bob.send(t, "GET", "/library", nil, ""); strings.Contains(w.Body.String(), "Alice's setup") {
				t.Error("bob's library shows alice's playbook")
			}
		}},
		"POST /payouts":  {notFound("POST", "/payouts", url.Values{"csrf": {csrf}, "account_id": {e.accountID}, "total_amount": {"100"}})},
		"POST /expenses": {notFound("POST", "/expenses", url.Values{"csrf": {csrf}, "account_id": {e.accountID}, "amount": {"100"}, "category": {"data"}})},
		"POST /import": {func(t *testing.T) {
			// bob's import with alice's account id: her account is not his.
			w := bob.postMultipart(t, "/import", [][2]string{{"csrf", csrf}, {"account_id", e.accountID}}, "fills.csv", morning, nil)
			if w.Code != http.StatusNotFound {
				t.Errorf("bob importing into alice's account: %d, want 404", w.Code)
			}
		}},
		"POST /imports/{id}/undo": {notFound("POST", "/imports/"+*imp.ID+"/undo", url.Values{"csrf": {csrf}})},
		"GET /accounts/new":       {shows("/accounts/new")},
		"POST /accounts": {func(t *testing.T) {
			// bob's new account is his: alice's list is unchanged.
			w := bob.send(t, "POST", "/accounts", url.Values{"csrf": {csrf}, "account_number": {"APEX-1"}}, "")
			if w.Code != http.StatusSeeOther {
				t.Fatalf("bob creating an account: %d", w.Code)
			}
			// It is bob's, named as alice's is; his delete leaves the
			// journal's counts as they were.
			var id string
			if err := e.sql(t).QueryRow(`SELECT id FROM accounts WHERE user_id <> ? AND account_number = 'APEX-1'`, e.userID).Scan(&id); err != nil {
				t.Fatal(err)
			}
			if w := bob.send(t, "POST", "/accounts/"+id+"/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther {
				t.Errorf("bob deleting his account: %d", w.Code)
			}
		}},
		"GET /accounts/{id}/edit":    {notFound("GET", "/accounts/"+e.accountID+"/edit", nil)},
		"POST /accounts/{id}":        {notFound("POST", "/accounts/"+e.accountID, url.Values{"csrf": {csrf}, "account_number": {"X"}})},
		"GET /accounts/{id}/delete":  {notFound("GET", "/accounts/"+e.accountID+"/delete", nil)},
		"POST /accounts/{id}/delete": {notFound("POST", "/accounts/"+e.accountID+"/delete", url.Values{"csrf": {csrf}})},
		"GET /ui/app.css":            {},
		"GET /ui/login.js":           {},
		"GET /ui/import.js":          {},
	}
	for _, m := range more {
		for pattern, checks := range m {
			if _, dup := cases[pattern]; dup {
				t.Fatalf("page %s has two isolation cases", pattern)
			}
			cases[pattern] = checks
		}
	}
	for _, pattern := range e.srv.PagePatterns() {
		checks, ok := cases[pattern]
		if !ok {
			t.Errorf("page %s has no isolation case: add one", pattern)
			continue
		}
		for i, check := range checks {
			t.Run(fmt.Sprintf("%s#%d", pattern, i), check)
		}
	}
	if after := tableCounts(t, e); after != before {
		t.Errorf("bob's pages changed alice's journal:\nbefore %s\nafter  %s", before, after)
	}
}

// pageWalk is the page isolation walk's means: alice's journal and the ids
// of her records, bob's signed-in browser and his form token.
type pageWalk struct {
	e        *tradeEnv
	bob      *browser
	csrf     string
	aliceIDs []string
}

// shows gets a page bob may see: it must answer 200 (an error page would
// show nothing of alice's and prove nothing) without any of alice's
// records.
func (w *pageWalk) shows(target string) func(t *testing.T) {
	return func(t *testing.T) {
		r := w.bob.send(t, "GET", target, nil, "")
		if r.Code != http.StatusOK {
			t.Fatalf("GET %s: %d, want 200", target, r.Code)
		}
		for _, id := range w.aliceIDs {
			if strings.Contains(r.Body.String(), id) && !strings.Contains(target, id) {
				t.Errorf("GET %s shows alice's %s", target, id)
			}
		}
		if strings.Contains(r.Body.String(), "ESH6") || strings.Contains(r.Body.String(), "MNQZ5") {
			t.Errorf("GET %s shows alice's trades", target)
		}
	}
}

// redirects gets a page that sends bob on to another.
func (w *pageWalk) redirects(target, to string) func(t *testing.T) {
	return func(t *testing.T) {
		if r := w.bob.send(t, "GET", target, nil, ""); r.Code != http.StatusSeeOther || r.Header().Get("Location") != to {
			t.Errorf("GET %s: %d to %q, want 303 to %s", target, r.Code, r.Header().Get("Location"), to)
		}
	}
}

// notFound sends bob's request naming alice's record: a 404, as for a
// record that does not exist.
func (w *pageWalk) notFound(method, target string, form url.Values) func(t *testing.T) {
	return func(t *testing.T) {
		if r := w.bob.send(t, method, target, form, ""); r.Code != http.StatusNotFound {
			t.Errorf("%s %s: %d, want 404", method, target, r.Code)
		}
	}
}
