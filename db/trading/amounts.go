package trading

import "fmt"

// Bounds of prices, quantities and commissions, so that no derived value
// overflows what a client can read back exactly.
const (
	// MaxAmount is the largest price, quantity or commission.
	MaxAmount = 1e9
	// MinAmount is the smallest price or quantity: derived values keep 8
	// decimal places, so anything smaller would round to 0.
	MinAmount = 1e-8
)

// CheckAmount says what is wrong with a price or quantity named name, or
// "" when it is fine. It is the one rule for fills typed into the API and
// fills read from a broker's file.
func CheckAmount(name string, v float64) string {
	switch {
	case v > MaxAmount:
		return fmt.Sprintf("%s must be at most %g", name, float64(MaxAmount))
	case v > 0 && v < MinAmount:
		return name + " must be at least 0.00000001"
	case !(v > 0): // also NaN
		return name + " must be a positive number"
	}
	return ""
}

// CheckCommission says what is wrong with a fill's commission named name,
// or "" when it is fine.
func CheckCommission(name string, v float64) string {
	if !(v >= 0 && v <= MaxAmount) {
		return name + " must be zero or more"
	}
	return ""
}
