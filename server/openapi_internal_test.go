package server

import (
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"
)

// TestOpenAPIRoutes walks the route table against the document both ways:
// every route is an operation with the route's scope, and every operation
// is a route.
func TestOpenAPIRoutes(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Scope       string `json:"x-scope"`
			Security    []map[string][]string
		}
	}
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	documented := map[string]string{} // "GET /api/v1/x" → scope
	ids := map[string]string{}
	for path, ops := range doc.Paths {
		for method, op := range ops {
			key := strings.ToUpper(method) + " " + path
			documented[key] = op.Scope
			if prev, ok := ids[op.OperationID]; ok || op.OperationID == "" {
				t.Errorf("%s: operationId %q (also %s)", key, op.OperationID, prev)
			}
			ids[op.OperationID] = key
			var security []string
			for _, req := range op.Security {
				security = append(security, req["bearerAuth"]...)
			}
			if want := []string{op.Scope}; op.Scope == "" && len(op.Security) != 0 || op.Scope != "" && !slices.Equal(security, want) {
				t.Errorf("%s: security %v, x-scope %q", key, op.Security, op.Scope)
			}
		}
	}
	s := New(Config{}, nil, nil, slog.New(slog.DiscardHandler))
	routed := map[string]bool{}
	for _, rt := range s.routes() {
		routed[rt.pattern] = true
		scope, ok := documented[rt.pattern]
		switch {
		case !ok:
			t.Errorf("route %s is not in openapi.json", rt.pattern)
		case scope != rt.scope:
			t.Errorf("route %s: openapi.json says scope %q, the route table %q", rt.pattern, scope, rt.scope)
		}
	}
	for key := range documented {
		if !routed[key] {
			t.Errorf("openapi.json has %s, which no route serves", key)
		}
	}
}
