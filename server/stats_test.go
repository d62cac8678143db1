package server_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"tradejournal/db"
)

// leg is one fill: at is a wall-clock time in the user's timezone
// ("2026-03-02 09:30:00") or a UTC timestamp ("2026-03-03T23:00:00Z").
func leg(side string, qty, price, commission float64, at string) string {
	when := fmt.Sprintf(`"execution_timestamp": %q`, at)
	if date, clock, ok := strings.Cut(at, " "); ok {
		when = fmt.Sprintf(`"execution_date": %q, "execution_time": %q`, date, clock)
	}
	return fmt.Sprintf(`{"side": %q, "quantity": %g, "price": %g, "commission": %g, %s}`, side, qty, price, commission, when)
}

// statsJournal is the hand-made journal of the statistics tests: 13 closed
// trades and an open one, in New York (the user's default timezone), on two
// accounts. In the order the statistics walk them (exit, then id):
//
//	    day         trade                               gross  comm     net  hold     R
//	t1  2026-03-02  MNQH6 long 1  20000→20050 (A, 5*)     100     1      99  900      2
//	t2  2026-03-02  ESH6 long 2   5000→4998 (A, B, 2*)   -200   4.5  -204.5  120   -0.5
//	t3  2026-03-02  AAPL long 100 180→180                   0     0       0  30
//	t4  2026-03-03  MNQH6 short 1 20100→20120             -40     1     -41  12600
//	                18:00 to 21:30 in New York: the exit is March 4th in UTC
//	t5  2026-03-04  ESH6 long 1   5010→5005 (Risk)       -250   4.5  -254.5  900     -1
//	t6  2026-03-04  MNQH6 long 2  20000→20010 (B)          40     1      39  3600
//	t8  2026-03-06  MNQH6 long 1  20000→19990             -20     1     -21  120
//	t7  2026-03-06  AAPL long 50  181→183, in on the 5th  100     2      98  88200
//	t9  2026-03-06  ESH6 short 1  5000→4990 (ORB, Risk, 4*) 500 4.5   495.5  600    2.5
//	t10 2026-03-09  MNQH6 long 1  20000→20100             200     1     199  300
//	t11 2026-03-09  MNQH6 long 1  20000→20000               0     0       0  60
//	t12 2026-03-10  ESH6 long 1   5000→5002, account TS   100   4.5    95.5  600
//	t14 2026-03-11  MSFT long 10  400→410, no fills       100     0     100  21600   2
//	t13             MNQH6 long 1, open
type statsJournal struct {
	*tradeEnv
	ts, tagA, tagB, orb, risk string
	ids                       map[string]string
}

