package server_test

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"tradejournal/db"
)

const (
	idA = "0190a000-0000-7000-8000-00000000000a"
	idB = "0190a000-0000-7000-8000-00000000000b"
)

// pinIDs makes the database hand out ids in order, then fail the test.
func (ts *testServer) pinIDs(t *testing.T, ids ...string) {
	ts.db.NewID = func() string {
		if len(ids) == 0 {
			t.Fatal("pinIDs: out of ids")
		}
		id := ids[0]
		ids = ids[1:]
		return id
	}
}

func ptr[T any](v T) *T { return &v }

func TestAccountCreateDefaults(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	tests := []struct {
		body string
		want db.Account // ID and timestamps are not compared
	}{
		{`{"account_number":"R-1"}`,
			db.Account{AccountNumber: "R-1", AccountType: "retail", Currency: "USD", Status: "active", Tags: []db.TagRef{}}},
		{`{"account_number":"  P-1  ","prop_firm":"Apex"}`,
			db.Account{AccountNumber: "P-1", AccountType: "prop", PropFirm: ptr("Apex"), Currency: "USD", Status: "active", Tags: []db.TagRef{}}},
		{`{"account_number":"P-2","prop_firm":"Apex","account_type":"retail"}`,
			db.Account{AccountNumber: "P-2", AccountType: "retail", PropFirm: ptr("Apex"), Currency: "USD", Status: "active", Tags: []db.TagRef{}}},
		{`{"account_number":"E-1","currency":"eur","starting_balance":0,"status":"funded","prop_firm":null}`,
			db.Account{AccountNumber: "E-1", AccountType: "retail", Currency: "EUR", StartingBalance: ptr(0.0), Status: "funded", Tags: []db.TagRef{}}},
	}
	for _, tt := range tests {
		got := ts.createAccount(t, key, tt.body)
		tt.want.ID, tt.want.CreatedAt, tt.want.UpdatedAt = got.ID, got.CreatedAt, got.UpdatedAt
		// No rules; days from 18:00 New York; the trader keeps 100%.
		tt.want.AccountRules = db.AccountRules{DayStartsAt: "18:00", DayTimezone: "America/New_York", ProfitSplit: 100}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("POST %s:\n got %+v\nwant %+v", tt.body, got, tt.want)
		}
	}
}

// TestAccountCreateAndGet pins the clock and the id to compare whole bodies,
// then reads the row back with SQL.
func TestAccountCreateAndGet(t *testing.T) {
	ts := newTestServer(t)
	userID, key := ts.newUser(t, "alice")
	ts.pinClock(t0)
	ts.pinIDs(t, idA)
	status, created := ts.do(t, "POST", "/api/v1/accounts", key, `{"name":"Apex 50K","account_number":"APEX-123",
		"prop_firm":"Apex","firms_logo":"https://example.com/apex.png","broker":"Rithmic",
		"starting_balance":50000.5,"status":"evaluation"}`)
	want := `{"data":{"id":"` + idA + `","name":"Apex 50K","account_number":"APEX-123","account_type":"prop",` +
		`"prop_firm":"Apex","firms_logo":"https://example.com/apex.png","broker":"Rithmic","currency":"USD",` +
		`"starting_balance":50000.5,"status":"evaluation","commission_schedule":null,` +
		`"profit_target":null,"max_daily_loss":null,"max_drawdown":null,"drawdown_mode":null,"drawdown_lock_at":null,` +
		`"min_trading_days":null,"consistency_pct":null,"max_contracts":null,"day_starts_at":"18:00",` +
		`"day_timezone":"America/New_York","profit_split":100,"tags":[],` +
		`"created_at":"` + t0Text + `","updated_at":"` + t0Text + `"}}` + "\n"
	if status != http.StatusCreated || string(created) != want {
		t.Fatalf("create: got %d %s\nwant 201 %s", status, created, want)
	}
	status, got := ts.do(t, "GET", "/api/v1/accounts/"+idA, key, "")
	if status != http.StatusOK || string(got) != want {
		t.Errorf("get: got %d %s\nwant 200 %s", status, got, want)
	}
	status, got = ts.do(t, "GET", "/api/v1/accounts/"+strings.ToUpper(idA), key, "")
	if status != http.StatusOK || string(got) != want {
		t.Errorf("get by upper-case id: got %d %s, want 200 and the same body", status, got)
	}

	var owner, number, typ, currency, st, createdAt string
	var balance float64
	err := ts.sql(t).QueryRowContext(t.Context(), `SELECT user_id, account_number, account_type, currency,
		starting_balance, status, created_at FROM accounts WHERE id = ?`, idA).
		Scan(&owner, &number, &typ, &currency, &balance, &st, &createdAt)
	if err != nil {
		t.Fatalf("read the row back: %v", err)
	}
	row := []any{owner, number, typ, currency, balance, st, createdAt}
	wantRow := []any{userID, "APEX-123", "prop", "USD", 50000.5, "evaluation", t0Text}
	if !reflect.DeepEqual(row, wantRow) {
		t.Errorf("stored row: got %v, want %v", row, wantRow)
	}
}

