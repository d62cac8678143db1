package db

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"tradejournal/db/brokers"
)

// ImportFileName is an Import's file name: "" for fills posted by a script,
// which came in no file, written as JSON null.
type ImportFileName string

func (n ImportFileName) MarshalJSON() ([]byte, error) {
	if n == "" {
		return []byte("null"), nil
	}
	return json.Marshal(string(n))
}

// FillInput is one fill a script posts (DESIGN §14), as the server checked
// it: every field but Commission present and of its type.
type FillInput struct {
	ExecID     Optional[string]  `json:"exec_id"`
	Symbol     Optional[string]  `json:"symbol"`
	Side       Optional[string]  `json:"side"`
	Quantity   Optional[float64] `json:"quantity"`
	Price      Optional[float64] `json:"price"`
	Commission Optional[float64] `json:"commission"` // absent or null: the account's commission schedule
	// Timestamp is RFC 3339 with an offset, or a local time
	// (2025-11-12T10:05:30) read in the post's timezone.
	Timestamp Optional[string] `json:"timestamp"`
}

// FillsInput is a script's post of fills into one account.
type FillsInput struct {
	AccountID string
	Timezone  string // IANA zone of timestamps without an offset, and the Import's
	Fills     []FillInput
}

// apiFormat is the Import format of fills posted by a script.
const apiFormat = "api"

// fillsHeader is the generic format's header in the order the fills are
// written: the quantity first, so that no fill can read as a file's
// summary line ("Total").
var fillsHeader = []string{"quantity", "price", "symbol", "side", "timestamp", "commission", "exec_id"}

// ImportFills brings in fills posted by a script: they are read as the
// rows of a generic file, by its rules (contracts, sides, times, the
// commission schedule when a fill has none, source id = exec_id), and
// imported as one Import of format api without a file name. When every
// fill is one the account holds, nothing is written and the Import's id is
// nil. A fill that cannot be read is a *brokers.Error whose Line is the
// fill's index in in.Fills (from 0) and whose Column is its field.
func (db *DB) ImportFills(ctx context.Context, userID string, in FillsInput) (Import, error) {
	loc, err := db.zones.load(in.Timezone)
	if err != nil {
		return Import{}, &InvalidError{Field: "timezone", Message: "timezone must be an IANA zone name such as America/New_York"}
	}
	text, lines, err := fillsFile(in.Fills)
	if err != nil {
		return Import{}, err
	}
	file, err := brokers.Read(bytes.NewReader(text), brokers.Options{Format: "generic", Location: loc})
	if err != nil {
		return Import{}, byFill(err, lines)
	}
	if file.Rows != len(in.Fills) || len(file.Fills) != len(in.Fills) {
		return Import{}, fmt.Errorf("db: %d fills posted, %d rows and %d fills read", len(in.Fills), file.Rows, len(file.Fills))
	}
	file.Format = apiFormat
	imp, err := db.Import(ctx, userID, ImportInput{File: file, Timezone: in.Timezone, AccountID: in.AccountID, OnlyNew: true})
	return imp, byFill(err, lines)
}

// fillsFile writes fills as a generic file; lines[i] is the line fills[i]
// starts on.
func fillsFile(fills []FillInput) (text []byte, lines []int, err error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write(fillsHeader)
	w.Flush()
	number := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	lines = make([]int, len(fills))
	line := 2
	for i, f := range fills {
		commission := ""
		if c := f.Commission.Ptr(); c != nil {
			commission = number(*c)
		}
		start := b.Len()
		w.Write([]string{number(f.Quantity.Value), number(f.Price.Value), f.Symbol.Value, f.Side.Value,
			f.Timestamp.Value, commission, f.ExecID.Value})
		w.Flush()
		lines[i] = line
		line += bytes.Count(b.Bytes()[start:], []byte("\n")) // a quoted line break adds one
	}
	return b.Bytes(), lines, w.Error()
}

// byFill renumbers the row errors of the posted fills' file by fill.
func byFill(err error, lines []int) error {
	var rows *brokers.Error
	if !errors.As(err, &rows) {
		return err
	}
	out := &brokers.Error{Rows: make([]brokers.RowError, len(rows.Rows))}
	for i, r := range rows.Rows {
		r.Line, _ = slices.BinarySearch(lines, r.Line) // a row error is keyed by the line its row starts on
		out.Rows[i] = r
	}
	return out
}