func newStatsJournal(t *testing.T) *statsJournal {
	e := newTradeEnv(t)
	j := &statsJournal{tradeEnv: e, ids: map[string]string{}}
	j.ts = e.createAccount(t, e.key, `{"account_number": "TS-1", "name": "Topstep 50K"}`).ID
	g := e.newGroup(t, e.key, "Setups")
	j.tagA, j.tagB = e.newTag(t, e.key, g.ID, "A").ID, e.newTag(t, e.key, g.ID, "B").ID
	j.orb = e.createPlaybook(t, e.key, `{"title": "ORB"}`).ID
	j.risk = e.createStrategy(t, e.key, `{"title": "Risk", "strategy_rules": []}`).ID
	add := func(name, account, symbol, side, entryDate, extra string, legs ...string) {
		body := fmt.Sprintf(`{"account_id": %q, "symbol": %q, "side": %q, "entry_date": %q`, account, symbol, side, entryDate)
		if len(legs) > 0 {
			body += `, "executions": [` + strings.Join(legs, ", ") + `]`
		}
		if extra != "" {
			body += ", " + extra
		}
		tr, _ := e.create(t, body+"}")
		j.ids[name] = tr.ID
	}
	a := e.accountID
	tags := func(ids ...string) string { return `"tag_ids": ["` + strings.Join(ids, `", "`) + `"]` }
	add("t1", a, "MNQH6", "long", "2026-03-02", tags(j.tagA)+`, "star_rating": 5, "stop_loss_levels": [{"price": 19975}], "playbook_id": "`+j.orb+`"`,
		leg("buy", 1, 20000, 0.5, "2026-03-02 09:30:00"), leg("sell", 1, 20050, 0.5, "2026-03-02 09:45:00"))
	add("t2", a, "ESH6", "long", "2026-03-02", tags(j.tagA, j.tagB)+`, "star_rating": 2, "stop_loss_levels": [{"price": 4996}]`,
		leg("buy", 2, 5000, 2.25, "2026-03-02 10:00:00"), leg("sell", 2, 4998, 2.25, "2026-03-02 10:02:00"))
	add("t3", a, "AAPL", "long", "2026-03-02", "",
		leg("buy", 100, 180, 0, "2026-03-02 11:00:00"), leg("sell", 100, 180, 0, "2026-03-02 11:00:30"))
	add("t4", a, "MNQH6", "short", "2026-03-03", "",
		leg("sell", 1, 20100, 0.5, "2026-03-03T23:00:00Z"), leg("buy", 1, 20120, 0.5, "2026-03-04T02:30:00Z"))
	add("t5", a, "ESH6", "long", "2026-03-04", `"stop_loss_levels": [{"price": 5005}], "risk_management_strategy_ids": ["`+j.risk+`"]`,
		leg("buy", 1, 5010, 2.25, "2026-03-04 09:35:00"), leg("sell", 1, 5005, 2.25, "2026-03-04 09:50:00"))
	add("t6", a, "MNQH6", "long", "2026-03-04", tags(j.tagB),
		leg("buy", 2, 20000, 0.5, "2026-03-04 13:00:00"), leg("sell", 2, 20010, 0.5, "2026-03-04 14:00:00"))
	add("t7", a, "AAPL", "long", "2026-03-05", "",
		leg("buy", 50, 181, 1, "2026-03-05 09:30:00"), leg("sell", 50, 183, 1, "2026-03-06 10:00:00"))
	add("t8", a, "MNQH6", "long", "2026-03-06", "",
		leg("buy", 1, 20000, 0.5, "2026-03-06 09:31:00"), leg("sell", 1, 19990, 0.5, "2026-03-06 09:33:00"))
	add("t9", a, "ESH6", "short", "2026-03-06", `"star_rating": 4, "stop_loss_levels": [{"price": 5004}], "playbook_id": "`+j.orb+
		`", "risk_management_strategy_ids": ["`+j.risk+`"]`,
		leg("sell", 1, 5000, 2.25, "2026-03-06 15:00:00"), leg("buy", 1, 4990, 2.25, "2026-03-06 15:10:00"))
	add("t10", a, "MNQH6", "long", "2026-03-09", "",
		leg("buy", 1, 20000, 0.5, "2026-03-09 09:30:00"), leg("sell", 1, 20100, 0.5, "2026-03-09 09:35:00"))
	add("t11", a, "MNQH6", "long", "2026-03-09", "",
		leg("buy", 1, 20000, 0, "2026-03-09 10:00:00"), leg("sell", 1, 20000, 0, "2026-03-09 10:01:00"))
	add("t12", j.ts, "ESH6", "long", "2026-03-10", "",
		leg("buy", 1, 5000, 2.25, "2026-03-10 09:30:00"), leg("sell", 1, 5002, 2.25, "2026-03-10 09:40:00"))
	add("t13", a, "MNQH6", "long", "2026-03-10", "", leg("buy", 1, 20000, 0.5, "2026-03-10 11:00:00"))
	add("t14", a, "MSFT", "long", "2026-03-11", `"entry_time": "09:30:00", "quantity": 10, "entry_price": 400, "exit_price": 410,
		"exit_time": "15:30:00", "stop_loss_levels": [{"price": 395}]`)
	return j
}

// get reads a statistic and fails unless it is a 200.
func (j *statsJournal) get(t *testing.T, target string) string {
	t.Helper()
	status, b := j.do(t, "GET", target, j.key, "")
	if status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", target, status, b)
	}
	return strings.TrimSpace(string(b))
}

