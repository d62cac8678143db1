package server_test

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
)

// aliceData is one of everything alice can own.
type aliceData struct {
	account, trade, group, tag, playbook, strategy, document, documentURL string
	writeUp, plan, chartBook, reportCard, imp                             string
	payout, expense, mapping                                              string
}

func seedAlice(t *testing.T, e *tradeEnv) aliceData {
	t.Helper()
	g := e.newGroup(t, e.key, "Setups")
	tag := e.newTag(t, e.key, g.ID, "Breakout")
	s := e.createStrategy(t, e.key, `{"title": "Risk", "strategy_rules": [{"check": {"kind": "max_quantity", "value": 5}}]}`)
	pb := e.createPlaybook(t, e.key, fmt.Sprintf(`{"title": "ORB", "entry_criteria": ["x"], "strategy_ids": [%q]}`, s.ID))
	tr, _ := e.create(t, e.tradeBody("ESZ5", "long", fmt.Sprintf(`"entry_price": 5000, "quantity": 1, "tag_ids": [%q],
		"playbook_id": %q, "risk_management_strategy_ids": [%q]`, tag.ID, pb.ID, s.ID)))
	if status, b := e.do(t, "PUT", "/api/v1/instruments/FDAX", e.key, `{"point_value": 25}`); status != 200 {
		t.Fatalf("alice's instrument: %d %s", status, b)
	}
	pdf, err := os.ReadFile("../testdata/payout.pdf")
	if err != nil {
		t.Fatal(err)
	}
	doc := e.mustUpload(t, e.key, form("APEX-1", filePart("payout.pdf", pdf)), http.StatusCreated)
	a := aliceData{account: e.accountID, trade: tr.ID, group: g.ID, tag: tag.ID, playbook: pb.ID, strategy: s.ID,
		document: doc.ID, documentURL: doc.DocumentURL}
	tagged := fmt.Sprintf(`"tag_ids": [%q]`, tag.ID)
	a.writeUp = e.post(t, e.key, "/api/v1/write-ups", fmt.Sprintf(`{"trade_id": %q, %s}`, tr.ID, tagged)).id()
	a.plan = e.post(t, e.key, "/api/v1/trading-plans", fmt.Sprintf(`{"title": "P", "plan_date": "2026-02-05", "playbook_id": %q, %s}`, pb.ID, tagged)).id()
	a.chartBook = e.post(t, e.key, "/api/v1/chart-books", fmt.Sprintf(`{"title": "B", "playbook_id": %q, "document_ids": [%q], %s}`, pb.ID, doc.ID, tagged)).id()
	a.imp = *e.mustImport(t, e.key, morning, http.StatusCreated).ID
	a.mapping = e.createMapping(t, e.key, metaTraderMapping).ID
	a.reportCard = e.post(t, e.key, "/api/v1/report-cards", fmt.Sprintf(`{"report_date": "2026-02-05", "account_id": %q, %s}`, e.accountID, tagged)).id()
	a.payout = e.post(t, e.key, "/api/v1/payouts", fmt.Sprintf(`{"account_id": %q, "date": "2026-02-06", "total_amount": 1000,
		"status": "paid", "document_ids": [%q]}`, e.accountID, doc.ID)).id()
	a.expense = e.post(t, e.key, "/api/v1/expenses", fmt.Sprintf(`{"account_id": %q, "date": "2026-01-06", "amount": 150,
		"category": "evaluation", "document_ids": [%q]}`, e.accountID, doc.ID)).id()
	return a
}

