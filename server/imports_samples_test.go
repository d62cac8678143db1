package server_test

import (
	"net/http"
	"os"
	"testing"
)

// sampleTrades are the trades each sample file of testdata/imports makes,
// in the trade list's order (entry time, then creation), read in New York time, every number checked by hand (the comments show
// the arithmetic; point values: MNQ 2, ES 50, stocks 1).
var sampleTrades = map[string][]tradeWant{
	"generic.csv": {
		// buy 1@21000.25, buy 1@21004.75, sell 2@21010.5: (10.25 + 5.75) x 2 = 32; 0.62+0.62+1.24.
		{"long", 2, 21002.5, 21010.5, 32, 2.48, 29.52, "win", "2025-12-01 09:31:05", "2025-12-01 09:40:00"},
		// sell 1@6010, then the buy of 3@6005.5 closes 1 (its $6.42 split 1/3 = 2.14) and opens 2 (4.28):
		// 4.5 x 1 x 50 = 225; 2.14 + 2.14.
		{"short", 1, 6010, 6005.5, 225, 4.28, 220.72, "win", "2025-12-01 10:00:00", "2025-12-01 10:05:30"},
		{"long", 100, 230.1, 231.35, 125, 0, 125, "win", "2025-12-01 10:00:00", "2025-12-01 15:45:00"},    // 1.25 x 100; no commission given
		{"long", 2, 6005.5, 6008, 250, 8.56, 241.44, "win", "2025-12-01 10:05:30", "2025-12-01 10:20:00"}, // 2.5 x 2 x 50; 4.28 + 4.28
		// held overnight: -20 x 2 x 2 = -80; 1.24 + 1.24.
		{"long", 2, 21050, 21030, -80, 2.48, -82.48, "loss", "2025-12-01 15:50:00", "2025-12-02 09:35:00"},
	},
	"tradovate_orders.csv":       scenario(0, "09:40:00"), // no commission in the file, no schedule
	"tradovate_performance.csv":  scenario(0, "09:40:00"),
	"tradovate_positions.csv":    scenario(0, "09:40:00"),
	"ninjatrader_executions.csv": scenario(0.62, "09:40:01"), // the 2-lot exit filled in two parts, the last at 09:40:01
	"ninjatrader_trades.csv":     scenario(0.62, "09:40:00"), // $1.00 + $0.24 a round trip, half a side
	"rithmic_orders.csv":         scenario(0.62, "09:40:00"), // the fill rate 0.62 x quantity filled
	"projectx_orders.csv":        scenario(0, "09:40:00"),
	"projectx_trades.csv":        scenario(0.62, "09:40:00"), // fees 0.74 + commissions 0.50 a round trip
	"ibkr_flex.csv": {
		// buy 100@230.10 and 50@230.50, sell 100@231.35 and 50@231.30 (the 50 cancelled and booked again):
		// entry (23010 + 11525) / 150 = 230.23333333, exit (23135 + 11565) / 150 = 231.33333333;
		// FIFO 100 x 1.25 + 50 x 0.80 = 165; commissions 1.00 + 0.50 + 1.00 + 0.50 (IBCommission alone).
		{"long", 150, 230.23333333, 231.33333333, 165, 3, 162, "win", "2025-12-15 10:00:00", "2025-12-15 15:45:02"},
		// MES (5 a point) held overnight: 5.50 x 2 x 5 = 55; 1.24 + 1.24.
		{"long", 2, 6005.25, 6010.75, 55, 2.48, 52.52, "win", "2025-12-15 15:50:00", "2025-12-16 09:35:00"},
		// short 1@6020 covered by the buy of 3@6015 (1.86 split 0.62 / 1.24): 5 x 1 x 5 = 25; 0.62 + 0.62.
		{"short", 1, 6020, 6015, 25, 1.24, 23.76, "win", "2025-12-16 10:00:00", "2025-12-16 10:10:00"},
		// the long 2 it opened, out at 6018: 3 x 2 x 5 = 30; 1.24 + 1.24.
		{"long", 2, 6015, 6018, 30, 2.48, 27.52, "win", "2025-12-16 10:10:00", "2025-12-16 10:30:00"},
	},
}

// scenario is the morning every platform sample holds, in MNQ (2 a point),
// on 2025-12-15 New York: long 1@21000.25 and 1@21004.75, out 2@21010.50;
// short 1@21020 reversed by a buy of 3@21015.50 into a long 2, out at
// 21018; long 2@21050 held overnight, out at 21030 the next morning.
// perSide is the commission a contract pays a side; exit1 the first
// trade's last exit.
func scenario(perSide float64, exit1 string) []tradeWant {
	c := func(contracts float64) float64 { return float64(int(contracts*perSide*100+0.5)) / 100 }
	return []tradeWant{
		// (21010.50 - 21000.25) + (21010.50 - 21004.75) = 16 points x 2 = 32.
		{"long", 2, 21002.5, 21010.5, 32, c(4), 32 - c(4), "win", "2025-12-15 09:31:05", "2025-12-15 " + exit1},
		// 4.50 points x 1 x 2 = 9; the buy of 3 pays a third of its commission here.
		{"short", 1, 21020, 21015.5, 9, c(2), 9 - c(2), "win", "2025-12-15 10:00:00", "2025-12-15 10:05:30"},
		// 2.50 points x 2 x 2 = 10.
		{"long", 2, 21015.5, 21018, 10, c(4), 10 - c(4), "win", "2025-12-15 10:05:30", "2025-12-15 10:20:00"},
		// -20 points x 2 x 2 = -80.
		{"long", 2, 21050, 21030, -80, c(4), -80 - c(4), "loss", "2025-12-15 15:50:00", "2025-12-16 09:35:00"},
	}
}

// TestImportSamples imports each sample file into a fresh journal and
// reads its trades back. A file without an account column goes to the
// account by account_id.
func TestImportSamples(t *testing.T) {
	for name, want := range sampleTrades {
		t.Run(name, func(t *testing.T) {
			content, err := os.ReadFile("../testdata/imports/" + name)
			if err != nil {
				t.Fatal(err)
			}
			e := newTradeEnv(t)
			ibkr := e.createAccount(t, e.key, `{"account_number": "U1234567"}`)
			var fields []string
			if name == "tradovate_performance.csv" || name == "projectx_trades.csv" {
				fields = []string{"account_id", e.accountID}
			}
			imp := e.mustImport(t, e.key, string(content), http.StatusCreated, fields...)
			wantAccount := e.accountID
			if name == "ibkr_flex.csv" {
				wantAccount = ibkr.ID
			}
			if imp.TradesCreated != len(want) || imp.Duplicates != 0 || imp.Format+".csv" != name ||
				len(imp.AccountIDs) != 1 || imp.AccountIDs[0] != wantAccount {
				t.Errorf("import: %+v", imp)
			}
			checkTrades(t, e.tradesOf(t, e.key, ""), want)
			if again := e.mustImport(t, e.key, string(content), http.StatusCreated, fields...); again.Duplicates != again.Fills {
				t.Errorf("the same file again: %d duplicates of %d fills", again.Duplicates, again.Fills)
			}
		})
	}
}
