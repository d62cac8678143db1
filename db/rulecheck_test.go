package db

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestParseRuleCheck(t *testing.T) {
	tests := []struct {
		in        string
		canonical string // stored form; "" when the check is refused
		field     string // the refused field, by path
	}{
		{`{"kind": "max_quantity", "value": 2}`, `{"kind":"max_quantity","value":2}`, ""},
		{`{"value": 2.5, "kind": "max_quantity"}`, `{"kind":"max_quantity","value":2.5}`, ""},
		{`{"kind": "max_loss_per_trade", "value": 500}`, `{"kind":"max_loss_per_trade","value":500}`, ""},
		{`{"kind": "require_stop_loss"}`, `{"kind":"require_stop_loss"}`, ""},
		{`{"kind": "trading_window", "start": "09:30:00", "end": "11:30:00"}`,
			`{"kind":"trading_window","start":"09:30:00","end":"11:30:00"}`, ""},
		{`{"kind": "allowed_symbols", "symbols": [" es", "NQ", "es"]}`, `{"kind":"allowed_symbols","symbols":["ES","NQ"]}`, ""},
		{`{"kind": "max_trades_per_day", "value": 3}`, `{"kind":"max_trades_per_day","value":3}`, ""},
		{`{"kind": "max_daily_loss", "value": 1000}`, `{"kind":"max_daily_loss","value":1000}`, ""},
		{`{"kind": "min_r_ratio", "value": 1.5}`, `{"kind":"min_r_ratio","value":1.5}`, ""},

		{`"max_quantity"`, "", "check"},
		{`[]`, "", "check"},
		{`null`, "", "check"},
		{`{}`, "", "check.kind"},
		{`{"kind": "max_contracts", "value": 2}`, "", "check.kind"},
		{`{"kind": 7}`, "", "check.kind"},
		{`{"kind": "max_quantity"}`, "", "check.value"},
		{`{"kind": "max_quantity", "value": null}`, "", "check.value"},
		{`{"kind": "max_quantity", "value": "2"}`, "", "check.value"},
		{`{"kind": "max_quantity", "value": 0}`, "", "check.value"},
		{`{"kind": "max_loss_per_trade", "value": -500}`, "", "check.value"},
		{`{"kind": "max_daily_loss", "value": 1e10}`, "", "check.value"},
		{`{"kind": "min_r_ratio", "value": true}`, "", "check.value"},
		{`{"kind": "max_trades_per_day", "value": 2.5}`, "", "check.value"},
		{`{"kind": "max_trades_per_day", "value": 0}`, "", "check.value"},
		{`{"kind": "trading_window", "start": "9:30", "end": "11:30:00"}`, "", "check.start"},
		{`{"kind": "trading_window", "start": "09:30:00"}`, "", "check.end"},
		{`{"kind": "trading_window", "start": "09:30:00", "end": "25:00:00"}`, "", "check.end"},
		{`{"kind": "trading_window", "start": "11:30:00", "end": "09:30:00"}`, "", "check.end"},
		{`{"kind": "trading_window", "start": "09:30:00", "end": "09:30:00"}`, "", "check.end"},
		{`{"kind": "allowed_symbols"}`, "", "check.symbols"},
		{`{"kind": "allowed_symbols", "symbols": []}`, "", "check.symbols"},
		{`{"kind": "allowed_symbols", "symbols": "ES"}`, "", "check.symbols"},
		{`{"kind": "allowed_symbols", "symbols": ["ES", 5]}`, "", "check.symbols[1]"},
		{`{"kind": "allowed_symbols", "symbols": ["ES", " "]}`, "", "check.symbols[1]"},
		{`{"kind": "require_stop_loss", "value": 1}`, "", "check.value"},
		{`{"kind": "trading_window", "start": "09:30:00", "end": "11:30:00", "timezone": "UTC"}`, "", "check.timezone"},
	}
	for _, tt := range tests {
		c, err := ParseRuleCheck([]byte(tt.in), "check")
		if tt.field != "" {
			var inv *InvalidError
			if !errors.As(err, &inv) || inv.Field != tt.field {
				t.Errorf("ParseRuleCheck(%s): got %v, want an error on %s", tt.in, err, tt.field)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseRuleCheck(%s): %v", tt.in, err)
			continue
		}
		b, _ := json.Marshal(c)
		if string(b) != tt.canonical {
			t.Errorf("ParseRuleCheck(%s): got %s, want %s", tt.in, b, tt.canonical)
		}
		again, err := ParseRuleCheck(b, "check")
		if b2, _ := json.Marshal(again); err != nil || string(b2) != string(b) {
			t.Errorf("ParseRuleCheck(%s) does not read its own canonical form back: %s, %v", b, b2, err)
		}
	}
}

// TestParseRuleCheckMessage: the message names the whole path, as a client
// reads it in details.
func TestParseRuleCheckMessage(t *testing.T) {
	_, err := ParseRuleCheck([]byte(`{"kind": "max_quantity", "value": -1}`), "strategy_rules[2].check")
	want := "strategy_rules[2].check.value must be a number greater than 0"
	var inv *InvalidError
	if !errors.As(err, &inv) || inv.Field != "strategy_rules[2].check.value" || inv.Message != want {
		t.Errorf("got %v, want strategy_rules[2].check.value: %s", err, want)
	}
}

// TestUnruledQueryPlan: the probe every save of a trade runs finds its
// answer by searches on indexes, never a scan of the user's trades.
func TestUnruledQueryPlan(t *testing.T) {
	d := newTestDB(t)
	userID, accountID := newTradeFixture(t, d)
	seedTrades(t, d, userID, accountID, 200)
	if _, err := d.write.Exec(`ANALYZE`); err != nil {
		t.Fatal(err)
	}
	rows, err := d.read.QueryContext(t.Context(), `EXPLAIN QUERY PLAN `+unruledQuery, "t", userID, accountID, "2016-02-01", accountID, "2016-02-02")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var searches int
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasPrefix(detail, "SCAN") && detail != "SCAN CONSTANT ROW":
			t.Errorf("the probe scans: %s", detail)
		case strings.HasPrefix(detail, "SEARCH t ") && !strings.Contains(detail, "account_id=? AND entry_date=?"):
			t.Errorf("the probe finds a day's trades by less than its account and date: %s", detail)
		case strings.HasPrefix(detail, "SEARCH"):
			searches++
		}
	}
	if searches != 6 {
		t.Errorf("%d searches, want 6 (strategies, evaluations, and each day's trades and their strategies)", searches)
	}
}
