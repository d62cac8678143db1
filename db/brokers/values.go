package brokers

import (
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"tradejournal/db/trading"
)

// number reads a money or quantity cell: 1,234.56, $1,234.56, (45.20),
// $(5.00), -45.20 and 90.00 $ (or 1.234,56 with decimal=comma). A space
// may stand beside a currency sign, never inside the number: it is no
// thousands separator (110 040 is not 110040).
func number(s, decimal string) (float64, error) {
	v := strings.Map(func(r rune) rune {
		if r == '$' || r == '€' || r == '£' {
			return -1
		}
		return r
	}, s)
	v = strings.Trim(v, " \u00a0")
	if strings.ContainsAny(v, " \u00a0") {
		return 0, errSpace
	}
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

var (
	errNotNumber = errors.New("is not a number")
	errSpace     = errors.New("has a space inside the number (a space is never a thousands separator)")
	errThirtySec = errors.New("is not a price in 32nds (110 040, 110'040, 110-040 or 110'04.0 for 110 + 4/32; " +
		"a third digit of 2, 5 or 7 adds a quarter, a half or three quarters of a 32nd)")
)

// treasuryRoots are the futures quoted in 32nds (DESIGN §8): the bonds and
// notes, ultras included. CME's micro Treasury futures are quoted in yield,
// as plain decimals.
var treasuryRoots = map[string]bool{"ZB": true, "UB": true, "ZN": true, "TN": true, "ZF": true, "ZT": true}

// treasury reports whether a contract's prices may be written in 32nds.
func treasury(contract string) bool { return treasuryRoots[trading.FuturesRoot(contract)] }

var (
	// 110 045, 110'045, 110-045: whole points, 32nds, the part of a 32nd.
	thirtySeconds = regexp.MustCompile(`^(\d+)[ '-](\d\d)([0257])$`)
	// 110'04.5: whole points, 32nds with their fraction.
	thirtySecondsDecimal = regexp.MustCompile(`^(\d+)'(\d\d)[.,](\d+)$`)
	// Anything else that starts as they do.
	thirtySecondsTried = regexp.MustCompile(`^\d+[ '-]\d`)
	// The third digit's part of a 32nd.
	thirtySecondParts = map[byte]float64{'0': 0, '2': 0.25, '5': 0.5, '7': 0.75}
)

// treasuryPrice reads a Treasury future's price: in 32nds as CME writes
// them (110 040, 110'040, 110-040 and 110'04.0 are 110 + 4/32; a third
// digit 2, 5 or 7 adds a quarter, a half or three quarters of a 32nd), or
// a plain decimal (110.125) as it is.
func treasuryPrice(s, decimal string) (float64, error) {
	var whole, n string
	var part float64
	if m := thirtySeconds.FindStringSubmatch(s); m != nil {
		whole, n, part = m[1], m[2], thirtySecondParts[m[3][0]]
	} else if m := thirtySecondsDecimal.FindStringSubmatch(s); m != nil {
		mark := byte('.')
		if decimal == "comma" {
			mark = ','
		}
		if s[len(m[1])+3] != mark {
			return 0, errThirtySec
		}
		f, err := strconv.ParseFloat("0."+m[3], 64)
		if err != nil || f*4 != math.Trunc(f*4) {
			return 0, errThirtySec
		}
		whole, n, part = m[1], m[2], f
	} else if thirtySecondsTried.MatchString(s) {
		return 0, errThirtySec
	} else {
		return number(s, decimal)
	}
	points, err := strconv.ParseFloat(whole, 64)
	if err != nil {
		return 0, errThirtySec
	}
	k := float64(n[0]-'0')*10 + float64(n[1]-'0')
	if k > 31 {
		return 0, errThirtySec
	}
	// Exact: 32nds and their quarters are binary fractions.
	return points + (k+part)/32, nil
}

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
