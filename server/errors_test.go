package server_test

import (
	"log/slog"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tradejournal/db"
	"tradejournal/files"
	"tradejournal/internal/testkit"
	"tradejournal/server"
)

const (
	internalErrorBody = `{"error":"Internal server error","code":"INTERNAL_ERROR"}` + "\n"
	noRouteBody       = `{"error":"No such route","code":"NOT_FOUND"}` + "\n"
)

// padTo pads a JSON body with trailing spaces to exactly n bytes.
func padTo(body string, n int) string { return body + strings.Repeat(" ", n-len(body)) }

func TestDecodeErrors(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	tests := []struct {
		name        string
		body        string
		wantStatus  int
		wantCode    string
		wantDetails string // the details' field names, sorted and joined
	}{
		{"exactly 1 MiB", padTo(`{"account_number":"BIG-1"}`, 1<<20), 201, "", ""},
		{"1 MiB + 1", padTo(`{"account_number":"BIG-2"}`, 1<<20+1), 413, "PAYLOAD_TOO_LARGE", ""},
		{"1 MiB + 1 in one string", `{"account_number":"` + strings.Repeat("x", 1<<20-19) + `"}`, 413, "PAYLOAD_TOO_LARGE", ""},
		{"empty body", "", 400, "VALIDATION_ERROR", "body"},
		{"malformed", `{"account_number":"A1",}`, 400, "VALIDATION_ERROR", "body"},
		{"truncated", `{"account_number":`, 400, "VALIDATION_ERROR", "body"},
		{"not an object", `["A1"]`, 400, "VALIDATION_ERROR", "body"},
		{"a string", `"A1"`, 400, "VALIDATION_ERROR", "body"},
		{"wrong type", `{"account_number": 5}`, 400, "VALIDATION_ERROR", "account_number"},
		{"wrong type, number field", `{"account_number":"A1","starting_balance":"100"}`, 400, "VALIDATION_ERROR", "starting_balance"},
		{"wrong type, list field", `{"account_number":"A1","tag_ids":"x"}`, 400, "VALIDATION_ERROR", "tag_ids"},
		{"two values", `{"account_number":"TWO-1"}{"account_number":"TWO-2"}`, 400, "VALIDATION_ERROR", "body"},
		{"value then junk", `{"account_number":"TWO-3"} x`, 400, "VALIDATION_ERROR", "body"},
		{"unknown and server-owned fields ignored",
			`{"account_number":"OK-1","id":"x","created_at":"y","user_id":"z","bogus":[1]}`, 201, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := ts.do(t, "POST", "/api/v1/accounts", key, tt.body)
			if status != tt.wantStatus {
				t.Fatalf("status: got %d, want %d (body %.200s)", status, tt.wantStatus, body)
			}
			if tt.wantCode == "" {
				return
			}
			e := decode[errBody](t, body)
			if e.Code != tt.wantCode {
				t.Errorf("code: got %s, want %s", e.Code, tt.wantCode)
			}
			if got := keys(e.Details); got != tt.wantDetails {
				t.Errorf("details fields: got %q, want %q (%v)", got, tt.wantDetails, e.Details)
			}
		})
	}
	raw := ts.sql(t)
	rows, err := raw.QueryContext(t.Context(), `SELECT account_number FROM accounts ORDER BY account_number`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var n string
		rows.Scan(&n)
		got = append(got, n)
	}
	if want := "BIG-1,OK-1"; strings.Join(got, ",") != want {
		t.Errorf("accounts stored: got %v, want %s (a refused body wrote)", got, want)
	}
}

func TestTooLargeBody(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	status, body := ts.do(t, "POST", "/api/v1/accounts", key, padTo(`{}`, 1<<20+1))
	want := `{"error":"Request body exceeds the limit of 1 MiB","code":"PAYLOAD_TOO_LARGE"}` + "\n"
	if status != http.StatusRequestEntityTooLarge || string(body) != want {
		t.Errorf("got %d %s, want 413 %s", status, body, want)
	}
}

func TestWrongTypeMessage(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	status, body := ts.do(t, "POST", "/api/v1/accounts", key, `{"account_number": 5}`)
	want := `{"error":"Validation failed","code":"VALIDATION_ERROR","details":{"account_number":"account_number must be a string"}}` + "\n"
	if status != 400 || string(body) != want {
		t.Errorf("got %d %s, want 400 %s", status, body, want)
	}
}