func TestAccountUpdate(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	ts.pinClock(t0)
	a := ts.createAccount(t, key, `{"name":"Apex","account_number":"A-1","prop_firm":"Apex",
		"firms_logo":"https://example.com/a.png","broker":"Rithmic","starting_balance":50000,"status":"evaluation"}`)
	t1 := t0.Add(time.Hour)
	const t1Text = "2026-02-05T16:17:54.123Z"
	ts.pinClock(t1)

	steps := []struct {
		body   string
		change func(*db.Account)
	}{
		{`{"name":"Renamed"}`, func(a *db.Account) { a.Name = "Renamed" }},
		{`{}`, func(*db.Account) {}},
		{`{"prop_firm":null,"broker":null}`, func(a *db.Account) { a.PropFirm, a.Broker = nil, nil }},
		{`{"firms_logo":null,"starting_balance":null}`, func(a *db.Account) { a.FirmsLogo, a.StartingBalance = nil, nil }},
		{`{"name":null}`, func(a *db.Account) { a.Name = "" }},
		{`{"currency":"eur","status":"funded","account_type":"retail"}`,
			func(a *db.Account) { a.Currency, a.Status, a.AccountType = "EUR", "funded", "retail" }},
		{`{"account_number":" A-2 ","starting_balance":0}`,
			func(a *db.Account) { a.AccountNumber, a.StartingBalance = "A-2", ptr(0.0) }},
		{`{"id":"` + idB + `","created_at":"2000-01-01T00:00:00.000Z","unknown":true}`, func(*db.Account) {}},
	}
	want := a
	want.UpdatedAt = t1Text
	for _, s := range steps {
		s.change(&want)
		status, body := ts.do(t, "PUT", "/api/v1/accounts/"+a.ID, key, s.body)
		if status != http.StatusOK {
			t.Fatalf("PUT %s: got %d %s, want 200", s.body, status, body)
		}
		got := decode[struct{ Data db.Account }](t, body).Data
		if !reflect.DeepEqual(got, want) {
			t.Errorf("PUT %s:\n got %+v\nwant %+v", s.body, got, want)
		}
		_, read := ts.do(t, "GET", "/api/v1/accounts/"+a.ID, key, "")
		if string(read) != string(body) {
			t.Errorf("GET after PUT %s: got %s, want the PUT's body %s", s.body, read, body)
		}
	}
	raw := ts.sql(t)
	if n := count(t, raw, `SELECT count(*) FROM accounts WHERE id = ? AND prop_firm IS NULL
		AND broker IS NULL AND firms_logo IS NULL`, a.ID); n != 1 {
		t.Errorf("explicit nulls: stored columns are not NULL")
	}
}

