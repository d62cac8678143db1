package web

import "testing"

// TestFormatMoney pins the pages' money rule, worked by hand: the cent
// rounded half away from zero (0.125 is 0.13, not the 0.12 of rounding to
// even), thousands separated, a sign only on what rounds to a cent or more.
// The amounts are exact in binary, so the half is a true half.
func TestFormatMoney(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{0.125, "0.13"},
		{-2.625, "-2.63"},
		{0.375, "0.38"},
		{1234.875, "1,234.88"},
		{-1234567.5, "-1,234,567.50"},
		{999.995, "1,000.00"}, // just above half a cent in binary
		{-0.004, "0.00"},
		{0, "0.00"},
		{1e6, "1,000,000.00"},
	} {
		if got := formatMoney(tt.v); got != tt.want {
			t.Errorf("formatMoney(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}
