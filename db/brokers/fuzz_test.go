package brokers

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzRead: any bytes read without a panic or a hang, into either a file
// whose fills are whole (positive quantity and price, a side, a time) or a
// FieldError or row errors, never both.
func FuzzRead(f *testing.F) {
	samples, _ := filepath.Glob("../../testdata/imports/*.csv")
	own, _ := filepath.Glob("testdata/*.csv") // the fault files: cancels, 32nds, open positions
	samples = append(samples, own...)
	for _, s := range samples {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "", "")
		f.Add(bytes.ReplaceAll(b, []byte(","), []byte(";")), "comma", "dmy")
		if len(b) > 200 {
			f.Add(b[:len(b)/2], "", "auto")
		}
	}
	f.Fuzz(func(t *testing.T, content []byte, decimal, dateOrder string) {
		file, err := Read(bytes.NewReader(content), Options{Location: time.UTC, Decimal: decimal, DateOrder: dateOrder})
		var rows *Error
		var field *FieldError
		switch {
		case err == nil:
			for _, fill := range file.Fills {
				if !(fill.Quantity > 0) || !(fill.Price > 0) || (fill.Side != "buy" && fill.Side != "sell") || fill.At.IsZero() {
					t.Fatalf("fill %+v is not whole", fill)
				}
				if fill.Commission != nil && !(*fill.Commission >= 0) {
					t.Fatalf("fill %+v has a negative commission", fill)
				}
			}
			if file.Rows != file.Skipped+len(file.Fills) && file.Rows*2 != 2*file.Skipped+len(file.Fills) {
				t.Fatalf("rows %d, skipped %d, fills %d do not add up", file.Rows, file.Skipped, len(file.Fills))
			}
		case errors.As(err, &rows):
			if file != nil || len(rows.Rows) == 0 || len(rows.Rows) > MaxRowErrors {
				t.Fatalf("row errors %d with file %v", len(rows.Rows), file)
			}
		case errors.As(err, &field):
			if file != nil {
				t.Fatalf("field error with a file")
			}
		default:
			t.Fatalf("unexpected error %T %v", err, err)
		}
	})
}
