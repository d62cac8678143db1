package input

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"tradejournal/db"
	"tradejournal/db/trading"
)

// IsUUID reports whether s is a UUID in its canonical 36-character form.
func IsUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// UUID checks an id given in a body, a query or a form field (not in a
// path, where a malformed id is a 404): every field's one UUID check. It
// returns the id lower-cased, as ids are stored, and whether it was well
// formed.
func (f Errors) UUID(field, v string) (string, bool) {
	if !IsUUID(v) {
		f.Add(field, field+" must be a UUID")
		return v, false
	}
	return strings.ToLower(v), true
}

// PathID reads the {id} path value. A malformed id names no record, so it is
// the same 404 as an unknown one.
func PathID(r *http.Request, kind string) (string, error) {
	id := r.PathValue("id")
	if !IsUUID(id) {
		return "", &db.NotFoundError{Kind: kind}
	}
	return strings.ToLower(id), nil
}

// Text checks an optional string field's length, in characters.
func (f Errors) Text(field string, v db.Optional[string], max int) {
	if v.Set && utf8.RuneCountInString(v.Value) > max {
		f.Add(field, fmt.Sprintf("%s must be at most %d characters", field, max))
	}
}

// Required checks a field that must have a non-blank value: on create it
// must be present, and it can never be null.
func (f Errors) Required(field string, v db.Optional[string], create bool) {
	switch {
	case v.Null:
		f.Add(field, field+" cannot be null")
	case v.Set && strings.TrimSpace(v.Value) == "", create && !v.Set:
		f.Add(field, field+" is required")
	}
}

// NotNull checks a field that may be absent but never null.
func NotNull[T any](f Errors, field string, v db.Optional[T]) {
	if v.Null {
		f.Add(field, field+" cannot be null")
	}
}

// OneOf checks an enum field.
func (f Errors) OneOf(field string, v db.Optional[string], allowed []string) {
	if v.Set && !v.Null && !slices.Contains(allowed, v.Value) {
		f.Add(field, field+" must be one of "+strings.Join(allowed, ", "))
	}
}

// BodyUUID reads an id from a body, lower-cased.
func BodyUUID(f Errors, field string, v db.Optional[string], required bool) string {
	switch {
	case !v.Set || v.Null:
		if required {
			f.Add(field, field+" is required")
		}
	default:
		id, _ := f.UUID(field, v.Value)
		return id
	}
	return strings.ToLower(v.Value)
}

// UUIDs checks a list of ids in a body, naming the bad element.
func (f Errors) UUIDs(field string, v db.Optional[[]string]) {
	if v.Null {
		f.Add(field, field+" cannot be null; send [] to clear")
		return
	}
	for i, id := range v.Value {
		f.UUID(fmt.Sprintf("%s[%d]", field, i), id)
	}
}

// HTTPURL checks an optional URL field.
func (f Errors) HTTPURL(field string, v db.Optional[string]) {
	if !v.Set || v.Null {
		return
	}
	u, err := url.Parse(v.Value)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(v.Value) > 2048 {
		f.Add(field, field+" must be an http or https URL")
	}
}

// QueryBool reads an optional true/false query parameter.
func QueryBool(q url.Values, name string) (bool, error) {
	if !q.Has(name) {
		return false, nil
	}
	b, err := strconv.ParseBool(q.Get(name))
	if err != nil {
		return false, Invalid(name, name+" must be true or false")
	}
	return b, nil
}

// LowerIDs normalises ids to the stored lower case.
func LowerIDs(v *db.Optional[[]string]) {
	for i, id := range v.Value {
		v.Value[i] = strings.ToLower(id)
	}
}

// IsOneOf reports whether v is one of allowed.
func IsOneOf(v string, allowed []string) bool { return slices.Contains(allowed, v) }

