package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"tradejournal/db"
)

// TestAccountStatus walks a real account through the API: trades with fills
// and one without, a New York evening across the 18:00 boundary, a paid
// payout and a requested one. Worked by hand (New York times, days from
// 18:00):
//
//	Mon 9 Feb  09:30-09:32  ES long 2, out 1 at +10 and 1 at +20, $2 a fill:
//	                        1,500 − 6 = +1,494 → 51,494 (the high-water mark)
//	Mon 9 Feb  17:30        NQ short 1 at 20,000 (day of the 9th)
//	Mon 9 Feb  18:00        ES long 1 5,000 → 4,990 typed without times on
//	                        the 10th: at the start of the 10th's day, −500
//	Mon 9 Feb  18:30        NQ covered at 20,040: −800, on the 10th's day;
//	                        the 10th is at −1,300: max daily loss 1,000 broken
//	Wed 11 Feb 09:30-09:31  MES long 4 (over max contracts 3), +1: +20
//	Thu 12 Feb              payout of 100 paid (a requested 500 is not)
//
// Balance 50,000 + 1,494 − 500 − 800 + 20 − 100 = 50,114. The trailing floor
// followed 51,494 to 49,494 and fell with the payout to 49,394: 720 above.
func TestAccountStatus(t *testing.T) {
	e := newTradeEnv(t)
	account := e.createAccount(t, e.key, `{"account_number": "APEX-50", "prop_firm": "Apex", "starting_balance": 50000,
		"max_drawdown": 2000, "drawdown_mode": "trailing", "max_daily_loss": 1000, "max_contracts": 3,
		"profit_target": 3000, "min_trading_days": 5, "consistency_pct": 50}`)
	on := func(date, symbol, side, extra string) string {
		return fmt.Sprintf(`{"account_id": %q, "symbol": %q, "side": %q, "entry_date": %q, %s}`, account.ID, symbol, side, date, extra)
	}
	e.create(t, on("2026-02-09", "ESH6", "long", fills(2, "buy 2@5000", "sell 1@5010", "sell 1@5020")))
	nq, _ := e.create(t, on("2026-02-09", "NQH6", "short", `"executions": [
		{"side": "sell", "quantity": 1, "price": 20000, "execution_timestamp": "2026-02-09T22:30:00Z"},
		{"side": "buy", "quantity": 1, "price": 20040, "execution_timestamp": "2026-02-09T23:30:00Z"}]`))
	e.create(t, on("2026-02-10", "ESH6", "long", `"entry_price": 5000, "exit_price": 4990, "quantity": 1`))
	mes, _ := e.create(t, on("2026-02-11", "MESH6", "long", fills(0, "buy 4@6000", "sell 4@6001")))
	e.payout(t, fmt.Sprintf(`{"account_id": %q, "date": "2026-02-12", "total_amount": 100, "status": "paid"}`, account.ID))
	e.payout(t, fmt.Sprintf(`{"account_id": %q, "date": "2026-02-12", "total_amount": 500}`, account.ID))
	// Another account's trade never counts.
	e.create(t, e.tradeBody("ESH6", "long", `"entry_price": 5000, "exit_price": 4000, "quantity": 10`))

	e.pinClock(time.Date(2026, 2, 12, 15, 0, 0, 0, time.UTC)) // 10:00 New York, the 12th's day
	got := must200(t, e.testServer, "/api/v1/accounts/"+account.ID+"/status", e.key)
	want := `{"data":{"balance":50114,"realized_pnl":214,"payouts_paid":100,"high_water_mark":51394,` +
		`"drawdown_floor":49394,"drawdown_remaining":720,"daily_loss_today":0,"daily_loss_remaining":1000,` +
		`"profit_target_remaining":2886,"trading_days":3,"min_trading_days_remaining":2,` +
		// The best day, +1,494, over the total of +214.
		`"best_day_pct":698.13084112,"consistency_ok":false,"max_position":4,"breaches":[` +
		`{"rule":"max_daily_loss","at":"2026-02-09T23:30:00Z","trading_day":"2026-02-10","value":-1300,"limit":-1000,"trade_id":"` + nq.ID + `"},` +
		`{"rule":"max_contracts","at":"2026-02-11T14:30:00Z","trading_day":"2026-02-11","value":4,"limit":3,"trade_id":"` + mes.ID + `"}],` +
		`"evaluated_at":"2026-02-12T15:00:00.000Z"}}` + "\n"
	if string(got) != want {
		t.Errorf("status\n got %s\nwant %s", got, want)
	}

	// The same walk read in Chicago with days from 17:00 Central (18:00 New
	// York): the same days, the same answer.
	e.putDays(t, account.ID, "America/Chicago", "17:00")
	if again := must200(t, e.testServer, "/api/v1/accounts/"+account.ID+"/status", e.key); string(again) != want {
		t.Errorf("status with days from 17:00 Chicago\n got %s\nwant %s", again, want)
	}
	// Days from midnight New York: the NQ loss falls on the 9th (−800 with
	// the ES +1,494 there), the manual trade alone on the 10th: no daily
	// loss breach; still three trading days.
	e.putDays(t, account.ID, "America/New_York", "00:00")
	dailyBreach := `{"rule":"max_daily_loss","at":"2026-02-09T23:30:00Z","trading_day":"2026-02-10","value":-1300,"limit":-1000,"trade_id":"` + nq.ID + `"},`
	want = strings.Replace(want, dailyBreach, "", 1)
	want = strings.Replace(want, `"best_day_pct":698.13084112`, `"best_day_pct":324.29906542`, 1) // 694 / 214
	if got := must200(t, e.testServer, "/api/v1/accounts/"+account.ID+"/status", e.key); string(got) != want {
		t.Errorf("status with days from midnight\n got %s\nwant %s", got, want)
	}
}