func TestRouting(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	a := ts.createAccount(t, key, `{"account_number":"A1"}`)
	tests := []struct {
		method, target, key string
		wantStatus          int
		wantAllow           string
		wantBody            string
	}{
		{"GET", "/api/v1/nope", key, 404, "", noRouteBody},
		{"GET", "/nope", key, 404, "", noRouteBody},
		{"GET", "/nope", "", 404, "", noRouteBody},
		// GET / is the web interface's (TestPagesSignIn).
		{"GET", "/api/v1/accounts/" + a.ID + "/extra", key, 404, "", noRouteBody},
		{"DELETE", "/api/v1/accounts/", key, 404, "", noRouteBody},
		// Unclean paths name no route: the mux would redirect them in HTML.
		{"GET", "/api/v1//accounts", key, 404, "", noRouteBody},
		{"POST", "/api/v1//accounts", key, 404, "", noRouteBody},
		{"GET", "/api/v1/accounts/./" + a.ID, key, 404, "", noRouteBody},
		{"GET", "/api/v1/accounts/../accounts", key, 404, "", noRouteBody},
		{"GET", "/nope//x", "", 404, "", noRouteBody},
		{"PATCH", "/api/v1//accounts", key, 404, "", noRouteBody},
		{"PATCH", "/api/v1/accounts", key, 405, "GET, HEAD, POST",
			`{"error":"Method PATCH is not allowed here; allowed: GET, HEAD, POST","code":"METHOD_NOT_ALLOWED"}` + "\n"},
		{"POST", "/api/v1/accounts/" + a.ID, key, 405, "DELETE, GET, HEAD, PUT",
			`{"error":"Method POST is not allowed here; allowed: DELETE, GET, HEAD, PUT","code":"METHOD_NOT_ALLOWED"}` + "\n"},
		{"DELETE", "/api/v1/accounts", "", 405, "GET, HEAD, POST",
			`{"error":"Method DELETE is not allowed here; allowed: GET, HEAD, POST","code":"METHOD_NOT_ALLOWED"}` + "\n"},
	}
	for _, tt := range tests {
		w := ts.request(t, tt.method, tt.target, tt.key, "")
		if w.Code != tt.wantStatus {
			t.Errorf("%s %s: status got %d, want %d", tt.method, tt.target, w.Code, tt.wantStatus)
		}
		if got := w.Header().Get("Allow"); got != tt.wantAllow {
			t.Errorf("%s %s: Allow got %q, want %q", tt.method, tt.target, got, tt.wantAllow)
		}
		if got := w.Body.String(); got != tt.wantBody {
			t.Errorf("%s %s: body got %s, want %s", tt.method, tt.target, got, tt.wantBody)
		}
		if got := w.Header().Get("Content-Type"); got != "application/json" {
			t.Errorf("%s %s: Content-Type got %q, want application/json", tt.method, tt.target, got)
		}
		if got := w.Header().Get("Location"); got != "" {
			t.Errorf("%s %s: Location got %q, want none", tt.method, tt.target, got)
		}
		// Every answer carries nosniff and no-store (issue 19), the mux's too.
		if got := w.Header().Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s %s: X-Content-Type-Options got %q, want nosniff", tt.method, tt.target, got)
		}
		if got := w.Header().Get("Cache-Control"); got != "no-store" {
			t.Errorf("%s %s: Cache-Control got %q, want no-store", tt.method, tt.target, got)
		}
	}
}

var requestIDPattern = regexp.MustCompile(`^[0-9a-f]{16}$`)

// TestEveryResponseHeaders sends one request of every kind of answer and
// checks each carries a fresh X-Request-Id and a JSON Content-Type.
func TestEveryResponseHeaders(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	_, readKey := ts.newKey(t, "alice", "read", false)
	a := ts.createAccount(t, key, `{"account_number":"A1"}`)
	requests := []struct{ method, target, key, body string }{
		{"GET", "/api/v1/accounts", key, ""},
		{"GET", "/api/v1/accounts/" + a.ID, key, ""},
		{"POST", "/api/v1/accounts", key, `{"account_number":"A2"}`},
		{"PUT", "/api/v1/accounts/" + a.ID, key, `{"name":"x"}`},
		{"GET", "/api/v1/accounts", "", ""},
		{"POST", "/api/v1/accounts", readKey, `{}`},
		{"GET", "/api/v1/accounts?limit=0", key, ""},
		{"POST", "/api/v1/accounts", key, `{`},
		{"POST", "/api/v1/accounts", key, padTo(`{}`, 1<<20+1)},
		{"POST", "/api/v1/accounts", key, `{"account_number":"A1"}`},
		{"GET", "/api/v1/accounts/nope", key, ""},
		{"GET", "/nope", "", ""},
		{"PATCH", "/api/v1/accounts", key, ""},
		{"DELETE", "/api/v1/accounts/" + a.ID, key, ""},
	}
	seen := map[string]bool{}
	for _, rq := range requests {
		w := ts.request(t, rq.method, rq.target, rq.key, rq.body)
		id := w.Header().Get("X-Request-Id")
		if !requestIDPattern.MatchString(id) {
			t.Errorf("%s %s (%d): X-Request-Id got %q, want 16 hex digits", rq.method, rq.target, w.Code, id)
		}
		if seen[id] {
			t.Errorf("%s %s: X-Request-Id %q repeats an earlier one", rq.method, rq.target, id)
		}
		seen[id] = true
		if got := w.Header().Get("Content-Type"); got != "application/json" {
			t.Errorf("%s %s (%d): Content-Type got %q, want application/json", rq.method, rq.target, w.Code, got)
		}
	}
}

// TestPanicRecovered builds the real server without a database, so the first
// query an authenticated request makes panics (nil pointer) inside the
// handler chain. No production test hook is needed.
func TestPanicRecovered(t *testing.T) {
	var logs testkit.SyncBuffer
	store, err := files.Open(filepath.Join(t.TempDir(), "files"))
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(server.Config{AllowedHosts: []string{testHost}}, nil, store, slog.New(slog.NewTextHandler(&logs, nil)))
	ts := &testServer{srv: srv}

	// A well-formed key passes the checksum, so the server goes on to look it up.
	key := db.NewKey(false)
	w := ts.request(t, "GET", "/api/v1/accounts", key, "")
	if w.Code != http.StatusInternalServerError {
		t.Errorf("status: got %d, want 500", w.Code)
	}
	if got := w.Body.String(); got != internalErrorBody {
		t.Errorf("body: got %s, want %s", got, internalErrorBody)
	}
	if got := w.Header().Get("Content-Type"); got != "application/json" {
		t.Errorf("Content-Type: got %q, want application/json", got)
	}
	id := w.Header().Get("X-Request-Id")
	if !requestIDPattern.MatchString(id) {
		t.Fatalf("X-Request-Id: got %q, want 16 hex digits", id)
	}
	log := logs.String()
	for _, want := range []string{"msg=panic", "request_id=" + id, "nil pointer", "status=500"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, key) {
		t.Errorf("log holds the API key:\n%s", log)
	}
}
