package brokers

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

var newYork = mustZone("America/New_York")

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

func ptr(v float64) *float64 { return &v }

func readSample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("../../testdata/imports/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGenericSample reads the sample file: every fill, exactly.
func TestGenericSample(t *testing.T) {
	f, err := Read(strings.NewReader(string(readSample(t, "generic.csv"))), Options{Location: newYork})
	if err != nil {
		t.Fatal(err)
	}
	utc := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v }
	want := []Fill{
		{2, "APEX-1", "MNQZ5", "buy", 1, 21000.25, ptr(0.62), utc("2025-12-01T14:31:05Z"), "G-1001"},
		{3, "APEX-1", "MNQZ5", "buy", 1, 21004.75, ptr(0.62), utc("2025-12-01T14:32:10Z"), "G-1002"},
		{4, "APEX-1", "MNQZ5", "sell", 2, 21010.5, ptr(1.24), utc("2025-12-01T14:40:00Z"), "G-1003"},
		{5, "APEX-1", "ESZ5", "sell", 1, 6010, ptr(2.14), utc("2025-12-01T15:00:00Z"), "G-1004"},
		{6, "APEX-1", "ESZ5", "buy", 3, 6005.5, ptr(6.42), utc("2025-12-01T15:05:30Z"), "G-1005"},
		{7, "APEX-1", "ESZ5", "sell", 2, 6008, ptr(4.28), utc("2025-12-01T15:20:00Z"), "G-1006"},
		{8, "APEX-1", "MNQZ5", "buy", 2, 21050, ptr(1.24), utc("2025-12-01T20:50:00Z"), "G-1007"},
		{9, "APEX-1", "MNQZ5", "sell", 2, 21030, ptr(1.24), utc("2025-12-02T14:35:00Z"), "G-1008"},
		{10, "APEX-1", "AAPL", "buy", 100, 230.1, nil, utc("2025-12-01T15:00:00Z"), "G-1009"},
		{11, "APEX-1", "AAPL", "sell", 100, 231.35, nil, utc("2025-12-01T20:45:00Z"), "G-1010"},
	}
	if f.Format != "generic" || f.Rows != 10 || f.Skipped != 0 || len(f.Fills) != len(want) {
		t.Fatalf("file: format %s rows %d skipped %d fills %d", f.Format, f.Rows, f.Skipped, len(f.Fills))
	}
	for i, w := range want {
		g := f.Fills[i]
		if !g.At.Equal(w.At) || !reflect.DeepEqual(g.Commission, w.Commission) {
			t.Errorf("fill %d: at %v commission %v, want %v %v", i, g.At, g.Commission, w.At, w.Commission)
		}
		g.At, g.Commission, w.At, w.Commission = time.Time{}, nil, time.Time{}, nil
		if g != w {
			t.Errorf("fill %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
}

// TestReadForms: delimiters, quoting, BOM, UTF-16, blank and repeated
// header lines, comma decimals all read as the plain file does.
func TestReadForms(t *testing.T) {
	plain := "account_number,symbol,side,quantity,price,commission,timestamp,exec_id\n" +
		"A,MNQZ5,Buy,1,21000.25,0.62,2025-12-01 09:31:05,x1\n"
	utf16le := func(s string) string {
		b := []byte{0xFF, 0xFE}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return string(b)
	}
	forms := map[string]struct {
		text string
		opt  Options
	}{
		"plain":         {plain, Options{}},
		"BOM":           {"\ufeff" + plain, Options{}},
		"UTF-16 LE":     {utf16le(plain), Options{}},
		"CRLF":          {strings.ReplaceAll(plain, "\n", "\r\n"), Options{}},
		"semicolons":    {strings.NewReplacer(",", ";", "21000.25", "21000,25", "0.62", "0,62").Replace(plain), Options{Decimal: "comma"}},
		"tabs":          {strings.ReplaceAll(plain, ",", "\t"), Options{}},
		"quoted":        {strings.Replace(plain, "21000.25", `"21,000.25"`, 1), Options{}},
		"blank lines":   {strings.Replace(plain, "\nA,", "\n,,,,,,,\n\nA,", 1), Options{}},
		"header again":  {plain + strings.SplitAfter(plain, "\n")[0], Options{}},
		"spaced values": {strings.Replace(plain, "Buy", "  Buy ", 1), Options{}},
	}
	for name, form := range forms {
		form.opt.Location = newYork
		f, err := Read(strings.NewReader(form.text), form.opt)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(f.Fills) != 1 || f.Rows != 1 {
			t.Errorf("%s: %d fills in %d rows", name, len(f.Fills), f.Rows)
			continue
		}
		g := f.Fills[0]
		if g.Price != 21000.25 || g.Side != "buy" || g.SourceID != "x1" || *g.Commission != 0.62 ||
			g.At.UTC().Format(time.RFC3339) != "2025-12-01T14:31:05Z" {
			t.Errorf("%s: %+v", name, g)
		}
	}
}

// TestReadErrors: a file with bad rows names each bad cell by line and
// header, returns nothing else, and stops at MaxRowErrors.
func TestReadErrors(t *testing.T) {
	head := "account_number,Symbol,Side,Quantity,Price,Commission,Timestamp,exec_id\n"
	f, err := Read(strings.NewReader(head+
		"A,MNQZ5,buy,1,21000,0.62,2025-12-01 09:31:05,x1\n"+
		"A,MNQZ5,hold,1,21000,0.62,2025-12-01 09:31:05,x2\n"+
		"A,MNQZ5,buy,one,21000,0.62,2025-12-01 09:31:05,x3\n"+
		"A,MNQZ5,buy,1,-5,zero,2025-12-01 09:31:05,x4\n"+
		"A,MNQZ5,buy,1,21000,0.62,2025-03-09 02:30:00,x5\n"+
		"A,MNQZ5,buy,1,21000,0.62,2025-11-02 01:30:00,x6\n"+
		"A,MNQZ5,buy,1,21000,0.62,yesterday,x7\n"), Options{Location: newYork})
	var rows *Error
	if f != nil || !errors.As(err, &rows) {
		t.Fatalf("got %v, %v; want *Error and no file", f, err)
	}
	want := []RowError{
		{3, "Side", "Side must be Buy or Sell (or B/S, Bid/Ask)"},
		{4, "Quantity", "Quantity is not a number"},
		{5, "Price", "Price must be a positive number"},
		{5, "Commission", "Commission is not a number"},
		{6, "Timestamp", "Timestamp does not exist in America/New_York (the clocks jumped over it)"},
		{7, "Timestamp", "Timestamp is ambiguous in America/New_York (the clocks turned back over it)"},
		{8, "Timestamp", "Timestamp " + errStamp.Error()},
	}
	if !reflect.DeepEqual(rows.Rows, want) {
		t.Errorf("row errors:\n got %+v\nwant %+v", rows.Rows, want)
	}

	many := head + strings.Repeat("A,MNQZ5,hold,1,21000,0.62,2025-12-01 09:31:05,x\n", MaxRowErrors+50)
	if _, err := Read(strings.NewReader(many), Options{Location: newYork}); !errors.As(err, &rows) || len(rows.Rows) != MaxRowErrors {
		t.Errorf("150 bad rows: %v, want %d row errors", err, MaxRowErrors)
	}
}

func TestReadFileErrors(t *testing.T) {
	tests := []struct {
		name, text string
		opt        Options
		field      string
	}{
		{"empty", "", Options{}, "file"},
		{"only blank lines", "\n\n,,,\n", Options{}, "file"},
		{"unknown header", "what,is,this\n1,2,3\n", Options{}, "format"},
		{"unknown format", "symbol,side\n", Options{Format: "excel"}, "format"},
		{"format without its headers", "symbol,side\n", Options{Format: "generic"}, "format"},
		{"bad decimal", "x\n", Options{Decimal: "dot"}, "decimal"},
		{"bad date order", "x\n", Options{DateOrder: "ydm"}, "date_order"},
		{"not text", "\xff\xff\xfe,x\n", Options{}, "file"},
	}
	for _, tt := range tests {
		tt.opt.Location = newYork
		_, err := Read(strings.NewReader(tt.text), tt.opt)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tt.field {
			t.Errorf("%s: got %v, want a FieldError on %s", tt.name, err, tt.field)
		}
	}
}

// TestNegativeQuantity: a negative quantity is a sell (DESIGN §8); beside a
// side that says buy the row is an error keyed by the side column, as in
// IBKR's files. In the generic file, line 3 sells 2 and line 4 is that
// error; without line 4 the file reads.
func TestNegativeQuantity(t *testing.T) {
	text := string(readTestdata(t, "generic_negative_quantity.csv"))
	_, err := Read(strings.NewReader(text), Options{Location: newYork})
	var rows *Error
	if !errors.As(err, &rows) {
		t.Fatalf("got %v, want row errors", err)
	}
	want := []RowError{{4, "side", "side says buy but the quantity is negative (a sell)"}}
	if !reflect.DeepEqual(rows.Rows, want) {
		t.Errorf("row errors:\n got %+v\nwant %+v", rows.Rows, want)
	}

	lines := strings.SplitAfter(text, "\n")
	f, err := Read(strings.NewReader(strings.Join(append(lines[:3:3], lines[4:]...), "")), Options{Location: newYork})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Fills) != 3 || f.Fills[1].Side != "sell" || f.Fills[1].Quantity != 2 || *f.Fills[1].Commission != 1.24 {
		t.Errorf("fills: %+v", f.Fills)
	}

	// The formats that share the generic's reading: NinjaTrader's executions.
	_, err = Read(strings.NewReader("Instrument,Action,Quantity,Price,Time,ID,Commission,Account\n"+
		"MNQ 12-25,Buy,-1,21000,12/15/2025 9:31:05 AM,ida,$0.62,APEX-1\n"), Options{Location: newYork})
	if !errors.As(err, &rows) || len(rows.Rows) != 1 || rows.Rows[0].Column != "Action" {
		t.Errorf("NinjaTrader Buy with -1: %v, want one row error on Action", err)
	}
}
