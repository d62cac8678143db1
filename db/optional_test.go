package db

import (
	"encoding/json"
	"testing"
)

func TestOptionalUnmarshal(t *testing.T) {
	type body struct {
		S Optional[string]  `json:"s"`
		F Optional[float64] `json:"f"`
	}
	tests := []struct {
		in    string
		wantS Optional[string]
		wantF Optional[float64]
	}{
		{`{}`, Optional[string]{}, Optional[float64]{}},
		{`{"s":null,"f":null}`, Optional[string]{Set: true, Null: true}, Optional[float64]{Set: true, Null: true}},
		{`{"s":"x","f":0}`, Some("x"), Some(0.0)},
		{`{"s":""}`, Some(""), Optional[float64]{}},
		// A repeated key: the last one wins, as encoding/json decides for
		// plain fields.
		{`{"s":null,"s":"x"}`, Some("x"), Optional[float64]{}},
		{`{"s":"x","s":null}`, Optional[string]{Set: true, Null: true}, Optional[float64]{}},
		{`{"f":null,"f":2.5}`, Optional[string]{}, Some(2.5)},
	}
	for _, tt := range tests {
		var got body
		if err := json.Unmarshal([]byte(tt.in), &got); err != nil {
			t.Errorf("Unmarshal(%s): %v", tt.in, err)
			continue
		}
		if got.S != tt.wantS || got.F != tt.wantF {
			t.Errorf("Unmarshal(%s) = %+v %+v, want %+v %+v", tt.in, got.S, got.F, tt.wantS, tt.wantF)
		}
	}
	var o Optional[string]
	if err := json.Unmarshal([]byte(`5`), &o); err == nil {
		t.Errorf("Unmarshal(5) into Optional[string]: got no error")
	}
}

func TestOptionalPtr(t *testing.T) {
	if p := (Optional[string]{}).Ptr(); p != nil {
		t.Errorf("absent.Ptr() = %v, want nil", *p)
	}
	if p := (Optional[string]{Set: true, Null: true, Value: "x"}).Ptr(); p != nil {
		t.Errorf("null.Ptr() = %v, want nil", *p)
	}
	if p := Some("x").Ptr(); p == nil || *p != "x" {
		t.Errorf("Some(x).Ptr() = %v, want x", p)
	}
}
