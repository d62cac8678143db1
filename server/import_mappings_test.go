package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"tradejournal/db"
)

// The layouts of two platforms no format reads, with rows of our own: a
// MetaTrader deals report (Unix times, balance and credit rows, a
// commission and a fee) and a Quantower-like trades export (semicolons,
// decimal commas, day-first dates, Berlin time).
const (
	metaTraderFile = "Time,Deal,Symbol,Type,Volume,Price,Commission,Fee,Profit\n" +
		"1764340200,5001,,balance,,,,,10000.00\n" +
		"1764599465,5002,MNQZ5,buy,2,21000.25,-1.00,-0.24,0.00\n" +
		"1764599765250,5003,MNQZ5,sell,2,21010.50,-1.00,-0.24,41.00\n" +
		"1764600000,5004,,credit,,,,,50.00\n"
	metaTraderMapping = `{"name": "MetaTrader deals", "columns": {"timestamp": "Time", "symbol": "Symbol", "side": "Type",
		"quantity": "Volume", "price": "Price", "commission": ["Commission", "Fee"], "exec_id": "Deal"},
		"side_values": {"buy": ["buy"], "sell": ["sell"], "skip": ["balance", "credit"]}}`
	quantowerFile = "Date;Time;Account;Symbol;Side;Quantity;Price;Commission;Trade ID\n" +
		"03.12.2025;15:31:05;APEX-1;MNQZ5;Buy;2;21.000,25;1,24;Q-1\n" +
		"03.12.2025;15:40:00;APEX-1;MNQZ5;Sell;2;21.010,50;1,24;Q-2\n"
	quantowerMapping = `{"name": "Quantower", "columns": {"date": "Date", "time": "Time", "account": "Account",
		"symbol": "Symbol", "side": "Side", "quantity": "Quantity", "price": "Price", "commission": ["Commission"],
		"exec_id": "Trade ID"}, "date_order": "dmy", "decimal": "comma", "timezone": "Europe/Berlin"}`
)

// createMapping posts a mapping and fails unless it is created.
func (ts *testServer) createMapping(t testing.TB, key, body string) db.ImportMapping {
	t.Helper()
	status, b := ts.do(t, "POST", "/api/v1/import-mappings", key, body)
	if status != http.StatusCreated {
		t.Fatalf("POST /api/v1/import-mappings: %d %s", status, b)
	}
	return decode[struct{ Data db.ImportMapping }](t, b).Data
}

