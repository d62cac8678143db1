package server

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"tradejournal/server/input"
)

// Request bodies are strict about names, where encoding/json is not: it
// lets the last of two equal names win and matches a name whatever its
// case, so {"quantity": 1, "quantity": 2} and {"Quantity": 1} would be read
// as a quantity that two parsers could read differently. checkNames walks
// a body that decoded cleanly, alongside the Go type it was decoded into,
// and refuses a name given twice in one object and a name that matches a
// field only when case is ignored. Unknown names stay allowed (a client may
// send back what it read). The parts a type holds as json.RawMessage are
// checked for duplicates here and for case when their element is decoded
// (decodeElement).
func checkNames(data []byte, t reflect.Type, path string) error {
	w := nameWalk{data: data}
	return w.value(t, path)
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// nameWalk reads the names of a JSON body that has already decoded
// cleanly, a byte at a time: json.Decoder's tokens cost more than the
// decoding they follow. It checks only what it needs to find its way, and
// answers anything else with errMalformed, never a panic.
type nameWalk struct {
	data []byte
	at   int
}

var errMalformed = input.Invalid("body", "malformed JSON")

// next skips white space and is the byte after it, 0 at the end.
func (w *nameWalk) next() byte {
	for ; w.at < len(w.data); w.at++ {
		switch c := w.data[w.at]; c {
		case ' ', '\t', '\n', '\r':
		default:
			return c
		}
	}
	return 0
}

// value reads one value; t is the Go type it goes into, nil when none (an
// unknown field, a raw part, an interface).
func (w *nameWalk) value(t reflect.Type, path string) error {
	t = valueType(t)
	switch w.next() {
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		w.at++
		if w.next() == ']' {
			w.at++
			return nil
		}
		for i := 0; ; i++ {
			if err := w.value(elem, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
			if done, err := w.after(']'); done || err != nil {
				return err
			}
		}
	case '{':
		return w.object(t, path)
	case '"':
		_, err := w.str()
		return err
	case 0:
		return errMalformed
	}
	// A number, true, false or null: up to what ends it.
	for w.at < len(w.data) && !strings.ContainsRune(",]} \t\n\r", rune(w.data[w.at])) {
		w.at++
	}
	return nil
}

// object reads an object, refusing a name given twice and one that matches
// a field of t only when case is ignored.
func (w *nameWalk) object(t reflect.Type, path string) error {
	var fields structNames
	var elem reflect.Type
	if t != nil && t.Kind() == reflect.Struct {
		fields = namesOf(t)
	} else if t != nil && t.Kind() == reflect.Map {
		elem = t.Elem()
	}
	w.at++
	if w.next() == '}' {
		w.at++
		return nil
	}
	seen := map[string]bool{}
	for {
		if w.next() != '"' {
			return errMalformed
		}
		name, err := w.str()
		if err != nil {
			return err
		}
		if w.next() != ':' {
			return errMalformed
		}
		w.at++
		at := name
		if path != "" {
			at = path + "." + name
		}
		if seen[name] {
			return input.Invalid(at, fmt.Sprintf("%s is given twice; send each field once", at))
		}
		seen[name] = true
		next := elem
		if fields != nil {
			ft, want := fields.find(name)
			if want != name {
				return input.Invalid(at, fmt.Sprintf("%s is not a field: names are case-sensitive (did you mean %s?)", at, want))
			}
			next = ft
		}
		if err := w.value(next, at); err != nil {
			return err
		}
		if done, err := w.after('}'); done || err != nil {
			return err
		}
	}
}

// after reads what follows a member of an object or array: a comma, or
// end, its closing bracket (done).
func (w *nameWalk) after(end byte) (done bool, err error) {
	switch w.next() {
	case ',':
		w.at++
		return false, nil
	case end:
		w.at++
		return true, nil
	}
	return true, errMalformed
}

// str reads a string, unescaped as encoding/json reads it.
func (w *nameWalk) str() (string, error) {
	start := w.at
	plain := true
	for i := start + 1; i < len(w.data); i++ {
		switch c := w.data[i]; {
		case c == '\\':
			plain = false
			i++
		case c == '"':
			w.at = i + 1
			if plain {
				return string(w.data[start+1 : i]), nil
			}
			var s string
			if err := json.Unmarshal(w.data[start:w.at], &s); err != nil {
				return "", errMalformed
			}
			return s, nil
		case c >= utf8.RuneSelf:
			plain = false // encoding/json replaces invalid UTF-8
		}
	}
	return "", errMalformed
}

// valueType is the type a JSON value decodes into through t's wrappers
// (pointers, db.Optional), or nil when its names cannot be known.
func valueType(t reflect.Type) reflect.Type {
	for t != nil {
		switch {
		case t == rawMessageType || t.Kind() == reflect.Interface:
			return nil
		case t.Kind() == reflect.Pointer:
			t = t.Elem()
		case t.Kind() == reflect.Struct && t.PkgPath() == "tradejournal/db" && strings.HasPrefix(t.Name(), "Optional["):
			t = t.Field(2).Type // Optional's Value
		default:
			return t
		}
	}
	return nil
}

// structNames are a struct's JSON names (embedded structs' included), each
// with the type it decodes into.
type structNames []structName

type structName struct {
	name string
	typ  reflect.Type
}

// find is the type name decodes into and the field's own name: name
// itself, or the name it matches when case is ignored (as encoding/json
// matches names), or, for no field, name and a nil type.
func (n structNames) find(name string) (reflect.Type, string) {
	for _, f := range n {
		if f.name == name {
			return f.typ, name
		}
	}
	for _, f := range n {
		if strings.EqualFold(f.name, name) {
			return f.typ, f.name
		}
	}
	return nil, name
}

// namesOf lists t's names with the type each decodes into. An embedded
// struct's fields come in where it is embedded and are not replaced by a
// later field of the same name: a request type that embeds its db input
// and holds one of its fields again as raw JSON, to decode it element by
// element (tradeRequest's executions), is walked with the input's typed
// field, so a name in an element is checked as soon as the body is. It is
// cheap beside the decoding it follows, so nothing is cached.
func namesOf(t reflect.Type) structNames {
	var n structNames
	var add func(t reflect.Type)
	add = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
				add(f.Type)
				continue
			}
			if !f.IsExported() || tag == "-" {
				continue
			}
			name := tag
			if name == "" {
				name = f.Name
			}
			if !slices.ContainsFunc(n, func(f structName) bool { return f.name == name }) {
				n = append(n, structName{name, f.Type})
			}
		}
	}
	add(t)
	return n
}
