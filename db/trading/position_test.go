package trading

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"
)

var t0 = time.Date(2025, 12, 1, 14, 30, 0, 0, time.UTC)

// at is t0 plus m minutes, so fills read in time order at a glance.
func at(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }

func buy(price, qty float64, m int) Fill {
	return Fill{Side: "buy", Price: price, Quantity: qty, At: at(m)}
}
func sell(price, qty float64, m int) Fill {
	return Fill{Side: "sell", Price: price, Quantity: qty, At: at(m)}
}

func withCommission(c float64, fills ...Fill) []Fill {
	for i := range fills {
		fills[i].Commission = c
	}
	return fills
}

func TestDerive(t *testing.T) {
	tests := []struct {
		name       string
		side       string
		pv         float64
		fills      []Fill
		qty        float64
		entry      float64
		exit       float64 // checked only when flat
		flat       bool
		gross      float64
		commission float64
		net        float64
		status     string
	}{
		{
			name: "NQ short covered 8 points lower", side: "short", pv: 20,
			fills: withCommission(1, sell(29298, 1, 0), buy(29290, 1, 5)),
			qty:   1, entry: 29298, exit: 29290, flat: true,
			gross: 160, commission: 2, net: 158, status: "win",
		},
		{
			name: "ES long 2 up 1.5", side: "long", pv: 50,
			fills: []Fill{buy(5000.25, 2, 0), sell(5001.75, 2, 1)},
			qty:   2, entry: 5000.25, exit: 5001.75, flat: true,
			gross: 150, net: 150, status: "win",
		},
		{
			name: "MNQ long 3 up 9.75", side: "long", pv: 2,
			fills: withCommission(0.62, buy(21000.50, 3, 0), sell(21010.25, 3, 1)),
			qty:   3, entry: 21000.5, exit: 21010.25, flat: true,
			gross: 58.5, commission: 1.24, net: 57.26, status: "win",
		},
		{
			name: "CL long 27 ticks against", side: "long", pv: 1000,
			fills: []Fill{buy(71.50, 1, 0), sell(71.23, 1, 1)},
			qty:   1, entry: 71.5, exit: 71.23, flat: true,
			gross: -270, net: -270, status: "loss",
		},
		{
			name: "GC short 2 down 5.3", side: "short", pv: 100,
			fills: []Fill{sell(2350.4, 2, 0), buy(2345.1, 2, 1)},
			qty:   2, entry: 2350.4, exit: 2345.1, flat: true,
			gross: 1060, net: 1060, status: "win",
		},
		{
			name: "6E long 12 pips", side: "long", pv: 125000,
			fills: []Fill{buy(1.0850, 1, 0), sell(1.0862, 1, 1)},
			qty:   1, entry: 1.085, exit: 1.0862, flat: true,
			gross: 150, net: 150, status: "win",
		},
		{
			name: "AAPL shares", side: "long", pv: 1,
			fills: withCommission(0.10, buy(10.10, 100, 0), sell(10.30, 100, 1)),
			qty:   100, entry: 10.1, exit: 10.3, flat: true,
			gross: 20, commission: 0.2, net: 19.8, status: "win",
		},
		{
			name: "option contract", side: "long", pv: OptionPointValue,
			fills: []Fill{buy(1.25, 2, 0), sell(1.75, 2, 1)},
			qty:   2, entry: 1.25, exit: 1.75, flat: true,
			gross: 100, net: 100, status: "win",
		},
		{
			name: "scale in", side: "long", pv: 1,
			fills: []Fill{buy(100, 1, 0), buy(102, 1, 1), sell(104, 2, 2)},
			qty:   2, entry: 101, exit: 104, flat: true,
			gross: 6, net: 6, status: "win",
		},
		{
			name: "partial close matches lots FIFO", side: "long", pv: 1,
			fills: []Fill{buy(100, 2, 0), buy(110, 2, 1), sell(120, 3, 2)},
			qty:   4, entry: 105, flat: false,
			gross: 50, net: 50, status: "win",
		},
		{
			name: "scale out across lots", side: "short", pv: 1,
			fills: []Fill{sell(50, 1, 0), sell(52, 2, 1), buy(49, 2, 2), buy(51, 1, 3)},
			qty:   3, entry: 51.33333333, exit: 49.66666667, flat: true,
			// FIFO: 1@50 by 49 = +1, 1@52 by 49 = +3, 1@52 by 51 = +1.
			gross: 5, net: 5, status: "win",
		},
		{
			name: "short loss with commission", side: "short", pv: 1,
			fills: withCommission(0.5, sell(100, 1, 0), buy(105, 1, 1)),
			qty:   1, entry: 100, exit: 105, flat: true,
			gross: -5, commission: 1, net: -6, status: "loss",
		},
		{
			name: "commission eats the gain", side: "long", pv: 1,
			fills: withCommission(0.5, buy(100, 1, 0), sell(101, 1, 1)),
			qty:   1, entry: 100, exit: 101, flat: true,
			gross: 1, commission: 1, net: 0, status: "breakeven",
		},
		{
			name: "fractional crypto quantities go flat", side: "long", pv: 1,
			fills: []Fill{buy(60000, 0.1, 0), buy(60300, 0.2, 1), sell(61000, 0.3, 2)},
			qty:   0.3, entry: 60200, exit: 61000, flat: true,
			// 0.1 × 1000 + 0.2 × 700
			gross: 240, net: 240, status: "win",
		},
		{
			name: "still open", side: "long", pv: 20,
			fills: []Fill{buy(21000, 1, 0)},
			qty:   1, entry: 21000, flat: false,
			status: "breakeven",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Derive(tt.side, tt.fills, tt.pv)
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			check := func(what string, got, want float64) {
				t.Helper()
				if got != want {
					t.Errorf("%s: got %v, want %v", what, got, want)
				}
			}
			check("quantity", p.Quantity, tt.qty)
			check("entry price", p.EntryPrice, tt.entry)
			check("gross", p.GrossPnL, tt.gross)
			check("commission", p.Commission, tt.commission)
			check("net", p.NetPnL, tt.net)
			if p.Flat != tt.flat {
				t.Fatalf("flat: got %v, want %v", p.Flat, tt.flat)
			}
			if tt.flat {
				if p.ExitPrice == nil || p.ExitAt == nil {
					t.Fatalf("exit price %v, exit at %v: want both set when flat", p.ExitPrice, p.ExitAt)
				}
				check("exit price", *p.ExitPrice, tt.exit)
				if last := tt.fills[len(tt.fills)-1].At; !p.ExitAt.Equal(last) {
					t.Errorf("exit at: got %v, want %v", *p.ExitAt, last)
				}
			} else if p.ExitPrice != nil || p.ExitAt != nil {
				t.Errorf("exit price %v, exit at %v: want both nil while open", p.ExitPrice, p.ExitAt)
			}
			if !p.EntryAt.Equal(at(0)) {
				t.Errorf("entry at: got %v, want %v", p.EntryAt, at(0))
			}
			if got := Status(p.NetPnL); got != tt.status {
				t.Errorf("status: got %q, want %q", got, tt.status)
			}
		})
	}
}

