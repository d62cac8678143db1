package prop

import (
	"encoding/json"
	"testing"
	"time"
)

var newYork = mustLoad("America/New_York")

func mustLoad(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

// futures is the default session: 18:00 New York.
var futures = Session{Start: 18 * 60, Loc: newYork}

// ny is a New York wall-clock time in February 2026 (EST, UTC−5).
func ny(day, hour, minute int) time.Time {
	return time.Date(2026, time.February, day, hour, minute, 0, 0, newYork)
}

func TestSessionDay(t *testing.T) {
	morning := Session{Start: 9*60 + 30, Loc: newYork}
	midnight := Session{Start: 0, Loc: time.UTC}
	tests := []struct {
		s    Session
		at   time.Time
		want string
	}{
		// Sunday 18:00 New York opens Monday's session.
		{futures, ny(8, 18, 0), "2026-02-09"},
		{futures, ny(8, 17, 59), "2026-02-08"},
		{futures, ny(9, 9, 30), "2026-02-09"},
		{futures, ny(9, 17, 59), "2026-02-09"},
		{futures, ny(9, 18, 0), "2026-02-10"},
		// 23:30 UTC on the 10th is 18:30 New York: the 11th's session.
		{futures, time.Date(2026, 2, 10, 23, 30, 0, 0, time.UTC), "2026-02-11"},
		// After the clocks went forward (8 March 2026): 18:00 EDT is 22:00 UTC.
		{futures, time.Date(2026, 3, 9, 21, 59, 0, 0, time.UTC), "2026-03-09"},
		{futures, time.Date(2026, 3, 9, 22, 0, 0, 0, time.UTC), "2026-03-10"},
		// A start before noon labels the day by the date it starts on.
		{morning, ny(10, 9, 29), "2026-02-09"},
		{morning, ny(10, 9, 30), "2026-02-10"},
		{midnight, time.Date(2026, 2, 10, 23, 59, 59, 0, time.UTC), "2026-02-10"},
		{midnight, time.Date(2026, 2, 11, 0, 0, 0, 0, time.UTC), "2026-02-11"},
	}
	for _, tt := range tests {
		if got := tt.s.Day(tt.at); got != tt.want {
			t.Errorf("Day(%v) with start %d = %s, want %s", tt.at, tt.s.Start, got, tt.want)
		}
	}

	begins := []struct {
		s    Session
		day  string
		want time.Time
	}{
		{futures, "2026-02-10", time.Date(2026, 2, 9, 23, 0, 0, 0, time.UTC)},
		{futures, "2026-03-09", time.Date(2026, 3, 8, 22, 0, 0, 0, time.UTC)}, // the first EDT evening
		{morning, "2026-02-10", time.Date(2026, 2, 10, 14, 30, 0, 0, time.UTC)},
	}
	for _, tt := range begins {
		got, err := tt.s.Begins(tt.day)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("Begins(%s) = %v, %v, want %v", tt.day, got.UTC(), err, tt.want)
		}
		if day := tt.s.Day(got); day != tt.day {
			t.Errorf("Day(Begins(%s)) = %s", tt.day, day)
		}
	}
	// A start in the hour a DST change skips (02:30 on 8 March 2026) or
	// repeats (01:30 on 1 November 2026): every instant still has one day,
	// the one whose start Begins gives.
	skipped := Session{Start: 2*60 + 30, Loc: newYork}
	repeated := Session{Start: 60 + 30, Loc: newYork}
	for _, tt := range []struct {
		s    Session
		at   time.Time
		want string
	}{
		{skipped, time.Date(2026, 3, 8, 6, 29, 0, 0, time.UTC), "2026-03-07"},
		{skipped, time.Date(2026, 3, 8, 6, 30, 0, 0, time.UTC), "2026-03-08"}, // Begins: 01:30 EST, Go's reading of 02:30
		{skipped, time.Date(2026, 3, 8, 6, 45, 0, 0, time.UTC), "2026-03-08"},
		{skipped, time.Date(2026, 3, 9, 6, 29, 0, 0, time.UTC), "2026-03-08"}, // 02:29 EDT the next day
		{repeated, time.Date(2026, 11, 1, 5, 29, 0, 0, time.UTC), "2026-10-31"},
		{repeated, time.Date(2026, 11, 1, 5, 30, 0, 0, time.UTC), "2026-11-01"},
		{repeated, time.Date(2026, 11, 1, 6, 15, 0, 0, time.UTC), "2026-11-01"}, // 01:15 EST, the repeated hour
	} {
		if got := tt.s.Day(tt.at); got != tt.want {
			t.Errorf("Day(%v) with start %d = %s, want %s", tt.at, tt.s.Start, got, tt.want)
		}
	}
	for _, s := range []Session{skipped, repeated} {
		for d := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC); d.Year() == 2026; d = d.AddDate(0, 0, 1) {
			day := d.Format(time.DateOnly)
			begins, _ := s.Begins(day)
			if got := s.Day(begins); got != day {
				t.Errorf("start %d: Day(Begins(%s)) = %s", s.Start, day, got)
			}
			if got := s.Day(begins.Add(-time.Second)); got == day {
				t.Errorf("start %d: the second before %s begins is in it", s.Start, day)
			}
		}
	}
	if _, err := futures.Begins("2026-02-30"); err == nil {
		t.Error("Begins of an impossible date: no error")
	}
}

