package brokers

import (
	"bytes"
	"errors"
	"slices"
	"strings"
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

// TestTreasuryPrice: every notation of 32nds DESIGN §8 lists, for a
// Treasury contract (110 + 4/32 = 110.125; the third digit is the part of
// a 32nd: 2 a quarter, 5 a half, 7 three quarters), a plain decimal read
// as it is, and what is none of them.
func TestTreasuryPrice(t *testing.T) {
	const thirtySecond = 1.0 / 32
	tests := []struct {
		in, decimal string
		want        float64 // 0: an error
	}{
		{"110 040", "", 110 + 4*thirtySecond},
		{"110'040", "", 110 + 4*thirtySecond},
		{"110-040", "", 110 + 4*thirtySecond},
		{"110'04.0", "", 110 + 4*thirtySecond},
		{"110 042", "", 110 + 4.25*thirtySecond},
		{"110 045", "", 110 + 4.5*thirtySecond},
		{"110 047", "", 110 + 4.75*thirtySecond},
		{"110'045", "", 110 + 4.5*thirtySecond},
		{"110-047", "", 110 + 4.75*thirtySecond},
		{"110'04.25", "", 110 + 4.25*thirtySecond},
		{"110'04.5", "", 110 + 4.5*thirtySecond},
		{"110'04.75", "", 110 + 4.75*thirtySecond},
		{"110'04,5", "comma", 110 + 4.5*thirtySecond},
		{"109 315", "", 109 + 31.5*thirtySecond},
		{"110 000", "", 110},
		{"125'310", "", 125 + 31*thirtySecond},
		{"110.125", "", 110.125},
		{"110,125", "comma", 110.125},
		{"110", "", 110},
		{"110 041", "", 0},  // 1 is no part of a 32nd §8 reads
		{"110 320", "", 0},  // 32 32nds is the next point
		{"110 04", "", 0},   // two digits
		{"110 0400", "", 0}, // four
		{"110-04+", "", 0},  // not a notation §8 reads
		{"110'04.3", "", 0}, // not a quarter of a 32nd
		{"110'04,5", "", 0}, // a comma with decimal=point
		{"110  040", "", 0},
		{"110 04 0", "", 0},
		{"", "", 0},
	}
	for _, tt := range tests {
		got, err := treasuryPrice(tt.in, tt.decimal)
		switch {
		case tt.want == 0 && err == nil:
			t.Errorf("treasuryPrice(%q, %q) = %v, want an error", tt.in, tt.decimal, got)
		case tt.want != 0 && (err != nil || got != tt.want):
			t.Errorf("treasuryPrice(%q, %q) = %v, %v; want %v", tt.in, tt.decimal, got, err, tt.want)
		}
	}
}

// TestSpaceInNumber: a space is never a thousands separator (DESIGN §8),
// so one inside a number is an error; beside a currency sign it is not.
func TestSpaceInNumber(t *testing.T) {
	for _, in := range []string{"110 040", "1 234.56", "21\u00a0000.25", "- 45.20"} {
		if got, err := number(in, ""); err == nil {
			t.Errorf("number(%q) = %v, want an error", in, got)
		}
	}
	if got, err := number("1 234,56", "comma"); err == nil {
		t.Errorf("number(1 234,56, comma) = %v, want an error", got)
	}
	for in, want := range map[string]float64{"90.00 $": 90, "$ 5.00": 5, "€\u00a012.50": 12.5} {
		if got, err := number(in, ""); err != nil || got != want {
			t.Errorf("number(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
}

// TestTreasuryRows: a Treasury contract's prices read in 32nds in every
// format; another contract's with a space inside is a row error on its
// price column.
func TestTreasuryRows(t *testing.T) {
	f, err := Read(bytes.NewReader(readTestdata(t, "tradovate_performance_zn.csv")), Options{Location: newYork})
	if err != nil {
		t.Fatal(err)
	}
	var prices []float64
	for _, g := range f.Fills {
		prices = append(prices, g.Price)
	}
	// 110 + 4.5/32, 110 + 17/32; 110 + 4.5/32, 109 + 31/32.
	if want := []float64{110.140625, 110.53125, 110.140625, 109.96875}; !slices.Equal(prices, want) {
		t.Errorf("prices %v, want %v", prices, want)
	}
	for _, text := range []string{
		"Instrument,Action,Quantity,Price,Time,ID\nZN 03-26,Buy,1,110'045,12/15/2025 9:31:05 AM,a\n",
		"account_number,symbol,side,quantity,price,timestamp\nA,ZBH6,sell,1,117-190,2025-12-15T14:31:05Z\n",
	} {
		if f, err := Read(strings.NewReader(text), Options{Location: newYork}); err != nil || len(f.Fills) != 1 ||
			(f.Fills[0].Price != 110.140625 && f.Fills[0].Price != 117+19.0/32) {
			t.Errorf("%q: %+v, %v", text, f, err)
		}
	}
	_, err = Read(strings.NewReader("account_number,symbol,side,quantity,price,timestamp\n"+
		"A,ESH6,buy,1,6 005.25,2025-12-15T14:31:05Z\n"), Options{Location: newYork})
	var rows *Error
	if !errors.As(err, &rows) || len(rows.Rows) != 1 || rows.Rows[0].Column != "price" {
		t.Errorf("ES at 6 005.25: %v, want a row error on price", err)
	}
}
