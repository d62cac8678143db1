package stats

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestFoldMatchesTrades: on 20,000 generated sequences of closed trades
// (a few days, several trades a day, nets of whole hundreds so that falls
// and days often tie, breakeven trades among them), Fold over the days
// built by Add gives what Streaks, MaxDrawdown and Days give over the
// trades. Mutations tried: Fold taking a tie of falls as within the
// day, and carrying the win run across a day with a loss: each fails it.
func TestFoldMatchesTrades(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 31))
	for n := range 20_000 {
		var points []Point
		var rows []DayRow
		for day := range 1 + r.IntN(6) {
			date := fmt.Sprintf("2026-03-%02d", day+1)
			row := DayRow{Day: date}
			for k := range r.IntN(6) {
				net := float64(r.IntN(7)-3) * 100
				status := "win"
				switch {
				case net == 0:
					status = "breakeven"
				case net < 0:
					status = "loss"
				}
				points = append(points, Point{Day: date, NetPnL: net, Status: status})
				row.Add(DayTrade{ID: fmt.Sprint(k), Status: status, Net: int64(net) * 1e8, NetPnL: net})
			}
			if row.Trades > 0 {
				rows = append(rows, row)
			}
		}
		got := Fold(rows)
		wins, losses := Streaks(points)
		dd := MaxDrawdown(points)
		days := Days(points)
		if got.MaxWins != wins || got.MaxLosses != losses {
			t.Fatalf("sequence %d %v: streaks %d/%d, want %d/%d", n, points, got.MaxWins, got.MaxLosses, wins, losses)
		}
		if got.Drawdown != dd {
			t.Fatalf("sequence %d %v: drawdown %+v, want %+v", n, points, got.Drawdown, dd)
		}
		if fmt.Sprint(got.Days) != fmt.Sprint(days) {
			t.Fatalf("sequence %d %v: days %v, want %v", n, points, got.Days, days)
		}
	}
}
