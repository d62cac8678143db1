package server_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	_ "modernc.org/sqlite"

	"tradejournal/db"
	"tradejournal/files"
	"tradejournal/server"
)

// testServer is the real handler around a real SQLite file.
type testServer struct {
	srv   *server.Server
	db    *db.DB
	path  string // the SQLite file, for reading state back with plain SQL
	files string // the file store's folder, for looking at blobs and temp files
	// closed is set by closeDB: the journal is not checked at cleanup.
	closed bool
}

// closeDB closes the database under the running server, for tests of what
// answers without it.
func (ts *testServer) closeDB() {
	ts.db.Close()
	ts.closed = true
}

// newTestServer opens a migrated database in t.TempDir and builds the
// server around it.
func newTestServer(t testing.TB) *testServer {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.db")
	d, err := db.Open(t.Context(), path)
	if err != nil {
		t.Fatalf("db.Open: %v", err)
	}
	ts := &testServer{db: d, path: path, files: filepath.Join(dir, "files")}
	t.Cleanup(func() {
		// Whatever the test wrote leaves the journal sound: the counts and
		// listings kept beside the trades agree with them.
		// A benchmark's baselines write straight through SQL: not checked.
		if _, bench := t.(*testing.B); !bench && !t.Failed() && !ts.closed {
			problems, err := d.IntegrityCheck(context.Background())
			if err != nil || len(problems) > 0 {
				t.Errorf("the journal after the test: %v %q", err, problems)
			}
		}
		d.Close()
	})
	store, err := files.Open(filepath.Join(dir, "files"))
	if err != nil {
		t.Fatalf("files.Open: %v", err)
	}
	cfg := server.Config{PublicURL: "http://journal.test", Secret: []byte(testSecret), AllowedHosts: []string{testHost}}
	ts.srv = server.New(cfg, d, store, slog.New(slog.DiscardHandler))
	return ts
}

// testHost is the Host of httptest.NewRequest's requests, a name the
// test servers are told to answer to (a server answers only names it is
// given: see TestHostCheck).
const testHost = "example.com"

// testSecret is the URL-signing key of test servers.
const testSecret = "0123456789abcdef0123456789abcdef"

// newUser adds a user with a write key and returns the user's id and key.
func (ts *testServer) newUser(t testing.TB, name string) (userID, key string) {
	t.Helper()
	u, err := ts.db.CreateUser(t.Context(), name, "")
	if err != nil {
		t.Fatalf("CreateUser(%q): %v", name, err)
	}
	_, key = ts.newKey(t, name, "write", false)
	return u.ID, key
}

// newKey issues another key for the named user.
func (ts *testServer) newKey(t testing.TB, user, scopes string, legacy bool) (db.Key, string) {
	t.Helper()
	sc, err := db.ParseScopes(scopes)
	if err != nil {
		t.Fatalf("ParseScopes(%q): %v", scopes, err)
	}
	k, key, err := ts.db.CreateKey(t.Context(), user, "test", sc, legacy)
	if err != nil {
		t.Fatalf("CreateKey(%q): %v", user, err)
	}
	return k, key
}

// request sends one request through the handler; key "" sends no
// Authorization header, body "" no body.
func (ts *testServer) request(t testing.TB, method, target, key, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := newRequest(method, target, body)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	return ts.send(t, req)
}

// newRequest builds a request with a JSON body, or none when body is "".
func newRequest(method, target, body string) *http.Request {
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	return req
}

// send serves req and checks the response against openapi.json.
func (ts *testServer) send(t testing.TB, req *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	w := httptest.NewRecorder()
	ts.srv.ServeHTTP(w, req)
	checkResponse(t, req, w)
	return w
}

// do is request for the common case of reading only status and body.
func (ts *testServer) do(t testing.TB, method, target, key, body string) (int, []byte) {
	t.Helper()
	w := ts.request(t, method, target, key, body)
	return w.Code, w.Body.Bytes()
}

// createAccount posts an account and returns it, failing unless it is a 201.
func (ts *testServer) createAccount(t testing.TB, key, body string) db.Account {
	t.Helper()
	status, b := ts.do(t, "POST", "/api/v1/accounts", key, body)
	if status != http.StatusCreated {
		t.Fatalf("POST /api/v1/accounts %s: got %d %s, want 201", body, status, b)
	}
	return decode[struct{ Data db.Account }](t, b).Data
}

// sql opens the database file directly, apart from the server's pools, to
// set up rows no API writes yet and to read state back.
func (ts *testServer) sql(t testing.TB) *sql.DB {
	t.Helper()
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "foreign_keys(1)")
	u := url.URL{Scheme: "file", Path: ts.path, RawQuery: q.Encode()}
	raw, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return raw
}

// count runs a SELECT count(*) and returns the number.
func count(t testing.TB, raw *sql.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := raw.QueryRowContext(t.Context(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// insertTrade adds a minimal open trade to an account with SQL, as a
// fixture of the resources that link to trades. It has no listing, as a
// trade of an older version: the list reads it from its row.
func insertTrade(t testing.TB, raw *sql.DB, userID, accountID string) string {
	t.Helper()
	id := uuid.NewString()
	_, err := raw.ExecContext(t.Context(), `INSERT INTO trades (id, user_id, account_id, symbol, root, side,
		quantity, entry_price, entry_date, status, asset_class, point_value, created_at, updated_at, day)
		VALUES (?, ?, ?, 'NQZ5', 'NQ', 'long', 1, 21000, '2026-02-05', 'open', 'futures', 20,
		'2026-02-05T15:00:00.000Z', '2026-02-05T15:00:00.000Z', '2026-02-05')`, id, userID, accountID)
	if err != nil {
		t.Fatalf("insert trade: %v", err)
	}
	return id
}

// errBody is the standard error body.
type errBody struct {
	Error   string            `json:"error"`
	Code    string            `json:"code"`
	Details map[string]string `json:"details"`
}

// listBody is a list response.
type listBody[T any] struct {
	Data       []T `json:"data"`
	Pagination struct {
		Total   int  `json:"total"`
		Limit   int  `json:"limit"`
		Offset  int  `json:"offset"`
		HasMore bool `json:"has_more"`
	} `json:"pagination"`
}

// decode unmarshals a response body strictly: an unknown field in it fails
// the test, so a response cannot grow fields unnoticed.
func decode[T any](t testing.TB, b []byte) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %T from %s: %v", v, b, err)
	}
	return v
}

// keys returns the sorted keys of m joined by commas, for comparing sets of
// field names in one line.
// jsonText is v as the server writes it.
func jsonText(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	return string(b)
}

func keys(m map[string]string) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return strings.Join(ks, ",")
}

// pinClock makes the database's clock read at.
func (ts *testServer) pinClock(at time.Time) { ts.db.Now = func() time.Time { return at } }

// t0 is the pinned time of most tests; its stored form is t0Text.
var t0 = time.Date(2026, 2, 5, 15, 17, 54, 123e6, time.UTC)

const t0Text = "2026-02-05T15:17:54.123Z"
