// Package stats holds the statistics' computations that need no database:
// a trade's day, streaks, drawdown, the equity curve, day grouping and the
// ratios, each defined once (DESIGN §9). The db package aggregates in SQL
// and hands what needs the trades' order here.
package stats

import (
	"math"

	"tradejournal/db/trading"
)

// Day is the day a closed trade counts on: its exit date, else its entry
// date (a trade marked closed by hand before any exit). Both are stored in
// the user's timezone, so a New York evening's exit at 02:30 UTC is still
// that evening's day. Every statistic buckets trades by this day.
func Day(exitDate *string, entryDate string) string {
	if exitDate != nil {
		return *exitDate
	}
	return entryDate
}

// Point is one closed trade, or one day of them, in order: what the
// statistics that need the order read. A day has no trade id and no status.
type Point struct {
	Day     string
	TradeID string
	NetPnL  float64
	Status  string // win, loss or breakeven
}

// Streaks are the longest runs of wins and of losses in order. A breakeven
// trade neither extends nor breaks a run.
func Streaks(trades []Point) (wins, losses int) {
	var w, l int
	for _, t := range trades {
		switch t.Status {
		case "win":
			w, l = w+1, 0
		case "loss":
			w, l = 0, l+1
		}
		wins, losses = max(wins, w), max(losses, l)
	}
	return wins, losses
}

// Drawdown is the largest fall of cumulative net P&L from a running peak,
// as a positive amount, with the day of the peak and the day of the trough;
// the days are empty when it never fell.
type Drawdown struct {
	Amount     float64
	Start, End string
}

// MaxDrawdown walks the points in order from 0. The peak before the first
// point is that 0, dated the first point's day. Of equal falls the first
// counts.
func MaxDrawdown(points []Point) Drawdown {
	var d Drawdown
	if len(points) == 0 {
		return d
	}
	equity, peak, peakDay := 0.0, 0.0, points[0].Day
	for _, p := range points {
		equity += p.NetPnL
		if equity > peak {
			peak, peakDay = equity, p.Day
		}
		if fall := trading.Round8(peak - equity); fall > d.Amount {
			d = Drawdown{Amount: fall, Start: peakDay, End: p.Day}
		}
	}
	return d
}

// CurvePoint is a point of the equity curve: the cumulative net P&L after
// it, and its distance below the running peak (0 or negative), the peak
// starting at 0.
type CurvePoint struct {
	Point
	Equity   float64
	Drawdown float64
}

// Curve is the equity curve of the points in order.
func Curve(points []Point) []CurvePoint {
	out := make([]CurvePoint, len(points))
	equity, peak := 0.0, 0.0
	for i, p := range points {
		equity += p.NetPnL
		peak = max(peak, equity)
		out[i] = CurvePoint{Point: p, Equity: trading.Round8(equity), Drawdown: trading.Round8(equity - peak)}
	}
	return out
}

// DayTotal is one day's net P&L.
type DayTotal struct {
	Date   string
	NetPnL float64
}

// Days groups trades in order into their days' net P&L, in the same order.
func Days(trades []Point) []DayTotal {
	var out []DayTotal
	for _, t := range trades {
		if n := len(out); n > 0 && out[n-1].Date == t.Day {
			out[n-1].NetPnL += t.NetPnL
			continue
		}
		out = append(out, DayTotal{Date: t.Day, NetPnL: t.NetPnL})
	}
	for i := range out {
		out[i].NetPnL = trading.Round8(out[i].NetPnL)
	}
	return out
}

// DayCounts are the days' figures of a summary: how many days traded, won
// (net above 0) and lost (below 0), and the best and worst day whatever
// their sign, the earliest of equal days; nil without days.
type DayCounts struct {
	Trading, Winning, Losing int
	Best, Worst              *DayTotal
}

// CountDays summarises days.
func CountDays(days []DayTotal) DayCounts {
	c := DayCounts{Trading: len(days)}
	for i, d := range days {
		switch {
		case d.NetPnL > 0:
			c.Winning++
		case d.NetPnL < 0:
			c.Losing++
		}
		if c.Best == nil || d.NetPnL > c.Best.NetPnL {
			c.Best = &days[i]
		}
		if c.Worst == nil || d.NetPnL < c.Worst.NetPnL {
			c.Worst = &days[i]
		}
	}
	return c
}

// Ratio is a / b to 8 decimals, nil when b is 0.
func Ratio(a, b float64) *float64 {
	if b == 0 {
		return nil
	}
	r := trading.Round8(a / b)
	return &r
}

// WinRate is wins / (wins + losses), breakeven trades left out; nil without
// either.
func WinRate(wins, losses int) *float64 {
	return Ratio(float64(wins), float64(wins+losses))
}

// ProfitFactor is the sum of the wins over the size of the sum of the
// losses: nil without losses, 0 with losses and no wins.
func ProfitFactor(winSum, lossSum float64, losses int) *float64 {
	if losses == 0 {
		return nil
	}
	return Ratio(winSum, math.Abs(lossSum))
}

// Duration buckets of a breakdown by how long trades were held, each from
// its lower bound inclusive.
var Durations = []struct {
	Key   string
	Below int64 // seconds; 0 for the last, unbounded
}{
	{"<1m", 60}, {"1-5m", 300}, {"5-15m", 900}, {"15-60m", 3600}, {"1-4h", 4 * 3600}, {"4h-1d", 86400}, {">1d", 0},
}

// Outcomes counts wins, losses and breakeven trades, sums the wins' and the
// losses' net P&L, and finds the largest win and loss (nil without one).
type Outcomes struct {
	Wins, Losses, Breakeven int
	WinSum, LossSum         float64
	LargestWin, LargestLoss *float64
}

// Tally counts the trades' outcomes by their status.
func Tally(trades []Point) Outcomes {
	var o Outcomes
	var largestWin, largestLoss float64
	for _, t := range trades {
		switch t.Status {
		case "win":
			if o.Wins == 0 || t.NetPnL > largestWin {
				largestWin = t.NetPnL
			}
			o.Wins++
			o.WinSum += t.NetPnL
		case "loss":
			if o.Losses == 0 || t.NetPnL < largestLoss {
				largestLoss = t.NetPnL
			}
			o.Losses++
			o.LossSum += t.NetPnL
		default:
			o.Breakeven++
		}
	}
	if o.Wins > 0 {
		o.LargestWin = &largestWin
	}
	if o.Losses > 0 {
		o.LargestLoss = &largestLoss
	}
	return o
}