// Money must print without float noise, since it is shown and exported as is.
func TestDeriveExactDecimals(t *testing.T) {
	p, err := Derive("long", withCommission(0.10, buy(10.10, 100, 0), sell(10.30, 100, 1)), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		what string
		v    float64
		want string
	}{
		{"gross", p.GrossPnL, "20"},
		{"commission", p.Commission, "0.2"},
		{"net", p.NetPnL, "19.8"},
	} {
		if got := strconv.FormatFloat(c.v, 'f', -1, 64); got != c.want {
			t.Errorf("%s: got %s, want %s", c.what, got, c.want)
		}
	}
}

func TestDeriveOrderAndTypes(t *testing.T) {
	tests := []struct {
		name      string
		fills     []Fill
		wantOrder []int
		wantTypes []string
		wantEntry float64
	}{
		{
			name:      "scale in then out",
			fills:     []Fill{buy(100, 1, 0), buy(102, 1, 1), sell(104, 2, 2)},
			wantOrder: []int{0, 1, 2},
			wantTypes: []string{"scale_in", "scale_in", "scale_out"},
			wantEntry: 101,
		},
		{
			name:      "out of time order is sorted",
			fills:     []Fill{sell(104, 2, 2), buy(102, 1, 1), buy(100, 1, 0)},
			wantOrder: []int{2, 1, 0},
			wantTypes: []string{"scale_out", "scale_in", "scale_in"},
			wantEntry: 101,
		},
		{
			name:      "ties keep input order",
			fills:     []Fill{buy(100, 1, 0), buy(104, 1, 0), sell(110, 2, 1)},
			wantOrder: []int{0, 1, 2},
			wantTypes: []string{"scale_in", "scale_in", "scale_out"},
			wantEntry: 102,
		},
		{
			name: "client types are kept",
			fills: []Fill{
				{Side: "buy", Price: 100, Quantity: 2, At: at(0), Type: "full"},
				{Side: "sell", Price: 101, Quantity: 2, At: at(1)},
			},
			wantOrder: []int{0, 1},
			wantTypes: []string{"full", "scale_out"},
			wantEntry: 100,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Derive("long", tt.fills, 1)
			if err != nil {
				t.Fatalf("got error %v, want none", err)
			}
			if !slices.Equal(p.Order, tt.wantOrder) {
				t.Errorf("order: got %v, want %v", p.Order, tt.wantOrder)
			}
			if !slices.Equal(p.Types, tt.wantTypes) {
				t.Errorf("types: got %v, want %v", p.Types, tt.wantTypes)
			}
			if p.EntryPrice != tt.wantEntry {
				t.Errorf("entry price: got %v, want %v", p.EntryPrice, tt.wantEntry)
			}
			if !p.EntryAt.Equal(at(0)) {
				t.Errorf("entry at: got %v, want %v", p.EntryAt, at(0))
			}
		})
	}
}

