package watch_test

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"tradejournal/db"
	"tradejournal/files"
	"tradejournal/internal/testkit"
	"tradejournal/server"
	"tradejournal/watch"
)

// env is a watched folder of user alice (New York) over the real server
// and a real SQLite file, on a settle clock the test moves.
type env struct {
	dir    string // the watched folder
	db     *db.DB
	dbPath string
	srv    *server.Server
	key    string // alice's write key, for the API
	w      *watch.Watcher
	now    time.Time // the settle clock
	logs   testkit.SyncBuffer
}

// importedAt is the journal's clock: every import is made at 15:30:00 in
// New York, so imported files are named 20251112-153000-NAME.
var importedAt = time.Date(2025, 11, 12, 20, 30, 0, 0, time.UTC)

const prefix = "20251112-153000-"

// newEnv builds the journal, alice with her account APEX-1, and a watcher
// of a new folder; change edits the watcher's Config and the server's.
func newEnv(t *testing.T, change func(*watch.Config, *server.Config)) *env {
	t.Helper()
	data := t.TempDir()
	e := &env{dir: filepath.Join(t.TempDir(), "inbox"), dbPath: filepath.Join(data, "journal.db"),
		now: time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)}
	if err := os.Mkdir(e.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	d, err := db.Open(t.Context(), e.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	d.Now = func() time.Time { return importedAt }
	e.db = d
	store, err := files.Open(filepath.Join(data, "files"))
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(&e.logs, nil))
	wc := watch.Config{Dir: e.dir, User: "alice", Now: func() time.Time { return e.now }}
	// httptest's requests come to example.com: a name the server answers to.
	sc := server.Config{PublicURL: "http://journal.test", AllowedHosts: []string{"example.com"}}
	if change != nil {
		change(&wc, &sc)
	}
	e.srv = server.New(sc, d, store, logger)
	scopes, _ := db.ParseScopes("write")
	if _, _, e.key, err = d.CreateUserWithKey(t.Context(), "alice", "America/New_York", "test", scopes); err != nil {
		t.Fatal(err)
	}
	if status, b := e.api(t, "POST", "/api/v1/accounts", `{"account_number": "APEX-1"}`); status != http.StatusCreated {
		t.Fatalf("account: %d %s", status, b)
	}
	if e.w, err = watch.New(t.Context(), wc, d, e.srv, logger); err != nil {
		t.Fatal(err)
	}
	return e
}

// tick moves the settle clock on by d and looks at the folder.
func (e *env) tick(t *testing.T, d time.Duration) {
	t.Helper()
	e.now = e.now.Add(d)
	e.w.Poll(t.Context())
}

// api sends one JSON request as alice.
func (e *env) api(t *testing.T, method, target, body string) (int, []byte) {
	t.Helper()
	req := httptest.NewRequest(method, target, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+e.key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, req)
	return w.Code, w.Body.Bytes()
}

// postImport posts a file to POST /api/v1/imports with format=auto, as a
// client would, and returns the answer.
func (e *env) postImport(t *testing.T, key, name string, content []byte, fields ...string) (int, []byte) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("format", "auto")
	for i := 0; i+1 < len(fields); i += 2 {
		mw.WriteField(fields[i], fields[i+1])
	}
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(content)
	mw.Close()
	req := httptest.NewRequest("POST", "/api/v1/imports", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+key)
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, req)
	return w.Code, w.Body.Bytes()
}

// imports lists alice's imports through the API, newest first.
func (e *env) imports(t *testing.T) []db.Import {
	t.Helper()
	status, b := e.api(t, "GET", "/api/v1/imports", "")
	if status != http.StatusOK {
		t.Fatalf("GET /api/v1/imports: %d %s", status, b)
	}
	var list struct{ Data []db.Import }
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	return list.Data
}

// trades lists alice's trades through the API.
func (e *env) trades(t *testing.T) []db.Trade {
	t.Helper()
	status, b := e.api(t, "GET", "/api/v1/trades?limit=100", "")
	if status != http.StatusOK {
		t.Fatalf("GET /api/v1/trades: %d %s", status, b)
	}
	var list struct{ Data []db.Trade }
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	return list.Data
}

// count reads one number from the journal with plain SQL.
func (e *env) count(t *testing.T, table string) int {
	t.Helper()
	raw, err := sql.Open("sqlite", e.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var n int
	if err := raw.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// drop writes content elsewhere and moves it into the folder, as a file
// manager does.
func (e *env) drop(t *testing.T, name, content string) {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(e.dir, name)); err != nil {
		t.Fatal(err)
	}
}

// ls lists a folder's names (one of the watched folder's, or "" for it).
func (e *env) ls(t *testing.T, sub string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(e.dir, sub))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, en := range entries {
		names = append(names, en.Name())
	}
	return names
}

// wantFiles fails unless the folder sub holds exactly names.
func (e *env) wantFiles(t *testing.T, sub string, names ...string) {
	t.Helper()
	if got := e.ls(t, sub); !slices.Equal(got, names) {
		t.Errorf("%s/ holds %q, want %q\nlogs:\n%s", sub, got, names, e.logs.String())
	}
}

// read is a file's content.
func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const header = "account_number,symbol,side,quantity,price,commission,timestamp,exec_id\n"

// morning is one MNQ trade in APEX-1 (point value 2): long 2 from 21000
// and 21004 (average 21002), out at 21010: gross (21010-21002)*2*2 =
// 32.00, commission 0.62+0.62+1.24 = 2.48, net 29.52.
const morning = header +
	"APEX-1,MNQZ5,buy,1,21000,0.62,2025-12-01T09:31:00-05:00,A1\n" +
	"APEX-1,MNQZ5,buy,1,21004,0.62,2025-12-01T09:32:00-05:00,A2\n" +
	"APEX-1,MNQZ5,sell,2,21010,1.24,2025-12-01T09:40:00-05:00,A3\n"
