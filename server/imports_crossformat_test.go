package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// A morning of ES (50 a point) on 2025-11-12, New York time, in Tradovate's
// Orders and Performance exports. Long 2 from 6000.25 (one order), out 1 at
// 6004.50 and 1 at 6008: (4.25 + 7.75) x 50 = 600. Short 1 at 6010,
// covered at 6007.25: 2.75 x 50 = 137.50. Net 737.50: Tradovate's exports
// carry no commission and the account has no schedule.
const (
	tradovateOrdersHeader = "orderId,Account,Order ID,B/S,Contract,Product,Product Description,avgPrice,filledQty,Fill Time," +
		"lastCommandId,Status,_priceFormat,_priceFormatType,_tickSize,spreadDefinitionId,Version ID,Timestamp,Date,Quantity," +
		"Text,Type,Limit Price,Stop Price,decimalLimit,decimalStop,Filled Qty,Avg Fill Price,decimalFillAvg\n"
	esOrders = tradovateOrdersHeader +
		"410001,APEX-1,410001, Buy,ESZ5,ES,E-Mini S&P 500,6000.25,2,11/12/2025 09:31:05,410001, Filled,-2,0,0.25,,410001,11/12/2025 09:31:05,11/12/25,2,, Market,,,,,2,6000.25,6000.25\n" +
		"410002,APEX-1,410002, Sell,ESZ5,ES,E-Mini S&P 500,6004.50,1,11/12/2025 09:35:00,410002, Filled,-2,0,0.25,,410002,11/12/2025 09:35:00,11/12/25,1,, Limit,6004.50,,6004.50,,1,6004.50,6004.50\n" +
		"410003,APEX-1,410003, Sell,ESZ5,ES,E-Mini S&P 500,6008.00,1,11/12/2025 09:41:10,410003, Filled,-2,0,0.25,,410003,11/12/2025 09:41:10,11/12/25,1,, Limit,6008.00,,6008.00,,1,6008.00,6008.00\n" +
		"410004,APEX-1,410004, Sell,ESZ5,ES,E-Mini S&P 500,6010.00,1,11/12/2025 10:00:00,410004, Filled,-2,0,0.25,,410004,11/12/2025 10:00:00,11/12/25,1,, Market,,,,,1,6010.00,6010.00\n" +
		"410005,APEX-1,410005, Buy,ESZ5,ES,E-Mini S&P 500,,0,,410005, Canceled,-2,0,0.25,,410005,11/12/2025 10:01:00,11/12/25,1,, Limit,6005.00,,6005.00,,0,,\n" +
		"410006,APEX-1,410006, Buy,ESZ5,ES,E-Mini S&P 500,6007.25,1,11/12/2025 10:02:30,410006, Filled,-2,0,0.25,,410006,11/12/2025 10:02:30,11/12/25,1,, Market,,,,,1,6007.25,6007.25\n"
	// Performance pairs the scale-out's two exits with the one buy fill.
	esPerformance = "symbol,_priceFormat,_priceFormatType,_tickSize,buyFillId,sellFillId,qty,buyPrice,sellPrice,pnl,boughtTimestamp,soldTimestamp,duration\n" +
		"ESZ5,-2,0,0.25,8001,8002,1,6000.25,6004.50,$212.50,11/12/2025 09:31:05,11/12/2025 09:35:00,3min 55sec\n" +
		"ESZ5,-2,0,0.25,8001,8003,1,6000.25,6008.00,$387.50,11/12/2025 09:31:05,11/12/2025 09:41:10,10min 5sec\n" +
		"ESZ5,-2,0,0.25,8005,8004,1,6007.25,6010.00,$137.50,11/12/2025 10:02:30,11/12/2025 10:00:00,2min 30sec\n"
)

// esMorning is what either export of the morning makes.
var esMorning = []tradeWant{
	{"long", 2, 6000.25, 6006.25, 600, 0, 600, "win", "2025-11-12 09:31:05", "2025-11-12 09:41:10"},
	{"short", 1, 6010, 6007.25, 137.5, 0, 137.5, "win", "2025-11-12 10:00:00", "2025-11-12 10:02:30"},
}

