package db

import (
	"bytes"
	"os"
	"slices"
	"testing"
	"time"

	"tradejournal/db/brokers"
)

// importTestFile reads one of db/brokers' test files, each written by hand
// in a platform's real column layout, and imports it into the user's
// accounts (or into accountID when it is not "").
func importTestFile(t *testing.T, d *DB, userID, accountID, name string) Import {
	t.Helper()
	b, err := os.ReadFile("brokers/testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	file, err := brokers.Read(bytes.NewReader(b), brokers.Options{Location: ny})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	imp, err := d.Import(t.Context(), userID, ImportInput{File: file, FileName: name, Timezone: "America/New_York",
		AccountID: accountID})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return imp
}

// importedTrades are the trades holding a fill of the import.
func importedTrades(t *testing.T, d *DB, userID string, imp Import) []Trade {
	t.Helper()
	list, _, err := d.Trades(t.Context(), userID, TradeFilter{ImportID: *imp.ID}, Page{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// TestImportNinjaTraderWithoutID: NinjaTrader's Executions grid with its ID
// column hidden exports fills without an id; each gets a SHA-256 source id
// (DESIGN §8), so the file imports, its two identical partial fills both
// count, and the same file imported again adds nothing.
func TestImportNinjaTraderWithoutID(t *testing.T) {
	d := newTestDB(t)
	u := newTestUser(t, d, "nt")
	if _, err := d.CreateAccount(t.Context(), u.ID, AccountInput{AccountNumber: Some("APEX-1")}); err != nil {
		t.Fatal(err)
	}
	imp := importTestFile(t, d, u.ID, "", "ninjatrader_executions_no_id.csv")
	if imp.Fills != 3 || imp.Duplicates != 0 || imp.TradesCreated != 1 {
		t.Fatalf("first import: fills %d duplicates %d trades %d, want 3 0 1", imp.Fills, imp.Duplicates, imp.TradesCreated)
	}
	// Bought 2 at 21000.25, sold 2 at 21010.50: 10.25 points x 2 x $2 =
	// $41.00 gross, less $1.24 + $0.62 + $0.62 = $2.48 of commissions.
	trades := importedTrades(t, d, u.ID, imp)
	if len(trades) != 1 || trades[0].Quantity != 2 || trades[0].GrossPnL != 41 || trades[0].NetPnL != 38.52 {
		t.Errorf("trades: %+v, want one of 2 contracts, gross 41, net 38.52", trades)
	}
	again := importTestFile(t, d, u.ID, "", "ninjatrader_executions_no_id.csv")
	if again.Fills != 3 || again.Duplicates != 3 || again.TradesCreated != 0 || again.TradesUpdated != 0 {
		t.Errorf("second import: fills %d duplicates %d created %d updated %d, want 3 3 0 0", again.Fills,
			again.Duplicates, again.TradesCreated, again.TradesUpdated)
	}
}

// TestImportTreasury32nds: Tradovate writes a ZN price in 32nds, 110 045
// for 110 + 4.5/32. ZN's point value is $1,000, so a 32nd is $31.25 and
// its tick, half a 32nd, $15.625. The file (one buy fill of 2, sold in two
// rows) by hand:
//
//	bought 2 at 110 045 = 110 + 4.5/32 = 110.140625
//	sold 1 at 110 170   = 110 + 17/32  = 110.53125: +12.5 32nds = +$390.625
//	sold 1 at 109 310   = 109 + 31/32  = 109.96875:  -5.5 32nds = -$171.875
//	gross = 390.625 - 171.875 = $218.75 (7 32nds: 7 x $31.25)
//
// The file has no commissions, so the account's schedule, $1.25 a contract
// a side on ZN, prices its 4 contract-sides: $5.00, net $213.75.
func TestImportTreasury32nds(t *testing.T) {
	d := newTestDB(t)
	u := newTestUser(t, d, "zn")
	a, err := d.CreateAccount(t.Context(), u.ID, AccountInput{AccountNumber: Some("TV-1"),
		CommissionSchedule: Some(CommissionSchedule{"ZN": 1.25})})
	if err != nil {
		t.Fatal(err)
	}
	imp := importTestFile(t, d, u.ID, a.ID, "tradovate_performance_zn.csv")
	trades := importedTrades(t, d, u.ID, imp)
	if len(trades) != 1 {
		t.Fatalf("%d trades, want 1", len(trades))
	}
	tr := trades[0]
	if tr.Symbol != "ZNH6" || tr.Side != "long" || tr.Quantity != 2 || tr.EntryPrice != 110.140625 ||
		tr.ExitPrice == nil || *tr.ExitPrice != 110.25 {
		t.Errorf("trade %s %s %v at %v, exit %v; want ZNH6 long 2 at 110.140625, exit 110.25", tr.Symbol, tr.Side,
			tr.Quantity, tr.EntryPrice, tr.ExitPrice)
	}
	if tr.GrossPnL != 218.75 || tr.TotalCommission != 5 || tr.NetPnL != 213.75 {
		t.Errorf("gross %v commission %v net %v, want 218.75 5 213.75", tr.GrossPnL, tr.TotalCommission, tr.NetPnL)
	}
}

// TestImportOpenPosition: a Tradovate Position History that lists a
// position still open imports its closed pairs; the open row is skipped
// and the Import's warnings name its contract.
func TestImportOpenPosition(t *testing.T) {
	d := newTestDB(t)
	u := newTestUser(t, d, "tv")
	if _, err := d.CreateAccount(t.Context(), u.ID, AccountInput{AccountNumber: Some("APEX-1")}); err != nil {
		t.Fatal(err)
	}
	imp := importTestFile(t, d, u.ID, "", "tradovate_positions_open.csv")
	if imp.Rows != 3 || imp.Skipped != 1 || imp.Fills != 4 || imp.TradesCreated != 2 ||
		!slices.Contains(imp.Warnings, "MNQZ5: open position not imported: the file has no exit for it (line 4)") {
		t.Errorf("import: rows %d skipped %d fills %d trades %d warnings %q; want 3 1 4 2 and the open MNQZ5 named",
			imp.Rows, imp.Skipped, imp.Fills, imp.TradesCreated, imp.Warnings)
	}
}

// TestImportRepeatedID: a row whose execution id an earlier row of the
// same account gave is a duplicate, counted and not written; the same id
// in another account is a fill of its own (source ids are unique per
// account, DESIGN §8).
func TestImportRepeatedID(t *testing.T) {
	d := newTestDB(t)
	u := newTestUser(t, d, "rep")
	for _, n := range []string{"A-1", "B-1"} {
		if _, err := d.CreateAccount(t.Context(), u.ID, AccountInput{AccountNumber: Some(n)}); err != nil {
			t.Fatal(err)
		}
	}
	file, err := brokers.Read(bytes.NewReader([]byte("account_number,symbol,side,quantity,price,timestamp,exec_id\n"+
		"A-1,ESZ5,buy,1,6000,2025-12-01 10:00:00,x1\n"+
		"A-1,ESZ5,buy,1,6000,2025-12-01 10:00:00,x1\n"+
		"B-1,ESZ5,buy,1,6000,2025-12-01 10:00:00,x1\n"+
		"A-1,ESZ5,sell,1,6001,2025-12-01 10:05:00,a2\n"+
		"B-1,ESZ5,sell,1,6001,2025-12-01 10:05:00,x2\n")), brokers.Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	imp, err := d.Import(t.Context(), u.ID, ImportInput{File: file, FileName: "rep.csv", Timezone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	if imp.Fills != 5 || imp.Duplicates != 1 || imp.TradesCreated != 2 {
		t.Fatalf("import: fills %d duplicates %d trades %d, want 5 1 2", imp.Fills, imp.Duplicates, imp.TradesCreated)
	}
	// Each account bought 1 at 6000 and sold it at 6001: closed, one fill
	// a side, $50 gross on ES.
	for _, tr := range importedTrades(t, d, u.ID, imp) {
		if tr.Status == "open" || tr.Quantity != 1 || tr.GrossPnL != 50 {
			t.Errorf("trade %s: status %s quantity %v gross %v, want closed, 1, 50", tr.AccountID, tr.Status, tr.Quantity, tr.GrossPnL)
		}
	}
}
