package server_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"tradejournal/db"
)

// postImport sends a file with the form fields (name, value pairs) in order,
// then the file.
func (ts *testServer) postImport(t testing.TB, key, fileName, content string, fields ...string) (int, []byte) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for i := 0; i+1 < len(fields); i += 2 {
		mw.WriteField(fields[i], fields[i+1])
	}
	fw, _ := mw.CreateFormFile("file", fileName)
	fw.Write([]byte(content))
	mw.Close()
	req := httptest.NewRequest("POST", "/api/v1/imports", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+key)
	w := ts.send(t, req)
	return w.Code, w.Body.Bytes()
}

// mustImport imports and fails unless the answer is want.
func (ts *testServer) mustImport(t testing.TB, key, content string, want int, fields ...string) db.Import {
	t.Helper()
	status, b := ts.postImport(t, key, "fills.csv", content, fields...)
	if status != want {
		t.Fatalf("POST /api/v1/imports: got %d %s, want %d", status, b, want)
	}
	return decode[struct{ Data db.Import }](t, b).Data
}

// tradesOf lists the user's trades, oldest entry first.
func (ts *testServer) tradesOf(t testing.TB, key, query string) []db.Trade {
	t.Helper()
	status, b := ts.do(t, "GET", "/api/v1/trades?limit=100&"+query, key, "")
	if status != 200 {
		t.Fatalf("GET /api/v1/trades?%s: %d %s", query, status, b)
	}
	trades := decode[struct {
		Data       []db.Trade
		Pagination any
	}](t, b).Data
	slices.Reverse(trades)
	return trades
}

const genericHeader = "account_number,symbol,side,quantity,price,commission,timestamp,exec_id\n"

// A morning of MNQ (point value 2) in APEX-1, times in New York (-05:00):
// long 2 from 21000 and 21004, out at 21010; then short 1 at 21020, covered
// by a buy of 3 at 21015 that reverses to long 2, closed at 21018.
const morning = genericHeader +
	"APEX-1,MNQZ5,buy,1,21000,0.62,2025-12-01T09:31:00-05:00,A1\n" +
	"APEX-1,MNQZ5,buy,1,21004,0.62,2025-12-01T09:32:00-05:00,A2\n" +
	"APEX-1,MNQZ5,sell,2,21010,1.24,2025-12-01T09:40:00-05:00,A3\n" +
	"APEX-1,MNQZ5,sell,1,21020,0.62,2025-12-01T10:00:00-05:00,A4\n" +
	"APEX-1,MNQZ5,buy,3,21015,1.86,2025-12-01T10:05:00-05:00,A5\n" +
	"APEX-1,MNQZ5,sell,2,21018,1.24,2025-12-01T10:20:00-05:00,A6\n"

type tradeWant struct {
	side                    string
	quantity, entry         float64
	exit                    float64
	gross, commission, net  float64
	status, entryAt, exitAt string
}

func checkTrades(t *testing.T, got []db.Trade, want []tradeWant) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d trades, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		exit := 0.0
		if g.ExitPrice != nil {
			exit = *g.ExitPrice
		}
		at := g.EntryDate + " " + text(g.EntryTime)
		exitAt := text(g.ExitDate) + " " + text(g.ExitTime)
		if g.Side != w.side || g.Quantity != w.quantity || g.EntryPrice != w.entry || exit != w.exit ||
			g.GrossPnL != w.gross || g.TotalCommission != w.commission || g.NetPnL != w.net || g.Status != w.status ||
			at != w.entryAt || exitAt != w.exitAt {
			t.Errorf("trade %d: got %s %v @%v→%v gross %v comm %v net %v %s %s→%s\nwant %+v", i, g.Side, g.Quantity,
				g.EntryPrice, exit, g.GrossPnL, g.TotalCommission, g.NetPnL, g.Status, at, exitAt, w)
		}
	}
}