// TestImportAcrossFormats: Tradovate's Orders export and then its
// Performance export of the same trades (and the other way round): the
// second adds nothing, every fill a duplicate, and the net P&L is the
// same before and after it.
func TestImportAcrossFormats(t *testing.T) {
	for _, order := range [][2]string{{"orders", "performance"}, {"performance", "orders"}} {
		t.Run(order[0]+" then "+order[1], func(t *testing.T) {
			e := newTradeEnv(t)
			file := map[string]string{"orders": esOrders, "performance": esPerformance}
			fills := map[string]int{"orders": 5, "performance": 6} // a cancelled order is no fill
			first := e.mustImport(t, e.key, file[order[0]], http.StatusCreated, "account_id", e.accountID, "date_order", "mdy")
			if first.TradesCreated != 2 || first.Duplicates != 0 {
				t.Fatalf("first import: %+v", first)
			}
			_, before := e.do(t, "GET", "/api/v1/stats/summary", e.key, "")
			if !strings.Contains(string(before), `"net_pnl":737.5,`) {
				t.Fatalf("summary after the first export: %s, want net 737.50", before)
			}
			second := e.mustImport(t, e.key, file[order[1]], http.StatusCreated, "account_id", e.accountID, "date_order", "mdy")
			if second.Fills != fills[order[1]] || second.Duplicates != second.Fills || second.TradesCreated != 0 || second.TradesUpdated != 0 ||
				len(second.Warnings) != 0 {
				t.Errorf("the same trades from the other export: %+v, want %d fills, all duplicates", second, fills[order[1]])
			}
			if _, after := e.do(t, "GET", "/api/v1/stats/summary", e.key, ""); string(after) != string(before) {
				t.Errorf("summary changed:\n%s\n%s", before, after)
			}
			checkTrades(t, e.tradesOf(t, e.key, ""), esMorning)
			e.wantRows(t, `SELECT count(*) FROM executions WHERE import_id = '`+*second.ID+`'`, "0")
		})
	}
}