// snapshot reads everything alice has, as bytes, through her key.
func (e *tradeEnv) snapshot(t *testing.T, a aliceData) string {
	t.Helper()
	var sb strings.Builder
	for _, target := range []string{
		"/api/v1/accounts", "/api/v1/accounts/" + a.account, "/api/v1/trades", "/api/v1/trades/" + a.trade,
		"/api/v1/tags", "/api/v1/instruments", "/api/v1/playbooks", "/api/v1/playbooks/" + a.playbook,
		"/api/v1/strategies", "/api/v1/strategies/" + a.strategy, "/api/v1/documents/" + a.document,
		"/api/v1/write-ups", "/api/v1/trading-plans", "/api/v1/chart-books", "/api/v1/report-cards",
		"/api/v1/imports", "/api/v1/imports/" + a.imp, "/api/v1/trades/export",
		"/api/v1/import-mappings", "/api/v1/import-mappings/" + a.mapping,
		"/api/v1/payouts", "/api/v1/payouts/" + a.payout, "/api/v1/payouts/summary",
		"/api/v1/expenses", "/api/v1/expenses/" + a.expense,
	} {
		status, b := e.do(t, "GET", target, e.key, "")
		if status != 200 {
			t.Fatalf("alice GET %s: %d %s", target, status, b)
		}
		// document_url is signed afresh on every read; the rest must not move.
		fmt.Fprintf(&sb, "%s %s\n", target, stripSignedURLs(string(b)))
	}
	w := e.download(t, a.documentURL, nil)
	fmt.Fprintf(&sb, "download %d %d bytes %q\n", w.Code, w.Body.Len(), w.Body.String())
	return sb.String()
}

func stripSignedURLs(s string) string {
	for {
		i := strings.Index(s, `"document_url":"`)
		if i < 0 {
			return s
		}
		j := strings.Index(s[i+16:], `"`)
		s = s[:i] + `"document_url"` + s[i+16+j+1:]
	}
}