// putDays sets the account's trading day and fails unless the PUT is a 200
// whose account reads back with it.
func (e *tradeEnv) putDays(t *testing.T, accountID, timezone, startsAt string) {
	t.Helper()
	body := fmt.Sprintf(`{"day_timezone": %q, "day_starts_at": %q}`, timezone, startsAt)
	status, b := e.do(t, "PUT", "/api/v1/accounts/"+accountID, e.key, body)
	if status != http.StatusOK {
		t.Fatalf("PUT account %s: got %d %s, want 200", body, status, b)
	}
	if a := decode[struct{ Data db.Account }](t, b).Data; a.DayTimezone != timezone || a.DayStartsAt != startsAt {
		t.Fatalf("PUT account %s: days from %s %s, want %s %s", body, a.DayStartsAt, a.DayTimezone, startsAt, timezone)
	}
}

// TestAccountStatusDayTimezone reads the same three losing trades with days
// from 18:00 New York (the default) and from midnight London, whose day
// boundary, 19:00 New York in February (London on GMT, New York on EST),
// is neither 18:00 nor midnight New York. Max daily loss 1,000; the fills,
// ES at $50 a point, no commission:
//
//	T0  Mon 9 Feb  23:30-23:40Z (18:30 New York, 23:30 London)  −400
//	T1  Tue 10 Feb 00:30-00:40Z (19:30 New York on the 9th, 00:30 London)  −600
//	T2  Tue 10 Feb 15:00-15:10Z (10:00 New York, 15:00 London)  −500
//
// Read at 16:00Z on the 10th. Balance 10,000 − 1,500 = 8,500 either way.
// Days from 18:00 New York: all three on the 10th, which reaches −1,000 at
// T1's close (the breach) and ends at −1,500; one trading day. Days from
// midnight London: T0 alone on the 9th (−400); T1 and T2 on the 10th,
// −1,100, which breaks the limit only at T2's close; two trading days.
// (Days from midnight New York would put T0 and T1 together on the 9th,
// −1,000, breaking it there at T1's close, and leave −500 today.)
func TestAccountStatusDayTimezone(t *testing.T) {
	e := newTradeEnv(t)
	account := e.createAccount(t, e.key, `{"account_number": "FTMO-10", "prop_firm": "FTMO", "starting_balance": 10000,
		"max_daily_loss": 1000}`)
	loss := func(date, open, exit string, price float64) db.Trade {
		tr, _ := e.create(t, fmt.Sprintf(`{"account_id": %q, "symbol": "ESH6", "side": "long", "entry_date": %q, "executions": [
			{"side": "buy", "quantity": 1, "price": 5000, "execution_timestamp": %q},
			{"side": "sell", "quantity": 1, "price": %g, "execution_timestamp": %q}]}`, account.ID, date, open, price, exit))
		return tr
	}
	loss("2026-02-09", "2026-02-09T23:30:00Z", "2026-02-09T23:40:00Z", 4992)
	t1 := loss("2026-02-09", "2026-02-10T00:30:00Z", "2026-02-10T00:40:00Z", 4988)
	t2 := loss("2026-02-10", "2026-02-10T15:00:00Z", "2026-02-10T15:10:00Z", 4990)
	e.pinClock(time.Date(2026, 2, 10, 16, 0, 0, 0, time.UTC))

	status := func(today, tradingDays int, breach string) string {
		return fmt.Sprintf(`{"data":{"balance":8500,"realized_pnl":-1500,"payouts_paid":0,"high_water_mark":10000,`+
			`"drawdown_floor":null,"drawdown_remaining":null,"daily_loss_today":%d,"daily_loss_remaining":%d,`+
			`"profit_target_remaining":null,"trading_days":%d,"min_trading_days_remaining":null,"best_day_pct":null,`+
			`"consistency_ok":null,"max_position":1,"breaches":[%s],"evaluated_at":"2026-02-10T16:00:00.000Z"}}`+"\n",
			today, 1000-today, tradingDays, breach)
	}
	for _, tt := range []struct {
		timezone, startsAt string
		want               string
	}{
		{"America/New_York", "18:00", status(1500, 1,
			`{"rule":"max_daily_loss","at":"2026-02-10T00:40:00Z","trading_day":"2026-02-10","value":-1000,"limit":-1000,"trade_id":"`+t1.ID+`"}`)},
		{"Europe/London", "00:00", status(1100, 2,
			`{"rule":"max_daily_loss","at":"2026-02-10T15:10:00Z","trading_day":"2026-02-10","value":-1100,"limit":-1000,"trade_id":"`+t2.ID+`"}`)},
	} {
		e.putDays(t, account.ID, tt.timezone, tt.startsAt)
		if got := must200(t, e.testServer, "/api/v1/accounts/"+account.ID+"/status", e.key); string(got) != tt.want {
			t.Errorf("status with days from %s %s\n got %s\nwant %s", tt.startsAt, tt.timezone, got, tt.want)
		}
	}
}