// TestImportAcrossFormatsMore: where a file has more of a group than the
// account holds from other sources, every fill of it is imported, with a
// warning in the import's zone. The same source is matched by id alone;
// fills posted by a script are another source, both ways.
func TestImportAcrossFormatsMore(t *testing.T) {
	e := newTradeEnv(t)
	orders := tradovateOrdersHeader +
		"510001,APEX-1,510001, Buy,MNQZ5,MNQ,Micro E-mini NASDAQ-100,21000.25,2,11/12/2025 10:05:30,510001, Filled,-2,0,0.25,,510001,11/12/2025 10:05:30,11/12/25,2,, Market,,,,,2,21000.25,21000.25\n" +
		"510002,APEX-1,510002, Sell,MNQZ5,MNQ,Micro E-mini NASDAQ-100,21010.00,2,11/12/2025 10:20:00,510002, Filled,-2,0,0.25,,510002,11/12/2025 10:20:00,11/12/25,2,, Market,,,,,2,21010.00,21010.00\n"
	e.mustImport(t, e.key, orders, http.StatusCreated, "date_order", "mdy")
	// The generic file says 3 at the same price and second (10:05:30.4 is
	// the same second), and 2 at the exit: the entry group is imported
	// whole, the exit group is a duplicate.
	more := genericHeader +
		"APEX-1,MNQZ5,buy,1,21000.25,,2025-11-12T10:05:30-05:00,G1\n" +
		"APEX-1,MNQZ5,buy,2,21000.25,,2025-11-12T10:05:30.4-05:00,G2\n" +
		"APEX-1,MNQZ5,sell,2,21010,,2025-11-12T15:20:00Z,G3\n"
	imp := e.mustImport(t, e.key, more, http.StatusCreated, "timezone", "America/Chicago")
	want := []string{"MNQZ5 at 2025-11-12 09:05:30: 3 in the file, 2 already held from another source; imported",
		// Older than the account's latest fill, they are a trade of their own (DESIGN §8).
		"MNQZ5: fills older than the journal's latest in this contract end with an open position; they were kept as an open trade of their own"}
	if imp.Fills != 3 || imp.Duplicates != 1 || !slices.Equal(imp.Warnings, want) {
		t.Errorf("import: %+v\nwant 1 duplicate and the warnings %q", imp, want)
	}
	e.wantRows(t, `SELECT source_id, quantity FROM executions WHERE import_id = '`+*imp.ID+`' ORDER BY source_id`, "G1 1", "G2 2")
	checkTrades(t, e.tradesOf(t, e.key, ""), []tradeWant{
		// The Orders trade: 9.75 x 2 x 2 = 39.
		{"long", 2, 21000.25, 21010, 39, 0, 39, "win", "2025-11-12 10:05:30", "2025-11-12 10:20:00"},
		// The generic file's 3, after the account's latest fill: a trade of
		// its own, still open.
		{"long", 3, 21000.25, 0, 0, 0, 0, "open", "2025-11-12 10:05:30", " "},
	})

	// Another file of the same format, its ids new: matched by id alone,
	// so its fill is written though the account holds one like it.
	same := genericHeader + "APEX-1,MNQZ5,sell,3,21012,,2025-11-12T10:30:00-05:00,G4\n"
	again := genericHeader + "APEX-1,MNQZ5,sell,3,21012,,2025-11-12T10:30:00-05:00,G5\n"
	e.mustImport(t, e.key, same, http.StatusCreated)
	if imp := e.mustImport(t, e.key, again, http.StatusCreated); imp.Duplicates != 0 || len(imp.Warnings) != 0 {
		t.Errorf("a generic file after a generic file: %+v, want no duplicate", imp)
	}

	// Fills a script posted, then a file with them: duplicates. And a file,
	// then a script posting its fills: nothing written.
	status, b := e.postFills(t, e.key, e.fillsBody("",
		apiFill("P1", "MNQZ5", "buy", 1, 21005, "", "2025-11-12T11:00:00-05:00"),
		apiFill("P2", "MNQZ5", "sell", 1, 21007, "", "2025-11-12T11:01:00-05:00")))
	if status != http.StatusCreated {
		t.Fatalf("post: %d %s", status, b)
	}
	// Beside them, a sell at the buy's second and price, and a buy at its
	// second but another price: neither is held.
	posted := genericHeader + "APEX-1,MNQZ5,buy,1,21005,,2025-11-12T11:00:00-05:00,X1\n" +
		"APEX-1,MNQZ5,sell,1,21007,,2025-11-12T11:01:00-05:00,X2\n" +
		"APEX-1,MNQZ5,sell,1,21005,,2025-11-12T11:00:00-05:00,X3\n" +
		"APEX-1,MNQZ5,buy,1,21006,,2025-11-12T11:00:00-05:00,X4\n"
	if imp := e.mustImport(t, e.key, posted, http.StatusCreated); imp.Duplicates != 2 || imp.TradesCreated != 1 || len(imp.Warnings) != 0 {
		t.Errorf("a file of posted fills: %+v, want 2 duplicates and the trade of X3 and X4", imp)
	}
	e.wantRows(t, `SELECT source_id FROM executions WHERE source_id LIKE 'X%' ORDER BY source_id`, "X3", "X4")
	// A trade typed in with its fills is another source too.
	e.create(t, fmt.Sprintf(`{"account_id": %q, "symbol": "MNQZ5", "side": "long", "entry_date": "2025-11-12", "executions": [
		{"side": "buy", "quantity": 1, "price": 21020, "execution_timestamp": "2025-11-12T18:00:00Z"},
		{"side": "sell", "quantity": 1, "price": 21025, "execution_timestamp": "2025-11-12T18:05:00Z"}]}`, e.accountID))
	typed := genericHeader + "APEX-1,MNQZ5,buy,1,21020,,2025-11-12T13:00:00-05:00,T1\n" +
		"APEX-1,MNQZ5,sell,1,21025,,2025-11-12T13:05:00-05:00,T2\n"
	if imp := e.mustImport(t, e.key, typed, http.StatusCreated); imp.Duplicates != 2 {
		t.Errorf("a file of a typed-in trade's fills: %+v, want 2 duplicates", imp)
	}
	filed := genericHeader + "APEX-1,MNQZ5,buy,1,21001,,2025-11-12T12:00:00-05:00,Y1\n"
	e.mustImport(t, e.key, filed, http.StatusCreated)
	status, b = e.postFills(t, e.key, e.fillsBody("", apiFill("Q1", "MNQZ5", "buy", 1, 21001, "", "2025-11-12T12:00:00-05:00")))
	if status != http.StatusOK || !strings.Contains(b, `"id":null,`) || !strings.Contains(b, `"duplicates":1,`) {
		t.Errorf("posting a fill a file gave: %d %s, want 200 with id null", status, b)
	}
}
