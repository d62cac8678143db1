package server_test

import (
	"net/http"
	"strings"
	"testing"
)

// accountValidation lists bad account bodies and the fields each must name.
// Bodies carry a valid account_number unless the case is about it.
var accountValidation = []struct {
	name, body, wantFields string
	createOnly             bool // fine in an update
}{
	{"missing account_number", `{"name":"x"}`, "account_number", true},
	{"blank account_number", `{"account_number":"   "}`, "account_number", false},
	{"null account_number", `{"account_number":null}`, "account_number", false},
	{"long account_number", `{"account_number":"` + strings.Repeat("9", 129) + `"}`, "account_number", false},
	{"long name", `{"account_number":"V","name":"` + strings.Repeat("n", 201) + `"}`, "name", false},
	{"unknown account_type", `{"account_number":"V","account_type":"demo"}`, "account_type", false},
	{"null account_type", `{"account_number":"V","account_type":null}`, "account_type", false},
	{"account_type in capitals", `{"account_number":"V","account_type":"PROP"}`, "account_type", false},
	{"unknown status", `{"account_number":"V","status":"open"}`, "status", false},
	{"null status", `{"account_number":"V","status":null}`, "status", false},
	{"currency too short", `{"account_number":"V","currency":"US"}`, "currency", false},
	{"currency too long", `{"account_number":"V","currency":"USDX"}`, "currency", false},
	{"currency with a digit", `{"account_number":"V","currency":"U5D"}`, "currency", false},
	{"null currency", `{"account_number":"V","currency":null}`, "currency", false},
	{"firms_logo not http", `{"account_number":"V","firms_logo":"ftp://example.com/a.png"}`, "firms_logo", false},
	{"firms_logo not a URL", `{"account_number":"V","firms_logo":"apex logo"}`, "firms_logo", false},
	{"firms_logo empty", `{"account_number":"V","firms_logo":""}`, "firms_logo", false},
	{"negative starting_balance", `{"account_number":"V","starting_balance":-0.01}`, "starting_balance", false},
	{"malformed tag id", `{"account_number":"V","tag_ids":["nope"]}`, "tag_ids[0]", false},
	{"second tag id malformed", `{"account_number":"V","tag_ids":["` + idA + `","x"]}`, "tag_ids[1]", false},
	{"null tag_ids", `{"account_number":"V","tag_ids":null}`, "tag_ids", false},
	{"negative commission rate", `{"account_number":"V","commission_schedule":{"ES":-2.14}}`, "commission_schedule.ES", false},
	{"blank commission key", `{"account_number":"V","commission_schedule":{" ":1}}`, "commission_schedule. ", false},
	{"commission schedule not an object", `{"account_number":"V","commission_schedule":[1]}`, "commission_schedule", false},
	{"commission rate not a number", `{"account_number":"V","commission_schedule":{"ES":"2.14"}}`, "commission_schedule", false},
	{"negative max_drawdown", `{"account_number":"V","max_drawdown":-1}`, "max_drawdown", false},
	{"negative max_daily_loss", `{"account_number":"V","max_daily_loss":-0.01}`, "max_daily_loss", false},
	{"negative profit_target", `{"account_number":"V","profit_target":-500}`, "profit_target", false},
	{"huge drawdown_lock_at", `{"account_number":"V","drawdown_lock_at":1e12}`, "drawdown_lock_at", false},
	{"max_drawdown not a number", `{"account_number":"V","max_drawdown":"2000"}`, "max_drawdown", false},
	{"unknown drawdown_mode", `{"account_number":"V","drawdown_mode":"intraday"}`, "drawdown_mode", false},
	{"drawdown_mode in capitals", `{"account_number":"V","drawdown_mode":"TRAILING"}`, "drawdown_mode", false},
	{"negative min_trading_days", `{"account_number":"V","min_trading_days":-1}`, "min_trading_days", false},
	{"fractional min_trading_days", `{"account_number":"V","min_trading_days":2.5}`, "min_trading_days", false},
	{"negative max_contracts", `{"account_number":"V","max_contracts":-3}`, "max_contracts", false},
	{"consistency_pct over 100", `{"account_number":"V","consistency_pct":100.5}`, "consistency_pct", false},
	{"profit_split over 100", `{"account_number":"V","profit_split":101}`, "profit_split", false},
	{"negative profit_split", `{"account_number":"V","profit_split":-10}`, "profit_split", false},
	{"null profit_split", `{"account_number":"V","profit_split":null}`, "profit_split", false},
	{"day_starts_at with seconds", `{"account_number":"V","day_starts_at":"18:00:00"}`, "day_starts_at", false},
	{"day_starts_at not a time", `{"account_number":"V","day_starts_at":"6pm"}`, "day_starts_at", false},
	{"day_starts_at hour 24", `{"account_number":"V","day_starts_at":"24:00"}`, "day_starts_at", false},
	{"day_starts_at one digit", `{"account_number":"V","day_starts_at":"9:30"}`, "day_starts_at", false},
	{"null day_starts_at", `{"account_number":"V","day_starts_at":null}`, "day_starts_at", false},
	{"unknown day_timezone", `{"account_number":"V","day_timezone":"America/Gotham"}`, "day_timezone", false},
	{"day_timezone Local", `{"account_number":"V","day_timezone":"Local"}`, "day_timezone", false},
	{"empty day_timezone", `{"account_number":"V","day_timezone":""}`, "day_timezone", false},
	{"several bad rules", `{"account_number":"V","drawdown_mode":"x","profit_split":200,"day_starts_at":"x","max_daily_loss":-1}`,
		"day_starts_at,drawdown_mode,max_daily_loss,profit_split", false},
	{"several bad fields", `{"account_type":"x","status":"y","currency":"z","starting_balance":-5}`,
		"account_number,account_type,currency,starting_balance,status", true},
}

