package server_test

import (
	"fmt"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"tradejournal/db"
)

// twoUnknown is a Tradovate Orders export naming alice's APEX-1 and two
// account numbers she has no account for. By line (the header is line 1):
//
//	2-3  APEX-1   long 1 MNQ 21000 → 21010: 10 x 1 x 2 = 20
//	4-5  TV-1001  long 2 ES 6000 → 6003.50: 3.5 x 2 x 50 = 350
//	6    TV-1001  a cancelled order: skipped, no fill
//	7-8  TV-2002  short 1 MNQ 21020 → 21012.50: 7.5 x 1 x 2 = 15 (written
//	     " TV-2002 " on line 7: created trimmed)
//
// Tradovate's Orders carry no commission and the accounts no schedule, so
// every trade's net is its gross. 7 rows, 1 skipped, 6 fills.
const twoUnknown = "Account,Order ID,B/S,Contract,avgPrice,filledQty,Fill Time,Status\n" +
	"APEX-1,T1, Buy,MNQZ5,21000.00,1,12/15/2025 09:31:05, Filled\n" +
	"APEX-1,T2, Sell,MNQZ5,21010.00,1,12/15/2025 09:40:00, Filled\n" +
	"TV-1001,T3, Buy,ESZ5,6000.00,2,12/15/2025 09:35:00, Filled\n" +
	"TV-1001,T4, Sell,ESZ5,6003.50,2,12/15/2025 09:50:00, Filled\n" +
	"TV-1001,T5, Sell,ESZ5,,0,, Canceled\n" +
	" TV-2002 ,T6, Sell,MNQZ5,21020.00,1,12/15/2025 10:00:00, Filled\n" +
	"TV-2002,T7, Buy,MNQZ5,21012.50,1,12/15/2025 10:10:00, Filled\n"

// refusalBody and undoneBody are the answers of a refusal and of a delete.
type (
	refusalBody struct {
		Error, Code string
		Details     map[string]string
	}
	undoneBody struct {
		Success   bool
		DeletedID string `json:"deleted_id"`
		Warnings  []string
	}
)

// accountsOf lists the user's accounts by number.
func (ts *testServer) accountsOf(t testing.TB, key string) map[string]db.Account {
	t.Helper()
	status, b := ts.do(t, "GET", "/api/v1/accounts?limit=100", key, "")
	if status != 200 {
		t.Fatalf("GET /api/v1/accounts: %d %s", status, b)
	}
	out := map[string]db.Account{}
	for _, a := range decode[struct {
		Data       []db.Account
		Pagination any
	}](t, b).Data {
		out[a.AccountNumber] = a
	}
	return out
}

// checkCreated checks an account an import made for an unknown number.
func checkCreated(t *testing.T, a db.Account, number string, broker *string) {
	t.Helper()
	if a.AccountNumber != number || a.Name != number || a.AccountType != "retail" || a.PropFirm != nil ||
		text(a.Broker) != text(broker) || (a.Broker == nil) != (broker == nil) || a.Currency != "USD" ||
		a.Status != "active" || a.CommissionSchedule != nil || a.StartingBalance != nil {
		t.Errorf("account %s: %+v, want a retail account named by its number, broker %v", number, a, text(broker))
	}
}

