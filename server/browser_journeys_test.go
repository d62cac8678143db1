package server_test

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tradejournal/db"
)

// submit clicks the submit button of the form holding sel, then waits
// for next, an element of the page the post leads to; with next "", until
// sel is gone, the page having been left.
func submit(sel, next string) chromedp.Action {
	form := `form:has(` + sel + `)`
	if strings.HasPrefix(sel, "form") {
		form = sel
	}
	wait := chromedp.WaitNotPresent(form, chromedp.ByQuery)
	if next != "" {
		wait = chromedp.WaitReady(next, chromedp.ByQuery)
	}
	return chromedp.Tasks{
		chromedp.Click(form+` button:not([name]):not([type=button])`, chromedp.ByQuery),
		wait,
	}
}

// TestBrowserNewUserEvening: a new user, from an empty journal, in
// Chromium: creates an account with prop rules; imports a file that names
// an account the journal lacks and creates it from the preview; makes a
// playbook and, from the trade's tag box, a tag; reviews a trade with
// both; opens the day from the calendar and writes its report card on the
// day page. The API reads every one of them back.
func TestBrowserNewUserEvening(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	hs := httptest.NewServer(ts.srv)
	t.Cleanup(hs.Close)
	file := filepath.Join(t.TempDir(), "fills.csv")
	fills := genericHeader + "TV-1001,MNQZ5,buy,2,21000,0.62,2025-12-01T09:31:00-05:00,A1\n" +
		"TV-1001,MNQZ5,sell,2,21010,0.62,2025-12-01T09:40:00-05:00,A2\n"
	if err := os.WriteFile(file, []byte(fills), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := newBrowser(t, 1280)
	var unknown string
	err := chromedp.Run(ctx,
		signIn(t, ts, hs.URL, "alice"),
		chromedp.Navigate(hs.URL+"/accounts"),
		chromedp.Click(`#new-account`),
		chromedp.WaitVisible(`#f-account_number`),
		chromedp.SendKeys(`#f-account_number`, "APEX-50K"),
		chromedp.SetValue(`#f-account_type`, "prop"),
		chromedp.SendKeys(`#f-starting_balance`, "50000"),
		chromedp.SendKeys(`#f-max_drawdown`, "2500"),
		chromedp.SetValue(`#f-drawdown_mode`, "trailing"),
		chromedp.SendKeys(`#f-profit_target`, "3000"),
		submit(`#f-account_number`, `[data-account]`),
		screenshot(t, "7-account-created"),

		chromedp.Navigate(hs.URL+"/import"),
		chromedp.WaitVisible(`#file`),
		chromedp.SetUploadFiles(`#file`, []string{file}),
		chromedp.Click(`#create_accounts`),
		chromedp.Click(`#preview-button`),
		chromedp.WaitVisible(`[data-unknown-accounts]`),
		chromedp.Text(`[data-unknown-accounts]`, &unknown),
		chromedp.Click(`#import-button`),
		chromedp.WaitVisible(`[data-import]`),

		chromedp.Navigate(hs.URL+"/playbooks/new"),
		chromedp.WaitVisible(`#f-title`),
		chromedp.SendKeys(`#f-title`, "Opening drive"),
		submit(`#f-title`, ""),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(unknown, "TV-1001") || !strings.Contains(unknown, "creates") {
		t.Errorf("the preview's unknown accounts: %q", unknown)
	}
	trades := decode[struct {
		Data       []db.Trade
		Pagination map[string]any
	}](t, must200(t, ts, "/api/v1/trades", key)).Data
	if len(trades) != 1 {
		t.Fatalf("%d trades imported, want 1", len(trades))
	}
	tr := trades[0]

	var day string
	err = chromedp.Run(ctx,
		chromedp.Navigate(hs.URL+"/trades/"+tr.ID),
		chromedp.Click(`#new-tag`),
		chromedp.WaitVisible(`#group-name`),
		chromedp.SendKeys(`#group-name`, "Setup"),
		submit(`#group-name`, `form input[name=tag_group_id]`),
	)
	if err != nil {
		t.Fatal(err)
	}
	groups := decode[struct {
		TagGroups []db.TagGroup `json:"tagGroups"`
	}](t, must200(t, ts, "/api/v1/tags", key)).TagGroups
	if len(groups) != 1 {
		t.Fatalf("tag groups after the page's form: %+v", groups)
	}
	err = chromedp.Run(ctx,
		chromedp.SendKeys(`#tag-`+groups[0].ID, "A+", chromedp.ByID),
		chromedp.Click(`form[data-new-tag] button`, chromedp.ByQuery),
		chromedp.WaitReady(`li[data-tag]`, chromedp.ByQuery),
		chromedp.Navigate(hs.URL+"/trades/"+tr.ID),
		chromedp.WaitVisible(`#star_rating`),
		chromedp.SetValue(`#star_rating`, "4"),
		chromedp.Evaluate(`(() => {
			const s = document.getElementById("playbook_id");
			s.value = [...s.options].find(o => o.text === "Opening drive").value;
			[...document.querySelectorAll("input[name=tag_ids]")].find(i => i.parentElement.textContent.trim() === "A+").checked = true;
		})()`, nil),
		chromedp.Click(`form.review button[type=submit]`),
		chromedp.WaitVisible(`[role=status]`),
		chromedp.AttributeValue(`a[href^="/days/"]`, "href", &day, nil),
		// The day page, from the dashboard's calendar.
		chromedp.Navigate(hs.URL+"/dashboard"),
		chromedp.Click(`.calendar a[href="/days/2025-12-01"]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#new-report-card`),
		chromedp.Click(`#new-report-card`),
		chromedp.WaitVisible(`#f-notes_markdown`),
		chromedp.SetValue(`#f-grade`, "4"),
		chromedp.SendKeys(`#f-notes_markdown`, "Waited for the pullback; sized down after the loss."),
		submit(`#f-notes_markdown`, ""),
		chromedp.Navigate(hs.URL+"/days/2025-12-01"),
		chromedp.WaitVisible(`[data-report-card]`),
		screenshot(t, "8-day"),
	)
	if err != nil {
		t.Fatal(err)
	}
	accounts := decode[struct {
		Data       []db.Account
		Pagination map[string]any
	}](t, must200(t, ts, "/api/v1/accounts", key)).Data
	var numbers []string
	for _, a := range accounts {
		numbers = append(numbers, a.AccountNumber)
		if a.AccountNumber == "APEX-50K" && (a.MaxDrawdown == nil || *a.MaxDrawdown != 2500 || a.ProfitTarget == nil || *a.ProfitTarget != 3000) {
			t.Errorf("the account's rules: %+v", a)
		}
	}
	if strings.Join(numbers, " ") != "APEX-50K TV-1001" && strings.Join(numbers, " ") != "TV-1001 APEX-50K" {
		t.Errorf("accounts: %v, want the one made and the one the import created", numbers)
	}
	got := decode[struct{ Data db.EnrichedTrade }](t, must200(t, ts, "/api/v1/trades/"+tr.ID, key)).Data
	if got.Playbooks == nil || got.Playbooks.Title != "Opening drive" || len(got.Tags) != 1 || got.Tags[0].Name != "A+" ||
		got.StarRating == nil || *got.StarRating != 4 {
		t.Errorf("the reviewed trade: playbook %v, tags %v, rating %v", got.Playbooks, got.Tags, got.StarRating)
	}
	d := decode[dayJSON](t, must200(t, ts, "/api/v1/days/2025-12-01", key)).Data
	if d.ReportCards == nil || len(*d.ReportCards) != 1 || !strings.Contains((*d.ReportCards)[0].NotesMarkdown, "pullback") {
		t.Errorf("the day's report card: %+v (the trade page linked %s)", d.ReportCards, day)
	}
}

// TestBrowserFixingMistakes: in Chromium, a trader edits a trade's fill
// and sees its P&L change, deletes a trade through its confirm step,
// renames a tag, and undoes an import of reviewed trades through its
// confirm step; the API reads each change back.
func TestBrowserFixingMistakes(t *testing.T) {
	e := newTradeEnv(t)
	hand, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010"))) // +995
	gone, _ := e.create(t, e.tradeBody("NQH6", "long", fills(2.5, "buy 1@21000", "sell 1@21010")))
	group := decode[struct{ TagGroup db.TagGroup }](t, must201(t, e.testServer, "/api/v1/tags", e.key, `{"type": "tag_group", "name": "Setup"}`)).TagGroup
	tag := decode[struct{ Tag db.Tag }](t, must201(t, e.testServer, "/api/v1/tags", e.key, `{"type": "tag", "tag_group_id": "`+group.ID+`", "name": "A+"}`)).Tag
	imp := e.mustImport(t, e.key, morning, 201)
	imported := decode[struct {
		Data       []db.Trade
		Pagination map[string]any
	}](t, must200(t, e.testServer, "/api/v1/trades?import_id="+*imp.ID, e.key)).Data
	if status, b := e.do(t, "PUT", "/api/v1/trades/"+imported[0].ID, e.key, `{"reviewed": true}`); status != 200 {
		t.Fatalf("review: %d %s", status, b)
	}
	hs := httptest.NewServer(e.srv)
	t.Cleanup(hs.Close)
	ctx := newBrowser(t, 1280)
	var net, undoAsk string
	err := chromedp.Run(ctx,
		signIn(t, e.testServer, hs.URL, "alice"),
		// The second fill's price: 5010 → 5020, +1,000 more.
		chromedp.Navigate(hs.URL+"/trades/"+hand.ID),
		chromedp.Click(`#edit-trade`),
		chromedp.WaitVisible(`#fill-1-price`),
		chromedp.SetValue(`#fill-1-price`, "5020"),
		submit(`#fill-1-price`, ""),
		chromedp.Navigate(hs.URL+"/trades/"+hand.ID),
		chromedp.WaitVisible(`[data-figure="net_pnl"]`),
		chromedp.Text(`[data-figure="net_pnl"]`, &net),

		chromedp.Navigate(hs.URL+"/trades/"+gone.ID),
		chromedp.Click(`#delete-trade`),
		chromedp.WaitVisible(`[data-confirm]`),
		submit(`form[action$="/delete"]`, ""),

		chromedp.Navigate(hs.URL+"/tags/"+tag.ID+"/edit"),
		chromedp.WaitVisible(`#f-name`),
		chromedp.SetValue(`#f-name`, "A-plus setup"),
		submit(`#f-name`, ""),

		chromedp.Navigate(hs.URL+"/import"),
		chromedp.WaitVisible(`[data-import="`+*imp.ID+`"] button`),
		chromedp.Click(`[data-import="`+*imp.ID+`"] button`),
		chromedp.WaitVisible(`[data-confirm-undo]`),
		chromedp.Text(`[data-confirm-undo]`, &undoAsk),
		submit(`form:has(input[name=force])`, `[role=status]`),
		chromedp.WaitVisible(`[role=status]`),
	)
	if err != nil {
		t.Fatal(err)
	}
	got := decode[struct{ Data db.EnrichedTrade }](t, must200(t, e.testServer, "/api/v1/trades/"+hand.ID, e.key)).Data
	// 2 x 20 x 50 = 2,000 less 2 x 2.50 = 1,995.
	if got.NetPnL != 1995 || net != "1,995.00" {
		t.Errorf("after editing the fill: the API's net %v, the page's %q, want 1,995", got.NetPnL, net)
	}
	if status, _ := e.do(t, "GET", "/api/v1/trades/"+gone.ID, e.key, ""); status != 404 {
		t.Errorf("the deleted trade reads %d, want 404", status)
	}
	if tags := string(must200(t, e.testServer, "/api/v1/tags", e.key)); !strings.Contains(tags, `"A-plus setup"`) {
		t.Errorf("the renamed tag: %s", tags)
	}
	if !strings.Contains(undoAsk, "1 reviewed trade") {
		t.Errorf("the undo's confirm step: %q", undoAsk)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trades`); n != 1 {
		t.Errorf("%d trades after the undo, want the 1 typed in", n)
	}
}

// TestBrowserReadOnlyKey: in Chromium, the trader makes a read-only key on
// the settings page, signs in with it on another browser, and sees the
// journal with no form to change it.
func TestBrowserReadOnlyKey(t *testing.T) {
	e := newTradeEnv(t)
	e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	hs := httptest.NewServer(e.srv)
	t.Cleanup(hs.Close)
	ctx := newBrowser(t, 1280)
	var key string
	err := chromedp.Run(ctx,
		signIn(t, e.testServer, hs.URL, "alice"),
		chromedp.Navigate(hs.URL+"/settings"),
		chromedp.WaitVisible(`#key-name`),
		chromedp.SendKeys(`#key-name`, "phone"),
		chromedp.Evaluate(`document.querySelectorAll("input[name=scopes]").forEach(i => { i.checked = i.value.endsWith(":read"); })`, nil),
		submit(`#key-name`, `#new-key`),
		chromedp.WaitVisible(`#new-key`),
		chromedp.Text(`#new-key`, &key),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !db.WellFormedKey(key) {
		t.Fatalf("the key shown: %q", key)
	}
	phone := newBrowser(t, 390)
	var forms int
	pages := []string{"/dashboard", "/trades", "/import", "/accounts", "/payouts", "/library", "/settings"}
	err = chromedp.Run(phone,
		chromedp.Navigate(hs.URL+"/login"),
		chromedp.WaitVisible(`#key`),
		chromedp.SendKeys(`#key`, key),
		submit(`#key`, `[data-figure="net_pnl"]`),
		chromedp.WaitVisible(`[data-figure="net_pnl"]`),
	)
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range pages {
		err := chromedp.Run(phone,
			chromedp.Navigate(hs.URL+page),
			chromedp.WaitReady(`main`),
			// Every form but sign-out is a way to change the journal.
			chromedp.Evaluate(`[...document.querySelectorAll("main form")].filter(f => f.method === "post").length`, &forms),
		)
		if err != nil {
			t.Fatal(err)
		}
		if forms != 0 {
			t.Errorf("a read-only session sees %d forms that post on %s", forms, page)
		}
	}
	if status, _ := e.do(t, "GET", "/api/v1/trades", key, ""); status != 200 {
		t.Errorf("the phone key reading through the API: %d", status)
	}
}

// TestBrowserMapColumns: in Chromium, a file no format reads is uploaded
// on the import page, its columns mapped on the page the error links to,
// previewed and saved; a second file of the same header then imports with
// Format auto, and the API reads its trade back.
func TestBrowserMapColumns(t *testing.T) {
	e := newTradeEnv(t)
	hs := httptest.NewServer(e.srv)
	t.Cleanup(hs.Close)
	dir := t.TempDir()
	first, second := filepath.Join(dir, "deals.csv"), filepath.Join(dir, "deals-2.csv")
	next := "Time,Deal,Symbol,Type,Volume,Price,Commission,Fee,Profit\n" +
		"1764686000,6001,MNQZ5,sell,1,21100.00,-0.50,-0.12,0.00\n" +
		"1764686300,6002,MNQZ5,buy,1,21090.00,-0.50,-0.12,20.00\n" +
		"1764690000,6003,,balance,,,,,-100.00\n"
	if os.WriteFile(first, []byte(metaTraderFile), 0o644) != nil || os.WriteFile(second, []byte(next), 0o644) != nil {
		t.Fatal("writing the files")
	}
	ctx := newBrowser(t, 1280)
	var preview, message string
	err := chromedp.Run(ctx,
		signIn(t, e.testServer, hs.URL, "alice"),
		chromedp.Navigate(hs.URL+"/import"),
		chromedp.WaitVisible(`#file`),
		chromedp.SetUploadFiles(`#file`, []string{first}),
		chromedp.Click(`#preview-button`),
		chromedp.WaitVisible(`#map-columns`),
		chromedp.Click(`#map-columns`),
		chromedp.WaitVisible(`[data-file-head]`),
		chromedp.SendKeys(`#m-name`, "MetaTrader deals"),
		chromedp.SetValue(`#m-timestamp`, "Time"),
		chromedp.SetValue(`#m-time`, ""),
		chromedp.SetValue(`#m-side`, "Type"),
		chromedp.SetValue(`#m-quantity`, "Volume"),
		chromedp.SetValue(`#m-exec_id`, "Deal"),
		// Commission is chosen for its name; Fee is added to it.
		chromedp.SetAttributeValue(`#m-commission option[value=Fee]`, "selected", ""),
		chromedp.SendKeys(`#m-buy`, "buy"),
		chromedp.SendKeys(`#m-sell`, "sell"),
		chromedp.SendKeys(`#m-skip`, "balance, credit"),
		chromedp.SetValue(`#m-account_id`, e.accountID),
		chromedp.Click(`#map-preview`),
		chromedp.WaitVisible(`[data-preview]`),
		chromedp.Text(`[data-preview]`, &preview),
		screenshot(t, "mapping-preview"),
		chromedp.Click(`#map-save`),
		chromedp.WaitVisible(`#file`),
		chromedp.Text(`[role=status]`, &message),
		chromedp.SetValue(`#account_id`, e.accountID),
		chromedp.SetUploadFiles(`#file`, []string{second}),
		chromedp.Click(`#import-button`),
		chromedp.WaitVisible(`[data-import]`),
	)
	if err != nil {
		t.Fatal(err)
	}
	// Long 2 from 21000.25 to 21010.50: 41.00 gross; costs 1.24 a side
	// (|-1.00| + |-0.24|), 2.48: net 38.52.
	if !strings.Contains(preview, "mapping: 4 rows, 2 fills, 2 skipped") || !strings.Contains(preview, "38.52") {
		t.Errorf("preview: %q", preview)
	}
	if !strings.Contains(message, "MetaTrader deals is saved") {
		t.Errorf("after the save: %q", message)
	}
	// Short 1 from 21100 to 21090 on MNQ ($2 a point): 20.00 gross; costs
	// 0.62 a side (|-0.50| + |-0.12|), 1.24: net 18.76. The balance row is
	// skipped.
	checkTrades(t, e.tradesOf(t, e.key, ""), []tradeWant{
		{"short", 1, 21100, 21090, 20, 1.24, 18.76, "win", "2025-12-02 09:33:20", "2025-12-02 09:38:20"},
	})
	imps := decode[struct {
		Data       []db.Import
		Pagination map[string]any
	}](t, must200(t, e.testServer, "/api/v1/imports", e.key)).Data
	if len(imps) != 1 || imps[0].Format != "mapping" || imps[0].MappingID == nil || imps[0].Skipped != 1 || imps[0].FileName != "deals-2.csv" {
		t.Errorf("imports: %+v", imps)
	}
}
