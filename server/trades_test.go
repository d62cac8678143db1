package server_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"tradejournal/db"
)

// tradeEnv is a server with one user, their key and an account.
type tradeEnv struct {
	*testServer
	userID, key, accountID string
}

func newTradeEnv(t testing.TB) *tradeEnv {
	t.Helper()
	ts := newTestServer(t)
	userID, key := ts.newUser(t, "alice")
	a := ts.createAccount(t, key, `{"account_number": "APEX-1", "prop_firm": "Apex"}`)
	return &tradeEnv{testServer: ts, userID: userID, key: key, accountID: a.ID}
}

// tradeBody is a create body on the env's account; extra is spliced in
// as more JSON fields.
func (e *tradeEnv) tradeBody(symbol, side, extra string) string {
	b := fmt.Sprintf(`{"account_id": %q, "symbol": %q, "side": %q, "entry_date": "2026-02-05"`, e.accountID, symbol, side)
	if extra != "" {
		b += ", " + extra
	}
	return b + "}"
}

// create posts a trade and fails unless it is a 201; it returns the body
// too, for assertions on the exact JSON text.
func (e *tradeEnv) create(t testing.TB, body string) (db.Trade, string) {
	t.Helper()
	status, b := e.do(t, "POST", "/api/v1/trades", e.key, body)
	if status != http.StatusCreated {
		t.Fatalf("POST /api/v1/trades %s: got %d %s, want 201", body, status, b)
	}
	return decode[struct{ Data createdTrade }](t, b).Data.Trade, string(b)
}

// fills writes an executions field from "side qty@price" words, a minute
// apart from 09:30:00, each with the given commission.
func fills(commission float64, words ...string) string {
	var parts []string
	for i, w := range words {
		var side string
		var qty, price float64
		if _, err := fmt.Sscanf(w, "%s %g@%g", &side, &qty, &price); err != nil {
			panic(w)
		}
		parts = append(parts, fmt.Sprintf(`{"side": %q, "quantity": %g, "price": %g, "commission": %g, "execution_time": "09:%02d:00"}`,
			side, qty, price, commission, 30+i))
	}
	return `"executions": [` + strings.Join(parts, ", ") + `]`
}

