package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestTradeEdges covers what review found at the edges of the trade rules.
func TestTradeEdges(t *testing.T) {
	e := newTradeEnv(t)

	t.Run("a bare root's only point value cannot go while it prices trades", func(t *testing.T) {
		e.do(t, "PUT", "/api/v1/instruments/XYZ", e.key, `{"point_value": 10}`)
		tr, _ := e.create(t, e.tradeBody("XYZ", "long", `"entry_price": 100, "quantity": 1, "exit_price": 101`))
		if tr.AssetClass != "futures" || tr.GrossPnL != 10 {
			t.Fatalf("XYZ trade: %s, gross %v; want futures, 10", tr.AssetClass, tr.GrossPnL)
		}
		status, b := e.do(t, "DELETE", "/api/v1/instruments/XYZ", e.key, "")
		if got := decode[errBody](t, b); status != 409 || got.Details["trades"] != "1" {
			t.Errorf("DELETE XYZ: got %d %s, want 409 with the count", status, b)
		}
		if got := e.get(t, tr.ID); got.AssetClass != "futures" || got.GrossPnL != 10 {
			t.Errorf("after the refused delete: %s, gross %v", got.AssetClass, got.GrossPnL)
		}
	})

	t.Run("a day loss of exactly the limit, summed from cents, passes", func(t *testing.T) {
		s := e.createStrategy(t, e.key, `{"title": "Day", "strategy_rules": [{"check": {"kind": "max_daily_loss", "value": 100}}]}`)
		var last string
		// Net -0.01, -65.40 and -34.59: exactly -100 in cents, not in floats.
		for i, exit := range []string{"99.99", "34.6", "65.41"} {
			tr, _ := e.create(t, fmt.Sprintf(`{"account_id": %q, "symbol": "MSFT", "side": "long", "entry_date": "2026-03-02",
				"entry_time": "09:3%d:00", "entry_price": 100, "quantity": 1, "exit_price": %s, "risk_management_strategy_ids": [%q]}`,
				e.accountID, i+1, exit, s.ID))
			last = tr.ID
		}
		if ev, _ := onlyEvaluation(t, e.get(t, last)); ev.Result != "pass" {
			t.Errorf("third trade: %s %s, want pass (a loss of 100 is not above 100)", ev.Result, ev.ViolationData)
		}
	})

	t.Run("fill types set by the client survive an unrelated update", func(t *testing.T) {
		tr, _ := e.create(t, e.tradeBody("ES", "long", `"executions": [
			{"side": "buy", "price": 5000, "quantity": 1, "execution_time": "09:30:00", "execution_type": "full"},
			{"side": "sell", "price": 5001, "quantity": 1, "execution_time": "09:31:00", "execution_type": "scale_out"}]`))
		got := e.put(t, tr.ID, `{"star_rating": 3}`)
		if got.Executions[0].ExecutionType != "full" || got.Executions[1].ExecutionType != "scale_out" {
			t.Errorf("types after PUT: %s, %s", got.Executions[0].ExecutionType, got.Executions[1].ExecutionType)
		}
	})

	t.Run("exit_date never before entry_date, and follows a moved day trade", func(t *testing.T) {
		tr, _ := e.create(t, e.tradeBody("ES", "long", `"entry_price": 5000, "quantity": 1, "exit_price": 5001`))
		status, b := e.do(t, "PUT", "/api/v1/trades/"+tr.ID, e.key, `{"exit_date": "2026-02-01"}`)
		if got := decode[errBody](t, b); status != 400 || got.Details["exit_date"] == "" {
			t.Errorf("exit before entry: got %d %s, want 400 naming exit_date", status, b)
		}
		if got := e.put(t, tr.ID, `{"entry_date": "2026-02-09"}`); *got.ExitDate != "2026-02-09" {
			t.Errorf("exit_date %s after moving the day trade, want 2026-02-09", *got.ExitDate)
		}
	})

	t.Run("amounts below 8 decimal places and far years are refused", func(t *testing.T) {
		for extra, field := range map[string]string{
			`"entry_price": 0.000000001, "quantity": 1`:                                                                      "entry_price",
			`"executions": [{"side": "buy", "price": 1, "quantity": 0.000000001, "execution_time": "09:30:00"}]`:             "executions[0].quantity",
			`"executions": [{"side": "buy", "price": 1, "quantity": 1, "execution_timestamp": "0000-01-01T00:30:00+01:00"}]`: "executions[0].execution_timestamp",
		} {
			status, b := e.do(t, "POST", "/api/v1/trades", e.key, e.tradeBody("ES", "long", extra))
			if got := decode[errBody](t, b); status != 400 || got.Details[field] == "" {
				t.Errorf("%s: got %d %s, want 400 naming %s", extra, status, b, field)
			}
		}
		body := fmt.Sprintf(`{"account_id": %q, "symbol": "ES", "side": "long", "entry_date": "9999-12-31", "entry_price": 1, "quantity": 1}`, e.accountID)
		if status, b := e.do(t, "POST", "/api/v1/trades", e.key, body); status != 400 || decode[errBody](t, b).Details["entry_date"] == "" {
			t.Errorf("year 9999: got %d %s, want 400 naming entry_date", status, b)
		}
	})

	t.Run("a trade sent back as read pins neither class nor status", func(t *testing.T) {
		tr, _ := e.create(t, e.tradeBody("SPY", "long", `"entry_price": 600, "quantity": 1`))
		_, b := e.do(t, "GET", "/api/v1/trades/"+tr.ID, e.key, "")
		var read struct{ Data json.RawMessage }
		json.Unmarshal(b, &read)
		e.put(t, tr.ID, string(read.Data))
		got := e.put(t, tr.ID, `{"symbol": "ESH6", "exit_price": 610}`)
		if got.AssetClass != "futures" || got.PointValue != 50 || got.GrossPnL != 500 || got.Status != "win" {
			t.Errorf("after a round trip and a new symbol: %s, point value %v, gross %v, %s; want futures, 50, 500, win",
				got.AssetClass, got.PointValue, got.GrossPnL, got.Status)
		}
		// A status that differs from the derived one is still an override.
		if got := e.put(t, tr.ID, `{"status": "loss"}`); got.Status != "loss" {
			t.Errorf("manual status = %s, want loss", got.Status)
		}
	})

	t.Run("an exit date the client gave stays when the entry moves", func(t *testing.T) {
		tr, _ := e.create(t, e.tradeBody("ES", "long", `"entry_price": 5000, "quantity": 1, "exit_price": 5001, "exit_date": "2026-02-05"`))
		if got := e.put(t, tr.ID, `{"entry_date": "2026-02-02"}`); *got.ExitDate != "2026-02-05" {
			t.Errorf("exit_date %s, want the client's 2026-02-05 kept", *got.ExitDate)
		}
	})
}