// TestImportCreateAccounts: with create_accounts an import makes exactly
// one retail account per unknown number, the platform as its broker, and
// puts their trades in them; the same file again makes nothing more. Bob's
// account of the same number is his alone and never touched.
func TestImportCreateAccounts(t *testing.T) {
	e := newTradeEnv(t)
	_, bobKey := e.newUser(t, "bob")
	bobs := e.createAccount(t, bobKey, `{"account_number": "TV-1001", "name": "Bob's", "prop_firm": "Apex"}`)

	imp := e.mustImport(t, e.key, twoUnknown, http.StatusCreated, "create_accounts", "true")
	accounts := e.accountsOf(t, e.key)
	if len(accounts) != 3 {
		t.Fatalf("alice's accounts after the import: %v, want APEX-1, TV-1001, TV-2002", slices.Sorted(maps.Keys(accounts)))
	}
	tradovate := "Tradovate"
	tv1, tv2 := accounts["TV-1001"], accounts["TV-2002"]
	checkCreated(t, tv1, "TV-1001", &tradovate)
	checkCreated(t, tv2, "TV-2002", &tradovate)
	if tv1.ID == bobs.ID {
		t.Errorf("alice's TV-1001 is bob's account")
	}
	wantIDs := []string{e.accountID, tv1.ID, tv2.ID}
	slices.Sort(wantIDs)
	if imp.Rows != 7 || imp.Skipped != 1 || imp.Fills != 6 || imp.Duplicates != 0 || imp.TradesCreated != 3 ||
		!slices.Equal(imp.AccountIDs, wantIDs) || !slices.Equal(imp.UnknownAccounts, []string{"TV-1001", "TV-2002"}) {
		t.Errorf("import: %+v\nwant 7 rows, 1 skipped, 6 fills, 3 trades in %v, unknown TV-1001 and TV-2002", imp, wantIDs)
	}
	checkTrades(t, e.tradesOf(t, e.key, "account_id="+tv1.ID), []tradeWant{
		{"long", 2, 6000, 6003.5, 350, 0, 350, "win", "2025-12-15 09:35:00", "2025-12-15 09:50:00"},
	})
	checkTrades(t, e.tradesOf(t, e.key, "account_id="+tv2.ID), []tradeWant{
		{"short", 1, 21020, 21012.5, 15, 0, 15, "win", "2025-12-15 10:00:00", "2025-12-15 10:10:00"},
	})
	checkTrades(t, e.tradesOf(t, e.key, "account_id="+e.accountID), []tradeWant{
		{"long", 1, 21000, 21010, 20, 0, 20, "win", "2025-12-15 09:31:05", "2025-12-15 09:40:00"},
	})
	status, b := e.do(t, "GET", "/api/v1/imports/"+*imp.ID, e.key, "")
	if got := decode[struct{ Data db.Import }](t, b).Data; status != 200 ||
		!slices.Equal(got.UnknownAccounts, imp.UnknownAccounts) || !slices.Equal(got.AccountIDs, wantIDs) {
		t.Errorf("the import read back: %d %s", status, b)
	}

	again := e.mustImport(t, e.key, twoUnknown, http.StatusCreated, "create_accounts", "true")
	if again.Duplicates != 6 || again.TradesCreated != 0 || len(again.UnknownAccounts) != 0 || again.UnknownAccounts == nil ||
		!slices.Equal(again.AccountIDs, wantIDs) {
		t.Errorf("the same file again: %+v, want 6 duplicates, nothing unknown", again)
	}
	if n := len(e.accountsOf(t, e.key)); n != 3 {
		t.Errorf("%d accounts after the same file again, want 3", n)
	}

	// Bob's TV-1001 is as he made it, and empty.
	if got := e.accountsOf(t, bobKey); len(got) != 1 || got["TV-1001"].Name != "Bob's" || got["TV-1001"].ID != bobs.ID ||
		got["TV-1001"].UpdatedAt != bobs.UpdatedAt {
		t.Errorf("bob's accounts: %+v", got)
	}
	if n := len(e.tradesOf(t, bobKey, "")); n != 0 {
		t.Errorf("bob has %d trades, want 0", n)
	}
}

