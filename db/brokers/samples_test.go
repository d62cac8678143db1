package brokers

import (
	"bytes"
	"testing"
)

// TestSamples: each sample file is detected as its format, with the rows,
// skipped rows and fills counted by hand.
func TestSamples(t *testing.T) {
	tests := []struct {
		file                 string
		rows, skipped, fills int
	}{
		{"generic.csv", 10, 0, 10},
		{"tradovate_orders.csv", 10, 2, 8},      // a cancelled and a rejected order
		{"tradovate_performance.csv", 5, 0, 10}, // 5 round trips
		{"tradovate_positions.csv", 5, 0, 10},   // 5 pairs
		{"ninjatrader_executions.csv", 9, 0, 9}, // a partial fill is its own execution
		{"ninjatrader_trades.csv", 5, 0, 10},    // 5 round trips
		{"rithmic_orders.csv", 10, 2, 8},        // titles and the repeated header are no rows; a cancelled and a working order
		{"projectx_orders.csv", 9, 1, 8},        // a cancelled order
		{"projectx_trades.csv", 5, 0, 10},       // 5 round trips
		{"ibkr_flex.csv", 11, 2, 9},             // a cancel and the execution it cancels
	}
	for _, tt := range tests {
		f, err := Read(bytes.NewReader(readSample(t, tt.file)), Options{Location: newYork})
		if err != nil {
			t.Errorf("%s: %v", tt.file, err)
			continue
		}
		if want := tt.file[:len(tt.file)-4]; f.Format != want {
			t.Errorf("%s: detected %s", tt.file, f.Format)
		}
		if f.Rows != tt.rows || f.Skipped != tt.skipped || len(f.Fills) != tt.fills {
			t.Errorf("%s: rows %d skipped %d fills %d, want %d %d %d", tt.file, f.Rows, f.Skipped, len(f.Fills), tt.rows, tt.skipped, tt.fills)
		}
		for _, fill := range f.Fills {
			t.Logf("%s %+v", tt.file, fill)
		}
	}
}