func TestStatsSummary(t *testing.T) {
	j := newStatsJournal(t)
	// Every figure by hand from the table of statsJournal. Wins 99 + 39 +
	// 98 + 495.5 + 199 + 95.5 + 100 = 1126 over 7; losses -204.5 - 41 -
	// 254.5 - 21 = -521 over 4. Streaks: t2 loss, t3 scratch, t4 and t5
	// losses make 3; t7, t9, t10, t11 scratch, t12, t14 make 5 wins. The
	// equity peaks at 99 after t1 and falls to -401 after t5: 500. Days:
	// 03-02 -105.5, 03-03 -41, 03-04 -215.5, 03-06 572.5, 03-09 199,
	// 03-10 95.5, 03-11 100. Held 129630 s over 13 trades: 9971.5 → 9971.
	want := `{"data":{"trades":13,"wins":7,"losses":4,"breakeven":2,"open_trades":1,"win_rate":0.63636364,` +
		`"gross_pnl":630,"commissions":25,"net_pnl":605,"avg_win":160.85714286,"avg_loss":-130.25,` +
		`"largest_win":495.5,"largest_loss":-254.5,"profit_factor":2.16122841,"expectancy":46.53846154,"avg_r":1,` +
		`"max_consecutive_wins":5,"max_consecutive_losses":3,"max_drawdown":500,"max_drawdown_start":"2026-03-02",` +
		`"max_drawdown_end":"2026-03-04","trading_days":7,"winning_days":4,"losing_days":3,` +
		`"best_day":{"date":"2026-03-06","net_pnl":572.5},"worst_day":{"date":"2026-03-04","net_pnl":-215.5},` +
		`"avg_hold_seconds":9971}}`
	if got := j.get(t, "/api/v1/stats/summary"); got != want {
		t.Errorf("summary:\n got %s\nwant %s", got, want)
	}
}

func TestStatsDailyAndEquity(t *testing.T) {
	j := newStatsJournal(t)
	// t4 closed at 21:30 in New York on March 3rd, 02:30 UTC on the 4th:
	// it is March 3rd's. t7, in on the 5th, counts on the 6th, its exit.
	want := `{"data":[` +
		`{"date":"2026-03-02","trades":3,"wins":1,"losses":1,"breakeven":1,"gross_pnl":-100,"commissions":5.5,"net_pnl":-105.5},` +
		`{"date":"2026-03-03","trades":1,"wins":0,"losses":1,"breakeven":0,"gross_pnl":-40,"commissions":1,"net_pnl":-41},` +
		`{"date":"2026-03-04","trades":2,"wins":1,"losses":1,"breakeven":0,"gross_pnl":-210,"commissions":5.5,"net_pnl":-215.5},` +
		`{"date":"2026-03-06","trades":3,"wins":2,"losses":1,"breakeven":0,"gross_pnl":580,"commissions":7.5,"net_pnl":572.5},` +
		`{"date":"2026-03-09","trades":2,"wins":1,"losses":0,"breakeven":1,"gross_pnl":200,"commissions":1,"net_pnl":199},` +
		`{"date":"2026-03-10","trades":1,"wins":1,"losses":0,"breakeven":0,"gross_pnl":100,"commissions":4.5,"net_pnl":95.5},` +
		`{"date":"2026-03-11","trades":1,"wins":1,"losses":0,"breakeven":0,"gross_pnl":100,"commissions":0,"net_pnl":100}]}`
	if got := j.get(t, "/api/v1/stats/daily"); got != want {
		t.Errorf("daily:\n got %s\nwant %s", got, want)
	}

	// Over day closes, the peak starting at 0.
	want = `{"data":[` +
		`{"date":"2026-03-02","net_pnl":-105.5,"equity":-105.5,"drawdown":-105.5},` +
		`{"date":"2026-03-03","net_pnl":-41,"equity":-146.5,"drawdown":-146.5},` +
		`{"date":"2026-03-04","net_pnl":-215.5,"equity":-362,"drawdown":-362},` +
		`{"date":"2026-03-06","net_pnl":572.5,"equity":210.5,"drawdown":0},` +
		`{"date":"2026-03-09","net_pnl":199,"equity":409.5,"drawdown":0},` +
		`{"date":"2026-03-10","net_pnl":95.5,"equity":505,"drawdown":0},` +
		`{"date":"2026-03-11","net_pnl":100,"equity":605,"drawdown":0}]}`
	for _, target := range []string{"/api/v1/stats/equity", "/api/v1/stats/equity?resolution=day"} {
		if got := j.get(t, target); got != want {
			t.Errorf("%s:\n got %s\nwant %s", target, got, want)
		}
	}

	// Trade by trade, in exit order: t8 left on the 6th before t7 and t9.
	var sb strings.Builder
	equity, peak := 0.0, 0.0
	for _, c := range []struct {
		name, day string
		net       float64
	}{{"t1", "02", 99}, {"t2", "02", -204.5}, {"t3", "02", 0}, {"t4", "03", -41}, {"t5", "04", -254.5}, {"t6", "04", 39},
		{"t8", "06", -21}, {"t7", "06", 98}, {"t9", "06", 495.5}, {"t10", "09", 199}, {"t11", "09", 0}, {"t12", "10", 95.5},
		{"t14", "11", 100}} {
		equity += c.net // every sum here is exact in binary
		peak = max(peak, equity)
		fmt.Fprintf(&sb, `{"date":"2026-03-%s","trade_id":%q,"net_pnl":%g,"equity":%g,"drawdown":%g},`,
			c.day, j.ids[c.name], c.net, equity, equity-peak)
	}
	want = `{"data":[` + strings.TrimSuffix(sb.String(), ",") + `]}`
	if got := j.get(t, "/api/v1/stats/equity?resolution=trade"); got != want {
		t.Errorf("equity by trade:\n got %s\nwant %s", got, want)
	}
}

