package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// FuzzJSONBodies sends arbitrary bodies to every route that decodes JSON.
// Whatever arrives, the answer is a JSON body with a 2xx or a 4xx: never a
// panic, never a 500.
func FuzzJSONBodies(f *testing.F) {
	e := newTradeEnv(f)
	tr, _ := e.create(f, e.tradeBody("ES", "long", `"entry_price": 5000, "quantity": 1`))
	targets := []struct{ method, path string }{
		{"POST", "/api/v1/trades"},
		{"PUT", "/api/v1/trades/" + tr.ID},
		{"POST", "/api/v1/accounts"},
		{"PUT", "/api/v1/accounts/" + e.accountID},
		{"POST", "/api/v1/tags"},
		{"PUT", "/api/v1/tags"},
		{"PUT", "/api/v1/instruments/FDAX"},
	}
	for i := range targets {
		f.Add(uint8(i), `{}`)
		f.Add(uint8(i), `null`)
		f.Add(uint8(i), `[]`)
	}
	f.Add(uint8(0), e.tradeBody("NQZ5", "short", `"executions": [{"side": "sell", "price": 29298, "quantity": 1, "execution_time": "09:30:00"}, {"side": "buy", "price": 29290, "quantity": 1, "execution_timestamp": "2026-02-05T14:31:00Z"}]`))
	f.Add(uint8(1), `{"executions": [{"side": "buy", "price": 1e308, "quantity": 1e-320, "execution_time": "23:59:59"}], "status": null}`)
	f.Add(uint8(2), `{"account_number": "A", "starting_balance": -0, "tag_ids": ["x", 1]}`)
	f.Add(uint8(4), `{"type": "bulk_tags", "tagGroupId": "01a1fbe5-0d64-76ed-86e9-d763a9f4f538", "tags": [{"id": 5}]}`)
	f.Add(uint8(6), `{"point_value": 1e-300, "asset_class": "futures"}`)
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		target := targets[int(which)%len(targets)]
		w := e.request(t, target.method, target.path, e.key, body)
		if w.Code >= 500 || w.Code < 200 || (w.Code >= 300 && w.Code < 400) {
			t.Fatalf("%s %s %q: got %d %s", target.method, target.path, body, w.Code, w.Body)
		}
		if !json.Valid(w.Body.Bytes()) || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
			t.Fatalf("%s %s %q: body is not JSON: %s", target.method, target.path, body, w.Body)
		}
		if w.Code == http.StatusOK || w.Code == http.StatusCreated {
			return
		}
		var e errBody
		if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Code == "" {
			t.Fatalf("%s %s %q: error body without a code: %s", target.method, target.path, body, w.Body)
		}
	})
}
