package trading

import (
	"fmt"
	"strconv"
)

// Level is a planned stop-loss or take-profit price, optionally for part
// of the position.
type Level struct {
	Price    float64  `json:"price"`
	Quantity *float64 `json:"quantity,omitempty"`
}

// R is a trade's R multiple on its planned risk: the realised move per unit
// over the risk per unit to the first stop-loss level, signed by side; nil
// without a stop or an exit. Every stop must be on the losing side of the
// entry.
func R(side string, entry float64, exit *float64, stops []Level) (*float64, error) {
	for i, s := range stops {
		if (side == "long" && s.Price >= entry) || (side == "short" && s.Price <= entry) {
			where := "below"
			if side == "short" {
				where = "above"
			}
			return nil, &InvalidError{Field: "stop_loss_levels[" + strconv.Itoa(i) + "].price",
				Message: fmt.Sprintf("a %s trade's stop must be %s its entry price %s", side, where, formatQty(entry))}
		}
	}
	if len(stops) == 0 || exit == nil {
		return nil, nil
	}
	move, risk := *exit-entry, entry-stops[0].Price
	r := Round8(move / risk) // the signs of move and risk make a short's R come out right
	return &r, nil
}
