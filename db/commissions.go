package db

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"

	"tradejournal/db/trading"
)

// CommissionSchedule is an account's commission in dollars per contract per
// side, by futures root ("ES") or symbol ("AAPL"), with "*" for every other
// instrument. It applies only to imported fills whose file gives no
// commission, never on top of one the file gives.
type CommissionSchedule map[string]float64

// For is the commission of one fill of quantity in symbol: the rate of its
// futures root, else of its symbol, else "*", else 0.
func (s CommissionSchedule) For(symbol string, quantity float64) float64 {
	sym := trading.Normalise(symbol)
	for _, k := range []string{trading.FuturesRoot(sym), sym, "*"} {
		if rate, ok := s[k]; ok {
			return trading.Round8(rate * quantity)
		}
	}
	return 0
}

// Scan reads the stored JSON object; NULL is no schedule.
func (s *CommissionSchedule) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*s = nil
		return nil
	case string:
		return json.Unmarshal([]byte(v), s)
	case []byte:
		return json.Unmarshal(v, s)
	}
	return fmt.Errorf("commission schedule: cannot scan %T", src)
}

// Value stores the schedule as a JSON object, or NULL when there is none.
func (s CommissionSchedule) Value() (driver.Value, error) {
	if s == nil {
		return nil, nil
	}
	b, err := json.Marshal(map[string]float64(s))
	return string(b), err
}
