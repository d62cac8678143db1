package server

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"tradejournal/db"
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

// uuids checks a list of ids in a body, naming the bad element.
func (f fieldErrors) uuids(field string, v db.Optional[[]string]) {
	if v.Null {
		f.add(field, field+" cannot be null; send [] to clear")
		return
	}
	for i, id := range v.Value {
		if !isUUID(id) {
			f.add(fmt.Sprintf("%s[%d]", field, i), fmt.Sprintf("%s[%d] must be a UUID", field, i))
		}
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
