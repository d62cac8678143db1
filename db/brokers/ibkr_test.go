package brokers

import (
	"bytes"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// readTestdata reads one of this package's own test files, written by hand
// in a platform's real column layout.
func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestIBKRCancelOfABuy: IBKR cancels a buy with BUY (Ca.), TradeCancel and
// a negative quantity (it reverses the buy). Such a row is no fill and
// skips the row it cancels: line 3 cancels line 2 by their shared
// execution id, and line 4, booked again under that id, is a fill; line 6
// has no id and cancels line 5 by contract, side, |quantity| and price.
func TestIBKRCancelOfABuy(t *testing.T) {
	f, err := Read(bytes.NewReader(readTestdata(t, "ibkr_flex_cancel_buy.csv")), Options{Location: newYork})
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != "ibkr_flex" || f.Rows != 6 || f.Skipped != 4 || len(f.Fills) != 2 {
		t.Fatalf("format %s rows %d skipped %d fills %d, want ibkr_flex 6 4 2", f.Format, f.Rows, f.Skipped, len(f.Fills))
	}
	utc := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v }
	want := []Fill{
		{4, "U1234567", "MESZ5", "buy", 2, 6005.25, ptr(1.24), utc("2025-12-17T14:31:00Z"), "0000e0d5.6761b3c4.01.01"},
		{7, "U1234567", "MESZ5", "sell", 2, 6012.5, ptr(1.24), utc("2025-12-17T15:15:00Z"), "0000e0d5.6761b3c4.03.01"},
	}
	for i, w := range want {
		g := f.Fills[i]
		if !g.At.Equal(w.At) || !reflect.DeepEqual(g.Commission, w.Commission) {
			t.Errorf("fill %d: at %v commission %v, want %v %v", i, g.At, g.Commission, w.At, *w.Commission)
		}
		g.At, g.Commission, w.At, w.Commission = time.Time{}, nil, time.Time{}, nil
		if g != w {
			t.Errorf("fill %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
}

// TestIBKRCancelWithoutSide: a TradeCancel whose Buy/Sell is blank takes
// the side it cancels from the reversed sign: -1 cancels a buy of 1.
func TestIBKRCancelWithoutSide(t *testing.T) {
	head := "ClientAccountID,Symbol,Buy/Sell,Quantity,TradePrice,IBCommission,DateTime,IBExecID,TransactionType\n"
	f, err := Read(strings.NewReader(head+
		"U1,ESZ5,BUY,1,6000,-2.14,20251215;093105,x1,ExchTrade\n"+
		"U1,ESZ5,SELL,-1,6000,-2.14,20251215;093106,x2,ExchTrade\n"+
		"U1,ESZ5,,-1,6000,2.14,20251215;093107,,TradeCancel\n"), Options{Location: newYork})
	if err != nil {
		t.Fatal(err)
	}
	if f.Rows != 3 || f.Skipped != 2 || len(f.Fills) != 1 || f.Fills[0].SourceID != "x2" {
		t.Errorf("rows %d skipped %d fills %+v, want the sell x2 alone", f.Rows, f.Skipped, f.Fills)
	}
}

// TestIBKRTradeConfirmationCommission: a Trade Confirmation query names its
// total cost Commission, beside its parts (BrokerExecutionCommission and
// the others), which it may leave at 0. The total alone is a fill's
// commission, as a cost whatever its sign.
func TestIBKRTradeConfirmationCommission(t *testing.T) {
	f, err := Read(bytes.NewReader(readTestdata(t, "ibkr_trade_confirmation.csv")), Options{Location: newYork})
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != "ibkr_flex" || f.Rows != 4 || f.Skipped != 0 || len(f.Fills) != 4 {
		t.Fatalf("format %s rows %d skipped %d fills %d, want ibkr_flex 4 0 4", f.Format, f.Rows, f.Skipped, len(f.Fills))
	}
	for i, want := range []float64{1.24, 1.24, 1, 1.0562} {
		if g := f.Fills[i].Commission; g == nil || *g != want {
			t.Errorf("fill %d (line %d): commission %s, want %v", i, f.Fills[i].Line, costText(g), want)
		}
	}
	if g := f.Fills[3]; g.Side != "sell" || g.Quantity != 100 || g.Price != 231.35 || g.SourceID != "0000e0d5.6761c5d6.04.01" {
		t.Errorf("fill 3: %+v", g)
	}
}

// costText writes a commission that may be unknown.
func costText(c *float64) string {
	if c == nil {
		return "unknown"
	}
	return strconv.FormatFloat(*c, 'f', -1, 64)
}