// TestImportUnknownAccounts: without create_accounts an import naming
// unknown numbers is refused by their rows and writes nothing; a dry run
// answers 200 naming them, its counts and preview those of the known rows;
// a dry run with create_accounts names the numbers it would create,
// previews every row, and creates nothing.
func TestImportUnknownAccounts(t *testing.T) {
	e := newTradeEnv(t)
	written := func() int {
		raw := e.sql(t)
		return count(t, raw, `SELECT count(*) FROM accounts`) + count(t, raw, `SELECT count(*) FROM trades`) +
			count(t, raw, `SELECT count(*) FROM imports`) + count(t, raw, `SELECT count(*) FROM import_accounts`)
	}
	before := written() // APEX-1

	status, b := e.postImport(t, e.key, "orders.csv", twoUnknown)
	problem := decode[refusalBody](t, b)
	if status != 400 || problem.Code != "VALIDATION_ERROR" ||
		keys(problem.Details) != "rows[4].Account,rows[5].Account,rows[7].Account,rows[8].Account" ||
		!strings.Contains(problem.Details["rows[7].Account"], `"TV-2002"`) {
		t.Errorf("import without create_accounts: %d %s, want 400 keyed by the rows of TV-1001 and TV-2002", status, b)
	}

	dry := e.mustImport(t, e.key, twoUnknown, http.StatusOK, "dry_run", "true")
	// The known rows: APEX-1's two fills and the cancelled order (a row
	// that is no fill is skipped whatever its account): 3 rows.
	if dry.ID != nil || dry.Rows != 3 || dry.Skipped != 1 || dry.Fills != 2 || dry.Duplicates != 0 || dry.TradesCreated != 1 ||
		!slices.Equal(dry.AccountIDs, []string{e.accountID}) || !slices.Equal(dry.UnknownAccounts, []string{"TV-1001", "TV-2002"}) {
		t.Errorf("dry run: %+v\nwant 3 rows, 1 skipped, 2 fills, 1 trade in APEX-1, unknown TV-1001 and TV-2002", dry)
	}
	checkTrades(t, dry.Trades, []tradeWant{
		{"long", 1, 21000, 21010, 20, 0, 20, "win", "2025-12-15 09:31:05", "2025-12-15 09:40:00"},
	})

	dry = e.mustImport(t, e.key, twoUnknown, http.StatusOK, "dry_run", "true", "create_accounts", "true")
	if dry.ID != nil || dry.Rows != 7 || dry.Skipped != 1 || dry.Fills != 6 || dry.TradesCreated != 3 || len(dry.AccountIDs) != 3 ||
		!slices.Equal(dry.UnknownAccounts, []string{"TV-1001", "TV-2002"}) {
		t.Errorf("dry run with create_accounts: %+v\nwant 7 rows, 6 fills, 3 trades in 3 accounts, unknown TV-1001 and TV-2002", dry)
	}
	checkTrades(t, dry.Trades, []tradeWant{ // in the order grouped: by account, then contract
		{"long", 1, 21000, 21010, 20, 0, 20, "win", "2025-12-15 09:31:05", "2025-12-15 09:40:00"},
		{"long", 2, 6000, 6003.5, 350, 0, 350, "win", "2025-12-15 09:35:00", "2025-12-15 09:50:00"},
		{"short", 1, 21020, 21012.5, 15, 0, 15, "win", "2025-12-15 10:00:00", "2025-12-15 10:10:00"},
	})
	if n := written(); n != before {
		t.Errorf("the refused import and the dry runs wrote %d rows", n-before)
	}
	if got := e.accountsOf(t, e.key); len(got) != 1 {
		t.Errorf("accounts after the dry runs: %v, want APEX-1 alone", slices.Sorted(maps.Keys(got)))
	}

	// Nothing unknown: [] on every answer.
	known := e.mustImport(t, e.key, morning, http.StatusOK, "dry_run", "true")
	real := e.mustImport(t, e.key, morning, http.StatusCreated)
	for _, imp := range []db.Import{known, real} {
		if imp.UnknownAccounts == nil || len(imp.UnknownAccounts) != 0 {
			t.Errorf("unknown_accounts of an import of known accounts: %#v, want []", imp.UnknownAccounts)
		}
	}
	status, b = e.do(t, "GET", "/api/v1/imports", e.key, "")
	if status != 200 || !strings.Contains(string(b), `"unknown_accounts":[]`) {
		t.Errorf("list: %d %s", status, b)
	}

	// A dry run refused for another row still names the unknown rows.
	bad := strings.Replace(twoUnknown, "21010.00", "21O10", 1)
	status, b = e.postImport(t, e.key, "orders.csv", bad, "dry_run", "true")
	if status != 400 || !strings.Contains(string(b), `"rows[3].avgPrice"`) {
		t.Errorf("dry run with a bad price: %d %s, want 400 naming rows[3].avgPrice", status, b)
	}
	if status, b := e.postImport(t, e.key, "f.csv", twoUnknown, "create_accounts", "yes"); status != 400 ||
		!strings.Contains(string(b), `"create_accounts"`) {
		t.Errorf("create_accounts=yes: %d %s, want 400 naming create_accounts", status, b)
	}
}

