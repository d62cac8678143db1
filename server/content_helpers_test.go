package server_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"testing"
)

// contentEnv is alice's journal with what content refers to (a trade, a
// playbook, two documents), and bob with one of each of his own.
type contentEnv struct {
	*tradeEnv
	raw                 *sql.DB
	tradeID, playbookID string
	docs                []string
	bob                 contentRefs
}

// contentRefs are a user's key and records that content can name.
type contentRefs struct {
	userID, key                                string
	accountID, tradeID, playbookID, documentID string
}

func newContentEnv(t *testing.T) *contentEnv {
	t.Helper()
	e := &contentEnv{tradeEnv: newTradeEnv(t)}
	e.raw = e.sql(t)
	tr, _ := e.create(t, e.tradeBody("ES", "long", `"entry_price": 5000, "quantity": 1`))
	e.tradeID = tr.ID
	e.playbookID = e.createPlaybook(t, e.key, `{"title":"ORB"}`).ID
	e.docs = []string{insertDocument(t, e.raw, e.userID, e.accountID), insertDocument(t, e.raw, e.userID, e.accountID)}

	b := &e.bob
	b.userID, b.key = e.newUser(t, "bob")
	b.accountID = e.createAccount(t, b.key, `{"account_number": "BOB-1"}`).ID
	b.tradeID = insertTrade(t, e.raw, b.userID, b.accountID)
	b.playbookID = e.createPlaybook(t, b.key, `{"title":"Bob's"}`).ID
	b.documentID = insertDocument(t, e.raw, b.userID, b.accountID)
	return e
}

// contentPaths are the four content routes.
var contentPaths = []string{"/api/v1/write-ups", "/api/v1/trading-plans", "/api/v1/chart-books", "/api/v1/report-cards"}

// minimalBody is the smallest valid create body of each content route,
// with extra JSON fields spliced in.
func (e *contentEnv) minimalBody(path, extra string) string {
	body := map[string]string{
		"/api/v1/write-ups":     fmt.Sprintf(`{"trade_id": %q`, e.tradeID),
		"/api/v1/trading-plans": `{"title": "Plan"`,
		"/api/v1/chart-books":   `{"title": "Book"`,
		"/api/v1/report-cards":  `{"report_date": "2026-02-05"`,
	}[path]
	if extra != "" {
		body += ", " + extra
	}
	return body + "}"
}

// contentRecord is any content record as JSON, for checks shared by the
// four kinds.
type contentRecord map[string]any

func (c contentRecord) id() string { s, _ := c["id"].(string); return s }

// post creates a record on path as the key's owner and returns it, failing
// unless it is a 201.
func (ts *testServer) post(t *testing.T, key, path, body string) contentRecord {
	t.Helper()
	status, b := ts.do(t, "POST", path, key, body)
	if status != http.StatusCreated {
		t.Fatalf("POST %s %s: got %d %s, want 201", path, body, status, b)
	}
	return dataMap(t, b)
}

// dataMap decodes a {data: record} body.
func dataMap(t *testing.T, b []byte) contentRecord {
	t.Helper()
	var v struct{ Data contentRecord }
	if err := json.Unmarshal(b, &v); err != nil || v.Data == nil {
		t.Fatalf("decode {data} from %s: %v", b, err)
	}
	return v.Data
}

// listMaps GETs a list and returns its items and pagination, failing
// unless it is a 200.
func (ts *testServer) listMaps(t *testing.T, key, target string) listBody[contentRecord] {
	t.Helper()
	return decode[listBody[contentRecord]](t, must200(t, ts, target, key))
}

// ids of the records of a list, in order.
func recordIDs(items []contentRecord) []string {
	var out []string
	for _, r := range items {
		out = append(out, r.id())
	}
	return out
}

// hasFields reports the first field of want that got does not hold, as
// JSON decodes both ("" when all match).
func hasFields(got contentRecord, want map[string]any) string {
	for k, w := range want {
		if !reflect.DeepEqual(got[k], w) {
			return fmt.Sprintf("%s = %#v, want %#v", k, got[k], w)
		}
	}
	return ""
}

// tagIDsOf lists the ids of a record's tags.
func tagIDsOf(r contentRecord) []string {
	var out []string
	tags, _ := r["tags"].([]any)
	for _, tag := range tags {
		m, _ := tag.(map[string]any)
		id, _ := m["id"].(string)
		out = append(out, id)
	}
	return out
}