func TestTradeMath(t *testing.T) {
	e := newTradeEnv(t)
	tests := []struct {
		name                   string
		symbol, side           string
		extra                  string
		gross, commission, net float64
		status, assetClass     string
		quantity, entry        float64
		exit                   *float64
		wantText               string // must appear verbatim in the response
		pointValue             float64
	}{
		{name: "NQ short covered", symbol: "NQZ5", side: "short", extra: fills(1, "sell 1@29298", "buy 1@29290"),
			gross: 160, commission: 2, net: 158, status: "win", assetClass: "futures", quantity: 1, entry: 29298, exit: ptr(29290.0), pointValue: 20},
		{name: "ES long 2", symbol: "ESH6", side: "long", extra: fills(0, "buy 2@5000.25", "sell 2@5001.75"),
			gross: 150, net: 150, status: "win", assetClass: "futures", quantity: 2, entry: 5000.25, exit: ptr(5001.75), pointValue: 50},
		{name: "MNQ loss", symbol: "MNQH6", side: "long", extra: fills(0.52, "buy 3@21000", "sell 3@20990.25"),
			gross: -58.5, commission: 1.04, net: -59.54, status: "loss", assetClass: "futures", quantity: 3, entry: 21000, exit: ptr(20990.25), pointValue: 2},
		{name: "CL long loses 27 ticks", symbol: "CLZ5", side: "long", extra: fills(2.5, "buy 1@71.50", "sell 1@71.23"),
			gross: -270, commission: 5, net: -275, status: "loss", assetClass: "futures", quantity: 1, entry: 71.5, exit: ptr(71.23), pointValue: 1000},
		{name: "GC short", symbol: "/GC", side: "short", extra: fills(0, "sell 2@2650.5", "buy 2@2645.3"),
			gross: 1040, net: 1040, status: "win", assetClass: "futures", quantity: 2, entry: 2650.5, exit: ptr(2645.3), pointValue: 100},
		{name: "6E long 12 pips", symbol: "6E 12-25", side: "long", extra: fills(0, "buy 1@1.0850", "sell 1@1.0862"),
			gross: 150, net: 150, status: "win", assetClass: "futures", quantity: 1, entry: 1.085, exit: ptr(1.0862), pointValue: 125000},
		{name: "AAPL without float noise", symbol: "AAPL", side: "long", extra: fills(0.10, "buy 100@10.10", "sell 100@10.30"),
			gross: 20, commission: 0.2, net: 19.8, status: "win", assetClass: "stocks", quantity: 100, entry: 10.1, exit: ptr(10.3), pointValue: 1,
			wantText: `"gross_pnl":20,"net_pnl":19.8,"total_commission":0.2`},
		{name: "scale in at two prices, out at once", symbol: "ES", side: "long", extra: fills(0, "buy 1@5000", "buy 1@5002", "sell 2@5004"),
			gross: 300, net: 300, status: "win", assetClass: "futures", quantity: 2, entry: 5001, exit: ptr(5004.0), pointValue: 50},
		{name: "partial close stays open with realised P&L", symbol: "NQ", side: "long", extra: fills(1, "buy 2@20000", "buy 2@20010", "sell 3@20020"),
			// FIFO: 2 × 20 + 1 × 10 = 50 points × $20.
			gross: 1000, commission: 3, net: 997, status: "open", assetClass: "futures", quantity: 4, entry: 20005, pointValue: 20},
		{name: "breakeven after commission", symbol: "MES", side: "long", extra: fills(1.25, "buy 1@6000", "sell 1@6000.5"),
			gross: 2.5, commission: 2.5, net: 0, status: "breakeven", assetClass: "futures", quantity: 1, entry: 6000, exit: ptr(6000.5), pointValue: 5},
		{name: "option contract", symbol: "AAPL  240119C00190000", side: "long", extra: fills(0.65, "buy 2@1.25", "sell 2@1.75"),
			gross: 100, commission: 1.3, net: 98.7, status: "win", assetClass: "options", quantity: 2, entry: 1.25, exit: ptr(1.75), pointValue: 100},
		{name: "manual trade without fills", symbol: "ZN", side: "short", extra: `"entry_price": 110.5, "quantity": 2, "exit_price": 110.421875`,
			// ZN ticks are 1/64: 5 ticks × 15.625 × 2 contracts.
			gross: 156.25, net: 156.25, status: "win", assetClass: "futures", quantity: 2, entry: 110.5, exit: ptr(110.421875), pointValue: 1000},
		{name: "manual open trade", symbol: "EURUSD", side: "long", extra: `"entry_price": 1.1, "quantity": 10000`,
			status: "open", assetClass: "forex", quantity: 10000, entry: 1.1, pointValue: 1},
		{name: "crypto", symbol: "BTC-USD", side: "long", extra: fills(0, "buy 0.1@60000", "buy 0.2@61000", "sell 0.3@62000"),
			gross: 400, net: 400, status: "win", assetClass: "crypto", quantity: 0.3, entry: 60666.66666667, exit: ptr(62000.0), pointValue: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, text := e.create(t, e.tradeBody(tt.symbol, tt.side, tt.extra))
			if tr.GrossPnL != tt.gross || tr.TotalCommission != tt.commission || tr.NetPnL != tt.net {
				t.Errorf("gross, commission, net = %v, %v, %v; want %v, %v, %v",
					tr.GrossPnL, tr.TotalCommission, tr.NetPnL, tt.gross, tt.commission, tt.net)
			}
			if tr.Status != tt.status || tr.AssetClass != tt.assetClass || tr.PointValue != tt.pointValue {
				t.Errorf("status, asset_class, point_value = %s, %s, %v; want %s, %s, %v",
					tr.Status, tr.AssetClass, tr.PointValue, tt.status, tt.assetClass, tt.pointValue)
			}
			if tr.Quantity != tt.quantity || tr.EntryPrice != tt.entry {
				t.Errorf("quantity, entry_price = %v, %v; want %v, %v", tr.Quantity, tr.EntryPrice, tt.quantity, tt.entry)
			}
			if (tr.ExitPrice == nil) != (tt.exit == nil) || (tt.exit != nil && *tr.ExitPrice != *tt.exit) {
				t.Errorf("exit_price = %v, want %v", deref(tr.ExitPrice), deref(tt.exit))
			}
			if tt.wantText != "" && !strings.Contains(text, tt.wantText) {
				t.Errorf("body %s\nlacks %s", text, tt.wantText)
			}
		})
	}
}

