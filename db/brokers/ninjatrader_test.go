package brokers

import (
	"bytes"
	"testing"
)

// TestNinjaTraderExecutionsWithoutID: the Executions grid exports only its
// visible columns, so a grid whose ID column is hidden writes no ID. Its
// fills have no source id (the journal hashes them, DESIGN §8); the file
// reads, detected and named. Lines 3 and 4 are two partial fills of one
// order, identical but for being two: both are fills.
func TestNinjaTraderExecutionsWithoutID(t *testing.T) {
	for _, format := range []string{"auto", "ninjatrader_executions"} {
		f, err := Read(bytes.NewReader(readTestdata(t, "ninjatrader_executions_no_id.csv")), Options{Format: format, Location: newYork})
		if err != nil {
			t.Errorf("%s: %v", format, err)
			continue
		}
		if f.Format != "ninjatrader_executions" || f.Rows != 3 || f.Skipped != 0 || len(f.Fills) != 3 {
			t.Errorf("%s: format %s rows %d skipped %d fills %d, want ninjatrader_executions 3 0 3", format, f.Format, f.Rows,
				f.Skipped, len(f.Fills))
			continue
		}
		for _, g := range f.Fills {
			if g.SourceID != "" || g.Contract != "MNQZ5" || g.Account != "APEX-1" {
				t.Errorf("%s: fill %+v, want MNQZ5 of APEX-1 without a source id", format, g)
			}
		}
		a, b := f.Fills[1], f.Fills[2]
		a.Line, b.Line, a.Commission, b.Commission = 0, 0, nil, nil
		if a != b {
			t.Errorf("%s: the two partial fills differ beyond their lines: %+v, %+v", format, f.Fills[1], f.Fills[2])
		}
	}
}
