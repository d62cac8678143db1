package stats

import (
	"reflect"
	"testing"
)

func tr(day string, net float64, status string) Point {
	return Point{Day: day, NetPnL: net, Status: status}
}

func TestStreaks(t *testing.T) {
	for _, c := range []struct {
		name         string
		trades       []Point
		wins, losses int
	}{
		{"none", nil, 0, 0},
		{"one win", []Point{tr("d", 5, "win")}, 1, 0},
		{"a scratch neither breaks nor extends", []Point{
			tr("d", 5, "win"), tr("d", 0, "breakeven"), tr("d", 5, "win"), tr("d", -1, "loss"), tr("d", 2, "win")}, 2, 1},
		{"losses then wins", []Point{
			tr("d", -1, "loss"), tr("d", -1, "loss"), tr("d", 0, "breakeven"), tr("d", -1, "loss"),
			tr("d", 1, "win"), tr("d", 1, "win")}, 2, 3},
		{"only scratches", []Point{tr("d", 0, "breakeven"), tr("d", 0, "breakeven")}, 0, 0},
	} {
		w, l := Streaks(c.trades)
		if w != c.wins || l != c.losses {
			t.Errorf("%s: streaks %d/%d, want %d/%d", c.name, w, l, c.wins, c.losses)
		}
	}
}

func TestMaxDrawdown(t *testing.T) {
	p := func(day string, net float64) Point { return Point{Day: day, NetPnL: net} }
	for _, c := range []struct {
		name   string
		points []Point
		want   Drawdown
	}{
		{"none", nil, Drawdown{}},
		{"only up", []Point{p("a", 10), p("b", 5)}, Drawdown{}},
		// The first point falls from the starting 0, dated its own day.
		{"down from the start", []Point{p("a", -100), p("b", 30), p("c", -50)}, Drawdown{120, "a", "c"}},
		// Cumulative: 100, 40, 90, -10 (fall 110 from 100), 200, 150.
		{"peak then deeper trough", []Point{p("a", 100), p("b", -60), p("c", 50), p("d", -100), p("e", 210), p("f", -50)},
			Drawdown{110, "a", "d"}},
		// Two equal falls of 50: the first counts.
		{"equal falls", []Point{p("a", 50), p("b", -50), p("c", 100), p("d", -50)}, Drawdown{50, "a", "b"}},
		// 0.1 + 0.2 then back 0.3: the fall is 0.3, no float noise.
		{"cents", []Point{p("a", 0.1), p("b", 0.2), p("c", -0.3)}, Drawdown{0.3, "b", "c"}},
	} {
		if got := MaxDrawdown(c.points); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestCurve(t *testing.T) {
	got := Curve([]Point{{Day: "a", NetPnL: -20}, {Day: "b", NetPnL: 50}, {Day: "c", NetPnL: -10.5}, {Day: "d", NetPnL: 0.1}, {Day: "e", NetPnL: 0.2}})
	want := []CurvePoint{
		{Point{Day: "a", NetPnL: -20}, -20, -20}, // the peak starts at 0
		{Point{Day: "b", NetPnL: 50}, 30, 0},
		{Point{Day: "c", NetPnL: -10.5}, 19.5, -10.5},
		{Point{Day: "d", NetPnL: 0.1}, 19.6, -10.4},
		{Point{Day: "e", NetPnL: 0.2}, 19.8, -10.2},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("curve:\n got %+v\nwant %+v", got, want)
	}
	if got := Curve(nil); len(got) != 0 {
		t.Errorf("empty curve: %v", got)
	}
}

func TestDays(t *testing.T) {
	days := Days([]Point{tr("2026-03-02", 100, "win"), tr("2026-03-02", -40.25, "loss"), tr("2026-03-03", 0, "breakeven"),
		tr("2026-03-04", -80, "loss"), tr("2026-03-05", 59.75, "win"), tr("2026-03-06", -80, "loss"), tr("2026-03-09", 0.1, "win"), tr("2026-03-09", 0.2, "win")})
	want := []DayTotal{{"2026-03-02", 59.75}, {"2026-03-03", 0}, {"2026-03-04", -80}, {"2026-03-05", 59.75}, {"2026-03-06", -80}, {"2026-03-09", 0.3}}
	if !reflect.DeepEqual(days, want) {
		t.Fatalf("days:\n got %v\nwant %v", days, want)
	}
	c := CountDays(days)
	// Best and worst are the earliest of equal days; a flat day neither wins nor loses.
	if c.Trading != 6 || c.Winning != 3 || c.Losing != 2 || *c.Best != want[0] || *c.Worst != want[2] {
		t.Errorf("counts: %d/%d/%d best %v worst %v", c.Trading, c.Winning, c.Losing, c.Best, c.Worst)
	}
	// Only losing days: the best day is the least bad.
	c = CountDays([]DayTotal{{"a", -5}, {"b", -1}})
	if c.Best.Date != "b" || c.Worst.Date != "a" || c.Winning != 0 || c.Losing != 2 {
		t.Errorf("losing days: %+v best %v worst %v", c, c.Best, c.Worst)
	}
	if c := CountDays(nil); c.Trading != 0 || c.Best != nil || c.Worst != nil {
		t.Errorf("no days: %+v", c)
	}
}

func TestRatios(t *testing.T) {
	f := func(p *float64) any {
		if p == nil {
			return nil
		}
		return *p
	}
	for _, c := range []struct {
		name string
		got  *float64
		want any
	}{
		{"win rate 2 of 3, breakeven left out", WinRate(2, 1), 0.66666667},
		{"win rate without wins or losses", WinRate(0, 0), nil},
		{"win rate all losses", WinRate(0, 4), 0.0},
		{"profit factor", ProfitFactor(300, -120, 2), 2.5},
		{"profit factor without losses", ProfitFactor(300, 0, 0), nil},
		{"profit factor with losses and no wins", ProfitFactor(0, -50, 1), 0.0},
		{"profit factor over losses that sum to 0", ProfitFactor(10, 0, 1), nil},
		{"ratio of cents", Ratio(0.3, 3), 0.1},
		{"ratio over 0", Ratio(1, 0), nil},
	} {
		if got := f(c.got); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestDay(t *testing.T) {
	exit := "2026-03-10"
	if got := Day(&exit, "2026-03-09"); got != exit {
		t.Errorf("closed trade's day %s, want its exit date", got)
	}
	if got := Day(nil, "2026-03-09"); got != "2026-03-09" {
		t.Errorf("trade without exit: %s, want its entry date", got)
	}
}

func TestTally(t *testing.T) {
	o := Tally([]Point{tr("a", 10, "win"), tr("a", -3.5, "loss"), tr("a", 0, "breakeven"), tr("b", 25.25, "win"),
		tr("b", -7, "loss"), tr("b", 2, "win"), tr("c", -1, "loss")})
	if o.Wins != 3 || o.Losses != 3 || o.Breakeven != 1 || o.WinSum != 37.25 || o.LossSum != -11.5 ||
		*o.LargestWin != 25.25 || *o.LargestLoss != -7 {
		t.Errorf("tally: %+v", o)
	}
	// A loss marked by hand on a positive net is still the largest loss.
	o = Tally([]Point{tr("a", 5, "loss")})
	if o.Wins != 0 || o.LargestWin != nil || *o.LargestLoss != 5 {
		t.Errorf("one loss: %+v", o)
	}
	if o := Tally(nil); o != (Outcomes{}) {
		t.Errorf("no trades: %+v", o)
	}
}