// figures picks trades, net_pnl (and open_trades) out of a summary.
func figures(t *testing.T, body string) string {
	s := decode[struct{ Data db.StatsSummary }](t, []byte(body)).Data
	return fmt.Sprintf("%d trades, net %g, %d open", s.Trades, s.NetPnL, s.OpenTrades)
}

func TestStatsFilters(t *testing.T) {
	j := newStatsJournal(t)
	for _, c := range []struct{ query, want string }{
		{"account_id=" + j.ts, "1 trades, net 95.5, 0 open"},
		{"account_id=" + j.accountID, "12 trades, net 509.5, 1 open"},
		// By the trade's day: t7, in on the 5th, is the 6th's; t4 is the 3rd's.
		{"start_date=2026-03-06&end_date=2026-03-06", "3 trades, net 572.5, 1 open"},
		{"start_date=2026-03-03&end_date=2026-03-04", "3 trades, net -256.5, 1 open"},
		{"start_date=2026-03-05&end_date=2026-03-05", "0 trades, net 0, 1 open"},
		{"tags=" + j.tagA, "2 trades, net -105.5, 0 open"},
		{"tags=" + j.tagA + "," + j.tagB, "3 trades, net -66.5, 0 open"},
		{"symbol=MNQ", "6 trades, net 275, 1 open"},
		{"symbol=AAPL", "2 trades, net 98, 0 open"},
		{"playbook_id=" + j.orb, "2 trades, net 594.5, 0 open"},
		{"status=win", "7 trades, net 1126, 0 open"},
		{"status=open", "0 trades, net 0, 1 open"},
		{"side=short", "2 trades, net 454.5, 0 open"},
		{"asset_class=stocks", "3 trades, net 198, 0 open"},
		{"min_rating=4", "2 trades, net 594.5, 0 open"},
	} {
		if got := figures(t, j.get(t, "/api/v1/stats/summary?"+c.query)); got != c.want {
			t.Errorf("summary?%s: %s, want %s", c.query, got, c.want)
		}
	}
	// Daily and equity take the same filters.
	want := `{"data":[{"date":"2026-03-06","trades":3,"wins":2,"losses":1,"breakeven":0,"gross_pnl":580,"commissions":7.5,"net_pnl":572.5}]}`
	if got := j.get(t, "/api/v1/stats/daily?start_date=2026-03-06&end_date=2026-03-06"); got != want {
		t.Errorf("daily of the 6th:\n got %s\nwant %s", got, want)
	}
	want = `{"data":[{"date":"2026-03-10","net_pnl":95.5,"equity":95.5,"drawdown":0}]}`
	if got := j.get(t, "/api/v1/stats/equity?account_id="+j.ts); got != want {
		t.Errorf("equity of account TS:\n got %s\nwant %s", got, want)
	}
}

