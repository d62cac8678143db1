package brokers

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// headerZones are the zone abbreviations a header may carry ("Update Time
// (EDT)"): each one fixed offset, as DESIGN §8 lists them.
var headerZones = map[string]int{
	"UTC": 0, "GMT": 0, "EST": -5 * 3600, "EDT": -4 * 3600, "CST": -6 * 3600, "CDT": -5 * 3600,
	"MST": -7 * 3600, "MDT": -6 * 3600, "PST": -8 * 3600, "PDT": -7 * 3600, "BST": 3600, "CET": 3600,
	"CEST": 2 * 3600, "EET": 2 * 3600, "EEST": 3 * 3600, "JST": 9 * 3600, "AEST": 10 * 3600, "AEDT": 11 * 3600,
}

// stamp is a timestamp cell as the file writes it, read once the whole
// file has said in which order its dates are written.
type stamp struct {
	text   string
	line   int
	column string         // the header as written
	zone   *time.Location // the header's zone; nil for the import's
	epoch  bool           // whole digits of a mapped timestamp: Unix time
	failed bool           // a cell of it was bad, and is reported already
}

// A timestamp's parts, in the forms the formats write.
var (
	// 2025-10-15 09:31:05, 2025-10-15T09:31:05.123-04:00, IBKR's
	// 2025-10-15,09:31:05 and 2025-10-15;09:31:05, 2025/10/15 9:31 AM.
	isoStamp = regexp.MustCompile(`^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ,;]+(.*))?$`)
	// IBKR's 20251015;093105 and 20251015 093105.
	compactStamp = regexp.MustCompile(`^(\d{4})(\d{2})(\d{2})(?:[ ,;]*(\d{2})(\d{2})(\d{2}))?$`)
	// 10/15/2025 9:31:05 AM, 15.10.2025 09:31, 10-15-25.
	digitStamp = regexp.MustCompile(`^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})(?:[T ,;]+(.*))?$`)
	// 9:31, 09:31:05.123, 9:31:05 PM, with an optional offset.
	clockPart = regexp.MustCompile(`^(\d{1,2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?\s*([AaPp][Mm])?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?$`)
)

// parsedStamp is a stamp cut into its parts, the date's order not yet known.
type parsedStamp struct {
	a, b, y     int  // the two leading parts of a digits-only date, and its year
	yearFirst   bool // a and b are month and day
	h, m, s, ns int
	offset      *int // seconds east of UTC, when the value carries one
}

var errStamp = errors.New("is not a date and time this format writes (such as 10/15/2025 09:31:05 or 2025-10-15 09:31:05)")

func parseStamp(text string) (parsedStamp, error) {
	var p parsedStamp
	var clock string
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	if m := compactStamp.FindStringSubmatch(text); m != nil {
		p.y, p.a, p.b, p.yearFirst = atoi(m[1]), atoi(m[2]), atoi(m[3]), true
		if m[4] != "" {
			clock = m[4] + ":" + m[5] + ":" + m[6]
		}
	} else if m := isoStamp.FindStringSubmatch(text); m != nil {
		p.y, p.a, p.b, p.yearFirst, clock = atoi(m[1]), atoi(m[2]), atoi(m[3]), true, m[4]
	} else if m := digitStamp.FindStringSubmatch(text); m != nil {
		p.a, p.b, p.y, clock = atoi(m[1]), atoi(m[2]), atoi(m[3]), m[4]
		if len(m[3]) == 2 {
			p.y += 2000
		}
	} else {
		return p, errStamp
	}
	if clock == "" {
		return p, errStamp // a fill happens at a time, not on a day
	}
	m := clockPart.FindStringSubmatch(strings.TrimSpace(clock))
	if m == nil {
		return p, errStamp
	}
	p.h, p.m, p.s = atoi(m[1]), atoi(m[2]), atoi(m[3])
	if m[4] != "" {
		frac := (m[4][1:] + "000000000")[:9]
		p.ns = atoi(frac)
	}
	switch strings.ToUpper(m[5]) {
	case "AM":
		if p.h == 12 {
			p.h = 0
		}
	case "PM":
		if p.h != 12 {
			p.h += 12
		}
	}
	if m[5] != "" && (atoi(m[1]) < 1 || atoi(m[1]) > 12) {
		return p, errStamp
	}
	if off := m[6]; off != "" {
		secs := 0
		if off != "Z" && off != "UTC" && off != "GMT" {
			digits := strings.ReplaceAll(off[1:], ":", "")
			secs = (atoi(digits[:2])*60 + atoi(digits[2:])) * 60
			if off[0] == '-' {
				secs = -secs
			}
		}
		p.offset = &secs
	}
	if p.h > 23 || p.m > 59 || p.s > 59 {
		return p, errStamp
	}
	return p, nil
}

// dateOrder decides how the file's digits-only dates read: as opt says, or
// from the dates themselves (DESIGN §8). conflicts are the dates that, in a
// file writing some day-first and others month-first, decided either way.
func dateOrder(stamps []parsedStamp, opt Options) (order, warning string, conflicts []int) {
	if opt.DateOrder != "" && opt.DateOrder != "auto" {
		return opt.DateOrder, "", nil
	}
	var dayFirst, monthFirst []int
	ambiguous := false
	for i, p := range stamps {
		switch {
		case p.yearFirst:
		case p.a > 12:
			dayFirst = append(dayFirst, i)
		case p.b > 12:
			monthFirst = append(monthFirst, i)
		default:
			ambiguous = true
		}
	}
	switch {
	case len(dayFirst) > 0 && len(monthFirst) > 0:
		return "mdy", "", append(dayFirst, monthFirst...)
	case len(dayFirst) > 0:
		return "dmy", "", nil
	case len(monthFirst) > 0 || !ambiguous:
		return "mdy", "", nil
	case opt.Decimal == "comma":
		return "dmy", "every date reads both ways (such as 03/04); they were read day-first (date order dmy), as files with decimal commas write them", nil
	}
	return "mdy", "every date reads both ways (such as 03/04); they were read month-first (date order mdy); if they are day-first, import with date order dmy", nil
}

// instant is the moment a stamp names, with the date order decided.
func (p parsedStamp) instant(order string, zone *time.Location, loc *time.Location) (time.Time, error) {
	month, day := p.a, p.b
	switch {
	case p.yearFirst:
	case order == "dmy":
		month, day = p.b, p.a
	case order == "ymd":
		return time.Time{}, fmt.Errorf("is not year-first, as date_order=ymd says")
	}
	wall := time.Date(p.y, time.Month(month), day, p.h, p.m, p.s, p.ns, time.UTC)
	if wall.Month() != time.Month(month) || wall.Day() != day || p.y < 1900 || p.y > 2999 {
		return time.Time{}, errors.New("is not a date")
	}
	switch {
	case p.offset != nil:
		return wall.Add(-time.Duration(*p.offset) * time.Second), nil
	case zone != nil:
		return time.Date(p.y, time.Month(month), day, p.h, p.m, p.s, p.ns, zone), nil
	}
	return inZone(wall, loc)
}