// TestImportMappingCRUD: create answers 201 with the whole mapping, its
// defaults filled in; it reads back, lists by name, changes in part and
// goes; the table holds what the API says.
func TestImportMappingCRUD(t *testing.T) {
	e := newTradeEnv(t)
	e.pinClock(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	n := 0
	e.db.NewID = func() string { n++; return fmt.Sprintf("01940000-0000-7000-8000-%012d", n) }
	status, b := e.do(t, "POST", "/api/v1/import-mappings", e.key, metaTraderMapping)
	want := `{"data":{"id":"01940000-0000-7000-8000-000000000001","name":"MetaTrader deals",` +
		`"columns":{"timestamp":"Time","date":null,"time":null,"symbol":"Symbol","side":"Type","quantity":"Volume",` +
		`"price":"Price","account":null,"commission":["Commission","Fee"],"exec_id":"Deal"},` +
		`"side_values":{"buy":["buy"],"sell":["sell"],"skip":["balance","credit"]},"date_order":"auto","decimal":"point",` +
		`"timezone":null,"created_at":"2026-03-02T09:00:00.000Z","updated_at":"2026-03-02T09:00:00.000Z"}}`
	if status != 201 || strings.TrimSpace(string(b)) != want {
		t.Fatalf("create: %d\n got %s\nwant %s", status, b, want)
	}
	id := "01940000-0000-7000-8000-000000000001"
	var name, columns, decimal string
	var sides, tz *string
	if err := e.sql(t).QueryRow(`SELECT name, columns, side_values, decimal, timezone FROM import_mappings WHERE id = ? AND user_id = ?`,
		id, e.userID).Scan(&name, &columns, &sides, &decimal, &tz); err != nil || name != "MetaTrader deals" ||
		!strings.Contains(columns, `"timestamp":"Time"`) || sides == nil || !strings.Contains(*sides, `"skip":["balance","credit"]`) ||
		decimal != "point" || tz != nil {
		t.Errorf("row: %v %s %s %v %s %v", err, name, columns, sides, decimal, tz)
	}
	if status, got := e.do(t, "GET", "/api/v1/import-mappings/"+id, e.key, ""); status != 200 || strings.TrimSpace(string(got)) != want {
		t.Errorf("get: %d %s", status, got)
	}
	e.createMapping(t, e.key, strings.Replace(quantowerMapping, `"Quantower"`, `"Another"`, 1))
	status, b = e.do(t, "GET", "/api/v1/import-mappings?limit=1", e.key, "")
	list := decode[struct {
		Data       []db.ImportMapping
		Pagination struct {
			Total   int  `json:"total"`
			Limit   int  `json:"limit"`
			Offset  int  `json:"offset"`
			HasMore bool `json:"has_more"`
		}
	}](t, b)
	if status != 200 || len(list.Data) != 1 || list.Data[0].Name != "Another" || list.Pagination.Total != 2 || !list.Pagination.HasMore {
		t.Errorf("list by name: %d %s", status, b)
	}

	// A partial update: the name and zone change, side values go back to
	// §8's, the columns stay.
	e.pinClock(time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC))
	status, b = e.do(t, "PUT", "/api/v1/import-mappings/"+id, e.key, `{"name": "MT5", "side_values": null, "timezone": "Europe/London"}`)
	want = `{"data":{"id":"01940000-0000-7000-8000-000000000001","name":"MT5",` +
		`"columns":{"timestamp":"Time","date":null,"time":null,"symbol":"Symbol","side":"Type","quantity":"Volume",` +
		`"price":"Price","account":null,"commission":["Commission","Fee"],"exec_id":"Deal"},` +
		`"side_values":null,"date_order":"auto","decimal":"point",` +
		`"timezone":"Europe/London","created_at":"2026-03-02T09:00:00.000Z","updated_at":"2026-03-02T10:00:00.000Z"}}`
	if status != 200 || strings.TrimSpace(string(b)) != want {
		t.Errorf("update: %d\n got %s\nwant %s", status, b, want)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM import_mappings WHERE id = ? AND side_values IS NULL AND timezone = 'Europe/London'`, id); n != 1 {
		t.Errorf("row after update: %d", n)
	}
	// Columns given replace them all: no cost column is [], never null.
	status, b = e.do(t, "PUT", "/api/v1/import-mappings/"+id, e.key,
		`{"columns": {"timestamp": "Time", "symbol": "Symbol", "side": "Type", "quantity": "Volume", "price": "Price"}}`)
	if status != 200 || !strings.Contains(string(b), `"columns":{"timestamp":"Time","date":null,"time":null,"symbol":"Symbol",`+
		`"side":"Type","quantity":"Volume","price":"Price","account":null,"commission":[],"exec_id":null}`) {
		t.Errorf("columns replaced: %d %s", status, b)
	}
	status, b = e.do(t, "DELETE", "/api/v1/import-mappings/"+id, e.key, "")
	if status != 200 || strings.TrimSpace(string(b)) != `{"success":true,"deleted_id":"`+id+`","warnings":[]}` {
		t.Errorf("delete: %d %s", status, b)
	}
	if status, _ := e.do(t, "GET", "/api/v1/import-mappings/"+id, e.key, ""); status != 404 {
		t.Errorf("get after delete: %d", status)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM import_mappings`); n != 1 {
		t.Errorf("%d mappings left, want 1", n)
	}
}

