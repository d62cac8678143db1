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
}

// TestImportSamples imports each sample file into a fresh journal and
// reads its trades back.
func TestImportSamples(t *testing.T) {
	for name, want := range sampleTrades {
		t.Run(name, func(t *testing.T) {
			content, err := os.ReadFile("../testdata/imports/" + name)
			if err != nil {
				t.Fatal(err)
			}
			e := newTradeEnv(t)
			imp := e.mustImport(t, e.key, string(content), http.StatusCreated)
			if imp.TradesCreated != len(want) || imp.Duplicates != 0 {
				t.Errorf("import: %+v", imp)
			}
			checkTrades(t, e.tradesOf(t, e.key, ""), want)
		})
	}
}
