// Package brokers reads the trade export files of trading platforms into
// fills: one file per format, one shape out. It does no I/O beyond the
// reader it is given and knows nothing of the journal's database.
package brokers

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// Formats lists the format names, in DESIGN §8's order.
var Formats = []string{"tradovate_orders", "tradovate_performance", "tradovate_positions", "ninjatrader_executions",
	"ninjatrader_trades", "rithmic_orders", "projectx_orders", "projectx_trades", "ibkr_flex", "generic"}

// MaxRowErrors bounds the row errors of one file: past it, a client has
// enough to fix.
const MaxRowErrors = 100

// Options say how to read a file.
type Options struct {
	Format    string         // "" or "auto": detect by header names; else one of Formats
	Location  *time.Location // zone of timestamps that carry none (never nil)
	Decimal   string         // "" or "point" (1,234.56), or "comma" (1.234,56)
	DateOrder string         // "" or "auto", "mdy", "dmy", "ymd"
	// Mapping, when set, reads the file by the user's mapping (DESIGN
	// §14), whatever Format says.
	Mapping *Mapping
	// Mappings are the user's mappings, by name: auto tries them, after the
	// formats, on a header none of the formats reads.
	Mappings []Mapping
	// Lines is the file's number of lines, where the caller knows it (0
	// where not): room for that many fills is made at once, rather than
	// grown as a file of up to a million fills is read.
	Lines int
}

// Fill is one execution read from a file.
type Fill struct {
	Line       int      // 1-based line number of its row in the file
	Account    string   // the row's account column as written, "" when the file has none
	Contract   string   // as the exchange writes it (MNQZ5); a stock is its symbol, upper-cased
	Side       string   // "buy" or "sell"
	Quantity   float64  // > 0
	Price      float64  // > 0
	Commission *float64 // cost, >= 0; nil when the file gives none for it
	At         time.Time
	SourceID   string // the file's id for the fill; "" when it has none
}

// File is what a file holds.
type File struct {
	Format string // the format read (detected or given); "mapping" for a user's mapping
	// MappingID is the id of the mapping the file was read by, "" for a format.
	MappingID string
	// Timezone is the mapping's zone, where the file was read by a mapping
	// that names one: the import's zone then. "" otherwise.
	Timezone string
	Rows     int    // data rows the format reads
	Skipped  int    // rows that are not fills
	Fills    []Fill // in file order (a round-trip row gives its entry, then its exit)
	Warnings []string
	// Columns names, by role ("account", "contract", "side", "quantity",
	// "price", "commission", "time"), the header as the file writes it,
	// for errors found after reading.
	Columns map[string]string
}

// RowError is one bad cell: key "rows[<Line>].<Column>", Column as the
// file's header writes it.
type RowError struct {
	Line    int
	Column  string
	Message string
}

// Error is a file with unreadable rows; Rows holds at most MaxRowErrors,
// in line order.
type Error struct{ Rows []RowError }

func (e *Error) Error() string {
	return fmt.Sprintf("brokers: %d rows cannot be read", len(e.Rows))
}

// FieldError is a problem with the file as a whole or an option, keyed by
// the request field it belongs to: "format", "timezone", "decimal",
// "date_order" or "file".
type FieldError struct{ Field, Message string }

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

// Read parses a whole file. A file with any unreadable row returns *Error
// and no File: all or nothing.
func Read(r io.Reader, opt Options) (*File, error) {
	switch opt.Decimal {
	case "", "point", "comma":
	default:
		return nil, &FieldError{"decimal", "decimal must be point or comma"}
	}
	switch opt.DateOrder {
	case "", "auto", "mdy", "dmy", "ymd":
	default:
		return nil, &FieldError{"date_order", "date_order must be auto, mdy, dmy or ymd"}
	}
	if opt.Location == nil {
		opt.Location = time.UTC
	}
	t, err := newTable(r)
	if err != nil {
		return nil, err
	}
	s, err := pick(opt, t)
	if err != nil {
		return nil, err
	}
	if s.mapping != nil {
		if opt, err = s.mapping.options(opt); err != nil {
			return nil, err
		}
	}
	return s.read(t, opt)
}

// specs are the formats, in the order auto-detection tries them: the more
// columns a format requires, the earlier, so that a file is never taken for
// a format whose columns are a subset of its own.
func specs() []spec {
	return []spec{tradovatePositions, tradovatePerformance, tradovateOrders, ninjaTraderTrades, ninjaTraderExecutions,
		rithmicOrders, projectXTrades, projectXOrders, ibkrFlex, generic}
}

// pick finds the format by name, or the mapping given, or by the header
// when the name is auto: the formats, then the user's mappings.
func pick(opt Options, t *table) (spec, error) {
	name := opt.Format
	if m := opt.Mapping; m != nil {
		if column, path := m.lacks(t); column != "" {
			return spec{}, &FieldError{"mapping_id", fmt.Sprintf("the file's header lacks %s, which the mapping %s names (%s); its columns: %s",
				column, m.Name, path, headerText(t.header))}
		}
		return m.spec(), nil
	}
	if name != "" && name != "auto" {
		for _, s := range specs() {
			if s.name == name {
				if missing := s.missing(t); len(missing) > 0 {
					return spec{}, &FieldError{"format", fmt.Sprintf("the file is not %s: its header lacks %s", name, strings.Join(missing, ", "))}
				}
				return s, nil
			}
		}
		return spec{}, &FieldError{"format", "format must be auto or one of " + strings.Join(Formats, ", ")}
	}
	for _, s := range specs() {
		if s.fits(t) {
			return s, nil
		}
	}
	for i := range opt.Mappings {
		if s := opt.Mappings[i].spec(); s.fits(t) {
			return s, nil
		}
	}
	return spec{}, &FieldError{"format", "the file's header matches no known format and none of your column mappings " +
		"(its columns: " + headerText(t.header) + "); name one of " + strings.Join(Formats, ", ") +
		", or map its columns (/api/v1/import-mappings)"}
}
