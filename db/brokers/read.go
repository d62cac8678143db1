package brokers

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// table is a delimited file read row by row: its header, and the rows
// after it with their line numbers.
type table struct {
	header []string
	cols   map[string]int // normalised header name → index
	zones  map[int]string // index → the zone abbreviation its header names ("EDT")
	csv    *csv.Reader
}

// zoned is a header that names its zone: "Update Time (EDT)".
var zoned = regexp.MustCompile(`^(.*?)\s*\(([A-Za-z]{2,5})\)$`)

// newTable decodes the file's text (UTF-8 with or without a BOM, UTF-16
// with a BOM), sniffs the delimiter from the header line and reads it.
func newTable(r io.Reader) (*table, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	bom, _ := br.Peek(3)
	var text io.Reader = br
	switch {
	case bytes.HasPrefix(bom, []byte{0xEF, 0xBB, 0xBF}):
		br.Discard(3)
	case bytes.HasPrefix(bom, []byte{0xFF, 0xFE}), bytes.HasPrefix(bom, []byte{0xFE, 0xFF}):
		text = &utf16Reader{r: br, big: bom[0] == 0xFE}
		br.Discard(2)
	}
	tr := bufio.NewReaderSize(text, 64<<10)
	first, err := tr.Peek(64 << 10)
	if len(first) == 0 {
		if err != nil && err != io.EOF {
			return nil, err
		}
		return nil, &FieldError{"file", "file is empty"}
	}
	line, _, _ := bytes.Cut(first, []byte("\n"))
	if !utf8.Valid(line) {
		return nil, &FieldError{"file", "file must be UTF-8 or UTF-16 text"}
	}
	c := csv.NewReader(tr)
	c.Comma = sniff(string(line))
	c.FieldsPerRecord = -1
	c.ReuseRecord = false
	t := &table{csv: c, cols: map[string]int{}, zones: map[int]string{}}
	for {
		rec, err := c.Read()
		if err == io.EOF {
			return nil, &FieldError{"file", "file has no header line"}
		}
		if err != nil {
			return nil, &FieldError{"file", "the header line cannot be read: " + err.Error()}
		}
		// A section title before the header (Rithmic's "Completed
		// Orders") is one cell.
		if filled(rec) < 2 {
			continue
		}
		t.header = trimAll(rec)
		break
	}
	for i, h := range t.header {
		names := []string{h}
		if m := zoned.FindStringSubmatch(h); m != nil {
			names = append(names, m[1])
			t.zones[i] = strings.ToUpper(m[2])
		}
		for _, n := range names {
			if _, dup := t.cols[norm(n)]; !dup {
				t.cols[norm(n)] = i
			}
		}
	}
	return t, nil
}

// next returns the next data row and its 1-based line, skipping blank lines
// and repeated header lines; io.EOF at the end.
func (t *table) next() (rec []string, line int, err error) {
	for {
		rec, err := t.csv.Read()
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, pe.StartLine, &Error{Rows: []RowError{{Line: pe.StartLine, Column: "", Message: "the line is not well-formed CSV: " + pe.Err.Error()}}}
			}
			return nil, 0, err
		}
		line, _ := t.csv.FieldPos(0)
		rec = trimAll(rec)
		if blank(rec) || sameHeader(rec, t.header) {
			continue
		}
		return rec, line, nil
	}
}

// col finds the first of the aliases the header has: its index and the
// header as written; -1 when none.
func (t *table) col(aliases ...string) (int, string) {
	for _, a := range aliases {
		if i, ok := t.cols[norm(a)]; ok {
			return i, t.header[i]
		}
	}
	return -1, ""
}

// sniff picks the delimiter the header line uses most: comma, semicolon or tab.
func sniff(line string) rune {
	best, n := ',', strings.Count(line, ",")
	for _, d := range []rune{';', '\t'} {
		if c := strings.Count(line, string(d)); c > n {
			best, n = d, c
		}
	}
	return best
}

// norm is a header name with case, spaces and punctuation ignored.
func norm(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func blank(rec []string) bool { return filled(rec) == 0 }

// filled counts the cells that hold something.
func filled(rec []string) int {
	n := 0
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			n++
		}
	}
	return n
}

func trimAll(rec []string) []string {
	for i := range rec {
		rec[i] = strings.TrimSpace(rec[i])
	}
	return rec
}

func sameHeader(rec, header []string) bool {
	if len(rec) < len(header) {
		return false
	}
	for i, h := range header {
		if norm(rec[i]) != norm(h) {
			return false
		}
	}
	return true
}

// utf16Reader decodes UTF-16 into UTF-8 as it is read.
type utf16Reader struct {
	r   *bufio.Reader
	big bool
	out []byte
}

func (u *utf16Reader) Read(p []byte) (int, error) {
	for len(u.out) < len(p) {
		var units [2]byte
		if _, err := io.ReadFull(u.r, units[:]); err != nil {
			if len(u.out) > 0 {
				break
			}
			if err == io.ErrUnexpectedEOF {
				err = io.EOF
			}
			return 0, err
		}
		c := rune(units[0]) | rune(units[1])<<8
		if u.big {
			c = rune(units[1]) | rune(units[0])<<8
		}
		if utf16.IsSurrogate(c) {
			var lo [2]byte
			if _, err := io.ReadFull(u.r, lo[:]); err == nil {
				l := rune(lo[0]) | rune(lo[1])<<8
				if u.big {
					l = rune(lo[1]) | rune(lo[0])<<8
				}
				c = utf16.DecodeRune(c, l)
			} else {
				c = utf8.RuneError
			}
		}
		u.out = utf8.AppendRune(u.out, c)
	}
	n := copy(p, u.out)
	u.out = u.out[n:]
	return n, nil
}
