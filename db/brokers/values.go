package brokers

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// number reads a money or quantity cell: 1,234.56, $1,234.56, (45.20),
// $(5.00), -45.20 and 90.00 $ (or 1.234,56 with decimal=comma).
func number(s, decimal string) (float64, error) {
	v := strings.Map(func(r rune) rune {
		if r == '$' || r == '€' || r == '£' || r == ' ' || r == '\u00a0' {
			return -1
		}
		return r
	}, s)
	neg := false
	if strings.HasPrefix(v, "(") && strings.HasSuffix(v, ")") {
		neg, v = true, v[1:len(v)-1]
	}
	if rest, ok := strings.CutPrefix(v, "-"); ok {
		neg, v = !neg, rest
	}
	if decimal == "comma" {
		v = strings.ReplaceAll(v, ".", "")
		v = strings.ReplaceAll(v, ",", ".")
	} else {
		v = strings.ReplaceAll(v, ",", "")
	}
	// Plain decimals only: no second sign, exponent, hex, Inf or NaN.
	if v == "" || strings.Trim(v, "0123456789.") != "" {
		return 0, errNotNumber
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, errNotNumber
	}
	if neg {
		f = -f
	}
	return f, nil
}

var errNotNumber = errors.New("is not a number")

// side reads a buy or sell.
func side(s string) (string, bool) {
	switch strings.ToLower(strings.Join(strings.Fields(s), " ")) {
	case "buy", "b", "bid", "buy to cover", "bot", "bought", "long":
		return "buy", true
	case "sell", "s", "ask", "sell short", "sld", "sold", "short":
		return "sell", true
	}
	return "", false
}

// localTime reads a wall-clock time in loc, refusing one that does not
// exist or is ambiguous there at a DST change.
func localTime(layout, s string, loc *time.Location) (time.Time, error) {
	w, err := time.Parse(layout, s)
	if err != nil {
		return time.Time{}, err
	}
	return inZone(w, loc)
}

// inZone is the wall clock w (read as UTC) in loc: the one instant it names.
func inZone(w time.Time, loc *time.Location) (time.Time, error) {
	var found []time.Time
	for _, probe := range []time.Duration{-12 * time.Hour, 12 * time.Hour} {
		_, off := w.Add(probe).In(loc).Zone()
		u := w.Add(-time.Duration(off) * time.Second)
		if u.In(loc).Format(time.DateTime) == w.Format(time.DateTime) && (len(found) == 0 || !found[0].Equal(u)) {
			found = append(found, u)
		}
	}
	switch len(found) {
	case 0:
		return time.Time{}, errors.New("does not exist in " + loc.String() + " (the clocks jumped over it)")
	case 2:
		return time.Time{}, errors.New("is ambiguous in " + loc.String() + " (the clocks turned back over it)")
	}
	return found[0].In(loc), nil
}
