package brokers

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// executions is a NinjaTrader executions file of one buy per time.
func executions(times ...string) string {
	var b strings.Builder
	b.WriteString("Instrument,Action,Quantity,Price,Time,ID,Commission,Account\n")
	for i, tm := range times {
		b.WriteString("MNQ 12-25,Buy,1,21000," + tm + ",id" + string(rune('a'+i)) + ",$0.62,APEX-1\n")
	}
	return b.String()
}

func TestDateOrder(t *testing.T) {
	tests := []struct {
		name     string
		times    []string
		opt      Options
		want     []string // UTC
		warnings int
	}{
		{"day above 12 makes the file day-first", []string{"03/04/2025 9:31:05 AM", "15/04/2025 2:00:00 PM"}, Options{},
			[]string{"2025-04-03T13:31:05Z", "2025-04-15T18:00:00Z"}, 0},
		{"month-first by its second part", []string{"03/04/2025 09:31", "04/15/2025 14:00"}, Options{},
			[]string{"2025-03-04T14:31:00Z", "2025-04-15T18:00:00Z"}, 0},
		{"ambiguous reads month-first, with a warning", []string{"03/04/2025 09:31:05"}, Options{},
			[]string{"2025-03-04T14:31:05Z"}, 1},
		{"ambiguous with decimal commas reads day-first", []string{"03/04/2025 09:31:05"}, Options{Decimal: "comma"},
			[]string{"2025-04-03T13:31:05Z"}, 1},
		{"as date_order says", []string{"03/04/2025 09:31:05"}, Options{DateOrder: "dmy"},
			[]string{"2025-04-03T13:31:05Z"}, 0},
		{"year-first needs no order", []string{"2025-03-04 09:31:05", "20250304;093106"}, Options{},
			[]string{"2025-03-04T14:31:05Z", "2025-03-04T14:31:06Z"}, 0},
		{"12-hour clock", []string{"12/15/2025 12:05:00 AM", "12/15/2025 12:05:00 PM", "12/15/2025 1:05 pm"}, Options{},
			[]string{"2025-12-15T05:05:00Z", "2025-12-15T17:05:00Z", "2025-12-15T18:05:00Z"}, 0},
		{"an offset in the value wins", []string{"12/15/2025 09:31:05 -06:00", "2025-12-15T09:31:05.5Z"}, Options{},
			[]string{"2025-12-15T15:31:05Z", "2025-12-15T09:31:05.5Z"}, 0},
		{"two-digit years and dots", []string{"15.12.25 09:31"}, Options{},
			[]string{"2025-12-15T14:31:00Z"}, 0},
	}
	for _, tt := range tests {
		tt.opt.Location = newYork
		f, err := Read(strings.NewReader(executions(tt.times...)), tt.opt)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		var got []string
		for _, fill := range f.Fills {
			got = append(got, fill.At.UTC().Format(time.RFC3339Nano))
		}
		if !reflect.DeepEqual(got, tt.want) || len(f.Warnings) != tt.warnings {
			t.Errorf("%s: got %v, warnings %q; want %v and %d warnings", tt.name, got, f.Warnings, tt.want, tt.warnings)
		}
	}
}

func TestDateErrors(t *testing.T) {
	_, err := Read(strings.NewReader(executions("13/04/2025 09:31", "04/13/2025 09:31", "04/04/2025 09:31", "02/30/2025 09:31",
		"12/15/2025 13:05 PM", "12/15/2025")), Options{Location: newYork})
	var rows *Error
	if !errors.As(err, &rows) {
		t.Fatalf("got %v, want row errors", err)
	}
	var lines []int
	for _, r := range rows.Rows {
		if r.Column != "Time" {
			t.Errorf("row error on %q, want Time", r.Column)
		}
		lines = append(lines, r.Line)
	}
	// Day-first and month-first in one file: both rows; Feb 30; 13 PM; no time.
	if want := []int{2, 3, 5, 6, 7}; !reflect.DeepEqual(lines, want) {
		t.Errorf("bad lines %v, want %v: %+v", lines, want, rows.Rows)
	}
}

