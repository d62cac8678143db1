package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
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
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return walkNames(dec, t, path)
}

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// walkNames reads one value from dec; t is the Go type it goes into, nil
// when none (an unknown field, a raw part, an interface).
func walkNames(dec *json.Decoder, t reflect.Type, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	t = valueType(t)
	switch tok {
	case json.Delim('['):
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			if err := walkNames(dec, elem, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	case json.Delim('{'):
		var fields *structNames
		var elem reflect.Type
		if t != nil && t.Kind() == reflect.Struct {
			fields = namesOf(t)
		} else if t != nil && t.Kind() == reflect.Map {
			elem = t.Elem()
		}
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			name := tok.(string)
			at := name
			if path != "" {
				at = path + "." + name
			}
			if seen[name] {
				return invalid(at, fmt.Sprintf("%s is given twice; send each field once", at))
			}
			seen[name] = true
			next := elem
			if fields != nil {
				if ft, ok := fields.exact[name]; ok {
					next = ft
				} else if want, ok := fields.folded[strings.ToLower(name)]; ok {
					return invalid(at, fmt.Sprintf("%s is not a field: names are case-sensitive (did you mean %s?)", at, want))
				}
			}
			if err := walkNames(dec, next, at); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	}
	return nil
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

// structNames are a struct's JSON names (embedded structs' included) with
// the type each decodes into, and the names by their lower case.
type structNames struct {
	exact  map[string]reflect.Type
	folded map[string]string
}

// namesOf lists t's names with the type each decodes into. An embedded
// struct's fields come in where it is embedded and are not replaced by a
// later field of the same name: a request type that embeds its db input
// and holds one of its fields again as raw JSON, to decode it element by
// element (tradeRequest's executions), is walked with the input's typed
// field, so a name in an element is checked as soon as the body is. It is
// cheap beside the decoding it follows, so nothing is cached.
func namesOf(t reflect.Type) *structNames {
	n := &structNames{exact: map[string]reflect.Type{}, folded: map[string]string{}}
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
			if _, ok := n.exact[name]; !ok {
				n.exact[name] = f.Type
				n.folded[strings.ToLower(name)] = name
			}
		}
	}
	add(t)
	return n
}
