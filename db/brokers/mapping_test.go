package brokers

import (
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

func col(s string) *string { return &s }

func readOwn(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// metaTrader maps a MetaTrader deals export: Unix times, balance and credit
// rows, a commission and a fee.
var metaTrader = Mapping{ID: "m-mt", Name: "MetaTrader deals",
	Columns: MappingColumns{Timestamp: col("Time"), Symbol: col("Symbol"), Side: col("Type"), Quantity: col("Volume"),
		Price: col("Price"), Commission: []string{"Commission", "Fee"}, ExecID: col("Deal")},
	SideValues: &SideValues{Buy: []string{"buy"}, Sell: []string{"SELL"}, Skip: []string{"balance", "Credit"}},
	DateOrder:  "auto", Decimal: "point"}

// quantower maps a Quantower-like trades export: semicolons, decimal
// commas, day-first dates in a date and a time column, Berlin time.
var quantower = Mapping{ID: "m-qt", Name: "Quantower",
	Columns: MappingColumns{Date: col("Date"), Time: col("Time"), Account: col("Account"), Symbol: col("Symbol"),
		Side: col("Side"), Quantity: col("Quantity"), Price: col("Price"), Commission: []string{"Commission"},
		ExecID: col("Trade ID")},
	DateOrder: "dmy", Decimal: "comma", Timezone: "Europe/Berlin"}

// TestMappingMetaTrader: 10 digits are Unix seconds and 13 milliseconds,
// in UTC whatever the import's zone; the balance and credit rows are no
// fills and count in skipped (rows 4 = skipped 2 + fills 2); the costs
// are summed as costs (|-0.35| + |-0.05| = 0.40).
func TestMappingMetaTrader(t *testing.T) {
	f, err := Read(strings.NewReader(readOwn(t, "metatrader_deals.csv")), Options{Location: newYork, Mapping: &metaTrader})
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339Nano, s); return v }
	want := []Fill{
		{3, "", "EURUSD", "buy", 0.1, 1.1599, ptr(0.4), at("2025-12-01T14:31:05Z"), "5002"},
		{4, "", "EURUSD", "sell", 0.1, 1.1605, ptr(0.4), at("2025-12-01T14:36:05.25Z"), "5003"},
	}
	if f.Format != "mapping" || f.MappingID != "m-mt" || f.Timezone != "" || f.Rows != 4 || f.Skipped != 2 {
		t.Errorf("file: format %s mapping %q zone %q rows %d skipped %d", f.Format, f.MappingID, f.Timezone, f.Rows, f.Skipped)
	}
	if len(f.Fills) != 2 {
		t.Fatalf("fills %+v", f.Fills)
	}
	for i, w := range want {
		g := f.Fills[i]
		if !g.At.Equal(w.At) || g.Commission == nil || math.Abs(*g.Commission-*w.Commission) > 1e-9 {
			t.Errorf("fill %d at %v commission %v, want %v %v", i, g.At, g.Commission, w.At, *w.Commission)
		}
		g.At, g.Commission, w.At, w.Commission = time.Time{}, nil, time.Time{}, nil
		if !reflect.DeepEqual(g, w) {
			t.Errorf("fill %d\n got %+v\nwant %+v", i, g, w)
		}
	}
}

// TestMappingQuantower: the mapping's decimal comma, day-first order and
// zone read the file: 03.12.2025 15:31:05 in Berlin (CET, +01:00) is
// 14:31:05 UTC on 3 December; 21.000,25 is 21000.25. The Import's zone is
// the mapping's.
func TestMappingQuantower(t *testing.T) {
	f, err := Read(strings.NewReader(readOwn(t, "quantower_comma.csv")), Options{Location: newYork, Mapping: &quantower})
	if err != nil {
		t.Fatal(err)
	}
	if f.Timezone != "Europe/Berlin" || len(f.Fills) != 2 || len(f.Warnings) != 0 {
		t.Fatalf("file %+v", f)
	}
	b, s := f.Fills[0], f.Fills[1]
	if b.Account != "QT-1" || b.Side != "buy" || b.Quantity != 2 || b.Price != 21000.25 || *b.Commission != 1.24 ||
		!b.At.Equal(time.Date(2025, 12, 3, 14, 31, 5, 0, time.UTC)) || b.SourceID != "Q-1" {
		t.Errorf("buy %+v", b)
	}
	if s.Side != "sell" || s.Price != 21010.5 || !s.At.Equal(time.Date(2025, 12, 3, 14, 40, 0, 0, time.UTC)) {
		t.Errorf("sell %+v", s)
	}

	// date_order auto: every date reads both ways; with the decimal comma,
	// day-first, and the warning says so.
	auto := quantower
	auto.DateOrder = "auto"
	f, err = Read(strings.NewReader(readOwn(t, "quantower_comma.csv")), Options{Location: newYork, Mapping: &auto})
	if err != nil || f.Fills[0].At.Day() != 3 || len(f.Warnings) != 1 || !strings.Contains(f.Warnings[0], "day-first") {
		t.Errorf("auto date order: %v %+v", err, f)
	}
	// Without a zone of its own the mapping reads in the import's.
	auto.Timezone = ""
	f, err = Read(strings.NewReader(readOwn(t, "quantower_comma.csv")), Options{Location: newYork, Mapping: &auto})
	if err != nil || !f.Fills[0].At.Equal(time.Date(2025, 12, 3, 20, 31, 5, 0, time.UTC)) || f.Timezone != "" {
		t.Errorf("import's zone: %v %+v", err, f)
	}
}

