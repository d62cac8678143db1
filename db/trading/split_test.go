package trading

import (
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	c := func(side string, flat bool, pieces ...Piece) Cycle {
		return Cycle{Side: side, Pieces: pieces, Flat: flat}
	}
	p := func(i int, q, comm float64) Piece { return Piece{Index: i, Quantity: q, Commission: comm} }
	tests := []struct {
		name     string
		fills    []Fill
		position float64
		want     []Cycle
	}{
		{"round trip", withCommission(1.24, buy(100, 2, 0), sell(101, 2, 1)), 0,
			[]Cycle{c("long", true, p(0, 2, 1.24), p(1, 2, 1.24))}},
		{"scale in, scale out, then a short",
			withCommission(0.62, buy(100, 1, 0), buy(99, 1, 1), sell(101, 2, 2), sell(105, 3, 3), buy(104, 3, 4)), 0,
			[]Cycle{
				c("long", true, p(0, 1, 0.62), p(1, 1, 0.62), p(2, 2, 0.62)),
				c("short", true, p(3, 3, 0.62), p(4, 3, 0.62)),
			}},
		// Long 2, sell 5: 2 close the long, 3 open a short; the $1.00
		// commission splits 2/5 = 0.40 and 3/5 = 0.60.
		{"reversal splits the crossing fill", withCommission(1, buy(100, 2, 0), sell(102, 5, 1), buy(101, 3, 2)), 0,
			[]Cycle{
				c("long", true, p(0, 2, 1), p(1, 2, 0.4)),
				c("short", true, p(1, 3, 0.6), p(2, 3, 1)),
			}},
		{"ends open", []Fill{sell(100, 1, 0), sell(101, 1, 1), buy(99, 1, 2)}, 0,
			[]Cycle{c("short", false, p(0, 1, 0), p(1, 1, 0), p(2, 1, 0))}},
		{"continues an open long", []Fill{buy(100, 1, 0), sell(103, 3, 1)}, 2,
			[]Cycle{c("long", true, p(0, 1, 0), p(1, 3, 0))}},
		{"continues an open short, then reverses", []Fill{buy(100, 3, 0)}, -1,
			[]Cycle{c("short", true, p(0, 1, 0)), c("long", false, p(0, 2, 0))}},
		{"fractional sizes close exactly", []Fill{buy(10, 0.1, 0), buy(10, 0.2, 1), sell(11, 0.3, 2), buy(9, 1, 3)}, 0,
			[]Cycle{c("long", true, p(0, 0.1, 0), p(1, 0.2, 0), p(2, 0.3, 0)), c("long", false, p(3, 1, 0))}},
		{"no fills", nil, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Split(tt.fills, tt.position); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Split =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}