func TestAccountConflict(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	_, bobKey := ts.newUser(t, "bob")
	ts.createAccount(t, key, `{"account_number":"A-1"}`)
	other := ts.createAccount(t, key, `{"account_number":"A-2"}`)
	conflict := `{"error":"An account with this account_number already exists","code":"CONFLICT",` +
		`"details":{"account_number":"account_number A-1 is already used by another account"}}` + "\n"

	tests := []struct {
		name, method, target, key, body string
		wantStatus                      int
		wantBody                        string
	}{
		{"create duplicate", "POST", "/api/v1/accounts", key, `{"account_number":"A-1"}`, 409, conflict},
		{"create duplicate after trimming", "POST", "/api/v1/accounts", key, `{"account_number":" A-1\t"}`, 409, conflict},
		{"update to a taken number", "PUT", "/api/v1/accounts/" + other.ID, key, `{"account_number":"A-1"}`, 409, conflict},
		{"update to its own number", "PUT", "/api/v1/accounts/" + other.ID, key, `{"account_number":"A-2"}`, 200, ""},
		{"another user's number", "POST", "/api/v1/accounts", bobKey, `{"account_number":"A-1"}`, 201, ""},
		{"numbers are case-sensitive", "POST", "/api/v1/accounts", key, `{"account_number":"a-1"}`, 201, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := ts.do(t, tt.method, tt.target, tt.key, tt.body)
			if status != tt.wantStatus {
				t.Errorf("status: got %d %s, want %d", status, body, tt.wantStatus)
			}
			if tt.wantBody != "" && string(body) != tt.wantBody {
				t.Errorf("body: got %s, want %s", body, tt.wantBody)
			}
		})
	}
	raw := ts.sql(t)
	if n := count(t, raw, `SELECT count(*) FROM accounts WHERE account_number = 'A-1'`); n != 2 {
		t.Errorf("accounts numbered A-1: got %d, want 2 (alice's and bob's)", n)
	}
	if n := count(t, raw, `SELECT count(*) FROM accounts WHERE id = ? AND account_number = 'A-2'`, other.ID); n != 1 {
		t.Errorf("the refused update changed account A-2")
	}
}

// TestAccountCreateMatchesStored: what a create answers is what a read of
// the stored row serves, for numbers too. (A repeated key is a 400:
// TestStrictNames.)
func TestAccountCreateMatchesStored(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	tests := []struct{ body, want string }{
		{`{"account_number":"Z-1","starting_balance":-0}`, `"starting_balance":0,`},
		{`{"account_number":"Z-2","starting_balance":0.1}`, `"starting_balance":0.1,`},
		{`{"account_number":"Z-3","starting_balance":123456789.123456789}`, `"starting_balance":123456789.12345679,`},
	}
	for _, tt := range tests {
		status, created := ts.do(t, "POST", "/api/v1/accounts", key, tt.body)
		if status != http.StatusCreated || !strings.Contains(string(created), tt.want) {
			t.Errorf("POST %s: got %d %s, want 201 with %s", tt.body, status, created, tt.want)
			continue
		}
		id := decode[struct{ Data db.Account }](t, created).Data.ID
		if read := must200(t, ts, "/api/v1/accounts/"+id, key); string(read) != string(created) {
			t.Errorf("POST %s: GET serves\n%s\nbut the create answered\n%s", tt.body, read, created)
		}
	}
}

// TestAccountCommissionSchedule: keys are stored as they are matched, a
// partial update without the field keeps it, and null clears it.
func TestAccountCommissionSchedule(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	a := ts.createAccount(t, key, `{"account_number":"C-1","commission_schedule":{" es ":2.14,"/MES":0.62,"*":0}}`)
	want := db.CommissionSchedule{"ES": 2.14, "MES": 0.62, "*": 0}
	if !reflect.DeepEqual(a.CommissionSchedule, want) {
		t.Fatalf("created schedule %v, want %v", a.CommissionSchedule, want)
	}
	status, body := ts.do(t, "PUT", "/api/v1/accounts/"+a.ID, key, `{"name":"renamed"}`)
	if got := decode[struct{ Data db.Account }](t, body).Data; status != 200 || !reflect.DeepEqual(got.CommissionSchedule, want) {
		t.Errorf("PUT without the field: %d, schedule %v, want 200 %v", status, got.CommissionSchedule, want)
	}
	status, body = ts.do(t, "PUT", "/api/v1/accounts/"+a.ID, key, `{"commission_schedule":null}`)
	if status != 200 || !strings.Contains(string(body), `"commission_schedule":null`) {
		t.Errorf("PUT null: %d %s, want the schedule cleared", status, body)
	}
	if n := count(t, ts.sql(t), `SELECT count(*) FROM accounts WHERE id = ? AND commission_schedule IS NULL`, a.ID); n != 1 {
		t.Errorf("stored schedule not NULL after clearing")
	}
}