// TestAccountStatusEmpty: an account without rules or trades answers every
// figure it always gives and null for every rule; a missing account is a
// 404 and a key without accounts:read a 403.
func TestAccountStatusEmpty(t *testing.T) {
	e := newTradeEnv(t)
	e.pinClock(t0)
	got := must200(t, e.testServer, "/api/v1/accounts/"+e.accountID+"/status", e.key)
	want := `{"data":{"balance":0,"realized_pnl":0,"payouts_paid":0,"high_water_mark":0,"drawdown_floor":null,` +
		`"drawdown_remaining":null,"daily_loss_today":0,"daily_loss_remaining":null,"profit_target_remaining":null,` +
		`"trading_days":0,"min_trading_days_remaining":null,"best_day_pct":null,"consistency_ok":null,"max_position":0,` +
		`"breaches":[],"evaluated_at":"2026-02-05T15:17:54.123Z"}}` + "\n"
	if string(got) != want {
		t.Errorf("empty status\n got %s\nwant %s", got, want)
	}
	for _, id := range []string{idA, "nope"} {
		status, b := e.do(t, "GET", "/api/v1/accounts/"+id+"/status", e.key, "")
		if er := decode[errBody](t, b); status != http.StatusNotFound || er.Error != "Account not found" {
			t.Errorf("status of %s: %d %s", id, status, b)
		}
	}
	_, tradesOnly := e.newKey(t, "alice", "trades:read", false)
	if status, _ := e.do(t, "GET", "/api/v1/accounts/"+e.accountID+"/status", tradesOnly, ""); status != http.StatusForbidden {
		t.Errorf("status with a trades:read key: %d, want 403", status)
	}
}

// TestAccountStatusExitWithoutTime: a trade typed with an entry time and an
// exit price but no exit time closes at its entry, not at the start of its
// day: open with another trade's 3 contracts it makes 4, over a limit of 3.
func TestAccountStatusExitWithoutTime(t *testing.T) {
	e := newTradeEnv(t)
	account := e.createAccount(t, e.key, `{"account_number": "C-3", "max_contracts": 3, "max_daily_loss": 1000}`)
	e.create(t, fmt.Sprintf(`{"account_id": %q, "symbol": "MESH6", "side": "long", "entry_date": "2026-02-10", %s}`,
		account.ID, fills(0, "buy 3@6000"))) // 09:30, still open
	manual, _ := e.create(t, fmt.Sprintf(`{"account_id": %q, "symbol": "ESH6", "side": "long", "entry_date": "2026-02-10",
		"entry_time": "19:00:00", "entry_price": 5000, "exit_price": 4976, "quantity": 1}`, account.ID))
	e.pinClock(time.Date(2026, 2, 11, 15, 0, 0, 0, time.UTC)) // 10:00 New York on the 11th
	got := must200(t, e.testServer, "/api/v1/accounts/"+account.ID+"/status", e.key)
	// 19:00 New York on the 10th is the 11th's trading day: its −1,200
	// (24 points of ES) is today's loss, at 00:00Z on the 11th, when the
	// MES's 3 contracts are still open.
	want := `{"data":{"balance":-1200,"realized_pnl":-1200,"payouts_paid":0,"high_water_mark":0,"drawdown_floor":null,` +
		`"drawdown_remaining":null,"daily_loss_today":1200,"daily_loss_remaining":-200,"profit_target_remaining":null,` +
		`"trading_days":2,"min_trading_days_remaining":null,"best_day_pct":null,"consistency_ok":null,"max_position":4,"breaches":[` +
		`{"rule":"max_contracts","at":"2026-02-11T00:00:00Z","trading_day":"2026-02-11","value":4,"limit":3,"trade_id":"` + manual.ID + `"},` +
		`{"rule":"max_daily_loss","at":"2026-02-11T00:00:00Z","trading_day":"2026-02-11","value":-1200,"limit":-1000,"trade_id":"` + manual.ID + `"}],` +
		`"evaluated_at":"2026-02-11T15:00:00.000Z"}}` + "\n"
	if string(got) != want {
		t.Errorf("status\n got %s\nwant %s", got, want)
	}
}
