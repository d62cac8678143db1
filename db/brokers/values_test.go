package brokers

import (
	"testing"
	"time"
)

func TestNumber(t *testing.T) {
	tests := []struct {
		in, decimal string
		want        float64
		ok          bool
	}{
		{"1,234.56", "", 1234.56, true},
		{"$1,234.56", "", 1234.56, true},
		{"(45.20)", "", -45.2, true},
		{"-45.20", "", -45.2, true},
		{"90.00 $", "", 90, true},
		{"$(5.00)", "", -5, true},
		{"1.234,56", "comma", 1234.56, true},
		{"(0,62)", "comma", -0.62, true},
		{"21000.25", "point", 21000.25, true},
		{"", "", 0, false},
		{"abc", "", 0, false},
		{"1e9", "", 0, false},
		{"NaN", "", 0, false},
		{"--5", "", 0, false},
	}
	for _, tt := range tests {
		got, err := number(tt.in, tt.decimal)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("number(%q, %q) = %v, %v; want %v, ok %v", tt.in, tt.decimal, got, err, tt.want, tt.ok)
		}
	}
}

func TestSide(t *testing.T) {
	for in, want := range map[string]string{"Buy": "buy", " B ": "buy", "bid": "buy", "Buy to cover": "buy", "BUY": "buy",
		"Sell": "sell", "S": "sell", "Ask": "sell", "sell  short": "sell", "hold": "", "": ""} {
		if got, _ := side(in); got != want {
			t.Errorf("side(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestInZone: a wall clock names one instant, except where the clocks
// jump over it (spring) or turn back over it (autumn).
func TestInZone(t *testing.T) {
	ny, _ := time.LoadLocation("America/New_York")
	tests := []struct {
		wall string
		want string // UTC, or "" for an error
	}{
		{"2025-12-01 09:31:05", "2025-12-01T14:31:05Z"},
		{"2025-07-01 09:31:05", "2025-07-01T13:31:05Z"},
		{"2025-03-09 01:59:59", "2025-03-09T06:59:59Z"},
		{"2025-03-09 02:30:00", ""}, // does not exist
		{"2025-03-09 03:00:00", "2025-03-09T07:00:00Z"},
		{"2025-11-02 00:59:59", "2025-11-02T04:59:59Z"},
		{"2025-11-02 01:30:00", ""}, // twice
		{"2025-11-02 02:00:00", "2025-11-02T07:00:00Z"},
	}
	for _, tt := range tests {
		got, err := localTime(time.DateTime, tt.wall, ny)
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("%s: got %v, want an error", tt.wall, got)
		case tt.want != "" && (err != nil || got.UTC().Format(time.RFC3339) != tt.want):
			t.Errorf("%s: got %v, %v; want %s", tt.wall, got, err, tt.want)
		}
	}
}

func TestNorm(t *testing.T) {
	for in, want := range map[string]string{"Avg Fill Price": "avgfillprice", "B/S": "bs", "_priceFormat": "priceformat",
		"Update Time (EDT)": "updatetimeedt", " Market pos. ": "marketpos"} {
		if got := norm(in); got != want {
			t.Errorf("norm(%q) = %q, want %q", in, got, want)
		}
	}
}