func TestStatsEmpty(t *testing.T) {
	j := newStatsJournal(t)
	// Nothing closed in February; the open trade still counts.
	want := `{"data":{"trades":0,"wins":0,"losses":0,"breakeven":0,"open_trades":1,"win_rate":null,` +
		`"gross_pnl":0,"commissions":0,"net_pnl":0,"avg_win":null,"avg_loss":null,"largest_win":null,"largest_loss":null,` +
		`"profit_factor":null,"expectancy":null,"avg_r":null,"max_consecutive_wins":0,"max_consecutive_losses":0,` +
		`"max_drawdown":0,"max_drawdown_start":null,"max_drawdown_end":null,"trading_days":0,"winning_days":0,` +
		`"losing_days":0,"best_day":null,"worst_day":null,"avg_hold_seconds":null}}`
	feb := "start_date=2026-02-01&end_date=2026-02-28"
	if got := j.get(t, "/api/v1/stats/summary?"+feb); got != want {
		t.Errorf("empty summary:\n got %s\nwant %s", got, want)
	}
	for _, target := range []string{"daily?" + feb, "equity?" + feb, "equity?resolution=trade&" + feb, "breakdown?by=tag&" + feb} {
		if got := j.get(t, "/api/v1/stats/"+target); got != `{"data":[]}` {
			t.Errorf("%s: %s, want no rows", target, got)
		}
	}
	// Only losses: profit factor 0, no average win; only wins: no
	// profit factor, no drawdown.
	s := decode[struct{ Data db.StatsSummary }](t, []byte(j.get(t, "/api/v1/stats/summary?status=loss"))).Data
	if s.ProfitFactor == nil || *s.ProfitFactor != 0 || s.AvgWin != nil || s.LargestWin != nil || *s.WinRate != 0 {
		t.Errorf("losses only: %+v", s)
	}
	s = decode[struct{ Data db.StatsSummary }](t, []byte(j.get(t, "/api/v1/stats/summary?status=win"))).Data
	if s.ProfitFactor != nil || s.MaxDrawdown != 0 || s.MaxDrawdownStart != nil || s.AvgLoss != nil || *s.WinRate != 1 {
		t.Errorf("wins only: %+v", s)
	}
}