// TestInstrumentClassChangeAndAccountCascade: changing an override's
// class away from futures while its futures trades need it is a 409, and
// an account's cascade counts its trades' write-ups.
func TestInstrumentClassChangeAndAccountCascade(t *testing.T) {
	e := newTradeEnv(t)
	e.do(t, "PUT", "/api/v1/instruments/FDAX", e.key, `{"point_value": 25}`)
	tr, _ := e.create(t, e.tradeBody("FDAXZ5", "long", `"entry_price": 18000, "quantity": 1`))
	status, b := e.do(t, "PUT", "/api/v1/instruments/FDAX", e.key, `{"point_value": 1, "asset_class": "stocks"}`)
	if got := decode[errBody](t, b); status != 409 || got.Details["trades"] != "1" {
		t.Errorf("FDAX as stocks with a futures trade: got %d %s, want 409 with the count", status, b)
	}
	if status, b := e.do(t, "POST", "/api/v1/write-ups", e.key, fmt.Sprintf(`{"trade_id": %q, "title": "notes"}`, tr.ID)); status != 201 {
		t.Fatalf("write-up: %d %s", status, b)
	}
	status, b = e.do(t, "DELETE", "/api/v1/accounts/"+e.accountID+"?cascade=true", e.key, "")
	if want := `"warnings":["Deleted 1 trade","Deleted 1 trade write-up"]`; status != 200 || !strings.Contains(string(b), want) {
		t.Errorf("cascade delete: got %d %s, want %s", status, b, want)
	}
}
