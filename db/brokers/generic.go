package brokers

import (
	"io"
	"strings"
	"time"
)

// The generic format is the journal's own export (GET /trades/export):
// account_number,symbol,side,quantity,price,commission,timestamp,exec_id.
func genericFormat() format {
	return format{name: "generic", required: []string{"symbol", "side", "quantity", "price", "timestamp"}, read: readGeneric}
}

func readGeneric(t *table, opt Options) (*File, error) {
	f := &File{Format: "generic", Fills: []Fill{}, Warnings: []string{}, Columns: map[string]string{}}
	idx := map[string]int{}
	for role, aliases := range map[string][]string{
		"account": {"account_number", "account"}, "contract": {"symbol"}, "side": {"side"}, "quantity": {"quantity"},
		"price": {"price"}, "commission": {"commission"}, "time": {"timestamp"}, "id": {"exec_id"},
	} {
		i, name := t.col(aliases...)
		idx[role] = i
		f.Columns[role] = name
	}
	cell := func(rec []string, role string) string {
		if i := idx[role]; i >= 0 && i < len(rec) {
			return rec[i]
		}
		return ""
	}
	var bad rowErrs
	for {
		rec, line, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		f.Rows++
		fill := Fill{Line: line, Account: cell(rec, "account"), Contract: strings.ToUpper(cell(rec, "contract")),
			SourceID: cell(rec, "id")}
		if fill.Contract == "" {
			bad.add(line, f.Columns["contract"], "symbol is required")
		}
		var ok bool
		if fill.Side, ok = side(cell(rec, "side")); !ok {
			bad.add(line, f.Columns["side"], "side must be buy or sell")
		}
		for _, n := range []struct {
			role string
			dst  *float64
		}{{"quantity", &fill.Quantity}, {"price", &fill.Price}} {
			v, err := number(cell(rec, n.role), opt.Decimal)
			switch {
			case err != nil:
				bad.add(line, f.Columns[n.role], n.role+" "+err.Error())
			case v <= 0:
				bad.add(line, f.Columns[n.role], n.role+" must be a positive number")
			}
			*n.dst = v
		}
		if c := cell(rec, "commission"); c != "" {
			v, err := number(c, opt.Decimal)
			if err != nil {
				bad.add(line, f.Columns["commission"], "commission "+err.Error())
			}
			if v < 0 {
				v = -v // a cost whatever its sign
			}
			fill.Commission = &v
		}
		at, err := genericTime(cell(rec, "time"), opt.Location)
		if err != nil {
			bad.add(line, f.Columns["time"], "timestamp "+err.Error())
		}
		fill.At = at
		f.Fills = append(f.Fills, fill)
	}
	if len(bad.Rows) > 0 {
		return nil, &Error{Rows: bad.Rows}
	}
	return f, nil
}

// genericTime reads RFC 3339, or a local date and time without a zone.
func genericTime(s string, loc *time.Location) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02T15:04:05", "2006-01-02 15:04"} {
		if _, err := time.Parse(layout, s); err == nil {
			return localTime(layout, s, loc)
		}
	}
	return time.Time{}, errBadTime
}

var errBadTime = errorString("must be RFC 3339 (2025-12-01T09:31:00-05:00) or a local YYYY-MM-DD HH:MM:SS")

type errorString string

func (e errorString) Error() string { return string(e) }

// rowErrs collects bad cells up to MaxRowErrors.
type rowErrs struct{ Rows []RowError }

func (e *rowErrs) add(line int, column, msg string) {
	if len(e.Rows) < MaxRowErrors {
		e.Rows = append(e.Rows, RowError{Line: line, Column: column, Message: msg})
	}
}

func formats() []format { return []format{genericFormat()} }