// TestImportDryRunUnknownOtherRowErrors: a dry run whose rows of known
// accounts cannot all be derived (a root without a point value) is a 400
// that names those rows and the unknown numbers' rows together.
func TestImportDryRunUnknownOtherRowErrors(t *testing.T) {
	e := newTradeEnv(t)
	file := genericHeader +
		"NOPE-1,MNQZ5,buy,1,21000,0,2025-12-01T09:31:00-05:00,Q1\n" +
		"APEX-1,QQQQZ5,buy,1,100,0,2025-12-01T09:32:00-05:00,Q2\n"
	status, b := e.postImport(t, e.key, "f.csv", file, "dry_run", "true", "format", "generic")
	problem := decode[refusalBody](t, b)
	if status != 400 || !strings.HasPrefix(keys(problem.Details), "rows[2].account_number,rows[3].") {
		t.Errorf("dry run: %d %s, want 400 naming rows 2 and 3", status, b)
	}
}

// TestImportUndoCreatedAccounts: undoing an import removes the accounts it
// created that hold nothing else and keeps, saying why, one that got a
// trade, a document or a payout from elsewhere, or was changed since.
func TestImportUndoCreatedAccounts(t *testing.T) {
	pdf := testdata(t, "payout.pdf")
	for _, tt := range []struct {
		name  string
		add   func(t *testing.T, e *tradeEnv, tv1 db.Account)
		kept  string // the warning naming TV-1001 kept; "" when it goes
		force bool
	}{
		{"nothing else", func(*testing.T, *tradeEnv, db.Account) {}, "", false},
		{"a trade", func(t *testing.T, e *tradeEnv, tv1 db.Account) {
			e.create(t, fmt.Sprintf(`{"account_id": %q, "symbol": "ES", "side": "long", "entry_date": "2026-02-05", %s}`,
				tv1.ID, fills(2.14, "buy 1@6000", "sell 1@6002")))
		}, `Kept account "TV-1001", which this import created: it holds 1 trade`, false},
		{"a document", func(t *testing.T, e *tradeEnv, tv1 db.Account) {
			e.mustUpload(t, e.key, form("TV-1001", filePart("p.pdf", pdf)), http.StatusCreated)
		}, `Kept account "TV-1001", which this import created: it holds 1 document`, false},
		{"a payout", func(t *testing.T, e *tradeEnv, tv1 db.Account) {
			if status, b := e.do(t, "POST", "/api/v1/payouts", e.key, fmt.Sprintf(`{"account_id": %q, "total_amount": 100}`, tv1.ID)); status != 201 {
				t.Fatalf("payout: %d %s", status, b)
			}
		}, `Kept account "TV-1001", which this import created: it holds 1 payout`, false},
		{"a new name", func(t *testing.T, e *tradeEnv, tv1 db.Account) {
			if status, b := e.do(t, "PUT", "/api/v1/accounts/"+tv1.ID, e.key, `{"name": "Tradovate main"}`); status != 200 {
				t.Fatalf("rename: %d %s", status, b)
			}
		}, `Kept account "TV-1001", which this import created: it was changed since`, false},
		{"a reviewed trade of the import, forced", func(t *testing.T, e *tradeEnv, tv1 db.Account) {
			tr := e.tradesOf(t, e.key, "account_id="+tv1.ID)[0]
			if status, b := e.do(t, "PUT", "/api/v1/trades/"+tr.ID, e.key, `{"star_rating": 5}`); status != 200 {
				t.Fatalf("rate: %d %s", status, b)
			}
		}, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newTradeEnv(t)
			imp := e.mustImport(t, e.key, twoUnknown, http.StatusCreated, "create_accounts", "true")
			// The same file again creates nothing, so undoing it removes nothing.
			again := e.mustImport(t, e.key, twoUnknown, http.StatusCreated, "create_accounts", "true")
			tt.add(t, e, e.accountsOf(t, e.key)["TV-1001"])
			status, b := e.do(t, "DELETE", "/api/v1/imports/"+*again.ID, e.key, "")
			if undone := decode[undoneBody](t, b); status != 200 || len(undone.Warnings) != 0 {
				t.Errorf("undo of the duplicates: %d %s, want 200 and no warnings", status, b)
			}
			target := "/api/v1/imports/" + *imp.ID
			if tt.force {
				if status, b := e.do(t, "DELETE", target, e.key, ""); status != 409 {
					t.Fatalf("undo of a reviewed trade: %d %s, want 409", status, b)
				}
				target += "?force=true"
			}
			status, b = e.do(t, "DELETE", target, e.key, "")
			if status != 200 {
				t.Fatalf("undo: %d %s", status, b)
			}
			undone := decode[undoneBody](t, b)
			want := []string{"Deleted 6 executions", "Deleted 3 trades", `Deleted 2 accounts this import created: "TV-1001", "TV-2002"`}
			left := []string{"APEX-1"}
			if tt.kept != "" {
				want = []string{"Deleted 6 executions", "Deleted 3 trades", `Deleted 1 account this import created: "TV-2002"`, tt.kept}
				left = append(left, "TV-1001")
			}
			if !slices.Equal(undone.Warnings, want) {
				t.Errorf("undo's warnings:\n got %q\nwant %q", undone.Warnings, want)
			}
			if got := slices.Sorted(maps.Keys(e.accountsOf(t, e.key))); !slices.Equal(got, left) {
				t.Errorf("accounts after the undo: %v, want %v", got, left)
			}
			if n := count(t, e.sql(t), `SELECT count(*) FROM import_accounts`); n != 0 {
				t.Errorf("%d import_accounts rows after the undo, want 0", n)
			}
		})
	}
}

