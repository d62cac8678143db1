package input

import (
	"fmt"
	"strings"
	"time"

	"tradejournal/db"
	"tradejournal/db/trading"
)

// Limits of a post to /fills (DESIGN §14).
const (
	MaxFills  = 10_000
	maxExecID = 256
)

// Fills checks the parts of a post of fills beside the fills themselves:
// the account, the zone (default the user's) and how many fills there are.
// It returns the account id, lower-cased, and the zone.
func Fills(f Errors, accountID, timezone db.Optional[string], count int, fillsGiven bool, userZone string) (string, string) {
	id := BodyUUID(f, "account_id", accountID, true)
	zone := userZone
	if timezone.Set && !timezone.Null {
		zone = timezone.Value
		if db.CheckTimezone(zone) != nil {
			f.Add("timezone", "timezone must be an IANA zone name such as America/New_York")
		}
	}
	if !fillsGiven || count < 1 || count > MaxFills {
		f.Add("fills", fmt.Sprintf("fills must hold 1 to %d fills", MaxFills))
	}
	return id, zone
}

// Fill checks one posted fill, named path in the reasons. The generic
// format reads the rest (the side's words, the contract, a local time that
// a change of clocks skips).
func Fill(f Errors, path string, in *db.FillInput) {
	for _, s := range []struct {
		name string
		v    db.Optional[string]
		max  int
	}{{"exec_id", in.ExecID, maxExecID}, {"symbol", in.Symbol, 64}, {"side", in.Side, 20}} {
		f.Required(path+"."+s.name, s.v, true)
		f.Text(path+"."+s.name, s.v, s.max)
	}
	for _, n := range []struct {
		name string
		v    db.Optional[float64]
	}{{"quantity", in.Quantity}, {"price", in.Price}} {
		if !n.v.Set || n.v.Null {
			f.Add(path+"."+n.name, path+"."+n.name+" must be a positive number")
		}
		f.Amount(path+"."+n.name, n.v)
	}
	if in.Commission.Set && !in.Commission.Null {
		if msg := trading.CheckCommission(path+".commission", in.Commission.Value); msg != "" {
			f.Add(path+".commission", msg)
		}
	}
	field := path + ".timestamp"
	if !in.Timestamp.Set || in.Timestamp.Null {
		f.Add(field, field+" is required")
	} else if !fillTimestamp(in.Timestamp.Value) {
		f.Add(field, field+" must be RFC 3339 with an offset (2025-11-12T10:05:30-05:00) or a local time (2025-11-12T10:05:30) read in timezone")
	}
}

// fillTimestamp reports whether s is RFC 3339 with an offset, or the same
// without one, of the years a journal stores.
func fillTimestamp(s string) bool {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t, err = time.Parse("2006-01-02T15:04:05.999999999", s)
	}
	return err == nil && !strings.Contains(s, ",") && t.Year() >= minYear && t.Year() <= maxYear
}
