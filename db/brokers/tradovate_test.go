package brokers

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestTradovateOpenPosition: Position History lists a position still open
// as a row with no exit, no pair ids and no prices (line 4, long 2 MNQZ5).
// That row is no fill: it counts as skipped and a warning names its
// contract; the file's closed pairs read as ever.
func TestTradovateOpenPosition(t *testing.T) {
	f, err := Read(bytes.NewReader(readTestdata(t, "tradovate_positions_open.csv")), Options{Location: newYork})
	if err != nil {
		t.Fatal(err)
	}
	if f.Format != "tradovate_positions" || f.Rows != 3 || f.Skipped != 1 || len(f.Fills) != 4 {
		t.Fatalf("format %s rows %d skipped %d fills %d, want tradovate_positions 3 1 4", f.Format, f.Rows, f.Skipped, len(f.Fills))
	}
	for _, g := range f.Fills {
		if g.Line == 4 {
			t.Errorf("a fill of the open position: %+v", g)
		}
	}
	want := "MNQZ5: open position not imported: the file has no exit for it (line 4)"
	if !slices.Contains(f.Warnings, want) {
		t.Errorf("warnings %q, want %q", f.Warnings, want)
	}
}

// TestOpenRoundTrip: in a format of entry and exit columns, a row with
// neither an exit price nor an exit time is an open position too; a row
// that lacks only one of them is a row error.
func TestOpenRoundTrip(t *testing.T) {
	head := "Trade number,Instrument,Account,Market pos.,Qty,Entry price,Exit price,Entry time,Exit time,Commission\n"
	f, err := Read(strings.NewReader(head+
		"1,MNQ 12-25,APEX-1,Long,1,21000.25,21010.50,12/15/2025 9:31:05 AM,12/15/2025 9:40:00 AM,$1.24\n"+
		"2,MNQ 12-25,APEX-1,Short,1,21020.00,,12/15/2025 10:00:00 AM,,$0.62\n"), Options{Location: newYork})
	if err != nil || f.Format != "ninjatrader_trades" || f.Skipped != 1 || len(f.Fills) != 2 || len(f.Warnings) != 1 {
		t.Fatalf("got %+v, %v; want the open row skipped with a warning", f, err)
	}
	_, err = Read(strings.NewReader(head+
		"2,MNQ 12-25,APEX-1,Short,1,21020.00,,12/15/2025 10:00:00 AM,12/15/2025 10:05:00 AM,$0.62\n"), Options{Location: newYork})
	var rows *Error
	if !errors.As(err, &rows) || rows.Rows[0].Column != "Exit price" {
		t.Errorf("an exit time without its price: %v, want a row error on Exit price", err)
	}
}