func TestAccountValidationCreate(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	for _, tt := range accountValidation {
		t.Run(tt.name, func(t *testing.T) {
			status, body := ts.do(t, "POST", "/api/v1/accounts", key, tt.body)
			if status != http.StatusBadRequest {
				t.Fatalf("status: got %d %s, want 400", status, body)
			}
			e := decode[errBody](t, body)
			if e.Code != "VALIDATION_ERROR" || e.Error != "Validation failed" {
				t.Errorf("error: got %q %q, want VALIDATION_ERROR", e.Code, e.Error)
			}
			if got := keys(e.Details); got != tt.wantFields {
				t.Errorf("details fields: got %q, want %q (%v)", got, tt.wantFields, e.Details)
			}
			for f, msg := range e.Details {
				if !strings.HasPrefix(msg, f) {
					t.Errorf("details[%s] = %q, want a message naming the field", f, msg)
				}
			}
		})
	}
	if n := count(t, ts.sql(t), `SELECT count(*) FROM accounts`); n != 0 {
		t.Errorf("accounts after only invalid creates: got %d, want 0", n)
	}
}

func TestAccountValidationUpdate(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	a := ts.createAccount(t, key, `{"account_number":"A-1","prop_firm":"Apex","starting_balance":100}`)
	_, before := ts.do(t, "GET", "/api/v1/accounts/"+a.ID, key, "")
	for _, tt := range accountValidation {
		if tt.createOnly {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			status, body := ts.do(t, "PUT", "/api/v1/accounts/"+a.ID, key, tt.body)
			if status != http.StatusBadRequest {
				t.Fatalf("status: got %d %s, want 400", status, body)
			}
			if got := keys(decode[errBody](t, body).Details); got != tt.wantFields {
				t.Errorf("details fields: got %q, want %q", got, tt.wantFields)
			}
		})
	}
	if _, after := ts.do(t, "GET", "/api/v1/accounts/"+a.ID, key, ""); string(after) != string(before) {
		t.Errorf("account after refused updates:\n got %s\nwant %s", after, before)
	}
}

// TestAccountPathIDs: a malformed id in a path names no record, so it is the
// same 404 as an id that names nothing.
func TestAccountPathIDs(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	a := ts.createAccount(t, key, `{"account_number":"A-1"}`)
	const notFound = `{"error":"Account not found","code":"NOT_FOUND"}` + "\n"
	ids := []string{
		"not-a-uuid",
		a.ID[:35],  // one short
		a.ID + "0", // one long
		strings.ReplaceAll(a.ID, "-", "_"),
		"zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz",
		idB, // well-formed, names nothing
	}
	for _, id := range ids {
		for _, m := range []struct{ method, body string }{{"GET", ""}, {"PUT", `{"name":"x"}`}, {"DELETE", ""}} {
			status, body := ts.do(t, m.method, "/api/v1/accounts/"+id, key, m.body)
			if status != http.StatusNotFound || string(body) != notFound {
				t.Errorf("%s /api/v1/accounts/%s: got %d %s, want 404 %s", m.method, id, status, body, notFound)
			}
		}
	}
	if n := count(t, ts.sql(t), `SELECT count(*) FROM accounts WHERE name = ''`); n != 1 {
		t.Errorf("account changed by requests that got 404")
	}
}