// TestMappingAuto: auto reads a header no format reads by the first of the
// user's mappings (by name) whose every column is in it; a header nothing
// reads is a format error listing its columns.
func TestMappingAuto(t *testing.T) {
	other := metaTrader
	other.ID, other.Name = "m-other", "Another"
	other.Columns.Account = col("Login") // not in the file: never picked
	later := metaTrader
	later.ID, later.Name = "m-later", "Zeta"
	f, err := Read(strings.NewReader(readOwn(t, "metatrader_deals.csv")),
		Options{Location: time.UTC, Mappings: []Mapping{other, metaTrader, later}})
	if err != nil || f.MappingID != "m-mt" || len(f.Fills) != 2 {
		t.Fatalf("auto: %v %+v", err, f)
	}
	// A known format still wins over a mapping.
	f, err = Read(strings.NewReader(string(readSample(t, "generic.csv"))), Options{Location: time.UTC,
		Mappings: []Mapping{{ID: "m-g", Name: "g", Columns: MappingColumns{Timestamp: col("timestamp"), Symbol: col("symbol"),
			Side: col("side"), Quantity: col("quantity"), Price: col("price")}}}})
	if err != nil || f.Format != "generic" || f.MappingID != "" {
		t.Errorf("generic file with a mapping that fits: %v %+v", err, f)
	}
	_, err = Read(strings.NewReader(readOwn(t, "metatrader_deals.csv")), Options{Location: time.UTC, Mappings: []Mapping{other}})
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "format" ||
		!strings.Contains(fe.Message, "(its columns: Time, Deal, Symbol, Type, Volume, Price, Commission, Fee, Profit)") {
		t.Errorf("unread header: %v", err)
	}
}

// TestMappingLacks: a mapping given for a file whose header lacks a column
// it names is an error on mapping_id naming the column.
func TestMappingLacks(t *testing.T) {
	m := metaTrader
	m.Columns.Account = col("Login")
	_, err := Read(strings.NewReader(readOwn(t, "metatrader_deals.csv")), Options{Location: time.UTC, Mapping: &m})
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "mapping_id" || !strings.HasPrefix(fe.Message,
		"the file's header lacks Login, which the mapping MetaTrader deals names (columns.account); its columns: Time, Deal") {
		t.Errorf("lacking column: %v", err)
	}
}

// TestMappingRowErrors: bad cells are keyed by the file's column names:
// a side in no list (by the Type column), a negative quantity beside a
// buy (by the side column), a timestamp of 12 digits, a bad time in a
// date-and-time mapping (by the time column), a bad number.
func TestMappingRowErrors(t *testing.T) {
	file := "Time,Deal,Symbol,Type,Volume,Price,Commission,Fee\n" +
		"1764599465,1,EURUSD,deposit,0.1,1.1,0,0\n" +
		"1764599465,2,EURUSD,buy,-0.1,1.1,0,0\n" +
		"176459946512,3,EURUSD,buy,0.1,1.1,0,0\n" +
		"1764599465,4,EURUSD,sell,0.1,1.1x,0,0\n"
	_, err := Read(strings.NewReader(file), Options{Location: time.UTC, Mapping: &metaTrader})
	var rows *Error
	if !errors.As(err, &rows) {
		t.Fatalf("want row errors, got %v", err)
	}
	want := []RowError{
		{2, "Type", "Type must be one of the mapping's side values (buy: buy; sell: SELL; skip: balance, Credit)"},
		{3, "Type", "Type says buy but the quantity is negative (a sell)"},
		{4, "Time", "Time " + errStamp.Error()},
		{5, "Price", "Price is not a number"},
	}
	if !reflect.DeepEqual(rows.Rows, want) {
		t.Errorf("row errors\n got %+v\nwant %+v", rows.Rows, want)
	}

	bad := "Date;Time;Account;Symbol;Side;Quantity;Price;Commission;Trade ID\n" +
		"03.12.2025;25:31;QT-1;MNQZ5;Buy;2;21.000,25;1,24;Q-1\n" +
		"31.02.2025;15:31;QT-1;MNQZ5;Sell;2;21.000,25;1,24;Q-2\n"
	_, err = Read(strings.NewReader(bad), Options{Location: time.UTC, Mapping: &quantower})
	want = []RowError{
		{2, "Time", "Time is not a time of day (such as 09:31:05 or 9:31 AM)"},
		{3, "Date", "Date is not a date"},
	}
	if !errors.As(err, &rows) || !reflect.DeepEqual(rows.Rows, want) {
		t.Errorf("date and time errors: %v\n got %+v\nwant %+v", err, rows.Rows, want)
	}
}

// TestMappingSidesOfSection8: without side values a mapping reads the
// sides §8 reads (B, Sell short...).
func TestMappingSidesOfSection8(t *testing.T) {
	m := metaTrader
	m.SideValues = nil
	file := "Time,Deal,Symbol,Type,Volume,Price,Commission,Fee\n1764599465,1,EURUSD,B,1,1.1,,\n1764599466,2,EURUSD,Sell short,1,1.2,,\n"
	f, err := Read(strings.NewReader(file), Options{Location: time.UTC, Mapping: &m})
	if err != nil || f.Fills[0].Side != "buy" || f.Fills[1].Side != "sell" || f.Fills[0].Commission != nil {
		t.Errorf("sides of §8: %v %+v", err, f)
	}
}
