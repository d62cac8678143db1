package db

import (
	"bytes"
	"os"
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
