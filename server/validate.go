package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"tradejournal/db"
	"tradejournal/db/trading"
)

// isUUID reports whether s is a UUID in its canonical 36-character form.
func isUUID(s string) bool {
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

// uuid checks an id given in a body, a query or a form field (not in a
// path, where a malformed id is a 404): every field's one UUID check. It
// returns the id lower-cased, as ids are stored, and whether it was well
// formed.
func (f fieldErrors) uuid(field, v string) (string, bool) {
	if !isUUID(v) {
		f.add(field, field+" must be a UUID")
		return v, false
	}
	return strings.ToLower(v), true
}

// pathID reads the {id} path value. A malformed id names no record, so it is
// the same 404 as an unknown one.
func pathID(r *http.Request, kind string) (string, error) {
	id := r.PathValue("id")
	if !isUUID(id) {
		return "", &db.NotFoundError{Kind: kind}
	}
	return strings.ToLower(id), nil
}

// text checks an optional string field's length, in characters.
func (f fieldErrors) text(field string, v db.Optional[string], max int) {
	if v.Set && utf8.RuneCountInString(v.Value) > max {
		f.add(field, fmt.Sprintf("%s must be at most %d characters", field, max))
	}
}

// required checks a field that must have a non-blank value: on create it
// must be present, and it can never be null.
func (f fieldErrors) required(field string, v db.Optional[string], create bool) {
	switch {
	case v.Null:
		f.add(field, field+" cannot be null")
	case v.Set && strings.TrimSpace(v.Value) == "", create && !v.Set:
		f.add(field, field+" is required")
	}
}

// notNull checks a field that may be absent but never null.
func notNull[T any](f fieldErrors, field string, v db.Optional[T]) {
	if v.Null {
		f.add(field, field+" cannot be null")
	}
}

// oneOf checks an enum field.
func (f fieldErrors) oneOf(field string, v db.Optional[string], allowed []string) {
	if v.Set && !v.Null && !slices.Contains(allowed, v.Value) {
		f.add(field, field+" must be one of "+strings.Join(allowed, ", "))
	}
}

// bodyUUID reads an id from a body, lower-cased.
func bodyUUID(f fieldErrors, field string, v db.Optional[string], required bool) string {
	switch {
	case !v.Set || v.Null:
		if required {
			f.add(field, field+" is required")
		}
	default:
		id, _ := f.uuid(field, v.Value)
		return id
	}
	return strings.ToLower(v.Value)
}

// uuids checks a list of ids in a body, naming the bad element.
func (f fieldErrors) uuids(field string, v db.Optional[[]string]) {
	if v.Null {
		f.add(field, field+" cannot be null; send [] to clear")
		return
	}
	for i, id := range v.Value {
		f.uuid(fmt.Sprintf("%s[%d]", field, i), id)
	}
}

// httpURL checks an optional URL field.
func (f fieldErrors) httpURL(field string, v db.Optional[string]) {
	if !v.Set || v.Null {
		return
	}
	u, err := url.Parse(v.Value)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(v.Value) > 2048 {
		f.add(field, field+" must be an http or https URL")
	}
}

// queryBool reads an optional true/false query parameter.
func queryBool(q url.Values, name string) (bool, error) {
	if !q.Has(name) {
		return false, nil
	}
	b, err := strconv.ParseBool(q.Get(name))
	if err != nil {
		return false, invalid(name, name+" must be true or false")
	}
	return b, nil
}

// lowerIDs normalises ids to the stored lower case.
func lowerIDs(v *db.Optional[[]string]) {
	for i, id := range v.Value {
		v.Value[i] = strings.ToLower(id)
	}
}

func isOneOf(v string, allowed []string) bool { return slices.Contains(allowed, v) }

// merge adds the details of a validation error to f.
func (f fieldErrors) merge(err error) {
	if e, ok := err.(*apiError); ok {
		for k, v := range e.details {
			f.add(k, v)
		}
	}
}

// amount checks a positive number field when present.
func (f fieldErrors) amount(field string, v db.Optional[float64]) {
	if !v.Set || v.Null {
		return
	}
	if msg := trading.CheckAmount(field, v.Value); msg != "" {
		f.add(field, msg)
	}
}

// date checks a YYYY-MM-DD field when present.
func (f fieldErrors) date(field string, v db.Optional[string]) {
	if v.Set && !v.Null && !isDate(v.Value) {
		f.add(field, field+" must be a date YYYY-MM-DD from 1900 to 2999")
	}
}

// clock checks an HH:MM:SS field when present.
func (f fieldErrors) clock(field string, v db.Optional[string]) {
	if v.Set && !v.Null {
		if _, err := time.Parse(db.TimeLayout, v.Value); err != nil || len(v.Value) != 8 {
			f.add(field, field+" must be a time HH:MM:SS")
		}
	}
}

// timestamp checks an RFC 3339 timestamp with an offset.
func (f fieldErrors) timestamp(field, v string) {
	if ts, err := time.Parse(time.RFC3339Nano, v); err != nil || ts.Year() < minYear || ts.Year() > maxYear {
		f.add(field, field+" must be an RFC 3339 timestamp with an offset, such as 2026-02-05T14:30:00-05:00")
	}
}

// Dates and timestamps are of years 1900 to 2999: a trading journal has no
// use for others, and far years break the text order of stored dates.
const minYear, maxYear = 1900, 2999

func isDate(s string) bool {
	d, err := time.Parse(db.DateLayout, s)
	return err == nil && len(s) == 10 && d.Year() >= minYear && d.Year() <= maxYear
}

// decodeElement decodes one element of a body array, naming its fields by
// path on a wrong type.
func decodeElement(raw json.RawMessage, dst any, path string) error {
	if len(raw) == 0 || raw[0] != '{' {
		return invalid(path, path+" must be an object")
	}
	err := json.Unmarshal(raw, dst)
	var wrongType *json.UnmarshalTypeError
	if errors.As(err, &wrongType) {
		field := path
		if wrongType.Field != "" {
			field += "." + wrongType.Field
		}
		return invalid(field, field+" must be "+article(kindName(wrongType.Type)))
	}
	if err != nil {
		return invalid(path, path+" is malformed")
	}
	return checkNames(raw, reflect.TypeOf(dst), path)
}

// Query parameter readers: each returns the zero value and records a
// failure for a malformed value; an absent value is the zero value.

func (f fieldErrors) queryUUID(name, v string) string {
	if v == "" {
		return ""
	}
	id, _ := f.uuid(name, v)
	return strings.ToLower(id)
}

func (f fieldErrors) queryDate(name, v string) string {
	if v != "" && !isDate(v) {
		f.add(name, name+" must be a date YYYY-MM-DD from 1900 to 2999")
	}
	return v
}

// dateRange reads start_date and end_date, both inclusive; an end before
// the start is a 400 naming end_date.
func dateRange(f fieldErrors, q url.Values) (start, end string) {
	start = f.queryDate("start_date", strings.TrimSpace(q.Get("start_date")))
	end = f.queryDate("end_date", strings.TrimSpace(q.Get("end_date")))
	if start != "" && end != "" && start > end {
		f.add("end_date", "end_date must not be before start_date")
	}
	return start, end
}

func (f fieldErrors) queryEnum(name, v string, allowed []string) string {
	if v != "" && !isOneOf(v, allowed) {
		f.add(name, name+" must be one of "+strings.Join(allowed, ", "))
	}
	return v
}

func (f fieldErrors) queryNumber(name, v string) *float64 {
	if v == "" {
		return nil
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
		f.add(name, name+" must be a number")
		return nil
	}
	return &n
}

func (f fieldErrors) queryBoolPtr(name, v string) *bool {
	if v == "" {
		return nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		f.add(name, name+" must be true or false")
		return nil
	}
	return &b
}

func (f fieldErrors) queryRating(name, v string) *int {
	if v == "" {
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 5 {
		f.add(name, name+" must be an integer from 1 to 5")
		return nil
	}
	return &n
}