// TestIsolationEveryRoute walks the route table: for every route, bob
// tries alice's records and gets a 404 (or, on lists, does not see them),
// and afterwards alice's data is byte-identical. A route without a case
// here fails the test, so a new route cannot be forgotten.
func TestIsolationEveryRoute(t *testing.T) {
	e := newTradeEnv(t)
	a := seedAlice(t, e)
	_, bob := e.newUser(t, "bob")
	bobAcct := e.createAccount(t, bob, `{"account_number": "APEX-1"}`) // the same number is bob's to use
	before := e.snapshot(t, a)

	notFound := func(method, target, body string) func(t *testing.T) {
		return func(t *testing.T) {
			status, b := e.do(t, method, target, bob, body)
			if status != http.StatusNotFound {
				t.Errorf("bob %s %s %s: got %d %s, want 404", method, target, body, status, b)
			}
		}
	}
	hidden := func(target string, ids ...string) func(t *testing.T) {
		return func(t *testing.T) {
			status, b := e.do(t, "GET", target, bob, "")
			if status != http.StatusOK {
				t.Fatalf("bob GET %s: %d %s", target, status, b)
			}
			for _, id := range ids {
				if strings.Contains(string(b), id) {
					t.Errorf("bob GET %s shows alice's %s", target, id)
				}
			}
		}
	}
	noRows := func(target string) func(t *testing.T) {
		return func(t *testing.T) {
			if status, b := e.do(t, "GET", target, bob, ""); status != http.StatusOK || strings.TrimSpace(string(b)) != `{"data":[]}` {
				t.Errorf("bob GET %s: %d %s, want no rows", target, status, b)
			}
		}
	}
	noStats := func(target string) func(t *testing.T) {
		return func(t *testing.T) {
			status, b := e.do(t, "GET", target, bob, "")
			if status != http.StatusOK || !strings.HasPrefix(string(b), `{"data":{"trades":0,"wins":0,"losses":0,"breakeven":0,"open_trades":0,`) {
				t.Errorf("bob GET %s: %d %s, want nothing counted", target, status, b)
			}
		}
	}
	bobTrade := func(extra string) string {
		return (&tradeEnv{accountID: bobAcct.ID}).tradeBody("ES", "long", `"entry_price": 1, "quantity": 1, `+extra)
	}
	all := []string{a.account, a.trade, a.group, a.tag, a.playbook, a.strategy, a.document,
		a.writeUp, a.plan, a.chartBook, a.reportCard, a.payout, a.expense}
	cases := map[string][]func(t *testing.T){
		"GET /api/v1/accounts":             {hidden("/api/v1/accounts", a.account)},
		"GET /api/v1/accounts/{id}":        {notFound("GET", "/api/v1/accounts/"+a.account, "")},
		"POST /api/v1/accounts":            {hidden("/api/v1/accounts", a.account)}, // bob's APEX-1 above did not conflict
		"PUT /api/v1/accounts/{id}":        {notFound("PUT", "/api/v1/accounts/"+a.account, `{"name": "mine"}`)},
		"DELETE /api/v1/accounts/{id}":     {notFound("DELETE", "/api/v1/accounts/"+a.account+"?cascade=true", "")},
		"GET /api/v1/accounts/{id}/status": {notFound("GET", "/api/v1/accounts/"+a.account+"/status", "")},

		"GET /api/v1/payouts": {hidden("/api/v1/payouts", all...), hidden("/api/v1/payouts?account_id="+a.account, all...),
			hidden("/api/v1/payouts?status=paid", all...)},
		"GET /api/v1/payouts/summary": {func(t *testing.T) {
			if status, b := e.do(t, "GET", "/api/v1/payouts/summary", bob, ""); status != 200 ||
				string(b) != `{"data":{"currencies":[],"by_firm":[],"by_account":[]}}`+"\n" {
				t.Errorf("bob's payout summary: %d %s, want nothing", status, b)
			}
		}},
		"GET /api/v1/payouts/{id}": {notFound("GET", "/api/v1/payouts/"+a.payout, "")},
		"POST /api/v1/payouts": {
			notFound("POST", "/api/v1/payouts", fmt.Sprintf(`{"account_id": %q, "total_amount": 1}`, a.account)),
			notFound("POST", "/api/v1/payouts", fmt.Sprintf(`{"account_id": %q, "total_amount": 1, "document_ids": [%q]}`, bobAcct.ID, a.document)),
		},
		"PUT /api/v1/payouts/{id}":    {notFound("PUT", "/api/v1/payouts/"+a.payout, `{"status": "cancelled"}`)},
		"DELETE /api/v1/payouts/{id}": {notFound("DELETE", "/api/v1/payouts/"+a.payout, "")},

		"GET /api/v1/expenses":      {hidden("/api/v1/expenses", all...), hidden("/api/v1/expenses?account_id="+a.account, all...)},
		"GET /api/v1/expenses/{id}": {notFound("GET", "/api/v1/expenses/"+a.expense, "")},
		"POST /api/v1/expenses": {
			notFound("POST", "/api/v1/expenses", fmt.Sprintf(`{"account_id": %q, "amount": 1, "category": "data"}`, a.account)),
			notFound("POST", "/api/v1/expenses", fmt.Sprintf(`{"amount": 1, "category": "data", "document_ids": [%q]}`, a.document)),
		},
		"PUT /api/v1/expenses/{id}": {notFound("PUT", "/api/v1/expenses/"+a.expense, `{"amount": 1}`),
			func(t *testing.T) {
				// Bob's own expense cannot be moved to alice's account.
				own := e.post(t, bob, "/api/v1/expenses", `{"amount": 1, "category": "data"}`).id()
				notFound("PUT", "/api/v1/expenses/"+own, fmt.Sprintf(`{"account_id": %q}`, a.account))(t)
			}},
		"DELETE /api/v1/expenses/{id}": {notFound("DELETE", "/api/v1/expenses/"+a.expense, "")},

		"GET /api/v1/trades":      {hidden("/api/v1/trades", all...), hidden("/api/v1/trades?tags="+a.tag, a.trade)},
		"GET /api/v1/trades/{id}": {notFound("GET", "/api/v1/trades/"+a.trade, "")},
		"POST /api/v1/trades": {
			notFound("POST", "/api/v1/trades", e.tradeBody("ES", "long", `"entry_price": 1, "quantity": 1`)),
			notFound("POST", "/api/v1/trades", bobTrade(fmt.Sprintf(`"tag_ids": [%q]`, a.tag))),
			notFound("POST", "/api/v1/trades", bobTrade(fmt.Sprintf(`"playbook_id": %q`, a.playbook))),
			notFound("POST", "/api/v1/trades", bobTrade(fmt.Sprintf(`"risk_management_strategy_ids": [%q]`, a.strategy))),
		},
		"PUT /api/v1/trades/{id}":   {notFound("PUT", "/api/v1/trades/"+a.trade, `{"exit_price": 1}`)},
		"GET /api/v1/trades/export": {hidden("/api/v1/trades/export", "ESZ5", "MNQZ5", "A1"), hidden("/api/v1/trades?import_id="+a.imp, all...)},

		// Bob has no closed trade, whatever he filters by.
		"GET /api/v1/stats/summary": {
			noStats("/api/v1/stats/summary?account_id=" + a.account), noStats("/api/v1/stats/summary?tags=" + a.tag),
			noStats("/api/v1/stats/summary?playbook_id=" + a.playbook), noStats("/api/v1/stats/summary?import_id=" + a.imp),
			noStats("/api/v1/stats/summary"),
		},
		// alice's plan and report card are of the 5th, her trade's day.
		"GET /api/v1/days/{date}": {hidden("/api/v1/days/2026-02-05", all...), hidden("/api/v1/days/2026-02-05?account_id="+a.account, all...),
			hidden("/api/v1/days/2025-12-01", all...)},
		"GET /api/v1/stats/daily":     {noRows("/api/v1/stats/daily"), noRows("/api/v1/stats/daily?account_id=" + a.account)},
		"GET /api/v1/stats/equity":    {noRows("/api/v1/stats/equity?resolution=trade"), noRows("/api/v1/stats/equity?tags=" + a.tag)},
		"GET /api/v1/stats/breakdown": {noRows("/api/v1/stats/breakdown?by=tag"), noRows("/api/v1/stats/breakdown?by=account&account_id=" + a.account)},

		"GET /api/v1/imports":         {hidden("/api/v1/imports", a.imp)},
		"GET /api/v1/imports/{id}":    {notFound("GET", "/api/v1/imports/"+a.imp, "")},
		"DELETE /api/v1/imports/{id}": {notFound("DELETE", "/api/v1/imports/"+a.imp+"?force=true", "")},
		"POST /api/v1/imports": {func(t *testing.T) {
			if status, b := e.postImport(t, bob, "f.csv", morning, "account_id", a.account); status != http.StatusNotFound {
				t.Errorf("bob importing into alice's account: got %d %s, want 404", status, b)
			}
			if status, b := e.postImport(t, bob, "mt.csv", metaTraderFile, "mapping_id", a.mapping, "account_id", bobAcct.ID); status != http.StatusNotFound {
				t.Errorf("bob importing by alice's mapping: got %d %s, want 404", status, b)
			}
			// format=auto tries bob's mappings, never alice's.
			if status, b := e.postImport(t, bob, "mt.csv", metaTraderFile, "account_id", bobAcct.ID); status != http.StatusBadRequest ||
				!strings.Contains(string(b), `"format"`) {
				t.Errorf("bob's auto import of a file alice's mapping reads: got %d %s, want 400 naming format", status, b)
			}
		}},
		"GET /api/v1/import-mappings":         {hidden("/api/v1/import-mappings", a.mapping)},
		"GET /api/v1/import-mappings/{id}":    {notFound("GET", "/api/v1/import-mappings/"+a.mapping, "")},
		"PUT /api/v1/import-mappings/{id}":    {notFound("PUT", "/api/v1/import-mappings/"+a.mapping, `{"name": "bob's"}`)},
		"DELETE /api/v1/import-mappings/{id}": {notFound("DELETE", "/api/v1/import-mappings/"+a.mapping, "")},
		"POST /api/v1/import-mappings": {func(t *testing.T) {
			// Names are unique per user: bob may use alice's (on columns no
			// file of this walk has, so that his auto imports stay unread).
			if status, b := e.do(t, "POST", "/api/v1/import-mappings", bob,
				strings.Replace(quantowerMapping, `"Quantower"`, `"MetaTrader deals"`, 1)); status != http.StatusCreated {
				t.Errorf("bob's mapping named as alice's: got %d %s, want 201", status, b)
			}
		}},
		"POST /api/v1/fills": {notFound("POST", "/api/v1/fills", fmt.Sprintf(`{"account_id": %q, "fills": [{"exec_id": "A1",
			"symbol": "MNQZ5", "side": "buy", "quantity": 1, "price": 21000, "timestamp": "2025-12-01T09:31:00-05:00"}]}`, a.account))},
		"DELETE /api/v1/trades/{id}": {notFound("DELETE", "/api/v1/trades/"+a.trade, "")},
		"POST /api/v1/trades/bulk": {
			notFound("POST", "/api/v1/trades/bulk", fmt.Sprintf(`{"trade_ids": [%q], "delete": true}`, a.trade)),
			notFound("POST", "/api/v1/trades/bulk", fmt.Sprintf(`{"trade_ids": [%q], "reviewed": true, "playbook_id": null}`, a.trade)),
			func(t *testing.T) {
				// Bob's own trade takes none of alice's tags or playbooks.
				status, b := e.do(t, "POST", "/api/v1/trades", bob, bobTrade(`"entry_time": "09:30:00"`))
				if status != http.StatusCreated {
					t.Fatalf("bob's trade: %d %s", status, b)
				}
				own := decode[struct{ Data contentRecord }](t, b).Data.id()
				for _, action := range []string{fmt.Sprintf(`"add_tag_ids": [%q]`, a.tag), fmt.Sprintf(`"remove_tag_ids": [%q]`, a.tag),
					fmt.Sprintf(`"playbook_id": %q`, a.playbook)} {
					notFound("POST", "/api/v1/trades/bulk", fmt.Sprintf(`{"trade_ids": [%q], %s}`, own, action))(t)
				}
				// His own he may delete, and does: bob has no trade for the stats' cases.
				if status, b := e.do(t, "POST", "/api/v1/trades/bulk", bob, fmt.Sprintf(`{"trade_ids": [%q], "delete": true}`, own)); status != http.StatusOK {
					t.Errorf("bob deleting his own trade: %d %s", status, b)
				}
			}},

		"GET /api/v1/tags": {hidden("/api/v1/tags", a.group, a.tag)},
		"POST /api/v1/tags": {notFound("POST", "/api/v1/tags", fmt.Sprintf(`{"type": "tag", "tag_group_id": %q, "name": "x"}`, a.group)),
			hidden("/api/v1/tags", a.group)},
		"PUT /api/v1/tags": {
			notFound("PUT", "/api/v1/tags", fmt.Sprintf(`{"type": "tag_group", "id": %q, "name": "x"}`, a.group)),
			notFound("PUT", "/api/v1/tags", fmt.Sprintf(`{"type": "tag", "id": %q, "name": "x"}`, a.tag)),
			notFound("PUT", "/api/v1/tags", fmt.Sprintf(`{"type": "bulk_tags", "tagGroupId": %q, "tags": [{"id": %q, "sort_order": 3}]}`, a.group, a.tag)),
		},
		"DELETE /api/v1/tags": {notFound("DELETE", "/api/v1/tags?type=tag&id="+a.tag, ""),
			notFound("DELETE", "/api/v1/tags?type=tag_group&id="+a.group, "")},

		// Instruments are per user: bob's own override never touches alice's.
		"GET /api/v1/instruments": {hidden("/api/v1/instruments", "FDAX")},
		"DELETE /api/v1/instruments/{root}": {func(t *testing.T) {
			// Bob's delete removes his own override (if the PUT case ran) or
			// none (404); alice's stays either way.
			if status, b := e.do(t, "DELETE", "/api/v1/instruments/FDAX", bob, ""); status != 200 && status != 404 {
				t.Errorf("bob DELETE FDAX: %d %s", status, b)
			}
			if _, b := e.do(t, "GET", "/api/v1/instruments", e.key, ""); !strings.Contains(string(b), `{"root":"FDAX","point_value":25,"asset_class":"futures","source":"user"}`) {
				t.Errorf("alice lost her FDAX override")
			}
		}},
		"PUT /api/v1/instruments/{root}": {func(t *testing.T) {
			if status, b := e.do(t, "PUT", "/api/v1/instruments/FDAX", bob, `{"point_value": 1}`); status != 200 {
				t.Errorf("bob's own FDAX: %d %s", status, b)
			}
		}},

		"GET /api/v1/playbooks":         {hidden("/api/v1/playbooks", a.playbook)},
		"GET /api/v1/playbooks/{id}":    {notFound("GET", "/api/v1/playbooks/"+a.playbook, "")},
		"POST /api/v1/playbooks":        {notFound("POST", "/api/v1/playbooks", fmt.Sprintf(`{"title": "x", "strategy_ids": [%q]}`, a.strategy))},
		"PUT /api/v1/playbooks/{id}":    {notFound("PUT", "/api/v1/playbooks/"+a.playbook, `{"title": "x"}`)},
		"DELETE /api/v1/playbooks/{id}": {notFound("DELETE", "/api/v1/playbooks/"+a.playbook, "")},

		"GET /api/v1/strategies":         {hidden("/api/v1/strategies", a.strategy)},
		"GET /api/v1/strategies/{id}":    {notFound("GET", "/api/v1/strategies/"+a.strategy, "")},
		"POST /api/v1/strategies":        {notFound("POST", "/api/v1/strategies", fmt.Sprintf(`{"title": "x", "tag_ids": [%q]}`, a.tag))},
		"PUT /api/v1/strategies/{id}":    {notFound("PUT", "/api/v1/strategies/"+a.strategy, `{"title": "x"}`)},
		"DELETE /api/v1/strategies/{id}": {notFound("DELETE", "/api/v1/strategies/"+a.strategy, "")},

		"GET /api/v1/documents":         {hidden("/api/v1/documents", a.document), hidden("/api/v1/documents?search=payout", a.document)},
		"GET /api/v1/documents/{id}":    {notFound("GET", "/api/v1/documents/"+a.document, "")},
		"PUT /api/v1/documents/{id}":    {notFound("PUT", "/api/v1/documents/"+a.document, `{"document_name": "x"}`)},
		"DELETE /api/v1/documents/{id}": {notFound("DELETE", "/api/v1/documents/"+a.document, "")},
		"POST /api/v1/documents": {func(t *testing.T) {
			pdf, _ := os.ReadFile("../testdata/payout.pdf")
			replace := append(form("APEX-1", filePart("x.pdf", pdf)), field("replace", "true"), field("document_id", a.document))
			if w := e.upload(t, bob, replace); w.Code != http.StatusNotFound {
				t.Errorf("bob replacing alice's document: got %d %s, want 404", w.Code, w.Body)
			}
		}},
		"GET /api/v1/write-ups":         {hidden("/api/v1/write-ups", all...), hidden("/api/v1/write-ups?trade_id="+a.trade, a.writeUp)},
		"GET /api/v1/write-ups/{id}":    {notFound("GET", "/api/v1/write-ups/"+a.writeUp, "")},
		"POST /api/v1/write-ups":        {notFound("POST", "/api/v1/write-ups", fmt.Sprintf(`{"trade_id": %q}`, a.trade))},
		"PUT /api/v1/write-ups/{id}":    {notFound("PUT", "/api/v1/write-ups/"+a.writeUp, `{"title": "x", "tag_ids": []}`)},
		"DELETE /api/v1/write-ups/{id}": {notFound("DELETE", "/api/v1/write-ups/"+a.writeUp, "")},

		"GET /api/v1/trading-plans":      {hidden("/api/v1/trading-plans", all...), hidden("/api/v1/trading-plans?playbook_id="+a.playbook, a.plan)},
		"GET /api/v1/trading-plans/{id}": {notFound("GET", "/api/v1/trading-plans/"+a.plan, "")},
		"POST /api/v1/trading-plans": {notFound("POST", "/api/v1/trading-plans", fmt.Sprintf(`{"title": "x", "playbook_id": %q}`, a.playbook)),
			notFound("POST", "/api/v1/trading-plans", fmt.Sprintf(`{"title": "x", "tag_ids": [%q]}`, a.tag))},
		"PUT /api/v1/trading-plans/{id}":    {notFound("PUT", "/api/v1/trading-plans/"+a.plan, `{"playbook_id": null}`)},
		"DELETE /api/v1/trading-plans/{id}": {notFound("DELETE", "/api/v1/trading-plans/"+a.plan, "")},

		"GET /api/v1/chart-books":      {hidden("/api/v1/chart-books", all...), hidden("/api/v1/chart-books?playbook_id="+a.playbook, a.chartBook)},
		"GET /api/v1/chart-books/{id}": {notFound("GET", "/api/v1/chart-books/"+a.chartBook, "")},
		"POST /api/v1/chart-books": {notFound("POST", "/api/v1/chart-books", fmt.Sprintf(`{"title": "x", "document_ids": [%q]}`, a.document)),
			notFound("POST", "/api/v1/chart-books", fmt.Sprintf(`{"title": "x", "playbook_id": %q}`, a.playbook))},
		"PUT /api/v1/chart-books/{id}":    {notFound("PUT", "/api/v1/chart-books/"+a.chartBook, `{"document_ids": []}`)},
		"DELETE /api/v1/chart-books/{id}": {notFound("DELETE", "/api/v1/chart-books/"+a.chartBook, "")},

		"GET /api/v1/report-cards":         {hidden("/api/v1/report-cards", all...), hidden("/api/v1/report-cards?account_id="+a.account, a.reportCard)},
		"GET /api/v1/report-cards/{id}":    {notFound("GET", "/api/v1/report-cards/"+a.reportCard, "")},
		"POST /api/v1/report-cards":        {notFound("POST", "/api/v1/report-cards", fmt.Sprintf(`{"report_date": "2026-02-05", "account_id": %q}`, a.account))},
		"PUT /api/v1/report-cards/{id}":    {notFound("PUT", "/api/v1/report-cards/"+a.reportCard, `{"grade": 1}`)},
		"DELETE /api/v1/report-cards/{id}": {notFound("DELETE", "/api/v1/report-cards/"+a.reportCard, "")},

		// The signed link is the capability: bob cannot make one for alice's
		// document from a link of his own.
		"GET /api/v1/files/{id}/{name}": {func(t *testing.T) {
			pdf, _ := os.ReadFile("../testdata/payout.pdf")
			own := e.mustUpload(t, bob, form("APEX-1", filePart("mine.pdf", pdf)), http.StatusCreated)
			u, _ := url.Parse(own.DocumentURL)
			forged := strings.Replace(own.DocumentURL, own.ID, a.document, 1)
			if w := e.download(t, forged, nil); w.Code != http.StatusForbidden {
				t.Errorf("forged link %s (from %s): got %d, want 403", forged, u.Path, w.Code)
			}
		}},

		// The document describes the API and holds no one's records: the
		// same bytes with any key or none.
		"GET /api/v1/openapi.json": {func(t *testing.T) {
			_, anon := e.do(t, "GET", "/api/v1/openapi.json", "", "")
			status, withKey := e.do(t, "GET", "/api/v1/openapi.json", bob, "")
			if status != http.StatusOK || string(withKey) != string(anon) {
				t.Errorf("openapi.json with bob's key: %d, %d bytes; without a key %d bytes", status, len(withKey), len(anon))
			}
			for _, id := range []string{a.account, a.trade, a.document} {
				if strings.Contains(string(anon), id) {
					t.Errorf("openapi.json holds alice's id %s", id)
				}
			}
		}},
	}
	for _, pattern := range e.srv.RoutePatterns() {
		checks, ok := cases[pattern]
		if !ok {
			t.Errorf("route %s has no isolation case: add one", pattern)
			continue
		}
		t.Run(pattern, func(t *testing.T) {
			for _, check := range checks {
				check(t)
			}
		})
	}
	if after := e.snapshot(t, a); after != before {
		t.Errorf("alice's data changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
