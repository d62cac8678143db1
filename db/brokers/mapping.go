package brokers

import (
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Mapping is a user's description of a file no format reads (DESIGN §14):
// each role's column as the file's header writes it, the file's side
// values, date order, decimal mark and zone.
type Mapping struct {
	ID, Name   string
	Columns    MappingColumns
	SideValues *SideValues // nil: the sides §8 reads
	DateOrder  string      // "auto", "mdy", "dmy" or "ymd"
	Decimal    string      // "point" or "comma"
	Timezone   string      // IANA zone of times that carry none; "" for the import's
}

// MappingColumns name the file's columns by role; a nil one is not in the
// file. A time is Timestamp, or Date and Time.
type MappingColumns struct {
	Timestamp  *string  `json:"timestamp"`
	Date       *string  `json:"date"`
	Time       *string  `json:"time"`
	Symbol     *string  `json:"symbol"`
	Side       *string  `json:"side"`
	Quantity   *string  `json:"quantity"`
	Price      *string  `json:"price"`
	Account    *string  `json:"account"`
	Commission []string `json:"commission"` // summed
	ExecID     *string  `json:"exec_id"`
}

// SideValues are the values of a file's side column: a row whose side is
// one of Skip (MetaTrader's balance and credit rows) is no fill. Values
// match whatever their case.
type SideValues struct {
	Buy  []string `json:"buy"`
	Sell []string `json:"sell"`
	Skip []string `json:"skip"`
}

// mappingFormat is the Import format of a file read with a mapping.
const mappingFormat = "mapping"

// named are the mapping's columns by the reader's roles, with the API's
// field path of each; the commission columns are cost0, cost1….
func (m *Mapping) named() (roles []string, columns map[string][]string, paths map[string]string) {
	columns, paths = map[string][]string{}, map[string]string{}
	add := func(role, path string, col *string) {
		if col != nil {
			roles = append(roles, role)
			columns[role], paths[role] = []string{*col}, path
		}
	}
	c := m.Columns
	add("contract", "columns.symbol", c.Symbol)
	add("side", "columns.side", c.Side)
	add("quantity", "columns.quantity", c.Quantity)
	add("price", "columns.price", c.Price)
	add("time", "columns.timestamp", c.Timestamp)
	add("date", "columns.date", c.Date)
	add("clock", "columns.time", c.Time)
	add("account", "columns.account", c.Account)
	add("id", "columns.exec_id", c.ExecID)
	for i, col := range c.Commission {
		add("cost"+strconv.Itoa(i), "columns.commission["+strconv.Itoa(i)+"]", &col)
	}
	return roles, columns, paths
}

// spec is the mapping as a format: every column it names is required, so
// that format=auto picks it only for a header that has them all.
func (m *Mapping) spec() spec {
	roles, columns, _ := m.named()
	var costs []string
	for i := range m.Columns.Commission {
		costs = append(costs, "cost"+strconv.Itoa(i))
	}
	return spec{name: mappingFormat, required: roles, columns: columns, costs: costs, mapping: m,
		row: func(r *reader, line int, rec []string) {
			if m.SideValues != nil && matchesAny(m.SideValues.Skip, r.cell(rec, "side")) {
				r.file.Skipped++
				return
			}
			fillRow(r, line, rec)
		}}
}

// lacks names, with its field path, the first column the mapping names
// that the header does not have; "" when it has them all.
func (m *Mapping) lacks(t *table) (column, path string) {
	roles, columns, paths := m.named()
	for _, role := range roles {
		if i, _ := t.col(columns[role]...); i < 0 {
			return columns[role][0], paths[role]
		}
	}
	return "", ""
}

// options are the file's reading options under the mapping: its decimal
// mark, its date order unless auto (the request's then), and its zone
// where it has one.
func (m *Mapping) options(opt Options) (Options, error) {
	if m.Decimal != "" {
		opt.Decimal = m.Decimal
	}
	if m.DateOrder != "" && m.DateOrder != "auto" {
		opt.DateOrder = m.DateOrder
	}
	if m.Timezone != "" {
		loc, err := time.LoadLocation(m.Timezone)
		if err != nil {
			return opt, &FieldError{"mapping_id", "the mapping's timezone " + m.Timezone + " is not a zone this server knows"}
		}
		opt.Location = loc
	}
	return opt, nil
}

// mappingSide reads a side by the mapping's values.
func mappingSide(v *SideValues, s string) (string, bool) {
	switch {
	case matchesAny(v.Buy, s):
		return "buy", true
	case matchesAny(v.Sell, s):
		return "sell", true
	}
	return "", false
}

// matchesAny reports whether s is one of values, case and surrounding
// space ignored.
func matchesAny(values []string, s string) bool {
	s = strings.TrimSpace(s)
	return slices.ContainsFunc(values, func(v string) bool { return strings.EqualFold(strings.TrimSpace(v), s) })
}

// sideValuesText lists the mapping's side values for an error message.
func sideValuesText(v *SideValues) string {
	text := "buy: " + strings.Join(v.Buy, ", ") + "; sell: " + strings.Join(v.Sell, ", ")
	if len(v.Skip) > 0 {
		text += "; skip: " + strings.Join(v.Skip, ", ")
	}
	return text
}

// epochSeconds and epochMillis are a mapped timestamp of whole digits:
// Unix time in UTC, as MetaTrader writes it.
func epochTime(s string) (time.Time, bool) {
	if (len(s) != 10 && len(s) != 13) || strings.Trim(s, "0123456789") != "" {
		return time.Time{}, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	if len(s) == 13 {
		return time.UnixMilli(n).UTC(), true
	}
	return time.Unix(n, 0).UTC(), true
}

// headerText lists a header's columns for a message, the first 50.
func headerText(header []string) string {
	if len(header) > 50 {
		return strings.Join(header[:50], ", ") + ", …"
	}
	return strings.Join(header, ", ")
}

// mappedStamp is a mapped row's time: its timestamp cell, Unix time when
// it is 10 or 13 whole digits; or its date and time cells together, a bad
// time keyed by the time column.
func (r *reader) mappedStamp(line int, rec []string) stamp {
	if r.has("time") {
		st := stamp{text: r.cell(rec, "time"), line: line, column: r.file.Columns["time"]}
		_, st.epoch = epochTime(st.text)
		return st
	}
	date, clock := r.cell(rec, "date"), r.cell(rec, "clock")
	st := stamp{text: date + " " + clock, line: line, column: r.file.Columns["date"]}
	if _, err := parseStamp("2000-01-01 " + clock); err != nil {
		r.fail(line, "clock", r.file.Columns["clock"]+" is not a time of day (such as 09:31:05 or 9:31 AM)")
		st.failed = true
	}
	return st
}

// Head is a file's header and its first n data rows as written, for a
// trader to map its columns.
func Head(r io.Reader, n int) (header []string, rows [][]string, err error) {
	t, err := newTable(r)
	if err != nil {
		return nil, nil, err
	}
	for len(rows) < n {
		rec, _, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		rows = append(rows, rec)
	}
	return t.header, rows, nil
}