func TestDeriveErrors(t *testing.T) {
	tests := []struct {
		name      string
		side      string
		fills     []Fill
		wantField string
		wantMsg   string
	}{
		{
			name:      "no fills",
			side:      "long",
			wantField: "executions",
			wantMsg:   "at least one execution is required",
		},
		{
			name:      "flip through zero",
			side:      "long",
			fills:     []Fill{buy(100, 1, 0), buy(101, 1, 1), sell(102, 3, 2)},
			wantField: "executions",
			wantMsg:   "executions[2] (sell 3) would reverse the long position of 2: record the reversal as two trades",
		},
		{
			name:      "flip named by input index",
			side:      "short",
			fills:     []Fill{buy(99, 1.5, 1), sell(100, 1, 0)},
			wantField: "executions",
			wantMsg:   "executions[0] (buy 1.5) would reverse the short position of 1: record the reversal as two trades",
		},
		{
			name:      "first fill closes",
			side:      "long",
			fills:     []Fill{sell(100, 1, 0), buy(99, 1, 1)},
			wantField: "executions",
			wantMsg:   "executions[0] (sell 1) is the first execution, but a long trade opens with a buy",
		},
		{
			name:      "first in time closes",
			side:      "short",
			fills:     []Fill{sell(100, 1, 1), buy(99, 1, 0)},
			wantField: "executions",
			wantMsg:   "executions[1] (buy 1) is the first execution, but a short trade opens with a sell",
		},
		{
			name:      "reopen after flat",
			side:      "long",
			fills:     []Fill{buy(100, 1, 0), sell(101, 1, 1), buy(102, 1, 2)},
			wantField: "executions",
			wantMsg:   "executions[2] (buy 1) reopens the position after it was flat: record it as a new trade",
		},
		{
			name:      "close after flat",
			side:      "long",
			fills:     []Fill{buy(100, 1, 0), sell(101, 1, 1), sell(102, 1, 2)},
			wantField: "executions",
			wantMsg:   "executions[2] (sell 1) reopens the position after it was flat: record it as a new trade",
		},
		{
			name:      "unknown side",
			side:      "sideways",
			fills:     []Fill{buy(100, 1, 0)},
			wantField: "side",
			wantMsg:   `must be "long" or "short"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Derive(tt.side, tt.fills, 1)
			var inv *InvalidError
			if !errors.As(err, &inv) {
				t.Fatalf("got error %v, want *InvalidError", err)
			}
			if inv.Field != tt.wantField {
				t.Errorf("field: got %q, want %q", inv.Field, tt.wantField)
			}
			if inv.Message != tt.wantMsg {
				t.Errorf("message: got %q, want %q", inv.Message, tt.wantMsg)
			}
		})
	}
}

func TestPnL(t *testing.T) {
	tests := []struct {
		name                       string
		side                       string
		entry, exit, qty, pv, want float64
	}{
		{"NQ short", "short", 29298, 29290, 1, 20, 160},
		{"ES long", "long", 5000.25, 5001.75, 2, 50, 150},
		{"CL long loss", "long", 71.50, 71.23, 1, 1000, -270},
		{"6E long", "long", 1.0850, 1.0862, 1, 125000, 150},
		{"AAPL long", "long", 10.10, 10.30, 100, 1, 20},
		{"option long", "long", 1.25, 1.75, 2, OptionPointValue, 100},
		{"short loss", "short", 100, 105, 1, 1, -5},
		{"flat", "long", 100, 100, 3, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PnL(tt.side, tt.entry, tt.exit, tt.qty, tt.pv); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestStatus(t *testing.T) {
	tests := []struct {
		net  float64
		want string
	}{
		{158, "win"},
		{0.01, "win"},
		{-6, "loss"},
		{0, "breakeven"},
		{math.Copysign(0, -1), "breakeven"},
		{1e-10, "breakeven"},  // float noise, not a real gain
		{-1e-10, "breakeven"}, // float noise, not a real loss
	}
	for _, tt := range tests {
		if got := Status(tt.net); got != tt.want {
			t.Errorf("Status(%v): got %q, want %q", tt.net, got, tt.want)
		}
	}
}

func TestRound8(t *testing.T) {
	tests := []struct {
		in, want float64
	}{
		{15.625, 15.625},
		{-270.00000000000313, -270},
		{1.234567894, 1.23456789},
		{1.234567896, 1.2345679},
		{-0.000000001, 0},
		{math.Copysign(0, -1), 0},
	}
	for _, tt := range tests {
		got := Round8(tt.in)
		if got != tt.want {
			t.Errorf("Round8(%v): got %v, want %v", tt.in, got, tt.want)
		}
		if got == 0 && math.Signbit(got) {
			t.Errorf("Round8(%v): got -0, want +0", tt.in)
		}
	}
	x := 0.1
	x += 0.2 // at run time, so the sum carries the binary noise
	if got := strconv.FormatFloat(Round8(x), 'f', -1, 64); got != "0.3" {
		t.Errorf("Round8(0.1+0.2) formats as %s, want 0.3", got)
	}
}

// TestDeriveRealized checks the P&L each fill realises, FIFO, by input
// index, and that the parts add up to the trade's gross P&L exactly.
func TestDeriveRealized(t *testing.T) {
	tests := []struct {
		name  string
		side  string
		pv    float64
		fills []Fill
		want  []float64
	}{
		{
			// ES long 1 at 5000, 1 at 5002; sell 1 at 5004 closes the first
			// lot (+4 × 50 = 200), sell 1 at 5001 the second (−1 × 50 = −50).
			name: "ES scaled in and out", side: "long", pv: 50,
			fills: []Fill{buy(5000, 1, 0), buy(5002, 1, 1), sell(5004, 1, 2), sell(5001, 1, 3)},
			want:  []float64{0, 0, 200, -50},
		},
		{
			// Given out of time order: the sell at minute 3 is input 0. NQ
			// short 2 at 20000; cover 1 at 19990 (+10 × 20 = 200), then 1 at
			// 20005 (−5 × 20 = −100).
			name: "NQ short, input out of order", side: "short", pv: 20,
			fills: []Fill{buy(20005, 1, 3), sell(20000, 2, 0), buy(19990, 1, 1)},
			want:  []float64{-100, 0, 200},
		},
		{
			// One sell of 3 closes lots of 1 at 10.10 and 2 at 10.20 at
			// 10.15: +0.05 − 0.10 = −0.05 a share.
			name: "one reducing fill across two lots", side: "long", pv: 1,
			fills: []Fill{buy(10.10, 1, 0), buy(10.20, 2, 1), sell(10.15, 3, 2)},
			want:  []float64{0, 0, -0.05},
		},
		{
			// Thirds of 0.1 each round to 0.03333333; the last reducing fill
			// takes 0.1 − 2 × 0.03333333 = 0.03333334 so the parts sum to
			// the gross 0.1.
			name: "rounding left to the last reducing fill", side: "long", pv: 1,
			fills: []Fill{buy(1, 3, 0), sell(1+0.1/3, 1, 1), sell(1+0.1/3, 1, 2), sell(1+0.1/3, 1, 3)},
			want:  []float64{0, 0.03333333, 0.03333333, 0.03333334},
		},
		{
			name: "still open: nothing realised", side: "long", pv: 5,
			fills: []Fill{buy(100, 2, 0), buy(101, 1, 1)},
			want:  []float64{0, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pos, err := Derive(tt.side, tt.fills, tt.pv)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(pos.Realized, tt.want) {
				t.Errorf("Realized = %v, want %v", pos.Realized, tt.want)
			}
			var sum float64
			for _, r := range pos.Realized {
				sum += r
			}
			if Round8(sum) != pos.GrossPnL {
				t.Errorf("parts sum to %v, gross is %v", Round8(sum), pos.GrossPnL)
			}
		})
	}
}