// TestAccountRules: every rule field is stored and served as given, a
// partial update keeps the others, null clears a rule, and the timezone and
// start of the trading day read back exactly.
func TestAccountRules(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	a := ts.createAccount(t, key, `{"account_number":"APEX-50","prop_firm":"Apex","starting_balance":50000,
		"profit_target":3000,"max_daily_loss":1000,"max_drawdown":2500,"drawdown_mode":"trailing",
		"drawdown_lock_at":50100,"min_trading_days":7,"consistency_pct":30,"max_contracts":10,
		"day_starts_at":"17:00","day_timezone":"America/Chicago","profit_split":90}`)
	want := db.AccountRules{ProfitTarget: ptr(3000.0), MaxDailyLoss: ptr(1000.0), MaxDrawdown: ptr(2500.0),
		DrawdownMode: ptr("trailing"), DrawdownLockAt: ptr(50100.0), MinTradingDays: ptr(7), ConsistencyPct: ptr(30.0),
		MaxContracts: ptr(10), DayStartsAt: "17:00", DayTimezone: "America/Chicago", ProfitSplit: 90}
	if !reflect.DeepEqual(a.AccountRules, want) {
		t.Fatalf("created rules\n got %+v\nwant %+v", a.AccountRules, want)
	}
	read := decode[struct{ Data db.Account }](t, must200(t, ts, "/api/v1/accounts/"+a.ID, key)).Data
	if !reflect.DeepEqual(read.AccountRules, want) {
		t.Errorf("GET rules\n got %+v\nwant %+v", read.AccountRules, want)
	}

	status, body := ts.do(t, "PUT", "/api/v1/accounts/"+a.ID, key,
		`{"drawdown_mode":"eod_trailing","drawdown_lock_at":null,"max_contracts":null,"day_starts_at":"09:30"}`)
	got := decode[struct{ Data db.Account }](t, body).Data
	want.DrawdownMode, want.DrawdownLockAt, want.MaxContracts, want.DayStartsAt = ptr("eod_trailing"), nil, nil, "09:30"
	if status != 200 || !reflect.DeepEqual(got.AccountRules, want) {
		t.Errorf("PUT: %d rules\n got %+v\nwant %+v", status, got.AccountRules, want)
	}
	// -0 is stored and served as 0.
	status, body = ts.do(t, "PUT", "/api/v1/accounts/"+a.ID, key, `{"profit_split": -0, "consistency_pct": -0.0, "max_drawdown": -0}`)
	if status != 200 || !strings.Contains(string(body), `"max_drawdown":0,`) || !strings.Contains(string(body), `"consistency_pct":0,`) ||
		!strings.Contains(string(body), `"profit_split":0,`) {
		t.Errorf("PUT -0: %d %s", status, body)
	}
	if _, b := ts.do(t, "PUT", "/api/v1/accounts/"+a.ID, key, `{"profit_split": 90, "consistency_pct": 30, "max_drawdown": 2500}`); !strings.Contains(string(b), `"profit_split":90`) {
		t.Fatalf("restore: %s", b)
	}
	var lock, contracts any
	var mode, starts, zone string
	var split float64
	err := ts.sql(t).QueryRow(`SELECT drawdown_mode, drawdown_lock_at, max_contracts, day_starts_at, day_timezone, profit_split
		FROM accounts WHERE id = ?`, a.ID).Scan(&mode, &lock, &contracts, &starts, &zone, &split)
	if err != nil || mode != "eod_trailing" || lock != nil || contracts != nil || starts != "09:30" || zone != "America/Chicago" || split != 90 {
		t.Errorf("stored: %v %q %v %v %q %q %v", err, mode, lock, contracts, starts, zone, split)
	}
}
