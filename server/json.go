package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"tradejournal/server/problem"

	"tradejournal/db"
	"tradejournal/server/input"
)

// maxJSONBody is the largest JSON request body; larger is a 413.
const maxJSONBody = 1 << 20

// decodeJSON reads one JSON value from the body into dst. Unknown fields are
// ignored, so a client can send back what it read; a name given twice, or
// one that matches a field only when case is ignored, is refused
// (checkNames). Errors are 400s naming the field (or "body"), or a 413 past
// the size limit.
func decodeJSON(w http.ResponseWriter, r *http.Request, dst any) error {
	return decodeJSONUpTo(w, r, dst, maxJSONBody)
}

// decodeJSONUpTo is decodeJSON for a route whose bodies may be larger:
// limit bytes, a whole number of MiB.
func decodeJSONUpTo(w http.ResponseWriter, r *http.Request, dst any, limit int64) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(body))
		if err = dec.Decode(dst); err == nil {
			// Exactly one value: anything after it but white space is an error.
			if _, err = dec.Token(); err == io.EOF {
				return checkNames(body, reflect.TypeOf(dst), "")
			} else if err == nil {
				return input.Invalid("body", "body must hold a single JSON value")
			}
		}
	}
	var (
		tooLarge  *http.MaxBytesError
		syntax    *json.SyntaxError
		wrongType *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &tooLarge):
		return problem.TooLargeFor(limit)
	case errors.Is(err, io.EOF):
		return input.Invalid("body", "body is empty: send a JSON object")
	case errors.As(err, &syntax):
		return input.Invalid("body", fmt.Sprintf("malformed JSON at byte %d", syntax.Offset))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return input.Invalid("body", "malformed JSON: the body ends too early")
	case errors.As(err, &wrongType):
		if wrongType.Field == "" {
			return input.Invalid("body", "body must be a JSON "+kindName(wrongType.Type))
		}
		field := jsonPath(wrongType.Field)
		if field == "" {
			return input.Invalid("body", "body must be a JSON object")
		}
		return input.Invalid(field, field+" must be "+article(kindName(wrongType.Type)))
	}
	return input.Invalid("body", "malformed JSON")
}

// jsonPath turns the decoder's path to a field into the client's: the
// decoder names embedded Go structs ("TradeInput.quantity"), and JSON keys
// here never start with an upper-case letter.
func jsonPath(field string) string {
	parts := strings.Split(field, ".")
	kept := parts[:0]
	for _, p := range parts {
		if p != "" && !(p[0] >= 'A' && p[0] <= 'Z') {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, ".")
}

// kindName names a Go type as its JSON kind.
func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array"
	}
	return "object"
}

func article(noun string) string {
	if strings.IndexByte("aeiou", noun[0]) >= 0 {
		return "an " + noun
	}
	return "a " + noun
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := db.EncodeJSON(v)
	if err != nil {
		// Only a bug (an unencodable type) gets here; never a half body.
		body = []byte(`{"error":"Internal server error","code":"INTERNAL_ERROR"}`)
		status = http.StatusInternalServerError
	}
	writeBody(w, status, append(body, '\n'))
}

// writeBody answers a whole JSON body, already encoded, with status.
func writeBody(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// dataBody wraps a single record, as every create, read and update answers.
type dataBody[T any] struct {
	Data T `json:"data"`
}

// deletedBody is what every delete answers.
type deletedBody struct {
	Success   bool     `json:"success"`
	DeletedID string   `json:"deleted_id"`
	Warnings  []string `json:"warnings"`
}

// decodeElement decodes one element of a body array, naming its fields by
// path on a wrong type.
func decodeElement(raw json.RawMessage, dst any, path string) error {
	if len(raw) == 0 || raw[0] != '{' {
		return input.Invalid(path, path+" must be an object")
	}
	err := json.Unmarshal(raw, dst)
	var wrongType *json.UnmarshalTypeError
	if errors.As(err, &wrongType) {
		field := path
		if wrongType.Field != "" {
			field += "." + wrongType.Field
		}
		return input.Invalid(field, field+" must be "+article(kindName(wrongType.Type)))
	}
	if err != nil {
		return input.Invalid(path, path+" is malformed")
	}
	return checkNames(raw, reflect.TypeOf(dst), path)
}