// TestImportCreateAccountsPlatforms: each sample with an account column,
// imported with create_accounts into a journal without accounts, makes its
// account with the platform as broker (none for generic), and its trades
// are the sample's.
func TestImportCreateAccountsPlatforms(t *testing.T) {
	for name, broker := range map[string]string{
		"generic.csv": "", "tradovate_orders.csv": "Tradovate", "tradovate_positions.csv": "Tradovate",
		"ninjatrader_executions.csv": "NinjaTrader", "ninjatrader_trades.csv": "NinjaTrader",
		"rithmic_orders.csv": "Rithmic", "projectx_orders.csv": "ProjectX", "ibkr_flex.csv": "IBKR",
	} {
		t.Run(name, func(t *testing.T) {
			content, err := os.ReadFile("../testdata/imports/" + name)
			if err != nil {
				t.Fatal(err)
			}
			ts := newTestServer(t)
			_, key := ts.newUser(t, "alice")
			imp := ts.mustImport(t, key, string(content), http.StatusCreated, "create_accounts", "true")
			number := "APEX-1"
			if name == "ibkr_flex.csv" {
				number = "U1234567"
			}
			accounts := ts.accountsOf(t, key)
			var want *string
			if broker != "" {
				want = &broker
			}
			checkCreated(t, accounts[number], number, want)
			if len(accounts) != 1 || !slices.Equal(imp.UnknownAccounts, []string{number}) ||
				!slices.Equal(imp.AccountIDs, []string{accounts[number].ID}) {
				t.Errorf("import: %+v; accounts %v", imp, slices.Sorted(maps.Keys(accounts)))
			}
			checkTrades(t, ts.tradesOf(t, key, ""), sampleTrades[name])
		})
	}
}
