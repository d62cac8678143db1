package server

import (
	"encoding/json"
	"reflect"
	"testing"

	"tradejournal/server/input"

	"tradejournal/db"
)

// TestCheckNames holds the name walk to what encoding/json reads: the same
// names after unescaping, the same case folding, every nesting of arrays
// and objects; and a body cut short is an error, not a panic.
func TestCheckNames(t *testing.T) {
	type fill struct {
		Side  string  `json:"side"`
		Price float64 `json:"price"`
	}
	type body struct {
		Side  string            `json:"side"`
		Fills []fill            `json:"fills"`
		Opt   db.Optional[fill] `json:"opt"`
		Notes map[string]fill   `json:"notes"`
		Raw   json.RawMessage   `json:"raw"`
		Any   any               `json:"any"`
	}
	for _, tt := range []struct {
		body, wantField string // "" for a body that passes
	}{
		{`{}`, ""},
		{` { "side" : "long" , "fills" : [ ] , "notes" : { } } `, ""},
		{`{"side": "long", "fills": [{"side": "buy", "price": 1.5e3}, {"price": -2, "x": [true, false, null, {"a": 1}]}]}`, ""},
		{`{"unknown": {"Side": 1, "side": 2}, "raw": {"Price": 1}, "any": {"Side": 1}}`, ""},
		{`{"side": "a \"quoted\" \\ side", "notes": {"Side": {"price": 1}}}`, ""},
		{`{"side": "long", "side": "short"}`, "side"},
		{`{"side": "long", "s\u0069de": "short"}`, "side"},
		{`{"Side": "long"}`, "Side"},
		{"{\"\u017fide\": \"long\"}", "\u017fide"}, // ſ folds to s, as encoding/json matches it
		{`{"fills": [{"side": "buy"}, {"price": 1, "Price": 2}]}`, "fills[1].Price"},
		{`{"any": [[{"Side": 1}], [{"a": [1, {"b": 2}]}]]}`, ""},
		{`{"opt": {"PRICE": 1}}`, "opt.PRICE"},
		{`{"notes": {"a": {"side": "x", "side": "y"}}}`, "notes.a.side"},
		{`{"raw": {"a": 1, "a": 2}}`, "raw.a"},
		{`{"any": [{"a": 1, "a": 2}]}`, "any[0].a"},
	} {
		var dst body
		if err := json.Unmarshal([]byte(tt.body), &dst); err != nil {
			t.Fatalf("%s does not decode: %v", tt.body, err)
		}
		err := checkNames([]byte(tt.body), reflect.TypeOf(&dst), "")
		var got string
		if e, ok := err.(*input.Error); ok && len(e.Fields) == 1 {
			for field := range e.Fields {
				got = field
			}
		} else if err != nil {
			t.Errorf("%s: got %v, want a validation error", tt.body, err)
			continue
		}
		if got != tt.wantField {
			t.Errorf("%s: refused %q, want %q", tt.body, got, tt.wantField)
		}
	}
	whole := `{"side": "long", "fills": [{"side": "buy", "price": 1}], "notes": {"a": {"price": "x\"y"}}}`
	for i := range len(whole) {
		var dst body
		if err := checkNames([]byte(whole[:i]), reflect.TypeOf(&dst), ""); err == nil {
			t.Errorf("%q, cut short, passed", whole[:i])
		}
	}
}