// TestImportMappingValidation: each bad body is a 400 naming the field
// path, nothing written; a taken name is a 409; a malformed or another
// user's id is a 404 in get, put, delete and import.
func TestImportMappingValidation(t *testing.T) {
	e := newTradeEnv(t)
	cols := `"columns": {"timestamp": "T", "symbol": "S", "side": "D", "quantity": "Q", "price": "P"}`
	for _, tt := range []struct{ body, field string }{
		{`{"name": 5, ` + cols + `}`, "name"},
		{`{` + cols + `}`, "name"},
		{`{"name": "  "}`, "name"},
		{`{"name": "x"}`, "columns"},
		{`{"name": "x", "columns": null}`, "columns"},
		{`{"name": "x", "columns": "T,S"}`, "columns"},
		{`{"name": "x", "columns": {"timestamp": "T", "symbol": 1, "side": "D", "quantity": "Q", "price": "P"}}`, "columns.symbol"},
		{`{"name": "x", "columns": {"timestamp": "T", "side": "D", "quantity": "Q", "price": "P"}}`, "columns.symbol"},
		{`{"name": "x", "columns": {"timestamp": "T", "symbol": "S", "quantity": "Q", "price": "P"}}`, "columns.side"},
		{`{"name": "x", "columns": {"timestamp": "T", "symbol": "S", "side": "D", "price": "P"}}`, "columns.quantity"},
		{`{"name": "x", "columns": {"timestamp": "T", "symbol": "S", "side": "D", "quantity": "Q"}}`, "columns.price"},
		{`{"name": "x", "columns": {"symbol": "S", "side": "D", "quantity": "Q", "price": "P"}}`, "columns.timestamp"},
		{`{"name": "x", "columns": {"date": "A", "symbol": "S", "side": "D", "quantity": "Q", "price": "P"}}`, "columns.time"},
		{`{"name": "x", "columns": {"time": "B", "symbol": "S", "side": "D", "quantity": "Q", "price": "P"}}`, "columns.date"},
		{`{"name": "x", "columns": {"timestamp": "T", "date": "A", "time": "B", "symbol": "S", "side": "D", "quantity": "Q", "price": "P"}}`, "columns.timestamp"},
		{`{"name": "x", "columns": {"timestamp": "T", "symbol": "", "side": "D", "quantity": "Q", "price": "P"}}`, "columns.symbol"},
		{`{"name": "x", "columns": {"timestamp": "T", "symbol": "S", "side": "D", "quantity": "Q", "price": "P", "commission": "F"}}`, "columns.commission"},
		{`{"name": "x", "columns": {"timestamp": "T", "symbol": "S", "side": "D", "quantity": "Q", "price": "P", "commission": [""]}}`, "columns.commission[0]"},
		{`{"name": "x", ` + cols + `, "side_values": {"buy": [], "sell": ["s"]}}`, "side_values.buy"},
		{`{"name": "x", ` + cols + `, "side_values": {"buy": ["b"]}}`, "side_values.sell"},
		{`{"name": "x", ` + cols + `, "side_values": {"buy": ["b"], "sell": ["B"]}}`, "side_values.sell[0]"},
		{`{"name": "x", ` + cols + `, "side_values": {"buy": ["b"], "sell": ["s"], "skip": [7]}}`, "side_values.skip"},
		{`{"name": "x", ` + cols + `, "side_values": ["b"]}`, "side_values"},
		{`{"name": "x", ` + cols + `, "date_order": "ydm"}`, "date_order"},
		{`{"name": "x", ` + cols + `, "date_order": null}`, "date_order"},
		{`{"name": "x", ` + cols + `, "decimal": "dot"}`, "decimal"},
		{`{"name": "x", ` + cols + `, "timezone": "Mars/Olympus"}`, "timezone"},
		{`{"name": "x", ` + cols + `, "timezone": 1}`, "timezone"},
	} {
		status, b := e.do(t, "POST", "/api/v1/import-mappings", e.key, tt.body)
		details := decode[struct {
			Error, Code string
			Details     map[string]string
		}](t, b).Details
		if status != 400 || details[tt.field] == "" {
			t.Errorf("%s: %d %s, want 400 naming %s", tt.body, status, b, tt.field)
		}
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM import_mappings`); n != 0 {
		t.Fatalf("%d mappings written by refused bodies", n)
	}

	m := e.createMapping(t, e.key, metaTraderMapping)
	status, b := e.do(t, "POST", "/api/v1/import-mappings", e.key, metaTraderMapping)
	if status != 409 || !strings.Contains(string(b), `"name":"import mapping MetaTrader deals already exists"`) {
		t.Errorf("duplicate name: %d %s", status, b)
	}
	other := e.createMapping(t, e.key, quantowerMapping)
	if status, b := e.do(t, "PUT", "/api/v1/import-mappings/"+other.ID, e.key, `{"name": "MetaTrader deals"}`); status != 409 {
		t.Errorf("rename onto a taken name: %d %s", status, b)
	}
	if status, b := e.do(t, "PUT", "/api/v1/import-mappings/"+m.ID, e.key, `{"columns": {"symbol": "S"}}`); status != 400 ||
		!strings.Contains(string(b), `"columns.side"`) {
		t.Errorf("put with columns lacking side: %d %s", status, b)
	}

	_, bob := e.newUser(t, "bob")
	for _, id := range []string{m.ID, "not-a-uuid", "01940000-0000-7000-8000-999999999999"} {
		for _, method := range []string{"GET", "PUT", "DELETE"} {
			status, b := e.do(t, method, "/api/v1/import-mappings/"+id, bob, `{"name": "mine now"}`)
			if status != 404 || !strings.Contains(string(b), "Import mapping not found") {
				t.Errorf("bob %s %s: %d %s, want 404", method, id, status, b)
			}
		}
	}
	bobAccount := e.createAccount(t, bob, `{"account_number": "B-1"}`)
	status, b = e.postImport(t, bob, "mt.csv", metaTraderFile, "mapping_id", m.ID, "account_id", bobAccount.ID)
	if status != 404 || !strings.Contains(string(b), `"mapping_id":"Import mapping not found"`) {
		t.Errorf("bob importing with alice's mapping: %d %s", status, b)
	}
	if got, _ := e.do(t, "GET", "/api/v1/import-mappings/"+m.ID, e.key, ""); got != 200 {
		t.Errorf("alice's mapping after bob: %d", got)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM executions`) + count(t, e.sql(t), `SELECT count(*) FROM imports`); n != 0 {
		t.Errorf("%d rows written by refused imports", n)
	}
}