func TestHeaderZones(t *testing.T) {
	file := func(zone, at string) string {
		return "Completed Orders\nAccount,Status,Buy/Sell,Symbol,Order Number,Avg Fill Price,Qty Filled,Update Time (" + zone + ")\n" +
			"APEX-1,Filled,B,MNQZ5,1,21000,1," + at + "\n"
	}
	// Year first, read at once, and digits only, read once the file's
	// date order is known: both in the header's zone.
	for _, at := range []string{"2025-07-01 09:31:05", "07/01/2025 09:31:05"} {
		for zone, want := range map[string]string{"EDT": "2025-07-01T13:31:05Z", "CST": "2025-07-01T15:31:05Z", "UTC": "2025-07-01T09:31:05Z",
			"AEDT": "2025-06-30T22:31:05Z"} {
			f, err := Read(strings.NewReader(file(zone, at)), Options{Location: newYork})
			if err != nil || f.Fills[0].At.UTC().Format(time.RFC3339) != want {
				t.Errorf("%s %s: %v %v, want %s", at, zone, f, err, want)
			}
		}
	}
	_, err := Read(strings.NewReader(file("XYZ", "2025-07-01 09:31:05")), Options{Location: newYork})
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "timezone" || !strings.Contains(fe.Message, "Update Time (XYZ)") {
		t.Errorf("unknown zone: %v, want a FieldError on timezone naming the header", err)
	}
}

// TestHeaderZoneMadeOnce: a header's zone is made once for the file, not
// once a row: a digits-only date waits with where it came from, found by
// the zone's identity, and a zone a row would make a new source of every
// fill, searched at each (an import of 300,000 such fills took 14 s).
func TestHeaderZoneMadeOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("Completed Orders\nAccount,Status,Buy/Sell,Symbol,Order Number,Avg Fill Price,Qty Filled,Update Time (CST)\n")
	for i := range 6 {
		fmt.Fprintf(&b, "APEX-1,Filled,B,MNQZ5,%d,21000,1,07/0%d/2025 09:31:05\n", i+1, i+1)
	}
	f, err := Read(strings.NewReader(b.String()), Options{Location: newYork})
	if err != nil {
		t.Fatal(err)
	}
	for _, fill := range f.Fills {
		if fill.At.Location() != f.Fills[0].At.Location() || fill.At.Location().String() != "CST" {
			t.Fatalf("line %d: zone %p %s, first fill's %p", fill.Line, fill.At.Location(), fill.At.Location(), f.Fills[0].At.Location())
		}
	}
}

func TestContract(t *testing.T) {
	for in, want := range map[string]string{"MNQ 12-25": "MNQZ5", "MNQ DEC25": "MNQZ5", "mnq  03-26": "MNQH6", "ESZ25": "ESZ5",
		"MNQZ5": "MNQZ5", "AAPL": "AAPL", "MNQ 13-25": "MNQ 13-25"} {
		if got := contract(in); got != want {
			t.Errorf("contract(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestIBKRSides: a negative quantity is a sell; BUY with one is an error
// on the side column; a cancel without an execution id cancels the latest
// matching fill.
func TestIBKRSides(t *testing.T) {
	head := "ClientAccountID,Symbol,Buy/Sell,Quantity,TradePrice,IBCommission,DateTime,IBExecID\n"
	f, err := Read(strings.NewReader(head+
		"U1,ES,,-1,6000,-2.14,20251215;093105,x1\n"+
		"U1,ES,SELL,1,6001,-2.14,20251215;093106,\n"+
		"U1,ES,SELL,1,6001,-2.14,20251215;093107,\n"+
		"U1,ES,SELL (Ca.),1,6001,2.14,20251215;093108,\n"), Options{Location: newYork})
	if err != nil {
		t.Fatal(err)
	}
	if f.Rows != 4 || f.Skipped != 2 || len(f.Fills) != 2 || f.Fills[0].Side != "sell" || *f.Fills[0].Commission != 2.14 ||
		f.Fills[1].Line != 3 {
		t.Errorf("file: %+v", f)
	}
	_, err = Read(strings.NewReader(head+"U1,ES,BUY,-1,6000,-2.14,20251215;093105,x1\n"), Options{Location: newYork})
	var rows *Error
	if !errors.As(err, &rows) || rows.Rows[0].Column != "Buy/Sell" {
		t.Errorf("BUY with a negative quantity: %v", err)
	}
}