func TestStatsBreakdown(t *testing.T) {
	j := newStatsJournal(t)
	str := func(p *string) string {
		if p == nil {
			return "null"
		}
		return *p
	}
	// key label trades/wins/losses net, in the answer's order.
	for _, c := range []struct{ by, want string }{
		{"symbol", "MNQH6 MNQH6 6/3/2 275; ESH6 ESH6 4/2/2 132; MSFT MSFT 1/1/0 100; AAPL AAPL 2/1/0 98"},
		{"root", "MNQ MNQ 6/3/2 275; ES ES 4/2/2 132; MSFT MSFT 1/1/0 100; AAPL AAPL 2/1/0 98"},
		// t2 counts under both tags; the untagged trades are a bucket
		// ordered by its net P&L like any other (DESIGN §9).
		{"tag", "<nil> No tag 10/5/3 671.5; " + j.tagA + " A 2/1/1 -105.5; " + j.tagB + " B 2/1/1 -165.5"},
		{"playbook", j.orb + " ORB 2/2/0 594.5; <nil> No playbook 11/5/4 10.5"},
		{"strategy", "<nil> No strategy 11/6/3 364; " + j.risk + " Risk 2/1/1 241"},
		{"side", "short short 2/1/1 454.5; long long 11/6/3 150.5"},
		{"weekday", "1 Monday 5/2/1 93.5; 2 Tuesday 2/1/1 54.5; 3 Wednesday 3/2/1 -115.5; 4 Thursday 1/1/0 98; 5 Friday 2/1/1 474.5"},
		{"hour", "9 09:00 7/5/2 316; 10 10:00 2/0/1 -204.5; 11 11:00 1/0/0 0; 13 13:00 1/1/0 39; 15 15:00 1/1/0 495.5; 18 18:00 1/0/1 -41"},
		{"account", j.accountID + " APEX-1 12/6/4 509.5; " + j.ts + " Topstep 50K 1/1/0 95.5"},
		{"asset_class", "futures futures 10/5/4 407; stocks stocks 3/2/0 198"},
		{"rating", "4 4 stars 1/1/0 495.5; <nil> No rating 10/5/3 215; 5 5 stars 1/1/0 99; 2 2 stars 1/0/1 -204.5"},
		{"month", "2026-03 2026-03 13/7/4 605"},
		// Lower bounds inclusive: t10 held 300 s is 5-15m, t11 held 60 s 1-5m.
		{"duration", "<1m <1m 1/0/0 0; 1-5m 1-5m 3/0/2 -225.5; 5-15m 5-15m 3/3/0 790; 15-60m 15-60m 2/1/1 -155.5; " +
			"1-4h 1-4h 2/1/1 -2; 4h-1d 4h-1d 1/1/0 100; >1d >1d 1/1/0 98"},
	} {
		rows := decode[struct{ Data []db.BreakdownRow }](t, []byte(j.get(t, "/api/v1/stats/breakdown?by="+c.by))).Data
		var got []string
		for _, r := range rows {
			got = append(got, fmt.Sprintf("%v %s %d/%d/%d %g", r.Key, str(r.Label), r.Trades, r.Wins, r.Losses, r.NetPnL))
		}
		if strings.Join(got, "; ") != c.want {
			t.Errorf("by=%s:\n got %s\nwant %s", c.by, strings.Join(got, "; "), c.want)
		}
	}
	// Every field of one answer: weekday keys are JSON numbers. Monday:
	// t1 99, t2 -204.5, t3 0, t10 199, t11 0; R of t1 2 and t2 -0.5.
	body := j.get(t, "/api/v1/stats/breakdown?by=weekday&end_date=2026-03-02")
	want := `{"data":[{"key":1,"label":"Monday","trades":3,"wins":1,"losses":1,"win_rate":0.5,"net_pnl":-105.5,` +
		`"avg_net_pnl":-35.16666667,"profit_factor":0.48410758,"avg_r":0.75}]}`
	if body != want {
		t.Errorf("Monday the 2nd:\n got %s\nwant %s", body, want)
	}
}

func TestStatsBadQueries(t *testing.T) {
	e := newTradeEnv(t)
	for _, c := range []struct{ target, field string }{
		{"/api/v1/stats/breakdown", "by"},
		{"/api/v1/stats/breakdown?by=colour", "by"},
		{"/api/v1/stats/equity?resolution=week", "resolution"},
		{"/api/v1/stats/summary?account_id=nope", "account_id"},
		{"/api/v1/stats/daily?start_date=2026-13-01", "start_date"},
		{"/api/v1/stats/summary?status=closed", "status"},
		{"/api/v1/stats/breakdown?by=tag&tags=x", "tags"},
		{"/api/v1/stats/equity?min_pnl=lots", "min_pnl"},
	} {
		status, b := e.do(t, "GET", c.target, e.key, "")
		body := decode[struct {
			Error, Code string
			Details     map[string]string
		}](t, b)
		if status != http.StatusBadRequest || body.Code != "VALIDATION_ERROR" || body.Details[c.field] == "" {
			t.Errorf("%s: %d %s, want 400 naming %s", c.target, status, b, c.field)
		}
	}
	// A key without trades:read cannot read them.
	_, readOnlyDocs := e.newKey(t, "alice", "documents:read", false)
	if status, b := e.do(t, "GET", "/api/v1/stats/summary", readOnlyDocs, ""); status != http.StatusForbidden {
		t.Errorf("summary with documents:read: %d %s, want 403", status, b)
	}
}

