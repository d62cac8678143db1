package trading

import (
	"math"
	"strings"
	"testing"
	"time"
)

// FuzzDerive feeds arbitrary fills to the trade math. It may refuse them,
// but what it accepts adds up: net = gross - commission, prices and
// quantities stay positive and finite, and a flat trade has an exit.
func FuzzDerive(f *testing.F) {
	f.Add(true, "bsbs", 29298.0, 1.0, 1.0, 0.25, 20.0)
	f.Add(false, "sb", 10.10, 100.0, 0.1, 0.2, 1.0)
	f.Add(true, "bbss", 0.1, 0.3, 0.0, 1e-9, 125000.0)
	f.Fuzz(func(t *testing.T, long bool, sides string, price, qty, commission, step, pointValue float64) {
		if len(sides) == 0 || len(sides) > 20 {
			return
		}
		for _, v := range []float64{price, qty, commission, step, pointValue} {
			if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 1e9 {
				return
			}
		}
		if price <= 0 || qty <= 0 || pointValue <= 0 || commission < 0 {
			return
		}
		side := "short"
		if long {
			side = "long"
		}
		start := time.Date(2026, 2, 5, 14, 30, 0, 0, time.UTC)
		var fills []Fill
		for i, c := range sides {
			fside := "sell"
			if c%2 == 0 {
				fside = "buy"
			}
			p := math.Max(price+float64(i)*step, 1e-9)
			fills = append(fills, Fill{Side: fside, Price: p, Quantity: qty, Commission: commission, At: start.Add(time.Duration(i) * time.Second)})
		}
		pos, err := Derive(side, fills, pointValue)
		if err != nil {
			if _, ok := err.(*InvalidError); !ok {
				t.Fatalf("error %T %v, want *InvalidError", err, err)
			}
			return
		}
		for _, v := range []float64{pos.GrossPnL, pos.NetPnL, pos.Commission, pos.EntryPrice, pos.Quantity} {
			if math.IsNaN(v) || math.IsInf(v, 0) || math.Signbit(v) && v == 0 {
				t.Fatalf("non-finite or -0 result in %+v", pos)
			}
		}
		if pos.NetPnL != Round8(pos.GrossPnL-pos.Commission) {
			t.Fatalf("net %v != gross %v - commission %v", pos.NetPnL, pos.GrossPnL, pos.Commission)
		}
		if pos.Quantity <= 0 || pos.EntryPrice <= 0 {
			t.Fatalf("quantity %v entry %v, want positive", pos.Quantity, pos.EntryPrice)
		}
		if pos.Flat != (pos.ExitPrice != nil) || pos.Flat != (pos.ExitAt != nil) {
			t.Fatalf("flat %v but exit %v at %v", pos.Flat, pos.ExitPrice, pos.ExitAt)
		}
		if len(pos.Order) != len(fills) || len(pos.Types) != len(fills) {
			t.Fatalf("order %v types %v for %d fills", pos.Order, pos.Types, len(fills))
		}
	})
}

// FuzzParseSymbol: any text classifies without panicking, into one of the
// asset classes, and a futures root is what FuturesRoot says.
func FuzzParseSymbol(f *testing.F) {
	for _, s := range []string{"NQZ5", "/NQ", "NQ 12-25", "AAPL  240119C00190000", "EUR/USD", "BTC-USDT", "aapl", "", "ÑQ", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sym := ParseSymbol(s, nil)
		switch sym.AssetClass {
		case AssetFutures:
			if root := FuturesRoot(s); root != sym.Root {
				t.Fatalf("ParseSymbol(%q).Root = %q, FuturesRoot = %q", s, sym.Root, root)
			}
		case AssetOptions, AssetForex, AssetCrypto, AssetStocks:
		default:
			t.Fatalf("ParseSymbol(%q) = %+v: unknown class", s, sym)
		}
		if strings.ToUpper(sym.Root) != sym.Root {
			t.Fatalf("root %q is not upper case", sym.Root)
		}
	})
}
