package db

import (
	"bytes"
	"encoding/json"
)

// Optional is a field of a partial update: absent (Set false), an explicit
// JSON null (Set and Null), or a value. Bare pointers cannot tell the first
// two apart, and "absent leaves it, null clears it" is the API's rule.
type Optional[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// Some is an Optional holding v.
func Some[T any](v T) Optional[T] { return Optional[T]{Set: true, Value: v} }

// UnmarshalJSON records that the field was present, and whether it was null.
func (o *Optional[T]) UnmarshalJSON(b []byte) error {
	*o = Optional[T]{Set: true} // a repeated key: the last one wins, as in encoding/json
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		o.Null = true
		return nil
	}
	return json.Unmarshal(b, &o.Value)
}

// Ptr is the value, or nil when absent or null.
func (o Optional[T]) Ptr() *T {
	if !o.Set || o.Null {
		return nil
	}
	return &o.Value
}