// TestStatsFollowWrites: what the statistics read of a trade (its day, how
// long it was held, its P&L) follows every write: an import and its undo,
// an update that moves the exit, a re-pricing, a delete.
func TestStatsFollowWrites(t *testing.T) {
	j := newStatsJournal(t)
	raw := j.sql(t)
	summary := func(query string) db.StatsSummary {
		return decode[struct{ Data db.StatsSummary }](t, []byte(j.get(t, "/api/v1/stats/summary?"+query))).Data
	}
	check := func(step string) {
		t.Helper()
		if n := count(t, raw, `SELECT count(*) FROM trades WHERE day <> coalesce(exit_date, entry_date)`); n != 0 {
			t.Errorf("after %s: %d trades count on another day than their exit", step, n)
		}
	}

	// The morning import: 09:31-09:40 long, 10:00-10:05 short, 10:05-10:20
	// long (the 10:05 fill crosses), held 540 + 300 + 900 s.
	imp := j.mustImport(t, j.key, morning, http.StatusCreated)
	check("an import")
	dec1 := "start_date=2025-12-01&end_date=2025-12-01"
	if s := summary(dec1); s.Trades != 3 || *s.AvgHoldSeconds != 580 {
		t.Errorf("imported morning: %d trades held %v s on average, want 3 and 580", s.Trades, *s.AvgHoldSeconds)
	}
	if status, b := j.do(t, "DELETE", "/api/v1/imports/"+*imp.ID, j.key, ""); status != http.StatusOK {
		t.Fatalf("undo: %d %s", status, b)
	}
	if s := summary(dec1); s.Trades != 0 {
		t.Errorf("after the undo: %d trades on 2025-12-01", s.Trades)
	}

	// t3 now exits on the 5th, an hour later, for 30 more.
	j.put(t, j.ids["t3"], `{"executions": [`+leg("buy", 100, 180, 0, "2026-03-02 11:00:00")+", "+
		leg("sell", 100, 180.3, 0, "2026-03-05 12:00:00")+`]}`)
	check("an update")
	if got, want := j.get(t, "/api/v1/stats/daily?start_date=2026-03-05&end_date=2026-03-05"),
		`{"data":[{"date":"2026-03-05","trades":1,"wins":1,"losses":0,"breakeven":0,"gross_pnl":30,"commissions":0,"net_pnl":30}]}`; got != want {
		t.Errorf("the 5th after moving t3:\n got %s\nwant %s", got, want)
	}
	if n := count(t, raw, `SELECT hold_seconds FROM trades WHERE id = ?`, j.ids["t3"]); n != 3*86400+3600 {
		t.Errorf("t3 held %d s, want %d", n, 3*86400+3600)
	}

	// MNQ at 4 dollars a point doubles its six trades' gross, 280 → 560,
	// less their 5 in commissions: 555.
	if status, b := j.do(t, "PUT", "/api/v1/instruments/MNQ", j.key, `{"point_value": 4}`); status != http.StatusOK {
		t.Fatalf("re-price MNQ: %d %s", status, b)
	}
	check("a re-pricing")
	if s := summary("symbol=MNQ"); s.NetPnL != 555 || s.Trades != 6 {
		t.Errorf("MNQ at 4 a point: %d trades net %v, want 6 net 555", s.Trades, s.NetPnL)
	}

	if status, b := j.do(t, "DELETE", "/api/v1/trades/"+j.ids["t9"], j.key, ""); status != http.StatusOK {
		t.Fatalf("delete t9: %d %s", status, b)
	}
	if s := summary("playbook_id=" + j.orb); s.Trades != 1 || s.NetPnL != 99*2+1 {
		t.Errorf("ORB after deleting t9: %d trades net %v, want t1 alone at 199", s.Trades, s.NetPnL)
	}

	// The open t13 marked a win by hand has no exit: it counts on its
	// entry date, beside t12, and no longer as open.
	j.put(t, j.ids["t13"], `{"status": "win"}`)
	check("a status set by hand")
	if s := summary("start_date=2026-03-10&end_date=2026-03-10"); s.Trades != 2 || s.Wins != 2 || s.OpenTrades != 0 {
		t.Errorf("the 10th after closing t13 by hand: %d trades, %d wins, %d open; want 2, 2, 0", s.Trades, s.Wins, s.OpenTrades)
	}
}