// text is *s, or "" for nil.
func text(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// TestImportGrouping: flat to flat, the reversal split with its commission
// pro rata, numbers checked by hand.
func TestImportGrouping(t *testing.T) {
	e := newTradeEnv(t)
	imp := e.mustImport(t, e.key, morning, http.StatusCreated)
	if imp.ID == nil || imp.Format != "generic" || imp.Rows != 6 || imp.Fills != 6 || imp.Skipped != 0 ||
		imp.Duplicates != 0 || imp.TradesCreated != 3 || imp.TradesUpdated != 0 || imp.Timezone != "America/New_York" ||
		!slices.Equal(imp.AccountIDs, []string{e.accountID}) || imp.FileName != "fills.csv" {
		t.Errorf("import = %+v", imp)
	}
	checkTrades(t, e.tradesOf(t, e.key, ""), []tradeWant{
		// (21010-21000)*1*2 + (21010-21004)*1*2 = 20 + 12 = 32; 0.62+0.62+1.24 = 2.48.
		{"long", 2, 21002, 21010, 32, 2.48, 29.52, "win", "2025-12-01 09:31:00", "2025-12-01 09:40:00"},
		// Short 1 at 21020 covered at 21015: +5*2 = 10; 0.62 + 1/3 of 1.86 = 0.62+0.62 = 1.24.
		{"short", 1, 21020, 21015, 10, 1.24, 8.76, "win", "2025-12-01 10:00:00", "2025-12-01 10:05:00"},
		// Long 2 at 21015 out at 21018: 3*2*2 = 12; 2/3 of 1.86 = 1.24, plus 1.24 = 2.48.
		{"long", 2, 21015, 21018, 12, 2.48, 9.52, "win", "2025-12-01 10:05:00", "2025-12-01 10:20:00"},
	})
	// The import filter finds its trades.
	if got := e.tradesOf(t, e.key, "import_id="+*imp.ID); len(got) != 3 {
		t.Errorf("import_id filter: %d trades, want 3", len(got))
	}
}

// TestImportDuplicates: the same file again, and a file overlapping it,
// add nothing twice; identical genuine fills without ids all survive.
func TestImportDuplicates(t *testing.T) {
	e := newTradeEnv(t)
	e.mustImport(t, e.key, morning, http.StatusCreated)
	again := e.mustImport(t, e.key, morning, http.StatusCreated)
	if again.Duplicates != 6 || again.TradesCreated != 0 || again.TradesUpdated != 0 {
		t.Errorf("second import: %+v, want 6 duplicates and no trades", again)
	}
	overlap := genericHeader +
		"APEX-1,MNQZ5,sell,2,21018,1.24,2025-12-01T10:20:00-05:00,A6\n" +
		"APEX-1,MNQZ5,buy,1,21030,0.62,2025-12-02T09:31:00-05:00,B1\n" +
		"APEX-1,MNQZ5,sell,1,21031,0.62,2025-12-02T09:35:00-05:00,B2\n"
	next := e.mustImport(t, e.key, overlap, http.StatusCreated)
	if next.Duplicates != 1 || next.TradesCreated != 1 {
		t.Errorf("overlapping import: %+v, want 1 duplicate and 1 trade", next)
	}
	if n := len(e.tradesOf(t, e.key, "")); n != 4 {
		t.Errorf("%d trades after three imports, want 4", n)
	}

	// Two identical fills, no ids: both are real.
	twins := genericHeader +
		"APEX-1,ESZ5,buy,1,6000,,2025-12-03T09:31:00-05:00,\n" +
		"APEX-1,ESZ5,buy,1,6000,,2025-12-03T09:31:00-05:00,\n" +
		"APEX-1,ESZ5,sell,2,6001,,2025-12-03T09:40:00-05:00,\n"
	imp := e.mustImport(t, e.key, twins, http.StatusCreated)
	trades := e.tradesOf(t, e.key, "symbol=ESZ5")
	if imp.Duplicates != 0 || len(trades) != 1 || trades[0].Quantity != 2 || trades[0].GrossPnL != 100 {
		t.Errorf("identical fills: import %+v, trades %+v; want one trade of 2 grossing 100", imp, trades)
	}
	if again := e.mustImport(t, e.key, twins, http.StatusCreated); again.Duplicates != 3 {
		t.Errorf("identical fills again: %d duplicates, want 3", again.Duplicates)
	}
}

// TestImportContinuesOpenTrade: a position held overnight across two
// daily files is one trade.
func TestImportContinuesOpenTrade(t *testing.T) {
	e := newTradeEnv(t)
	day1 := genericHeader + "APEX-1,MNQZ5,buy,2,21000,0.62,2025-12-01T15:55:00-05:00,D1\n"
	day2 := genericHeader + "APEX-1,MNQZ5,sell,2,21050,0.62,2025-12-02T09:35:00-05:00,D2\n"
	first := e.mustImport(t, e.key, day1, http.StatusCreated)
	second := e.mustImport(t, e.key, day2, http.StatusCreated)
	if first.TradesCreated != 1 || second.TradesCreated != 0 || second.TradesUpdated != 1 {
		t.Errorf("imports: %+v then %+v, want 1 created then 1 continued", first, second)
	}
	checkTrades(t, e.tradesOf(t, e.key, ""), []tradeWant{
		// 50 * 2 * 2 = 200; 0.62 + 0.62 = 1.24.
		{"long", 2, 21000, 21050, 200, 1.24, 198.76, "win", "2025-12-01 15:55:00", "2025-12-02 09:35:00"},
	})

	// Undo the second day: the trade is open again as it was.
	status, b := e.do(t, "DELETE", "/api/v1/imports/"+*second.ID, e.key, "")
	if status != 200 {
		t.Fatalf("undo: %d %s", status, b)
	}
	got := e.tradesOf(t, e.key, "")
	if len(got) != 1 || got[0].Status != "open" || got[0].ExitPrice != nil || got[0].TotalCommission != 0.62 {
		t.Errorf("after undo: %+v, want the open trade of day 1", got)
	}
}

// TestImportCommissions: the file's commission when it has one (0 too),
// the account's schedule only when it has none, never both.
func TestImportCommissions(t *testing.T) {
	e := newTradeEnv(t)
	if status, b := e.do(t, "PUT", "/api/v1/accounts/"+e.accountID, e.key, `{"commission_schedule":{"MNQ":0.5,"*":1}}`); status != 200 {
		t.Fatalf("set schedule: %d %s", status, b)
	}
	file := genericHeader +
		"APEX-1,MNQZ5,buy,2,21000,,2025-12-01T09:31:00-05:00,C1\n" + // schedule: 2 x 0.50 = 1.00
		"APEX-1,MNQZ5,sell,2,21001,0,2025-12-01T09:32:00-05:00,C2\n" + // the file's 0: nothing added
		"APEX-1,AAPL,buy,10,200,,2025-12-01T09:33:00-05:00,C3\n" + // "*": 10 x 1 = 10
		"APEX-1,AAPL,sell,10,201,0.35,2025-12-01T09:34:00-05:00,C4\n" // the file's 0.35
	e.mustImport(t, e.key, file, http.StatusCreated)
	got := e.tradesOf(t, e.key, "")
	if len(got) != 2 || got[0].TotalCommission != 1 || got[1].TotalCommission != 10.35 || got[1].NetPnL != -0.35 {
		t.Errorf("commissions: %+v", got)
	}
}

// TestImportAllOrNothing: one bad row is a 400 keyed by its line and
// column, and nothing is written.
func TestImportAllOrNothing(t *testing.T) {
	e := newTradeEnv(t)
	bad := genericHeader +
		"APEX-1,MNQZ5,buy,1,21000,0.62,2025-12-01T09:31:00-05:00,X1\n" +
		"APEX-1,MNQZ5,sell,1,abc,0.62,2025-12-01T09:32:00-05:00,X2\n" +
		"NOPE-9,MNQZ5,buy,1,21000,0.62,2025-12-01T09:33:00-05:00,X3\n"
	status, b := e.postImport(t, e.key, "bad.csv", bad)
	if status != 400 || !strings.Contains(string(b), `"rows[3].price"`) {
		t.Errorf("bad price: %d %s, want 400 naming rows[3].price", status, b)
	}
	status, b = e.postImport(t, e.key, "bad.csv", strings.Replace(bad, "abc", "21001", 1))
	if status != 400 || !strings.Contains(string(b), `"rows[4].account_number"`) {
		t.Errorf("unknown account: %d %s, want 400 naming rows[4].account_number", status, b)
	}
	raw := e.sql(t)
	if n := count(t, raw, `SELECT count(*) FROM trades`) + count(t, raw, `SELECT count(*) FROM imports`); n != 0 {
		t.Errorf("%d rows written by failed imports", n)
	}
}

// TestImportDryRun: everything but the write, with a preview.
func TestImportDryRun(t *testing.T) {
	e := newTradeEnv(t)
	imp := e.mustImport(t, e.key, morning, http.StatusOK, "dry_run", "true")
	if imp.ID != nil || imp.TradesCreated != 3 || len(imp.Trades) != 3 || imp.Trades[0].NetPnL != 29.52 {
		t.Errorf("dry run: %+v", imp)
	}
	raw := e.sql(t)
	if n := count(t, raw, `SELECT count(*) FROM trades`) + count(t, raw, `SELECT count(*) FROM imports`) +
		count(t, raw, `SELECT count(*) FROM executions`); n != 0 {
		t.Errorf("dry run wrote %d rows", n)
	}
}

// TestImportUndoReviewed: undo refuses to delete reviewed trades unless forced.
func TestImportUndoReviewed(t *testing.T) {
	e := newTradeEnv(t)
	imp := e.mustImport(t, e.key, morning, http.StatusCreated)
	trades := e.tradesOf(t, e.key, "")
	if status, b := e.do(t, "PUT", "/api/v1/trades/"+trades[0].ID, e.key, `{"star_rating": 4}`); status != 200 {
		t.Fatalf("rate: %d %s", status, b)
	}
	status, b := e.do(t, "DELETE", "/api/v1/imports/"+*imp.ID, e.key, "")
	if status != 409 || !strings.Contains(string(b), `"trades":"1"`) {
		t.Errorf("undo of reviewed: %d %s, want 409 with trades 1", status, b)
	}
	if n := len(e.tradesOf(t, e.key, "")); n != 3 {
		t.Errorf("%d trades after a refused undo, want 3", n)
	}
	status, b = e.do(t, "DELETE", "/api/v1/imports/"+*imp.ID+"?force=true", e.key, "")
	if status != 200 {
		t.Fatalf("forced undo: %d %s", status, b)
	}
	if n := len(e.tradesOf(t, e.key, "")); n != 0 {
		t.Errorf("%d trades after undo, want 0", n)
	}
	if status, _ := e.do(t, "GET", "/api/v1/imports/"+*imp.ID, e.key, ""); status != 404 {
		t.Errorf("undone import: %d, want 404", status)
	}
	if again := e.mustImport(t, e.key, morning, http.StatusCreated); again.TradesCreated != 3 {
		t.Errorf("re-import after undo: %+v", again)
	}
}

// TestImportExportRoundTrip: an export imported into a fresh journal gives
// the same trades and P&L; into the same account, only duplicates.
func TestImportExportRoundTrip(t *testing.T) {
	e := newTradeEnv(t)
	e.mustImport(t, e.key, morning, http.StatusCreated)
	e.create(t, e.tradeBody("ES", "long", fills(2.14, "buy 1@6000", "sell 1@6002")))
	w := e.request(t, "GET", "/api/v1/trades/export", e.key, "")
	if w.Code != 200 || w.Header().Get("Content-Type") != "text/csv; charset=utf-8" {
		t.Fatalf("export: %d %s", w.Code, w.Header().Get("Content-Type"))
	}
	export := w.Body.String()
	if !strings.HasPrefix(export, genericHeader) || strings.Count(export, "\n") != 1+7+2 {
		t.Errorf("export:\n%s", export)
	}
	if same := e.mustImport(t, e.key, export, http.StatusCreated); same.Duplicates != same.Fills || same.TradesCreated != 0 {
		t.Errorf("export into the same journal: %+v, want only duplicates", same)
	}

	fresh := newTradeEnv(t)
	fresh.mustImport(t, fresh.key, export, http.StatusCreated)
	before, after := e.tradesOf(t, e.key, ""), fresh.tradesOf(t, fresh.key, "")
	if len(before) != len(after) {
		t.Fatalf("%d trades after the round trip, want %d", len(after), len(before))
	}
	byEntry := func(ts []db.Trade) []string {
		var out []string
		for _, t := range ts {
			out = append(out, fmt.Sprintf("%s %s %s %v %v %v %v", t.Symbol, t.EntryDate, text(t.EntryTime), t.Quantity,
				t.GrossPnL, t.TotalCommission, t.NetPnL))
		}
		slices.Sort(out)
		return out
	}
	if b, a := byEntry(before), byEntry(after); !slices.Equal(b, a) {
		t.Errorf("round trip:\n got %v\nwant %v", a, b)
	}
}

// TestImportIsolation: another user's account and import are not found.
func TestImportIsolation(t *testing.T) {
	e := newTradeEnv(t)
	imp := e.mustImport(t, e.key, morning, http.StatusCreated)
	_, bobKey := e.newUser(t, "bob")
	if status, b := e.postImport(t, bobKey, "f.csv", morning, "account_id", e.accountID); status != 404 {
		t.Errorf("bob into alice's account: %d %s, want 404", status, b)
	}
	if status, b := e.postImport(t, bobKey, "f.csv", morning); status != 400 || !strings.Contains(string(b), "rows[2].account_number") {
		t.Errorf("bob by alice's account number: %d %s, want 400 naming the row", status, b)
	}
	for _, m := range []string{"GET", "DELETE"} {
		if status, _ := e.do(t, m, "/api/v1/imports/"+*imp.ID, bobKey, ""); status != 404 {
			t.Errorf("%s alice's import as bob: %d, want 404", m, status)
		}
	}
	status, b := e.do(t, "GET", "/api/v1/imports", bobKey, "")
	if status != 200 || !strings.Contains(string(b), `"data":[]`) {
		t.Errorf("bob's list: %d %s", status, b)
	}
}

// TestImportFormErrors: bad fields are 400s naming them.
func TestImportFormErrors(t *testing.T) {
	e := newTradeEnv(t)
	for _, tt := range []struct {
		fields []string
		want   string
	}{
		{[]string{"format", "excel"}, "format"},
		{[]string{"decimal", "dot"}, "decimal"},
		{[]string{"date_order", "ydm"}, "date_order"},
		{[]string{"timezone", "Mars/Olympus"}, "timezone"},
		{[]string{"dry_run", "yes"}, "dry_run"},
		{[]string{"account_id", "not-a-uuid"}, "account_id"},
	} {
		status, b := e.postImport(t, e.key, "f.csv", morning, tt.fields...)
		if status != 400 || !strings.Contains(string(b), `"`+tt.want+`"`) {
			t.Errorf("%v: %d %s, want 400 naming %s", tt.fields, status, b, tt.want)
		}
	}
	if status, b := e.postImport(t, e.key, "f.csv", "what,is,this\n1,2,3\n"); status != 400 || !strings.Contains(string(b), `"format"`) {
		t.Errorf("unknown file: %d %s, want 400 naming format", status, b)
	}
	noAccount := "symbol,side,quantity,price,commission,timestamp,exec_id\nMNQZ5,buy,1,21000,0,2025-12-01T09:31:00-05:00,Z1\n"
	if status, b := e.postImport(t, e.key, "f.csv", noAccount, "format", "generic"); status != 400 || !strings.Contains(string(b), `"account_id"`) {
		t.Errorf("no account column: %d %s, want 400 naming account_id", status, b)
	}
	if status, b := e.postImport(t, e.key, "f.csv", noAccount, "format", "generic", "account_id", e.accountID); status != 201 {
		t.Errorf("no account column with account_id: %d %s, want 201", status, b)
	}
}

// TestImportBackfill: fills older than the account's latest in a contract
// are grouped among themselves and never reshape an existing trade; where
// they end open, a warning names the contract.
func TestImportBackfill(t *testing.T) {
	e := newTradeEnv(t)
	e.mustImport(t, e.key, genericHeader+
		"APEX-1,MNQZ5,buy,1,21000,0,2025-12-02T09:31:00-05:00,N1\n"+
		"APEX-1,MNQZ5,sell,1,21010,0,2025-12-02T09:41:00-05:00,N2\n", http.StatusCreated)
	older := e.mustImport(t, e.key, genericHeader+
		"APEX-1,MNQZ5,sell,1,21100,0,2025-12-01T09:31:00-05:00,O1\n"+
		"APEX-1,MNQZ5,buy,1,21090,0,2025-12-01T09:35:00-05:00,O2\n"+
		"APEX-1,MNQZ5,buy,1,21080,0,2025-12-01T15:00:00-05:00,O3\n", http.StatusCreated)
	if older.TradesCreated != 2 || older.TradesUpdated != 0 || len(older.Warnings) != 1 || !strings.HasPrefix(older.Warnings[0], "MNQZ5: ") {
		t.Errorf("backfill import: %+v, want 2 trades and a warning naming MNQZ5", older)
	}
	checkTrades(t, e.tradesOf(t, e.key, ""), []tradeWant{
		{"short", 1, 21100, 21090, 20, 0, 20, "win", "2025-12-01 09:31:00", "2025-12-01 09:35:00"},
		{"long", 1, 21080, 0, 0, 0, 0, "open", "2025-12-01 15:00:00", " "},
		{"long", 1, 21000, 21010, 20, 0, 20, "win", "2025-12-02 09:31:00", "2025-12-02 09:41:00"},
	})
}

// TestImportUndoContinued: an import whose open trade a later import
// continued is undone only after that later one.
func TestImportUndoContinued(t *testing.T) {
	e := newTradeEnv(t)
	first := e.mustImport(t, e.key, genericHeader+"APEX-1,MNQZ5,buy,1,21000,0,2025-12-01T15:55:00-05:00,U1\n", http.StatusCreated)
	second := e.mustImport(t, e.key, genericHeader+"APEX-1,MNQZ5,sell,1,21005,0,2025-12-02T09:35:00-05:00,U2\n", http.StatusCreated)
	if status, b := e.do(t, "DELETE", "/api/v1/imports/"+*first.ID, e.key, ""); status != 409 {
		t.Errorf("undo of the first: %d %s, want 409", status, b)
	}
	for _, id := range []string{*second.ID, *first.ID} {
		if status, b := e.do(t, "DELETE", "/api/v1/imports/"+id, e.key, ""); status != 200 {
			t.Errorf("undo %s: %d %s", id, status, b)
		}
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trades`) + count(t, e.sql(t), `SELECT count(*) FROM executions`); n != 0 {
		t.Errorf("%d rows left after undoing both", n)
	}
}

// TestImportList: newest first, paginated, and the record reads back.
func TestImportList(t *testing.T) {
	e := newTradeEnv(t)
	a := e.mustImport(t, e.key, morning, http.StatusCreated)
	b := e.mustImport(t, e.key, morning, http.StatusCreated)
	status, body := e.do(t, "GET", "/api/v1/imports?limit=1", e.key, "")
	list := decode[struct {
		Data       []db.Import
		Pagination struct {
			Total, Limit, Offset int
			HasMore              bool `json:"has_more"`
		}
	}](t, body)
	if status != 200 || len(list.Data) != 1 || *list.Data[0].ID != *b.ID || list.Pagination.Total != 2 {
		t.Errorf("list: %d %s", status, body)
	}
	status, body = e.do(t, "GET", "/api/v1/imports/"+*a.ID, e.key, "")
	got := decode[struct{ Data db.Import }](t, body).Data
	if status != 200 || got.TradesCreated != 3 || got.Rows != 6 || got.Duplicates != 0 || got.CreatedAt != a.CreatedAt ||
		!slices.Equal(got.AccountIDs, a.AccountIDs) || got.Warnings == nil {
		t.Errorf("get: %d %+v, want %+v", status, got, a)
	}
	if status, _ := e.do(t, "GET", "/api/v1/imports/not-a-uuid", e.key, ""); status != 404 {
		t.Errorf("malformed id: %d, want 404", status)
	}
}

// TestImportTooLarge: one byte over 25 MiB is refused, nothing written.
func TestImportTooLarge(t *testing.T) {
	e := newTradeEnv(t)
	big := genericHeader + strings.Repeat("#", 25<<20-len(genericHeader)+1)
	status, b := e.postImport(t, e.key, "big.csv", big)
	if status != 400 || !strings.Contains(string(b), `"file"`) {
		t.Errorf("oversized file: %d %.200s, want 400 naming file", status, b)
	}
}

// TestImportTimezone: local times read in the form's timezone, else the
// user's; an offset in the value wins over both.
func TestImportTimezone(t *testing.T) {
	e := newTradeEnv(t)
	file := genericHeader +
		"APEX-1,MNQZ5,buy,1,21000,0,2025-12-01 09:31:00,Z1\n" + // local
		"APEX-1,MNQZ5,sell,1,21001,0,2025-12-01T09:45:00+01:00,Z2\n" // 08:45 UTC
	imp := e.mustImport(t, e.key, file, http.StatusOK, "timezone", "Europe/Berlin", "dry_run", "true")
	if imp.Timezone != "Europe/Berlin" || len(imp.Trades) != 1 {
		t.Fatalf("dry run: %+v", imp)
	}
	fills := imp.Trades[0].Executions
	// 09:31 in Berlin is 08:31 UTC, 03:31 in the user's New York.
	if fills[0].ExecutionTimestamp != "2025-12-01T08:31:00+00:00" || fills[0].ExecutionTime != "03:31:00" ||
		fills[1].ExecutionTimestamp != "2025-12-01T08:45:00+00:00" {
		t.Errorf("fills: %+v", fills)
	}
	// In New York the buy's 09:31 is 14:31 UTC, after the sell: a short.
	imp = e.mustImport(t, e.key, file, http.StatusOK, "dry_run", "true")
	if tr := imp.Trades[0]; imp.Timezone != "America/New_York" || tr.Side != "short" ||
		tr.Executions[1].ExecutionTimestamp != "2025-12-01T14:31:00+00:00" {
		t.Errorf("the user's zone: %+v", imp)
	}
}

// TestImportScopes: importing and undoing need trades:write; listing and
// exporting trades:read.
func TestImportScopes(t *testing.T) {
	e := newTradeEnv(t)
	imp := e.mustImport(t, e.key, morning, http.StatusCreated)
	_, readKey := e.newKey(t, "alice", "read", false)
	if status, b := e.postImport(t, readKey, "f.csv", morning); status != 403 {
		t.Errorf("import with a read key: %d %s, want 403", status, b)
	}
	if status, _ := e.do(t, "DELETE", "/api/v1/imports/"+*imp.ID, readKey, ""); status != 403 {
		t.Errorf("undo with a read key: %d, want 403", status)
	}
	for _, target := range []string{"/api/v1/imports", "/api/v1/imports/" + *imp.ID, "/api/v1/trades/export"} {
		if status, _ := e.do(t, "GET", target, readKey, ""); status != 200 {
			t.Errorf("GET %s with a read key: %d, want 200", target, status)
		}
	}
}

// TestExportFilters: the export takes the trade list's filters, and a bad
// one is a 400 naming it.
func TestExportFilters(t *testing.T) {
	e := newTradeEnv(t)
	e.mustImport(t, e.key, morning+"APEX-1,ESZ5,buy,1,6000,2.14,2025-12-02T09:31:00-05:00,E1\n", http.StatusCreated)
	w := e.request(t, "GET", "/api/v1/trades/export?symbol=ES", e.key, "")
	want := genericHeader + "APEX-1,ESZ5,buy,1,6000,2.14,2025-12-02T14:31:00+00:00,E1\n"
	if w.Code != 200 || w.Body.String() != want {
		t.Errorf("export?symbol=ES: %d\n%s\nwant\n%s", w.Code, w.Body, want)
	}
	if status, b := e.do(t, "GET", "/api/v1/trades/export?start_date=yesterday", e.key, ""); status != 400 || !strings.Contains(string(b), "start_date") {
		t.Errorf("bad filter: %d %s", status, b)
	}
}
