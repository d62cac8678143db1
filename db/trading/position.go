package trading

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
)

// Fill is one execution as the trade math sees it.
type Fill struct {
	Side       string // "buy" or "sell"
	Price      float64
	Quantity   float64
	Commission float64
	At         time.Time // execution timestamp; fills are ordered by it, ties keep input order
	Type       string    // the client's execution_type, "" when absent
}

// Position is what a trade's fills add up to.
type Position struct {
	Quantity   float64    // largest open position
	EntryPrice float64    // quantity-weighted average of opening fills
	ExitPrice  *float64   // quantity-weighted average of closing fills; nil while not flat
	EntryAt    time.Time  // first opening fill
	ExitAt     *time.Time // last closing fill; nil while not flat
	GrossPnL   float64    // realised P&L of the closed quantity × point value, FIFO lots
	Commission float64    // sum of fill commissions
	NetPnL     float64    // GrossPnL - Commission
	Flat       bool       // position closed
	Order      []int      // indexes into the input fills, in time order
	Types      []string   // execution_type of each input fill (by input index): the client's, else "scale_in" for a fill that adds, "scale_out" for one that reduces
	// Realized is the gross P&L each input fill realised (by input index),
	// FIFO against the open lots, × point value: 0 for a fill that adds.
	// Rounded like GrossPnL, they add up to it exactly: the last reducing
	// fill takes what rounding the others left.
	Realized []float64
}

// lot is the still-open part of one opening fill, kept for FIFO matching.
type lot struct{ price, qty float64 }

// Derive computes a trade's position from its fills. side is "long" or
// "short". The fills must already be valid one by one (side buy or sell,
// positive finite price and quantity, non-negative commission); Derive checks
// only how they combine: one trade is a single flat-to-flat cycle in one
// direction.
func Derive(side string, fills []Fill, pointValue float64) (Position, error) {
	if len(fills) == 0 {
		return Position{}, &InvalidError{Field: "executions", Message: "at least one execution is required"}
	}
	opening := Opening(side)
	if opening == "" {
		return Position{}, &InvalidError{Field: "side", Message: `must be "long" or "short"`}
	}
	sign := 1.0
	if side == "short" {
		sign = -1
	}

	order := make([]int, len(fills))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return fills[a].At.Compare(fills[b].At) })

	var (
		pos                 = Position{Order: order, Types: make([]string, len(fills)), Realized: make([]float64, len(fills))}
		lots                []lot
		open, maxOpen       float64
		entryCost, entryQty float64
		exitCost, exitQty   float64
		gross, commission   float64
		lastExit            time.Time
		lastReduce          = -1
	)
	for k, i := range order {
		f := fills[i]
		adds := f.Side == opening
		switch {
		case k == 0 && !adds:
			return Position{}, invalidFill(i, f, fmt.Sprintf("is the first execution, but a %s trade opens with a %s", side, opening))
		case k > 0 && open == 0:
			return Position{}, invalidFill(i, f, "reopens the position after it was flat: record it as a new trade")
		// Comparing rounded quantities lets fractional sizes (0.1 + 0.2 BTC
		// closed by 0.3) count as equal despite binary float noise.
		case !adds && Round8(f.Quantity) > Round8(open):
			return Position{}, invalidFill(i, f, fmt.Sprintf("would reverse the %s position of %s: record the reversal as two trades", side, formatQty(Round8(open))))
		}

		commission += f.Commission
		if adds {
			lots = append(lots, lot{f.Price, f.Quantity})
			open += f.Quantity
			maxOpen = max(maxOpen, open)
			entryCost += f.Price * f.Quantity
			entryQty += f.Quantity
			pos.Types[i] = typeOr(f.Type, "scale_in")
			continue
		}

		var realized float64
		for remaining := f.Quantity; Round8(remaining) > 0 && len(lots) > 0; {
			take := min(remaining, lots[0].qty)
			part := (f.Price - lots[0].price) * take * sign
			gross += part
			realized += part
			remaining -= take
			lots[0].qty -= take
			if Round8(lots[0].qty) == 0 {
				lots = lots[1:]
			}
		}
		pos.Realized[i] = Round8(realized * pointValue)
		lastReduce = i
		open -= f.Quantity
		if Round8(open) == 0 {
			// Snap to exactly zero so the trade counts as flat and any later
			// fill as a reopen.
			open = 0
		}
		exitCost += f.Price * f.Quantity
		exitQty += f.Quantity
		lastExit = f.At
		pos.Types[i] = typeOr(f.Type, "scale_out")
	}

	pos.EntryAt = fills[order[0]].At
	pos.Quantity = Round8(maxOpen)
	pos.EntryPrice = Round8(entryCost / entryQty)
	pos.GrossPnL = Round8(gross * pointValue)
	pos.Commission = Round8(commission)
	pos.NetPnL = Round8(pos.GrossPnL - pos.Commission)
	if lastReduce >= 0 {
		rest := pos.GrossPnL
		for i, r := range pos.Realized {
			if i != lastReduce {
				rest -= r
			}
		}
		pos.Realized[lastReduce] = Round8(rest)
	}
	pos.Flat = open == 0
	if pos.Flat {
		exit := Round8(exitCost / exitQty)
		pos.ExitPrice = &exit
		pos.ExitAt = &lastExit
	}
	return pos, nil
}

// Opening is the side of the fills that open, and add to, a trade of side:
// "buy" for long, "sell" for short; "" for any other side.
func Opening(side string) string {
	switch side {
	case "long":
		return "buy"
	case "short":
		return "sell"
	}
	return ""
}

// invalidFill names the offending fill by its input index, which is what the
// client sent, not its position after sorting.
func invalidFill(i int, f Fill, problem string) *InvalidError {
	return &InvalidError{
		Field:   "executions",
		Message: fmt.Sprintf("executions[%d] (%s %s) %s", i, f.Side, formatQty(f.Quantity), problem),
	}
}

// formatQty avoids %v's exponent notation (1e+06) in messages.
func formatQty(q float64) string {
	return strconv.FormatFloat(q, 'f', -1, 64)
}

func typeOr(clientType, derived string) string {
	if clientType != "" {
		return clientType
	}
	return derived
}

// PnL is the P&L of a trade recorded without fills: (exit-entry) × quantity ×
// point value, negated for short.
func PnL(side string, entry, exit, quantity, pointValue float64) float64 {
	pnl := (exit - entry) * quantity * pointValue
	if side == "short" {
		pnl = -pnl
	}
	return Round8(pnl)
}

// Status is "win", "loss" or "breakeven" by net P&L (after Round8; exactly 0
// is breakeven).
func Status(net float64) string {
	switch n := Round8(net); {
	case n > 0:
		return "win"
	case n < 0:
		return "loss"
	default:
		return "breakeven"
	}
}

// Round8 rounds to 8 decimal places and never returns -0 (derived money never
// shows float noise: 0.3 not 0.30000000000000004).
//
// Dividing the rounded integer by 1e8 yields the double nearest the decimal
// value, which is what makes 0.3 print as "0.3".
func Round8(x float64) float64 {
	r := math.Round(x*1e8) / 1e8
	if r == 0 {
		return 0 // also turns -0 into +0
	}
	return r
}
