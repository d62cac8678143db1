// Package input holds the checks of what a client sends, shared by the
// API and the web pages: each takes typed values (or a query's strings)
// and returns the reasons it fails by field, with no HTTP status. Each
// side answers an *Error in its own way: the API with a 400 and its
// details, a page by showing the form again with each reason beside its
// field.
package input

import "strings"

// Errors collects the reasons input fails its checks, by field name (or
// path, such as "executions[2].price"); the first reason for a field wins.
type Errors map[string]string

// Add records field's reason, unless the field has one already.
func (f Errors) Add(field, reason string) {
	if _, ok := f[field]; !ok {
		f[field] = reason
	}
}

// Err is the *Error of the reasons collected, or nil when there are none.
func (f Errors) Err() error {
	if len(f) == 0 {
		return nil
	}
	return &Error{Fields: f}
}

// Invalid is the *Error of one field's reason.
func Invalid(field, reason string) error {
	return Errors{field: reason}.Err()
}

// Error is input that fails its checks: each field's reason.
type Error struct {
	Fields map[string]string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("invalid input")
	for field, reason := range e.Fields {
		b.WriteString("; " + field + ": " + reason)
	}
	return b.String()
}