// fill is a closing fill realising pnl (commission c) at at, or an opening
// fill when open > 0.
func fill(at time.Time, trade string, realized, c, open float64) Fill {
	return Fill{At: at, TradeID: trade, Realized: realized, Commission: c, Open: open}
}

func f64(v float64) *float64 { return &v }
func num(v int) *int         { return &v }

// peakGivenBack is two days of ES: on the 10th the balance peaks at 51,500
// intraday and closes at 50,500; on the 11th it falls to 48,400.
var peakGivenBack = []Fill{
	fill(ny(10, 10, 0), "t1", 0, 0, 1),
	fill(ny(10, 10, 30), "t1", 1502.5, 2.5, -1), // 50,000 + 1,500 = 51,500
	fill(ny(10, 11, 0), "t2", 0, 0, 1),
	fill(ny(10, 12, 0), "t2", -1000, 0, -1), // 50,500 at the close
	fill(ny(11, 10, 0), "t3", 0, 0, 1),
	fill(ny(11, 11, 0), "t3", -2100, 0, -1), // 48,400
}

func TestWalk(t *testing.T) {
	base := func(mode string) Rules {
		return Rules{StartingBalance: 50000, MaxDrawdown: f64(2000), DrawdownMode: mode, Session: futures}
	}
	now := ny(12, 12, 0) // both days ended
	tests := []struct {
		name    string
		rules   Rules
		fills   []Fill
		payouts []Payout
		now     time.Time
		want    string // the status as JSON, without evaluated_at
	}{
		{
			// Static: the floor stays at 50,000 − 2,000 = 48,000; 48,400 is
			// 400 above it.
			name: "static floor", rules: base(Static), fills: peakGivenBack, now: now,
			want: `{"balance":48400,"realized_pnl":-1600,"payouts_paid":0,"high_water_mark":51500,
				"drawdown_floor":48000,"drawdown_remaining":400,"daily_loss_today":0,"daily_loss_remaining":null,
				"profit_target_remaining":null,"trading_days":2,"min_trading_days_remaining":null,
				"best_day_pct":null,"consistency_ok":null,"max_position":1,"breaches":[]}`,
		},
		{
			// max_drawdown without a mode is static.
			name: "no mode is static", rules: base(""), fills: peakGivenBack, now: now,
			want: `{"balance":48400,"realized_pnl":-1600,"payouts_paid":0,"high_water_mark":51500,
				"drawdown_floor":48000,"drawdown_remaining":400,"daily_loss_today":0,"daily_loss_remaining":null,
				"profit_target_remaining":null,"trading_days":2,"min_trading_days_remaining":null,
				"best_day_pct":null,"consistency_ok":null,"max_position":1,"breaches":[]}`,
		},
		{
			// Trailing: the intraday peak of 51,500 lifts the floor to
			// 49,500; 48,400 on the 11th is below it.
			name: "trailing floor follows the intraday peak", rules: base(Trailing), fills: peakGivenBack, now: now,
			want: `{"balance":48400,"realized_pnl":-1600,"payouts_paid":0,"high_water_mark":51500,
				"drawdown_floor":49500,"drawdown_remaining":-1100,"daily_loss_today":0,"daily_loss_remaining":null,
				"profit_target_remaining":null,"trading_days":2,"min_trading_days_remaining":null,
				"best_day_pct":null,"consistency_ok":null,"max_position":1,
				"breaches":[{"rule":"max_drawdown","at":"2026-02-11T16:00:00Z","trading_day":"2026-02-11",
				"value":48400,"limit":49500,"trade_id":"t3"}]}`,
		},
		{
			// End-of-day trailing: the peak was given back before the
			// close, so only the close of 50,500 counts: floor 48,500.
			name: "end-of-day trailing floor ignores the intraday peak", rules: base(EODTrailing), fills: peakGivenBack, now: now,
			want: `{"balance":48400,"realized_pnl":-1600,"payouts_paid":0,"high_water_mark":51500,
				"drawdown_floor":48500,"drawdown_remaining":-100,"daily_loss_today":0,"daily_loss_remaining":null,
				"profit_target_remaining":null,"trading_days":2,"min_trading_days_remaining":null,
				"best_day_pct":null,"consistency_ok":null,"max_position":1,
				"breaches":[{"rule":"max_drawdown","at":"2026-02-11T16:00:00Z","trading_day":"2026-02-11",
				"value":48400,"limit":48500,"trade_id":"t3"}]}`,
		},
		{
			// Evaluated during the 10th: its close has not happened, so the
			// end-of-day floor is still 48,000 and the 10th's P&L is today's.
			name: "end-of-day trailing before the day ends", rules: base(EODTrailing), fills: peakGivenBack[:4], now: ny(10, 15, 0),
			want: `{"balance":50500,"realized_pnl":500,"payouts_paid":0,"high_water_mark":51500,
				"drawdown_floor":48000,"drawdown_remaining":2500,"daily_loss_today":0,"daily_loss_remaining":null,
				"profit_target_remaining":null,"trading_days":1,"min_trading_days_remaining":null,
				"best_day_pct":100,"consistency_ok":null,"max_position":1,"breaches":[]}`,
		},
		{
			// The floor trails to the lock at 50,000 once the balance
			// reaches 52,000 and stays there: 53,500 would trail to 51,500.
			// The fall to 50,100 breaks nothing; the 100 paid out on the
			// 12th leaves 50,000, at the floor the payout does not lower.
			name: "trailing floor locks", fills: []Fill{
				fill(ny(10, 10, 0), "t1", 0, 0, 1),
				fill(ny(10, 10, 5), "t1", 2500, 0, -1), // 52,500: candidate 50,500 → lock
				fill(ny(10, 11, 0), "t2", 0, 0, 1),
				fill(ny(10, 11, 5), "t2", 1000, 0, -1), // 53,500
				fill(ny(11, 10, 0), "t3", 0, 0, 1),
				fill(ny(11, 10, 5), "t3", -3400, 0, -1), // 50,100
			},
			payouts: []Payout{{Day: "2026-02-12", Amount: 100}},
			rules:   Rules{StartingBalance: 50000, MaxDrawdown: f64(2000), DrawdownMode: Trailing, DrawdownLockAt: f64(50000), Session: futures},
			now:     ny(12, 12, 0),
			want: `{"balance":50000,"realized_pnl":100,"payouts_paid":100,"high_water_mark":53400,
				"drawdown_floor":50000,"drawdown_remaining":0,"daily_loss_today":0,"daily_loss_remaining":null,
				"profit_target_remaining":null,"trading_days":2,"min_trading_days_remaining":null,
				"best_day_pct":3500,"consistency_ok":null,"max_position":1,
				"breaches":[{"rule":"max_drawdown","at":"2026-02-11T23:00:00Z","trading_day":"2026-02-12",
				"value":50000,"limit":50000,"trade_id":null}]}`,
		},
		{
			// An unlocked floor falls with a payout: 52,500 trails to
			// 50,500; paying 1,000 on the 11th leaves 51,500 over 49,500.
			name: "payout lowers balance, high-water mark and floor", fills: []Fill{
				fill(ny(10, 10, 0), "t1", 0, 0, 1),
				fill(ny(10, 10, 5), "t1", 2500, 0, -1),
			},
			payouts: []Payout{{Day: "2026-02-11", Amount: 1000}},
			rules:   base(Trailing),
			now:     ny(11, 12, 0),
			want: `{"balance":51500,"realized_pnl":2500,"payouts_paid":1000,"high_water_mark":51500,
				"drawdown_floor":49500,"drawdown_remaining":2000,"daily_loss_today":0,"daily_loss_remaining":null,
				"profit_target_remaining":null,"trading_days":1,"min_trading_days_remaining":null,
				"best_day_pct":100,"consistency_ok":null,"max_position":1,"breaches":[]}`,
		},
		{
			// Max daily loss 1,000 with days from 18:00 New York: −700 at
			// 17:30 is the 10th's; −600 at 18:30 and −400 the next morning
			// are the 11th's, −1,000, at the limit. (In UTC days the first
			// two, 22:30 and 23:30 on the 10th, would have been −1,300.)
			name: "daily loss split by the 18:00 boundary", fills: []Fill{
				fill(ny(10, 17, 0), "t1", 0, 0, 1),
				fill(ny(10, 17, 30), "t1", -700, 0, -1),
				fill(ny(10, 18, 10), "t2", 0, 0, 1),
				fill(ny(10, 18, 30), "t2", -600, 0, -1),
				fill(ny(11, 8, 0), "t3", 0, 0, 1),
				fill(ny(11, 9, 0), "t3", -396, 4, -1),
			},
			rules: Rules{StartingBalance: 50000, MaxDailyLoss: f64(1000), Session: futures},
			now:   ny(11, 12, 0),
			want: `{"balance":48300,"realized_pnl":-1700,"payouts_paid":0,"high_water_mark":50000,
				"drawdown_floor":null,"drawdown_remaining":null,"daily_loss_today":1000,"daily_loss_remaining":0,
				"profit_target_remaining":null,"trading_days":2,"min_trading_days_remaining":null,
				"best_day_pct":null,"consistency_ok":null,"max_position":1,
				"breaches":[{"rule":"max_daily_loss","at":"2026-02-11T14:00:00Z","trading_day":"2026-02-11",
				"value":-1000,"limit":-1000,"trade_id":"t3"}]}`,
		},
		{
			// Max contracts 3 across ES (2) and NQ (2) open together: the
			// NQ entry makes 4. Five open later is the same rule: not
			// reported again.
			name: "max contracts across two contracts, reported once", fills: []Fill{
				fill(ny(10, 10, 0), "es", 0, 0, 2),
				fill(ny(10, 10, 1), "nq", 0, 0, 2),
				fill(ny(10, 10, 2), "es", 100, 0, -2),
				fill(ny(10, 10, 3), "nq", -40, 0, -2),
				fill(ny(10, 11, 0), "es2", 0, 0, 5),
				fill(ny(10, 11, 1), "es2", 0, 0, -5),
			},
			rules: Rules{StartingBalance: 50000, MaxContracts: f64(3), Session: futures},
			now:   ny(10, 12, 0),
			want: `{"balance":50060,"realized_pnl":60,"payouts_paid":0,"high_water_mark":50100,
				"drawdown_floor":null,"drawdown_remaining":null,"daily_loss_today":0,"daily_loss_remaining":null,
				"profit_target_remaining":null,"trading_days":1,"min_trading_days_remaining":null,
				"best_day_pct":100,"consistency_ok":null,"max_position":5,
				"breaches":[{"rule":"max_contracts","at":"2026-02-10T15:01:00Z","trading_day":"2026-02-10",
				"value":4,"limit":3,"trade_id":"nq"}]}`,
		},
		{
			// A breach is reported once: the second fall below the static
			// floor of 48,000 is not a second breach.
			name: "drawdown reported once", fills: []Fill{
				fill(ny(10, 10, 0), "t1", 0, 0, 1),
				fill(ny(10, 10, 5), "t1", -2000, 0, -1), // 48,000: at the floor
				fill(ny(11, 10, 0), "t2", 0, 0, 1),
				fill(ny(11, 10, 5), "t2", -500, 0, -1),
			},
			rules: base(Static),
			now:   ny(11, 12, 0),
			want: `{"balance":47500,"realized_pnl":-2500,"payouts_paid":0,"high_water_mark":50000,
				"drawdown_floor":48000,"drawdown_remaining":-500,"daily_loss_today":500,"daily_loss_remaining":null,
				"profit_target_remaining":null,"trading_days":2,"min_trading_days_remaining":null,
				"best_day_pct":null,"consistency_ok":null,"max_position":1,
				"breaches":[{"rule":"max_drawdown","at":"2026-02-10T15:05:00Z","trading_day":"2026-02-10",
				"value":48000,"limit":48000,"trade_id":"t1"}]}`,
		},
		{
			// Three days with a day off between: +600 on the 10th, nothing
			// on the 11th, +300 on the 12th, −100 on the 13th. Total 800,
			// best day 600: 75%, over a consistency limit of 50. The
			// end-of-day floor trails the closes of the 10th (50,600) and the
			// 12th (50,900): 48,900; the 11th, without trades, changes
			// nothing. Target 3,000: 2,200 to go; 5 days needed, 3 traded.
			name: "a day without trades, consistency, target and days", fills: []Fill{
				fill(ny(10, 10, 0), "t1", 0, 0, 1),
				fill(ny(10, 11, 0), "t1", 600, 0, -1),
				fill(ny(12, 10, 0), "t2", 0, 0, 1),
				fill(ny(12, 11, 0), "t2", 300, 0, -1),
				fill(ny(13, 10, 0), "t3", 0, 0, 1),
				fill(ny(13, 11, 0), "t3", -100, 0, -1),
			},
			rules: Rules{StartingBalance: 50000, MaxDrawdown: f64(2000), DrawdownMode: EODTrailing,
				ProfitTarget: f64(3000), MinTradingDays: num(5), ConsistencyPct: f64(50), MaxDailyLoss: f64(1000), Session: futures},
			now: ny(13, 12, 0),
			want: `{"balance":50800,"realized_pnl":800,"payouts_paid":0,"high_water_mark":50900,
				"drawdown_floor":48900,"drawdown_remaining":1900,"daily_loss_today":100,"daily_loss_remaining":900,
				"profit_target_remaining":2200,"trading_days":3,"min_trading_days_remaining":2,
				"best_day_pct":75,"consistency_ok":false,"max_position":1,"breaches":[]}`,
		},
		{
			// Two trades' entries at the same instant walk by trade id,
			// whatever order they come in: "a" opens first, so "b" is the
			// one that takes 4 contracts over the limit of 3.
			name: "same instant, by trade id", fills: []Fill{
				fill(ny(10, 10, 0), "b", 0, 0, 2),
				fill(ny(10, 10, 0), "a", 0, 0, 2),
			},
			rules: Rules{StartingBalance: 0, MaxContracts: f64(3), Session: futures},
			now:   ny(10, 12, 0),
			want: `{"balance":0,"realized_pnl":0,"payouts_paid":0,"high_water_mark":0,
				"drawdown_floor":null,"drawdown_remaining":null,"daily_loss_today":0,"daily_loss_remaining":null,
				"profit_target_remaining":null,"trading_days":1,"min_trading_days_remaining":null,
				"best_day_pct":null,"consistency_ok":null,"max_position":4,
				"breaches":[{"rule":"max_contracts","at":"2026-02-10T15:00:00Z","trading_day":"2026-02-10",
				"value":4,"limit":3,"trade_id":"b"}]}`,
		},
		{
			// A lock below the static floor never lowers it: the floor stays
			// at 48,000 and a fall to 47,500 breaks it.
			name: "lock below the starting floor", fills: []Fill{
				fill(ny(10, 10, 0), "t1", 0, 0, 1),
				fill(ny(10, 10, 5), "t1", -2500, 0, -1),
			},
			rules: Rules{StartingBalance: 50000, MaxDrawdown: f64(2000), DrawdownLockAt: f64(47000), Session: futures},
			now:   ny(10, 12, 0),
			want: `{"balance":47500,"realized_pnl":-2500,"payouts_paid":0,"high_water_mark":50000,
				"drawdown_floor":48000,"drawdown_remaining":-500,"daily_loss_today":2500,"daily_loss_remaining":null,
				"profit_target_remaining":null,"trading_days":1,"min_trading_days_remaining":null,
				"best_day_pct":null,"consistency_ok":null,"max_position":1,
				"breaches":[{"rule":"max_drawdown","at":"2026-02-10T15:05:00Z","trading_day":"2026-02-10",
				"value":47500,"limit":48000,"trade_id":"t1"}]}`,
		},
		{
			// A max daily loss of 0: the first fill of the day, at 0, is at
			// the limit; the limit is 0, never -0.
			name: "max daily loss 0", fills: []Fill{fill(ny(10, 10, 0), "t1", 0, 0, 1)},
			rules: Rules{StartingBalance: 100, MaxDailyLoss: f64(0), Session: futures},
			now:   ny(10, 12, 0),
			want: `{"balance":100,"realized_pnl":0,"payouts_paid":0,"high_water_mark":100,
				"drawdown_floor":null,"drawdown_remaining":null,"daily_loss_today":0,"daily_loss_remaining":0,
				"profit_target_remaining":null,"trading_days":1,"min_trading_days_remaining":null,
				"best_day_pct":null,"consistency_ok":null,"max_position":1,
				"breaches":[{"rule":"max_daily_loss","at":"2026-02-10T15:00:00Z","trading_day":"2026-02-10",
				"value":0,"limit":0,"trade_id":"t1"}]}`,
		},
		{
			// No rules set: every rule's figure is null; the rest is given.
			name: "no rules", fills: peakGivenBack, rules: Rules{Session: futures}, now: now,
			want: `{"balance":-1600,"realized_pnl":-1600,"payouts_paid":0,"high_water_mark":1500,
				"drawdown_floor":null,"drawdown_remaining":null,"daily_loss_today":0,"daily_loss_remaining":null,
				"profit_target_remaining":null,"trading_days":2,"min_trading_days_remaining":null,
				"best_day_pct":null,"consistency_ok":null,"max_position":1,"breaches":[]}`,
		},
		{
			name: "no fills", rules: Rules{StartingBalance: 25000, MaxDrawdown: f64(1500), DrawdownMode: Trailing,
				MinTradingDays: num(7), ProfitTarget: f64(1500), ConsistencyPct: f64(30), Session: futures}, now: now,
			want: `{"balance":25000,"realized_pnl":0,"payouts_paid":0,"high_water_mark":25000,
				"drawdown_floor":23500,"drawdown_remaining":1500,"daily_loss_today":0,"daily_loss_remaining":null,
				"profit_target_remaining":1500,"trading_days":0,"min_trading_days_remaining":7,
				"best_day_pct":null,"consistency_ok":null,"max_position":0,"breaches":[]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Walk(tt.rules, tt.fills, tt.payouts, tt.now)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := json.Marshal(s)
			var g, w any
			json.Unmarshal(got, &g)
			if err := json.Unmarshal([]byte(tt.want), &w); err != nil {
				t.Fatalf("want: %v", err)
			}
			delete(g.(map[string]any), "evaluated_at")
			gj, _ := json.Marshal(g)
			wj, _ := json.Marshal(w)
			if string(gj) != string(wj) {
				t.Errorf("status\n got %s\nwant %s", gj, wj)
			}
		})
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		total, pct     float64
		traders, firms float64
	}{
		{5000, 80, 4000, 1000},
		{5000, 100, 5000, 0},
		{5000, 0, 0, 5000},
		{1234.57, 33.33, 411.482181, 823.087819}, // not rounded to cents
		{0.01, 50, 0.005, 0.005},
		{0.1, 30, 0.03, 0.07}, // not 0.030000000000000002 and 0.06999999999999999
		{2500.10, 90, 2250.09, 250.01},
		{15.625, 33.333, 5.20828125, 10.41671875},
		{1, 33.33333333, 0.33333333, 0.66666667},
		{1e9, 12.34, 123400000, 876600000},
	}
	for _, tt := range tests {
		traders, firms := Split(tt.total, tt.pct)
		if traders != tt.traders || firms != tt.firms {
			t.Errorf("Split(%v, %v) = %v / %v, want %v / %v", tt.total, tt.pct, traders, firms, tt.traders, tt.firms)
		}
	}
}
