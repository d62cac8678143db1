package server_test

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"testing"

	"tradejournal/db"
)

// Bodies the authentication layer answers, byte for byte.
const (
	invalidKeyBody   = `{"error":"Invalid or missing API key","code":"INVALID_API_KEY"}` + "\n"
	revokedKeyBody   = `{"error":"API key has been revoked","code":"UNAUTHORIZED"}` + "\n"
	subscriptionBody = `{"error":"API access requires an active subscription","code":"SUBSCRIPTION_REQUIRED"}` + "\n"
	forbiddenBody    = `{"error":"This API key lacks the accounts:write scope","code":"FORBIDDEN"}` + "\n"
)

// flipLast changes a key's last character to another base62 character,
// which breaks a current key's checksum.
func flipLast(key string) string {
	last := byte('a')
	if key[len(key)-1] == 'a' {
		last = 'b'
	}
	return key[:len(key)-1] + string(last)
}

func TestAuth(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	_, legacyKey := ts.newKey(t, "alice", "write", true)
	revoked, revokedKey := ts.newKey(t, "alice", "write", false)
	if err := ts.db.RevokeKey(t.Context(), revoked.ID); err != nil {
		t.Fatal(err)
	}
	_, readKey := ts.newKey(t, "alice", "accounts:read", false)
	_, writeKey := ts.newKey(t, "alice", "accounts:write", false)
	_, tradesKey := ts.newKey(t, "alice", "trades:write", false)
	_, bobKey := ts.newUser(t, "bob")
	if _, err := ts.db.UpdateUser(t.Context(), "bob", db.UserUpdate{Subscription: db.Some("inactive")}); err != nil {
		t.Fatal(err)
	}
	basic := base64.StdEncoding.EncodeToString([]byte("alice:secret"))

	tests := []struct {
		name     string
		method   string
		header   string // the whole Authorization header; "" sends none
		wantCode int
		wantBody string // "" when any success body will do
	}{
		{"missing header", "GET", "", 401, invalidKeyBody},
		{"wrong scheme", "GET", "Basic " + basic, 401, invalidKeyBody},
		{"wrong scheme with a valid key", "GET", "Basic " + key, 401, invalidKeyBody},
		{"scheme alone", "GET", "Bearer", 401, invalidKeyBody},
		{"empty key", "GET", "Bearer ", 401, invalidKeyBody},
		{"unknown prefix", "GET", "Bearer tx_" + key[3:], 401, invalidKeyBody},
		{"wrong length", "GET", "Bearer " + key[:len(key)-1], 401, invalidKeyBody},
		{"bad checksum", "GET", "Bearer " + flipLast(key), 401, invalidKeyBody},
		{"well-formed unknown key", "GET", "Bearer " + db.NewKey(false), 401, invalidKeyBody},
		{"well-formed unknown legacy key", "GET", "Bearer " + db.NewKey(true), 401, invalidKeyBody},
		{"revoked key", "GET", "Bearer " + revokedKey, 401, revokedKeyBody},
		{"inactive subscription", "GET", "Bearer " + bobKey, 403, subscriptionBody},
		{"inactive subscription writing", "POST", "Bearer " + bobKey, 403, subscriptionBody},
		{"read scope writing", "POST", "Bearer " + readKey, 403, forbiddenBody},
		{"read scope reading", "GET", "Bearer " + readKey, 200, ""},
		{"write scope implies read", "GET", "Bearer " + writeKey, 200, ""},
		{"write scope writing", "POST", "Bearer " + writeKey, 201, ""},
		{"other resource's scope", "GET", "Bearer " + tradesKey, 403,
			`{"error":"This API key lacks the accounts:read scope","code":"FORBIDDEN"}` + "\n"},
		{"legacy key", "GET", "Bearer " + legacyKey, 200, ""},
		{"legacy key writing", "POST", "Bearer " + legacyKey, 201, ""},
		{"current key", "GET", "Bearer " + key, 200, ""},
		{"scheme in lower case", "GET", "bearer " + key, 200, ""},
	}
	created := 0
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := ""
			if tt.method == "POST" {
				body = `{"account_number":"AUTH-` + string(rune('A'+i)) + `"}`
			}
			r := newRequest(tt.method, "/api/v1/accounts", body)
			if tt.header != "" {
				r.Header.Set("Authorization", tt.header)
			}
			w := ts.send(t, r)
			if w.Code != tt.wantCode {
				t.Errorf("status: got %d, want %d (body %s)", w.Code, tt.wantCode, w.Body)
			}
			if tt.wantBody != "" && w.Body.String() != tt.wantBody {
				t.Errorf("body: got %s, want %s", w.Body, tt.wantBody)
			}
			if w.Code == http.StatusCreated {
				created++
			}
		})
	}
	// Only the two allowed POSTs wrote anything.
	raw := ts.sql(t)
	if got := count(t, raw, `SELECT count(*) FROM accounts`); got != created || created != 2 {
		t.Errorf("accounts after the table: got %d (created %d), want 2", got, created)
	}
}

// TestInvalidKeyBodyIdentical: a client, or an attacker, cannot tell a
// missing key from a malformed or an unknown one by the answer.
func TestInvalidKeyBodyIdentical(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	headers := map[string]string{
		"missing":   "",
		"malformed": "Bearer " + flipLast(key),
		"unknown":   "Bearer " + db.NewKey(false),
	}
	bodies := map[string][]byte{}
	for name, h := range headers {
		r := newRequest("GET", "/api/v1/accounts", "")
		if h != "" {
			r.Header.Set("Authorization", h)
		}
		w := ts.send(t, r)
		if w.Code != http.StatusUnauthorized {
			t.Errorf("%s key: status got %d, want 401", name, w.Code)
		}
		bodies[name] = w.Body.Bytes()
	}
	for name, b := range bodies {
		if !bytes.Equal(b, bodies["missing"]) {
			t.Errorf("%s key body %q differs from missing key body %q", name, b, bodies["missing"])
		}
	}
	if got := string(bodies["missing"]); got != invalidKeyBody {
		t.Errorf("body: got %s, want %s", got, invalidKeyBody)
	}
}

// TestMalformedKeyReadsNoDatabase closes the database under the server: a
// malformed key is still refused with 401, so it was refused without a
// query; a well-formed key needs the database and gets a generic 500.
func TestMalformedKeyReadsNoDatabase(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	ts.closeDB()

	status, body := ts.do(t, "GET", "/api/v1/accounts", flipLast(key), "")
	if status != http.StatusUnauthorized || string(body) != invalidKeyBody {
		t.Errorf("malformed key on a closed database: got %d %s, want 401 %s", status, body, invalidKeyBody)
	}
	status, body = ts.do(t, "GET", "/api/v1/accounts", key, "")
	if want := internalErrorBody; status != http.StatusInternalServerError || string(body) != want {
		t.Errorf("valid key on a closed database: got %d %s, want 500 %s", status, body, want)
	}
}

func TestSubscriptionReactivated(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	for _, tt := range []struct {
		subscription string
		want         int
	}{{"inactive", 403}, {"active", 200}} {
		if _, err := ts.db.UpdateUser(t.Context(), "alice", db.UserUpdate{Subscription: db.Some(tt.subscription)}); err != nil {
			t.Fatal(err)
		}
		if status, body := ts.do(t, "GET", "/api/v1/accounts", key, ""); status != tt.want {
			t.Errorf("subscription %s: got %d %s, want %d", tt.subscription, status, body, tt.want)
		}
	}
}