func TestTradeCreateShape(t *testing.T) {
	e := newTradeEnv(t)
	e.pinClock(t0)
	tr, text := e.create(t, e.tradeBody("nqz5", "short", fills(1, "sell 1@29298", "buy 1@29290")))
	if tr.ID == "" || tr.CreatedAt != t0Text || tr.Symbol != "NQZ5" {
		t.Errorf("id %q, created_at %q, symbol %q; want an id, %s, NQZ5", tr.ID, tr.CreatedAt, tr.Symbol, t0Text)
	}
	if len(tr.Executions) != 2 {
		t.Fatalf("got %d executions, want 2", len(tr.Executions))
	}
	first, last := tr.Executions[0], tr.Executions[1]
	if first.ID == "" || first.ID == last.ID {
		t.Errorf("execution ids %q, %q: want two distinct ids", first.ID, last.ID)
	}
	// 09:30 in New York on 5 Feb (EST, UTC-5) is 14:30 UTC.
	if first.ExecutionTimestamp != "2026-02-05T14:30:00+00:00" || first.ExecutionType != "scale_in" || last.ExecutionType != "scale_out" {
		t.Errorf("first fill %+v, last %+v", first, last)
	}
	if *tr.EntryTime != "09:30:00" || *tr.ExitTime != "09:31:00" || *tr.ExitDate != "2026-02-05" {
		t.Errorf("entry_time %v exit_time %v exit_date %v", *tr.EntryTime, *tr.ExitTime, *tr.ExitDate)
	}
	for _, key := range []string{"id", "account_id", "symbol", "side", "quantity", "entry_price", "exit_price",
		"entry_time", "exit_time", "entry_date", "exit_date", "gross_pnl", "net_pnl", "total_commission",
		"status", "asset_class", "executions", "created_at"} {
		if !strings.Contains(text, `"`+key+`":`) {
			t.Errorf("create response lacks %s: %s", key, text)
		}
	}
}

func TestTradeFillTimestamps(t *testing.T) {
	e := newTradeEnv(t)
	// A timestamp gives the fill its date and time in the user's timezone;
	// fills are ordered by time, whatever order they come in.
	tr, _ := e.create(t, e.tradeBody("ES", "long", `"executions": [
		{"side": "sell", "quantity": 1, "price": 5010, "execution_timestamp": "2026-07-01T14:00:00Z"},
		{"side": "buy", "quantity": 1, "price": 5000, "execution_time": "09:45:00", "execution_date": "2026-07-01", "execution_type": "full"}]`))
	got := tr.Executions
	if got[0].Side != "buy" || got[0].ExecutionTimestamp != "2026-07-01T13:45:00+00:00" || got[0].ExecutionType != "full" {
		t.Errorf("first fill %+v: want the 09:45 EDT buy, 13:45 UTC, type full kept", got[0])
	}
	if got[1].ExecutionDate != "2026-07-01" || got[1].ExecutionTime != "10:00:00" || got[1].ExecutionTimestamp != "2026-07-01T14:00:00+00:00" {
		t.Errorf("second fill %+v: want 10:00:00 EDT on 2026-07-01", got[1])
	}
	if tr.EntryDate != "2026-07-01" || tr.GrossPnL != 500 {
		t.Errorf("entry_date %s gross %v: want the first fill's date and 500", tr.EntryDate, tr.GrossPnL)
	}
}