// Merge adds the reasons of a validation error to f.
func (f Errors) Merge(err error) {
	if e, ok := err.(*Error); ok {
		for k, v := range e.Fields {
			f.Add(k, v)
		}
	}
}

// Amount checks a positive number field when present.
func (f Errors) Amount(field string, v db.Optional[float64]) {
	if !v.Set || v.Null {
		return
	}
	if msg := trading.CheckAmount(field, v.Value); msg != "" {
		f.Add(field, msg)
	}
}

// Date checks a YYYY-MM-DD field when present.
func (f Errors) Date(field string, v db.Optional[string]) {
	if v.Set && !v.Null && !IsDate(v.Value) {
		f.Add(field, field+" must be a date YYYY-MM-DD from 1900 to 2999")
	}
}

// Clock checks an HH:MM:SS field when present.
func (f Errors) Clock(field string, v db.Optional[string]) {
	if v.Set && !v.Null {
		if _, err := time.Parse(db.TimeLayout, v.Value); err != nil || len(v.Value) != 8 {
			f.Add(field, field+" must be a time HH:MM:SS")
		}
	}
}

// Timestamp checks an RFC 3339 timestamp with an offset.
func (f Errors) Timestamp(field, v string) {
	if ts, err := time.Parse(time.RFC3339Nano, v); err != nil || ts.Year() < minYear || ts.Year() > maxYear {
		f.Add(field, field+" must be an RFC 3339 timestamp with an offset, such as 2026-02-05T14:30:00-05:00")
	}
}

// Dates and timestamps are of years 1900 to 2999: a trading journal has no
// use for others, and far years break the text order of stored dates.
const minYear, maxYear = 1900, 2999

// IsDate reports whether s is a date YYYY-MM-DD from 1900 to 2999.
func IsDate(s string) bool {
	d, err := time.Parse(db.DateLayout, s)
	return err == nil && len(s) == 10 && d.Year() >= minYear && d.Year() <= maxYear
}

// Query parameter readers: each returns the zero value and records a
// failure for a malformed value; an absent value is the zero value.

// QueryUUID reads an id parameter, lower-cased.
func (f Errors) QueryUUID(name, v string) string {
	if v == "" {
		return ""
	}
	id, _ := f.UUID(name, v)
	return strings.ToLower(id)
}

// QueryDate reads a date parameter.
func (f Errors) QueryDate(name, v string) string {
	if v != "" && !IsDate(v) {
		f.Add(name, name+" must be a date YYYY-MM-DD from 1900 to 2999")
	}
	return v
}

// DateRange reads start_date and end_date, both inclusive; an end before
// the start is a 400 naming end_date.
func DateRange(f Errors, q url.Values) (start, end string) {
	start = f.QueryDate("start_date", strings.TrimSpace(q.Get("start_date")))
	end = f.QueryDate("end_date", strings.TrimSpace(q.Get("end_date")))
	if start != "" && end != "" && start > end {
		f.Add("end_date", "end_date must not be before start_date")
	}
	return start, end
}

// QueryEnum reads a parameter that must be one of allowed.
func (f Errors) QueryEnum(name, v string, allowed []string) string {
	if v != "" && !IsOneOf(v, allowed) {
		f.Add(name, name+" must be one of "+strings.Join(allowed, ", "))
	}
	return v
}

// QueryNumber reads a number parameter.
func (f Errors) QueryNumber(name, v string) *float64 {
	if v == "" {
		return nil
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
		f.Add(name, name+" must be a number")
		return nil
	}
	return &n
}

// QueryBoolPtr reads a true/false parameter.
func (f Errors) QueryBoolPtr(name, v string) *bool {
	if v == "" {
		return nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		f.Add(name, name+" must be true or false")
		return nil
	}
	return &b
}

// QueryRating reads a rating parameter, 1 to 5.
func (f Errors) QueryRating(name, v string) *int {
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 5 {
		f.Add(name, name+" must be an integer from 1 to 5")
		return nil
	}
	return &n
}
