package brokers

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
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

// FuzzReadMapping: a random mapping (its columns, side values, decimal and
// date order from the fuzzer) over random bytes reads without a panic into
// whole fills, or an error and no file.
func FuzzReadMapping(f *testing.F) {
	for _, name := range []string{"metatrader_deals.csv", "quantower_comma.csv"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "Time|Symbol|Type|Volume|Price|Commission|Deal", "buy|sell|balance", "point", "auto")
		f.Add(b, "Date Time|Symbol|Side|Quantity|Price|Commission|Trade ID", "", "comma", "dmy")
	}
	f.Fuzz(func(t *testing.T, content []byte, columns, sides, decimal, dateOrder string) {
		c := strings.Split(columns, "|")
		for len(c) < 7 {
			c = append(c, "")
		}
		m := Mapping{Name: "fuzz", Decimal: decimal, DateOrder: dateOrder}
		if date, clock, ok := strings.Cut(c[0], " "); ok {
			m.Columns.Date, m.Columns.Time = &date, &clock
		} else {
			m.Columns.Timestamp = &c[0]
		}
		m.Columns.Symbol, m.Columns.Side, m.Columns.Quantity, m.Columns.Price = &c[1], &c[2], &c[3], &c[4]
		m.Columns.Commission = []string{c[5]}
		m.Columns.ExecID = &c[6]
		if s := strings.Split(sides, "|"); len(s) == 3 {
			m.SideValues = &SideValues{Buy: []string{s[0]}, Sell: []string{s[1]}, Skip: []string{s[2]}}
		}
		file, err := Read(bytes.NewReader(content), Options{Location: time.UTC, Mapping: &m, Decimal: decimal, DateOrder: dateOrder})
		if err != nil {
			if file != nil {
				t.Fatalf("error %v with a file", err)
			}
			return
		}
		for _, fill := range file.Fills {
			if !(fill.Quantity > 0) || !(fill.Price > 0) || (fill.Side != "buy" && fill.Side != "sell") || fill.At.IsZero() {
				t.Fatalf("fill %+v is not whole", fill)
			}
		}
		if file.Rows != file.Skipped+len(file.Fills) {
			t.Fatalf("rows %d, skipped %d, fills %d do not add up", file.Rows, file.Skipped, len(file.Fills))
		}
	})
}
