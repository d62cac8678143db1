package trading

// Piece is the part of one input fill that belongs to one trade: the whole
// fill, or, for a fill that crosses zero, the part that closes the trade or
// the part that opens the next.
type Piece struct {
	Index      int // into the fills given to Split
	Quantity   float64
	Commission float64 // the fill's commission, pro rata by quantity
}

// Cycle is one flat-to-flat trade's share of a stream of fills.
type Cycle struct {
	Side   string // "long" or "short"
	Pieces []Piece
	Flat   bool // the position is closed at the cycle's last piece
}

// Split groups the fills of one account and one contract, already in the
// order they happened, into flat-to-flat cycles: one trade each. position is
// the signed quantity open before the first fill (positive long, negative
// short, 0 flat); when it is not 0 the first cycle continues that position.
// A fill that crosses zero is split into the part that closes and the part
// that opens the next cycle, its commission split by quantity.
func Split(fills []Fill, position float64) []Cycle {
	var (
		out []Cycle
		cur *Cycle
	)
	open := func(side string) {
		out = append(out, Cycle{Side: side})
		cur = &out[len(out)-1]
	}
	if position != 0 {
		open(sideOf(position))
	}
	for i, f := range fills {
		signed := f.Quantity
		if f.Side == "sell" {
			signed = -signed
		}
		if Round8(position) == 0 {
			position = 0
			open(sideOf(signed))
		}
		after := position + signed
		if position != 0 && Round8(after) != 0 && (after > 0) != (position > 0) {
			// Crosses zero: close what is open, open the rest.
			closing := abs(position)
			share := Round8(f.Commission * closing / f.Quantity)
			cur.Pieces = append(cur.Pieces, Piece{Index: i, Quantity: Round8(closing), Commission: share})
			cur.Flat = true
			open(sideOf(after))
			cur.Pieces = append(cur.Pieces, Piece{Index: i, Quantity: Round8(abs(after)), Commission: Round8(f.Commission - share)})
			position = after
			continue
		}
		cur.Pieces = append(cur.Pieces, Piece{Index: i, Quantity: f.Quantity, Commission: f.Commission})
		position = after
		if Round8(position) == 0 {
			position = 0
			cur.Flat = true
		}
	}
	return out
}

func sideOf(signed float64) string {
	if signed < 0 {
		return "short"
	}
	return "long"
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
