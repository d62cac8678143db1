package server_test

import (
	"encoding/json"
	"net/http"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestStrictNames walks every route that takes a JSON body (as openapi.json
// says) with a name given twice and with a name that matches a field only
// when case is ignored: each is a 400 VALIDATION_ERROR naming it, in the
// route's error body, and nothing is written.
func TestStrictNames(t *testing.T) {
	e := newTradeEnv(t)
	var doc struct {
		Paths map[string]map[string]struct {
			RequestBody struct {
				Content map[string]struct {
					Schema struct {
						Ref string `json:"$ref"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
		Components struct {
			Schemas map[string]struct {
				Properties map[string]any   `json:"properties"`
				OneOf      []map[string]any `json:"oneOf"`
			} `json:"schemas"`
		} `json:"components"`
	}
	spec, err := os.ReadFile("openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(spec, &doc); err != nil {
		t.Fatal(err)
	}
	fill := strings.NewReplacer("{id}", "01940000-0000-7000-8000-000000000001", "{root}", "FDAX")
	before := tableCounts(t, e)
	routes := 0
	for path, ops := range doc.Paths {
		for method, op := range ops {
			media, ok := op.RequestBody.Content["application/json"]
			if !ok {
				continue
			}
			routes++
			schema := doc.Components.Schemas[strings.TrimPrefix(media.Schema.Ref, "#/components/schemas/")]
			field := "type" // the tags' bodies, one of several shapes by type
			if len(schema.OneOf) == 0 {
				var names []string
				for name := range schema.Properties {
					names = append(names, name)
				}
				sort.Strings(names)
				field = names[0]
			}
			variant := strings.ToUpper(field[:1]) + field[1:]
			target := fill.Replace(path)
			for _, tt := range []struct{ body, wantField, wantIn string }{
				{`{"` + field + `": null, "` + field + `": null}`, field, "given twice"},
				{`{"` + variant + `": null}`, variant, "case-sensitive"},
			} {
				status, b := e.do(t, strings.ToUpper(method), target, e.key, tt.body)
				var flat errBody
				var nested struct {
					Error struct {
						Code, Message string
						Details       map[string]string
					}
				}
				json.Unmarshal(b, &flat)
				json.Unmarshal(b, &nested)
				code, details := flat.Code, flat.Details
				if strings.HasPrefix(path, "/api/v1/documents") {
					code, details = nested.Error.Code, nested.Error.Details
				}
				if status != http.StatusBadRequest || code != "VALIDATION_ERROR" || len(details) != 1 ||
					!strings.Contains(details[tt.wantField], tt.wantIn) {
					t.Errorf("%s %s %s: got %d %s, want 400 naming %s (%s)", strings.ToUpper(method), target, tt.body, status, b, tt.wantField, tt.wantIn)
				}
			}
		}
	}
	if routes < 20 {
		t.Errorf("only %d routes take a JSON body in openapi.json; the walk lost them", routes)
	}
	// Inside the elements of a body's arrays too.
	for _, tt := range []struct{ body, wantField string }{
		{e.tradeBody("ES", "long", `"executions": [{"side": "buy", "quantity": 1, "price": 5000, "price": 5001, "execution_time": "09:30:00"}]`), "executions[0].price"},
		{e.tradeBody("ES", "long", `"executions": [{"side": "buy", "quantity": 1, "Price": 5000, "execution_time": "09:30:00"}]`), "executions[0].Price"},
		{e.tradeBody("ES", "long", `"entry_price": 5000, "quantity": 1, "stop_loss_levels": [{"price": 4990, "Quantity": 1}]`), "stop_loss_levels[0].Quantity"},
		{`{"title": "P", "entry_criteria": [{"Description": "Above VWAP"}]}`, "entry_criteria[0].Description"},
	} {
		target := "/api/v1/trades"
		if strings.Contains(tt.body, "entry_criteria") {
			target = "/api/v1/playbooks"
		}
		status, b := e.do(t, "POST", target, e.key, tt.body)
		if er := decode[errBody](t, b); status != http.StatusBadRequest || len(er.Details) != 1 || er.Details[tt.wantField] == "" {
			t.Errorf("POST %s %s: got %d %s, want 400 naming %s", target, tt.body, status, b, tt.wantField)
		}
	}
	if after := tableCounts(t, e); after != before {
		t.Errorf("refused bodies wrote rows: before %s, after %s", before, after)
	}
}

// tableCounts is the row count of every table, as one line.
func tableCounts(t *testing.T, e *tradeEnv) string {
	t.Helper()
	raw := e.sql(t)
	rows, err := raw.QueryContext(t.Context(), `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		rows.Scan(&name)
		tables = append(tables, name)
	}
	rows.Close()
	var out []string
	for _, name := range tables {
		out = append(out, name+"="+strconv.Itoa(count(t, raw, `SELECT count(*) FROM "`+name+`"`)))
	}
	return strings.Join(out, " ")
}