// TestImportWithMapping: a MetaTrader file read by mapping_id: Unix times
// (10 digits seconds, 13 milliseconds), the balance and credit rows
// skipped (rows 4 = skipped 2 + fills 2), costs summed. MNQ is $2 a
// point: long 2 from 21000.25 to 21010.50 is 10.25 x 2 x 2 = 41.00 gross;
// costs 1.24 a side (|-1.00| + |-0.24|), 2.48 in all: net 38.52.
func TestImportWithMapping(t *testing.T) {
	e := newTradeEnv(t)
	m := e.createMapping(t, e.key, metaTraderMapping)
	imp := e.mustImport(t, e.key, metaTraderFile, http.StatusCreated, "mapping_id", m.ID, "account_id", e.accountID)
	if imp.Format != "mapping" || imp.MappingID == nil || *imp.MappingID != m.ID || imp.Rows != 4 || imp.Fills != 2 ||
		imp.Skipped != 2 || imp.TradesCreated != 1 || imp.Timezone != "America/New_York" {
		t.Errorf("import: %+v", imp)
	}
	checkTrades(t, e.tradesOf(t, e.key, ""), []tradeWant{
		{"long", 2, 21000.25, 21010.5, 41, 2.48, 38.52, "win", "2025-12-01 09:31:05", "2025-12-01 09:36:05"},
	})
	var stamps []string
	rows, err := e.sql(t).Query(`SELECT execution_timestamp || ' ' || source_id FROM executions ORDER BY execution_timestamp`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var s string
		rows.Scan(&s)
		stamps = append(stamps, s)
	}
	rows.Close()
	if strings.Join(stamps, "|") != "2025-12-01T14:31:05+00:00 5002|2025-12-01T14:36:05.25+00:00 5003" {
		t.Errorf("executions: %q", stamps)
	}
	status, b := e.do(t, "GET", "/api/v1/imports/"+*imp.ID, e.key, "")
	if status != 200 || !strings.Contains(string(b), `"format":"mapping","mapping_id":"`+m.ID+`"`) {
		t.Errorf("import read back: %d %s", status, b)
	}
	// The mapping goes; the import stays, without it.
	e.do(t, "DELETE", "/api/v1/import-mappings/"+m.ID, e.key, "")
	if _, b := e.do(t, "GET", "/api/v1/imports/"+*imp.ID, e.key, ""); !strings.Contains(string(b), `"format":"mapping","mapping_id":null`) {
		t.Errorf("import after its mapping went: %s", b)
	}
}

