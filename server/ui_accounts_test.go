package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"tradejournal/db"
)

// TestAccountForms: an account made from the new-account form with prop
// rules and a commission schedule is the API's; a refused form comes back
// with what was typed and each reason beside its field in the form's
// words; the edit form shows the account and clears an emptied rule; the
// delete asks first, naming what goes, and then deletes it all.
func TestAccountForms(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	b := &browser{ts: ts}
	b.signIn(t, key)
	page := b.page(t, "/accounts")
	if len(find(page, byAttr("id", "new-account"))) != 1 {
		t.Fatal("the accounts page has no New account link")
	}
	csrf := csrfOf(t, b, "/accounts/new")

	// Refused: no number, a bad balance, a bad schedule entry.
	bad := url.Values{"csrf": {csrf}, "account_number": {""}, "name": {"Evaluation 50K"}, "account_type": {"prop"},
		"status": {"evaluation"}, "starting_balance": {"fifty"}, "commission_schedule": {"MNQ=0.62, ES"}, "max_drawdown": {"2500"}}
	w := b.send(t, "POST", "/accounts", bad, "")
	if w.Code != http.StatusBadRequest {
		t.Fatalf("a bad account form: %d %s", w.Code, w.Body)
	}
	doc := parseHTML(t, w.Body.String())
	for field, want := range map[string]string{
		"starting_balance":    "Starting balance must be a number",
		"commission_schedule": `Commission schedule must be pairs such as MNQ=0.62, ES=2.50; "ES" is not one`,
	} {
		if n := find(doc, byAttr("data-field-error", field)); len(n) != 1 || nodeText(n[0]) != want {
			t.Errorf("%s's reason: %v, want %q", field, texts(n), want)
		}
	}
	for field, want := range map[string]string{"name": "Evaluation 50K", "starting_balance": "fifty", "max_drawdown": "2500"} {
		if n := find(doc, byAttr("id", "f-"+field)); len(n) != 1 || attr(n[0], "value") != want {
			t.Errorf("%s typed %q is gone", field, want)
		}
	}
	if strings.Contains(w.Body.String(), "starting_balance must") {
		t.Error("a reason speaks the API's field name")
	}
	// The number is checked by the API's own check once the form reads.
	bad.Set("starting_balance", "50,000")
	bad.Set("commission_schedule", "MNQ=0.62, ES=2.5")
	w = b.send(t, "POST", "/accounts", bad, "")
	if n := find(parseHTML(t, w.Body.String()), byAttr("data-field-error", "account_number")); w.Code != http.StatusBadRequest ||
		len(n) != 1 || nodeText(n[0]) != "Account number is required" {
		t.Errorf("no account number: %d %v", w.Code, texts(n))
	}
	if n := count(t, ts.sql(t), `SELECT count(*) FROM accounts`); n != 0 {
		t.Fatalf("refused forms wrote %d accounts", n)
	}

	good := url.Values{"csrf": {csrf}, "account_number": {"APEX-50K-1"}, "name": {"Evaluation 50K"}, "account_type": {"prop"},
		"prop_firm": {"Apex"}, "currency": {"usd"}, "starting_balance": {"50,000"}, "status": {"evaluation"},
		"commission_schedule": {"MNQ=0.62\nES=2.50"}, "profit_target": {"3000"}, "max_daily_loss": {""},
		"max_drawdown": {"2500"}, "drawdown_mode": {"trailing"}, "drawdown_lock_at": {"50100"}, "min_trading_days": {"7"},
		"consistency_pct": {"30"}, "max_contracts": {"10"}, "day_starts_at": {"18:00"}, "day_timezone": {"America/New_York"},
		"profit_split": {"90"}}
	w = b.send(t, "POST", "/accounts", good, "")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/accounts?saved=1" {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	list := decode[struct {
		Data       []db.Account
		Pagination map[string]any
	}](t, must200(t, ts, "/api/v1/accounts", key)).Data
	if len(list) != 1 {
		t.Fatalf("%d accounts after the form", len(list))
	}
	a := list[0]
	if a.AccountNumber != "APEX-50K-1" || a.Currency != "USD" || *a.StartingBalance != 50000 || *a.ProfitTarget != 3000 ||
		a.MaxDailyLoss != nil || *a.MaxDrawdown != 2500 || *a.DrawdownMode != "trailing" || *a.DrawdownLockAt != 50100 ||
		*a.MinTradingDays != 7 || *a.ConsistencyPct != 30 || *a.MaxContracts != 10 || a.ProfitSplit != 90 ||
		a.CommissionSchedule["MNQ"] != 0.62 || a.CommissionSchedule["ES"] != 2.5 || *a.PropFirm != "Apex" {
		t.Errorf("the API reads the form's account as %+v", a)
	}

	// The edit form shows it; emptying a rule clears it.
	edit := b.page(t, "/accounts/"+a.ID+"/edit")
	for field, want := range map[string]string{"max_drawdown": "2500", "starting_balance": "50000", "day_starts_at": "18:00"} {
		if n := find(edit, byAttr("id", "f-"+field)); len(n) != 1 || attr(n[0], "value") != want {
			t.Errorf("the edit form's %s: %v, want %q", field, n, want)
		}
	}
	if n := find(edit, byAttr("id", "f-commission_schedule")); len(n) != 1 || nodeText(n[0]) != "ES=2.5, MNQ=0.62" {
		t.Errorf("the edit form's schedule: %q", nodeText(n[0]))
	}
	good.Set("max_drawdown", "")
	good.Set("name", "Funded 50K")
	if w := b.send(t, "POST", "/accounts/"+a.ID, good, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("edit: %d %s", w.Code, w.Body)
	}
	a = decode[struct{ Data db.Account }](t, must200(t, ts, "/api/v1/accounts/"+a.ID, key)).Data
	if a.MaxDrawdown != nil || a.Name != "Funded 50K" || *a.ProfitTarget != 3000 {
		t.Errorf("after the edit: drawdown %v, name %q, target %v", a.MaxDrawdown, a.Name, a.ProfitTarget)
	}

	// Delete: the confirm step names what goes, changes nothing; its post
	// deletes.
	e := &tradeEnv{testServer: ts, key: key, accountID: a.ID}
	e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	if status, body := ts.do(t, "POST", "/api/v1/payouts", key, `{"account_id": "`+a.ID+`", "total_amount": 500}`); status != 201 {
		t.Fatalf("payout: %d %s", status, body)
	}
	confirm := b.page(t, "/accounts/"+a.ID+"/delete")
	if got := texts(find(confirm, func(n *html.Node) bool { return n.Data == "li" && hasAttr(n, "data-consequence") })); strings.Join(got, "; ") !=
		"deletes its 1 trade with their fills and reviews; deletes its 1 payout" {
		t.Errorf("the confirm step lists %q", got)
	}
	if n := count(t, ts.sql(t), `SELECT count(*) FROM accounts`); n != 1 {
		t.Fatal("the confirm step deleted the account")
	}
	if w := b.send(t, "POST", "/accounts/"+a.ID+"/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/accounts?deleted=1" {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	for _, table := range []string{"accounts", "trades", "payouts"} {
		if n := count(t, ts.sql(t), `SELECT count(*) FROM `+table); n != 0 {
			t.Errorf("%d %s left after the delete", n, table)
		}
	}
}

// TestAccountFormsRefuseTheReadOnlyAndStrangers: a read-only session sees
// no New, Edit or Delete and its posts are refused; another user's account
// is a 404 on every account page and post; a post without the token is
// stale.
func TestAccountFormsRefuseTheReadOnlyAndStrangers(t *testing.T) {
	e := newTradeEnv(t)
	_, readKey := e.newKey(t, "alice", "read", false)
	reader := &browser{ts: e.testServer}
	reader.signIn(t, readKey)
	page := reader.page(t, "/accounts")
	if len(find(page, byAttr("id", "new-account"))) != 0 || len(find(page, func(n *html.Node) bool { return hasAttr(n, "data-edit") })) != 0 {
		t.Error("a read-only session sees the account links")
	}
	csrf := csrfOf(t, reader, "/accounts")
	for _, target := range []string{"/accounts", "/accounts/" + e.accountID, "/accounts/" + e.accountID + "/delete"} {
		if w := reader.send(t, "POST", target, url.Values{"csrf": {csrf}, "account_number": {"X"}}, ""); w.Code != http.StatusForbidden {
			t.Errorf("a read-only POST %s: %d, want 403", target, w.Code)
		}
	}
	if w := reader.send(t, "GET", "/accounts/new", nil, ""); w.Code != http.StatusForbidden {
		t.Errorf("a read-only session's new-account form: %d, want 403", w.Code)
	}

	_, bobKey := e.newUser(t, "bob")
	bob := &browser{ts: e.testServer}
	bob.signIn(t, bobKey)
	bobCSRF := csrfOf(t, bob, "/accounts/new")
	for _, tt := range []struct{ method, target string }{
		{"GET", "/accounts/" + e.accountID + "/edit"}, {"POST", "/accounts/" + e.accountID},
		{"GET", "/accounts/" + e.accountID + "/delete"}, {"POST", "/accounts/" + e.accountID + "/delete"},
	} {
		var form url.Values
		if tt.method == "POST" {
			form = url.Values{"csrf": {bobCSRF}, "account_number": {"BOB-1"}}
		}
		if w := bob.send(t, tt.method, tt.target, form, ""); w.Code != http.StatusNotFound {
			t.Errorf("bob's %s %s: %d, want 404", tt.method, tt.target, w.Code)
		}
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM accounts WHERE account_number = 'APEX-1'`); n != 1 {
		t.Error("bob changed alice's account")
	}
	if w := bob.send(t, "POST", "/accounts", url.Values{"account_number": {"BOB-1"}}, ""); w.Code != http.StatusForbidden {
		t.Errorf("a post without its token: %d, want 403", w.Code)
	}
}

// texts are the nodes' texts.
func texts(nodes []*html.Node) []string {
	var out []string
	for _, n := range nodes {
		out = append(out, nodeText(n))
	}
	return out
}

// hasAttr reports whether n has the attribute name, whatever its value.
func hasAttr(n *html.Node, name string) bool {
	for _, a := range n.Attr {
		if a.Key == name {
			return true
		}
	}
	return false
}