func TestTradeValidation(t *testing.T) {
	e := newTradeEnv(t)
	other := newTradeEnv(t) // another server: its account id is unknown here
	acct := e.accountID
	tests := []struct {
		name       string
		body       string
		wantStatus int
		wantField  string
		wantMsg    string
	}{
		{"entry_price not positive", e.tradeBody("ES", "long", `"entry_price": -5, "quantity": 1`), 400, "entry_price", "entry_price must be a positive number"},
		{"side unknown", e.tradeBody("ES", "up", `"entry_price": 5, "quantity": 1`), 400, "side", "side must be long or short"},
		{"symbol missing", fmt.Sprintf(`{"account_id": %q, "side": "long", "entry_date": "2026-02-05", "entry_price": 1, "quantity": 1}`, acct), 400, "symbol", "symbol is required"},
		{"account_id missing", `{"symbol": "ES", "side": "long", "entry_date": "2026-02-05", "entry_price": 1, "quantity": 1}`, 400, "account_id", "account_id is required"},
		{"account_id malformed", `{"account_id": "nope", "symbol": "ES", "side": "long", "entry_date": "2026-02-05", "entry_price": 1, "quantity": 1}`, 400, "account_id", "account_id must be a UUID"},
		{"entry_date missing", fmt.Sprintf(`{"account_id": %q, "symbol": "ES", "side": "long", "entry_price": 1, "quantity": 1}`, acct), 400, "entry_date", "entry_date is required"},
		{"entry_date malformed", fmt.Sprintf(`{"account_id": %q, "symbol": "ES", "side": "long", "entry_date": "2026-2-5", "entry_price": 1, "quantity": 1}`, acct), 400, "entry_date", "entry_date must be a date YYYY-MM-DD from 1900 to 2999"},
		{"entry_time malformed", e.tradeBody("ES", "long", `"entry_price": 1, "quantity": 1, "entry_time": "9:30"`), 400, "entry_time", "entry_time must be a time HH:MM:SS"},
		{"quantity missing", e.tradeBody("ES", "long", `"entry_price": 1`), 400, "quantity", "quantity must be a positive number"},
		{"quantity wrong type", e.tradeBody("ES", "long", `"entry_price": 1, "quantity": "2"`), 400, "quantity", "quantity must be a number"},
		{"quantity huge", e.tradeBody("ES", "long", `"entry_price": 1, "quantity": 1e300`), 400, "quantity", "quantity must be at most 1e+09"},
		{"asset_class unknown", e.tradeBody("ES", "long", `"entry_price": 1, "quantity": 1, "asset_class": "bonds"`), 400, "asset_class", "asset_class must be one of futures, options, forex, crypto, stocks"},
		{"fill side", e.tradeBody("ES", "long", `"executions": [{"side": "hold", "price": 1, "quantity": 1, "execution_time": "09:30:00"}]`), 400, "executions[0].side", "executions[0].side must be buy or sell"},
		{"fill price type", e.tradeBody("ES", "long", `"executions": [{"side": "buy", "price": 1, "quantity": 1, "execution_time": "09:30:00"}, {"side": "sell", "price": "x", "quantity": 1, "execution_time": "09:31:00"}]`), 400, "executions[1].price", "executions[1].price must be a number"},
		{"fill time missing", e.tradeBody("ES", "long", `"executions": [{"side": "buy", "price": 1, "quantity": 1}]`), 400, "executions[0].execution_time", "executions[0].execution_time is required (HH:MM:SS) unless execution_timestamp is given"},
		{"fill timestamp without offset", e.tradeBody("ES", "long", `"executions": [{"side": "buy", "price": 1, "quantity": 1, "execution_timestamp": "2026-02-05T09:30:00"}]`), 400, "executions[0].execution_timestamp", "executions[0].execution_timestamp must be an RFC 3339 timestamp with an offset, such as 2026-02-05T14:30:00-05:00"},
		{"fill negative commission", e.tradeBody("ES", "long", `"executions": [{"side": "buy", "price": 1, "quantity": 1, "commission": -1, "execution_time": "09:30:00"}]`), 400, "executions[0].commission", "executions[0].commission must be zero or more"},
		{"fill type unknown", e.tradeBody("ES", "long", `"executions": [{"side": "buy", "price": 1, "quantity": 1, "execution_type": "add", "execution_time": "09:30:00"}]`), 400, "executions[0].execution_type", "executions[0].execution_type must be one of scale_in, scale_out, full"},
		{"fill not an object", e.tradeBody("ES", "long", `"executions": [5]`), 400, "executions[0]", "executions[0] must be an object"},
		{"flip through zero", e.tradeBody("ES", "long", fills(0, "buy 2@5000", "sell 3@5001")), 400, "executions",
			"executions[1] (sell 3) would reverse the long position of 2: record the reversal as two trades"},
		{"first fill against the side", e.tradeBody("ES", "long", fills(0, "sell 1@5000", "buy 1@5001")), 400, "executions",
			"executions[0] (sell 1) is the first execution, but a long trade opens with a buy"},
		{"unknown futures root", e.tradeBody("FDAXZ5", "long", `"entry_price": 18000, "quantity": 1`), 400, "symbol",
			"no point value is known for futures root FDAX: set one with PUT /api/v1/instruments/FDAX"},
		{"tag_ids malformed", e.tradeBody("ES", "long", `"entry_price": 1, "quantity": 1, "tag_ids": ["x"]`), 400, "tag_ids[0]", "tag_ids[0] must be a UUID"},
		{"another user's account", other.tradeBody("ES", "long", `"entry_price": 1, "quantity": 1`), 404, "account_id", "Account not found"},
		{"unknown tag", e.tradeBody("ES", "long", `"entry_price": 1, "quantity": 1, "tag_ids": ["01a1fbe5-0d64-76ed-86e9-d763a9f4f538"]`), 404, "tag_ids", "Tag not found"},
		{"malformed JSON", `{"symbol": `, 400, "body", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, b := e.do(t, "POST", "/api/v1/trades", e.key, tt.body)
			if status != tt.wantStatus {
				t.Fatalf("got %d %s, want %d", status, b, tt.wantStatus)
			}
			got := decode[errBody](t, b)
			msg, ok := got.Details[tt.wantField]
			if !ok || (tt.wantMsg != "" && msg != tt.wantMsg) {
				t.Errorf("details = %v, want %s: %q", got.Details, tt.wantField, tt.wantMsg)
			}
		})
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trades`); n != 0 {
		t.Errorf("%d trades stored after only failed creates, want 0", n)
	}
}

func TestTradeUpdate(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ES", "long", `"entry_price": 5000.25, "quantity": 2, "entry_time": "09:30:00"`))
	if tr.Status != "open" || tr.ExitPrice != nil {
		t.Fatalf("new trade status %s exit %v: want open, no exit", tr.Status, tr.ExitPrice)
	}
	put := func(body string) db.EnrichedTrade {
		t.Helper()
		status, b := e.do(t, "PUT", "/api/v1/trades/"+tr.ID, e.key, body)
		if status != http.StatusOK {
			t.Fatalf("PUT %s: got %d %s", body, status, b)
		}
		return decode[struct{ Data db.EnrichedTrade }](t, b).Data
	}

	// Closing it: exit fields given, status derived, the rest untouched.
	got := put(`{"exit_price": 5001.75, "exit_time": "10:15:00"}`)
	if got.GrossPnL != 150 || got.Status != "win" || *got.ExitDate != "2026-02-05" || *got.EntryTime != "09:30:00" || got.Quantity != 2 {
		t.Errorf("after exit: %+v", got.Trade)
	}
	if got.AccountNumber != "APEX-1" || *got.PropFirm != "Apex" || got.ReviewNotes == nil {
		t.Errorf("enriched fields: account_number %q prop_firm %v", got.AccountNumber, got.PropFirm)
	}
	// A manual status is kept through other changes until it is cleared.
	got = put(`{"status": "loss"}`)
	if got.Status != "loss" {
		t.Errorf("status = %s, want the manual loss", got.Status)
	}
	got = put(`{"exit_price": 5002.75}`)
	if got.Status != "loss" || got.GrossPnL != 250 {
		t.Errorf("status %s gross %v: want the manual loss kept and 250", got.Status, got.GrossPnL)
	}
	got = put(`{"status": null}`)
	if got.Status != "win" {
		t.Errorf("status = %s after clearing the override, want win", got.Status)
	}
	// null reopens; null on a required field is a 400.
	got = put(`{"exit_price": null}`)
	if got.Status != "open" || got.ExitDate != nil || got.GrossPnL != 0 {
		t.Errorf("after exit_price null: status %s exit_date %v gross %v", got.Status, got.ExitDate, got.GrossPnL)
	}
	for body, field := range map[string]string{`{"symbol": null}`: "symbol", `{"side": null}`: "side",
		`{"entry_price": null}`: "entry_price", `{"executions": null}`: "executions", `{"account_id": null}`: "account_id"} {
		if status, b := e.do(t, "PUT", "/api/v1/trades/"+tr.ID, e.key, body); status != 400 || decode[errBody](t, b).Details[field] == "" {
			t.Errorf("PUT %s: got %d %s, want 400 naming %s", body, status, b, field)
		}
	}
	// Executions given replace the set and drive every derived field.
	got = put(`{` + fills(1, "buy 1@5000", "sell 1@5010") + `}`)
	if len(got.Executions) != 2 || got.Quantity != 1 || got.GrossPnL != 500 || got.NetPnL != 498 || got.EntryPrice != 5000 {
		t.Errorf("after replacing fills: %+v", got.Trade)
	}
	raw := e.sql(t)
	if n := count(t, raw, `SELECT count(*) FROM executions WHERE trade_id = ?`, tr.ID); n != 2 {
		t.Errorf("%d executions stored, want 2", n)
	}
	// Changing the symbol re-prices the fills with the new point value.
	got = put(`{"symbol": "MES"}`)
	if got.GrossPnL != 50 || got.PointValue != 5 || len(got.Executions) != 2 {
		t.Errorf("after symbol MES: gross %v point value %v fills %d; want 50, 5, 2", got.GrossPnL, got.PointValue, len(got.Executions))
	}
	// GET answers what PUT answered.
	status, b := e.do(t, "GET", "/api/v1/trades/"+tr.ID, e.key, "")
	if status != 200 || decode[struct{ Data db.EnrichedTrade }](t, b).Data.GrossPnL != 50 {
		t.Errorf("GET after PUT: %d %s", status, b)
	}
}

func TestTradeEnrichedKeys(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ES", "long", `"entry_price": 5000, "quantity": 1`))
	_, b := e.do(t, "GET", "/api/v1/trades/"+tr.ID, e.key, "")
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &struct{ Data *map[string]json.RawMessage }{&m}); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"star_rating", "review_notes", "stop_loss_levels", "take_profit_levels", "r_ratio",
		"r_ratio_basis", "playbook_id", "criteria_checklist", "reviewed_at", "tags", "account_number", "prop_firm",
		"firms_logo", "risk_management_strategy_ids", "trade_group_risk_management_strategies",
		"trade_rule_evaluations", "playbooks", "executions"} {
		if _, ok := m[k]; !ok {
			t.Errorf("enriched trade lacks %s", k)
		}
	}
}

func TestTradeDelete(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ES", "long", fills(0, "buy 1@5000", "buy 1@5001", "sell 2@5002")))
	raw := e.sql(t)
	// A row stands in for a write-up; TestTradeDeleteCascadesWriteUps uses the API.
	if _, err := raw.Exec(`INSERT INTO write_ups (id, user_id, trade_id, title, created_at, updated_at)
		VALUES ('01a1fbe5-0000-7000-8000-000000000001', ?, ?, 'notes', 'x', 'x')`, e.userID, tr.ID); err != nil {
		t.Fatal(err)
	}
	status, b := e.do(t, "DELETE", "/api/v1/trades/"+tr.ID, e.key, "")
	want := fmt.Sprintf(`{"success":true,"deleted_id":%q,"warnings":["Deleted 3 executions","Deleted 1 trade write-up"]}`+"\n", tr.ID)
	if status != 200 || string(b) != want {
		t.Errorf("DELETE: got %d %s, want 200 %s", status, b, want)
	}
	for _, table := range []string{"trades", "executions", "write_ups"} {
		if n := count(t, raw, `SELECT count(*) FROM `+table); n != 0 {
			t.Errorf("%d rows left in %s", n, table)
		}
	}
	if status, _ := e.do(t, "DELETE", "/api/v1/trades/"+tr.ID, e.key, ""); status != 404 {
		t.Errorf("second DELETE: got %d, want 404", status)
	}
}

func TestAccountDeleteRefusedWhileTradesExist(t *testing.T) {
	e := newTradeEnv(t)
	e.create(t, e.tradeBody("ES", "long", `"entry_price": 5000, "quantity": 1`))
	status, b := e.do(t, "DELETE", "/api/v1/accounts/"+e.accountID, e.key, "")
	if got := decode[errBody](t, b); status != 409 || got.Code != "CONFLICT" || got.Details["trades"] != "1" {
		t.Errorf("DELETE account with a trade: got %d %s, want 409 with details.trades 1", status, b)
	}
	status, b = e.do(t, "DELETE", "/api/v1/accounts/"+e.accountID+"?cascade=true", e.key, "")
	if status != 200 || !strings.Contains(string(b), `"Deleted 1 trade"`) {
		t.Errorf("cascade delete: got %d %s", status, b)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trades`); n != 0 {
		t.Errorf("%d trades left after cascade", n)
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func mustExec(t *testing.T, raw interface {
	Exec(string, ...any) (sql.Result, error)
}, query string, args ...any) {
	t.Helper()
	if _, err := raw.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// createdTrade is POST /api/v1/trades's answer: the trade as listed, with
// its documents (DESIGN §13).
type createdTrade struct {
	db.Trade
	DocumentIDs []string          `json:"document_ids"`
	Documents   []json.RawMessage `json:"documents"`
}