// TestImportMappingCommaDayFirst: the mapping's decimal comma, day-first
// dates and zone: 03.12.2025 15:31:05 in Berlin (CET, +01:00) is 09:31:05
// in New York (-05:00), on 3 December; 21.000,25 is 21000.25; the Import's
// timezone is the mapping's. Net as above: 41.00 - 2.48 = 38.52.
func TestImportMappingCommaDayFirst(t *testing.T) {
	e := newTradeEnv(t)
	e.createMapping(t, e.key, quantowerMapping)
	imp := e.mustImport(t, e.key, quantowerFile, http.StatusCreated) // format auto
	if imp.Format != "mapping" || imp.Timezone != "Europe/Berlin" || imp.Fills != 2 || len(imp.Warnings) != 0 {
		t.Errorf("import: %+v", imp)
	}
	checkTrades(t, e.tradesOf(t, e.key, ""), []tradeWant{
		{"long", 2, 21000.25, 21010.5, 41, 2.48, 38.52, "win", "2025-12-03 09:31:05", "2025-12-03 09:40:00"},
	})
}

// TestImportMappingAuto: format=auto reads a header no format reads by the
// first mapping (by name) whose every column the header has; a header
// nothing reads is a 400 naming format with its columns; a mapping named
// by mapping_id whose column the file lacks is a 400 naming the column.
func TestImportMappingAuto(t *testing.T) {
	e := newTradeEnv(t)
	unread := "Zeit,Art,Menge\n1,2,3\n"
	status, b := e.postImport(t, e.key, "x.csv", unread)
	if status != 400 || !strings.Contains(string(b), `"format":"the file's header matches no known format and none of your column mappings (its columns: Zeit, Art, Menge)`) {
		t.Errorf("unread header: %d %s", status, b)
	}
	// Sorted by name, "A lacking" comes first but the file has no Login
	// column; "B" reads it; "C" would too but comes after.
	lacking := e.createMapping(t, e.key, strings.Replace(strings.Replace(metaTraderMapping, `"MetaTrader deals"`, `"A lacking"`, 1),
		`"exec_id": "Deal"`, `"exec_id": "Deal", "account": "Login"`, 1))
	b1 := e.createMapping(t, e.key, strings.Replace(metaTraderMapping, `"MetaTrader deals"`, `"B"`, 1))
	e.createMapping(t, e.key, strings.Replace(metaTraderMapping, `"MetaTrader deals"`, `"C"`, 1))
	imp := e.mustImport(t, e.key, metaTraderFile, http.StatusOK, "account_id", e.accountID, "dry_run", "true")
	if imp.MappingID == nil || *imp.MappingID != b1.ID || imp.Format != "mapping" || imp.Skipped != 2 {
		t.Errorf("auto picked %v, want B %s: %+v", imp.MappingID, b1.ID, imp)
	}
	status, b = e.postImport(t, e.key, "mt.csv", metaTraderFile, "mapping_id", lacking.ID, "account_id", e.accountID)
	if status != 400 || !strings.Contains(string(b), `"mapping_id":"the file's header lacks Login, which the mapping A lacking names (columns.account)`) {
		t.Errorf("lacking column: %d %s", status, b)
	}
	for _, tt := range []struct {
		fields []string
		status int
		field  string
	}{
		{[]string{"mapping_id", "01940000-0000-7000-8000-999999999999"}, 404, "mapping_id"},
		{[]string{"mapping_id", "nope"}, 400, "mapping_id"},
		{[]string{"format", "mapping"}, 400, "mapping_id"},
		{[]string{"format", "generic", "mapping_id", b1.ID}, 400, "mapping_id"},
	} {
		status, b := e.postImport(t, e.key, "mt.csv", metaTraderFile, append(tt.fields, "account_id", e.accountID)...)
		if status != tt.status || !strings.Contains(string(b), `"`+tt.field+`":`) {
			t.Errorf("%v: %d %s, want %d naming %s", tt.fields, status, b, tt.status, tt.field)
		}
	}
	// A bad row of a mapped file is keyed by the file's column name.
	status, b = e.postImport(t, e.key, "mt.csv", strings.Replace(metaTraderFile, ",sell,", ",deposit,", 1), "account_id", e.accountID)
	if status != 400 || !strings.Contains(string(b), `"rows[4].Type":"Type must be one of the mapping's side values (buy: buy; sell: sell; skip: balance, credit)"`) {
		t.Errorf("bad side: %d %s", status, b)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM executions`) + count(t, e.sql(t), `SELECT count(*) FROM imports`); n != 0 {
		t.Errorf("%d rows written by dry runs and refused imports", n)
	}
}

// TestImportAcrossMappings: to a file read by one mapping, fills read by
// another mapping are another source (DESIGN §14, "Across formats"): the
// MetaTrader report's two deals, then a Quantower-like export of the same
// deals without ids (15:31:05 Berlin is 14:31:05 UTC; the sell's
// 14:36:05.25 matches 15:36:05 to the second), add nothing the second time.
func TestImportAcrossMappings(t *testing.T) {
	e := newTradeEnv(t)
	mt := e.createMapping(t, e.key, metaTraderMapping)
	e.mustImport(t, e.key, metaTraderFile, http.StatusCreated, "mapping_id", mt.ID, "account_id", e.accountID)
	qt := e.createMapping(t, e.key, `{"name": "Quantower, no ids", "columns": {"date": "Date", "time": "Time",
		"account": "Account", "symbol": "Symbol", "side": "Side", "quantity": "Quantity", "price": "Price"},
		"date_order": "dmy", "decimal": "comma", "timezone": "Europe/Berlin"}`)
	file := "Date;Time;Account;Symbol;Side;Quantity;Price\n" +
		"01.12.2025;15:31:05;APEX-1;MNQZ5;Buy;2;21.000,25\n" +
		"01.12.2025;15:36:05;APEX-1;MNQZ5;Sell;2;21.010,50\n"
	imp := e.mustImport(t, e.key, file, http.StatusCreated, "mapping_id", qt.ID)
	if imp.Duplicates != 2 || imp.TradesCreated != 0 || imp.TradesUpdated != 0 {
		t.Errorf("the same deals by a second mapping: %d duplicates, %d trades created, %d updated; want 2, 0, 0",
			imp.Duplicates, imp.TradesCreated, imp.TradesUpdated)
	}
	if trades := e.tradesOf(t, e.key, ""); len(trades) != 1 {
		t.Errorf("%d trades after the second mapping's file, want the 1 of the first", len(trades))
	}
}
