package server_test

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"tradejournal/db"
)

// TestContentCreateAndGet pins the clock and the ids to compare whole
// bodies of each kind, in full and with only its required field: the
// create answers 201 {data}, the get and the list the same record.
func TestContentCreateAndGet(t *testing.T) {
	e := newContentEnv(t)
	e.pinClock(t0)
	stamps := `"tags":[],"created_at":"` + t0Text + `","updated_at":"` + t0Text + `"}}` + "\n"
	tests := []struct {
		path, body, want string
	}{
		{"/api/v1/write-ups",
			`{"trade_id":"` + strings.ToUpper(e.tradeID) + `","title":"  Chased the open ","content_markdown":"# Notes\nToo early."}`,
			`"trade_id":"` + e.tradeID + `","title":"Chased the open","content_markdown":"# Notes\nToo early.",`},
		{"/api/v1/write-ups", `{"trade_id":"` + e.tradeID + `","title":null,"content_markdown":null}`,
			`"trade_id":"` + e.tradeID + `","title":"","content_markdown":"",`},
		{"/api/v1/trading-plans",
			`{"title":"Tuesday","plan_date":"2026-02-10","playbook_id":"` + e.playbookID + `","content_markdown":"Wait for the range"}`,
			`"title":"Tuesday","plan_date":"2026-02-10","playbook_id":"` + e.playbookID + `","content_markdown":"Wait for the range",`},
		{"/api/v1/trading-plans", `{"title":"Bare","plan_date":null,"playbook_id":null}`,
			`"title":"Bare","plan_date":null,"playbook_id":null,"content_markdown":"",`},
		{"/api/v1/chart-books",
			`{"title":"ORB examples","description":"A+ only","playbook_id":"` + e.playbookID + `","document_ids":["` + e.docs[1] + `","` + strings.ToUpper(e.docs[0]) + `","` + e.docs[1] + `"]}`,
			`"title":"ORB examples","description":"A+ only","playbook_id":"` + e.playbookID + `","document_ids":["` + e.docs[1] + `","` + e.docs[0] + `"],`},
		{"/api/v1/chart-books", `{"title":"Bare","description":null,"document_ids":[]}`,
			`"title":"Bare","description":"","playbook_id":null,"document_ids":[],`},
		{"/api/v1/report-cards",
			`{"report_date":"2026-02-05","account_id":"` + e.accountID + `","grade":4,"notes_markdown":"Patient"}`,
			`"report_date":"2026-02-05","account_id":"` + e.accountID + `","grade":4,"notes_markdown":"Patient",`},
		{"/api/v1/report-cards", `{"report_date":"2026-02-06","grade":null}`,
			`"report_date":"2026-02-06","account_id":null,"grade":null,"notes_markdown":"",`},
	}
	for i, tt := range tests {
		id := fmt.Sprintf("0190a000-0000-7000-8000-%012d", i+1)
		e.pinIDs(t, id)
		want := `{"data":{"id":"` + id + `",` + tt.want + stamps
		status, created := e.do(t, "POST", tt.path, e.key, tt.body)
		if status != http.StatusCreated || string(created) != want {
			t.Errorf("POST %s %s:\n got %d %s\nwant 201 %s", tt.path, tt.body, status, created, want)
			continue
		}
		if got := must200(t, e.testServer, tt.path+"/"+id, e.key); string(got) != want {
			t.Errorf("GET %s/%s:\n got %s\nwant %s", tt.path, id, got, want)
		}
		if got := must200(t, e.testServer, tt.path+"/"+strings.ToUpper(id), e.key); string(got) != want {
			t.Errorf("GET %s by upper-case id: got %s, want the same body", tt.path, got)
		}
		l := e.listMaps(t, e.key, tt.path)
		found := false
		for _, item := range l.Data {
			found = found || reflect.DeepEqual(item, dataMap(t, created))
		}
		if !found {
			t.Errorf("GET %s: the list lacks %s", tt.path, created)
		}
	}
	// Each read decodes strictly into its db type: no field unaccounted for.
	must := func(target string) []byte { return must200(t, e.testServer, target, e.key) }
	decode[dataOf[db.WriteUp]](t, must("/api/v1/write-ups/0190a000-0000-7000-8000-000000000001"))
	decode[dataOf[db.TradingPlan]](t, must("/api/v1/trading-plans/0190a000-0000-7000-8000-000000000003"))
	decode[dataOf[db.ChartBook]](t, must("/api/v1/chart-books/0190a000-0000-7000-8000-000000000005"))
	decode[dataOf[db.ReportCard]](t, must("/api/v1/report-cards/0190a000-0000-7000-8000-000000000007"))
}

// TestContentUpdate walks each kind through partial updates: an absent
// field is untouched, null clears a nullable one (a text to ""), a value
// replaces; document_ids given replace the set in the order given.
func TestContentUpdate(t *testing.T) {
	e := newContentEnv(t)
	other, _ := e.create(t, e.tradeBody("NQ", "short", `"entry_price": 21000, "quantity": 1`))
	e.pinClock(t0)
	w := e.post(t, e.key, "/api/v1/write-ups", `{"trade_id":"`+e.tradeID+`","title":"T","content_markdown":"C"}`)
	p := e.post(t, e.key, "/api/v1/trading-plans", `{"title":"T","plan_date":"2026-02-10","playbook_id":"`+e.playbookID+`","content_markdown":"C"}`)
	b := e.post(t, e.key, "/api/v1/chart-books", `{"title":"T","description":"D","playbook_id":"`+e.playbookID+`","document_ids":["`+e.docs[0]+`"]}`)
	r := e.post(t, e.key, "/api/v1/report-cards", `{"report_date":"2026-02-05","account_id":"`+e.accountID+`","grade":3,"notes_markdown":"N"}`)
	later := t0.Add(time.Hour)
	e.pinClock(later)
	laterText := later.Format(db.TimeFormat)

	tests := []struct {
		target, body string
		want         map[string]any
	}{
		{"/api/v1/write-ups/" + w.id(), `{"title":" New "}`, map[string]any{"title": "New", "trade_id": e.tradeID, "content_markdown": "C"}},
		{"/api/v1/write-ups/" + w.id(), `{"content_markdown":null}`, map[string]any{"title": "New", "content_markdown": ""}},
		{"/api/v1/write-ups/" + w.id(), `{"trade_id":"` + other.ID + `","title":null}`, map[string]any{"trade_id": other.ID, "title": ""}},
		{"/api/v1/write-ups/" + w.id(), `{}`, map[string]any{"trade_id": other.ID, "title": "", "content_markdown": ""}},

		{"/api/v1/trading-plans/" + p.id(), `{"title":"New"}`, map[string]any{"title": "New", "plan_date": "2026-02-10", "playbook_id": e.playbookID, "content_markdown": "C"}},
		{"/api/v1/trading-plans/" + p.id(), `{"plan_date":null,"playbook_id":null}`, map[string]any{"title": "New", "plan_date": nil, "playbook_id": nil}},
		{"/api/v1/trading-plans/" + p.id(), `{"plan_date":"2026-03-01","playbook_id":"` + strings.ToUpper(e.playbookID) + `","content_markdown":null}`,
			map[string]any{"plan_date": "2026-03-01", "playbook_id": e.playbookID, "content_markdown": ""}},

		{"/api/v1/chart-books/" + b.id(), `{"document_ids":["` + e.docs[1] + `","` + e.docs[0] + `"]}`,
			map[string]any{"title": "T", "description": "D", "document_ids": []any{e.docs[1], e.docs[0]}}},
		{"/api/v1/chart-books/" + b.id(), `{"title":"New","description":null}`,
			map[string]any{"title": "New", "description": "", "playbook_id": e.playbookID, "document_ids": []any{e.docs[1], e.docs[0]}}},
		{"/api/v1/chart-books/" + b.id(), `{"document_ids":[],"playbook_id":null}`, map[string]any{"document_ids": []any{}, "playbook_id": nil}},

		{"/api/v1/report-cards/" + r.id(), `{"grade":5}`, map[string]any{"grade": 5.0, "report_date": "2026-02-05", "account_id": e.accountID, "notes_markdown": "N"}},
		{"/api/v1/report-cards/" + r.id(), `{"grade":null,"account_id":null,"notes_markdown":null}`,
			map[string]any{"grade": nil, "account_id": nil, "notes_markdown": "", "report_date": "2026-02-05"}},
		{"/api/v1/report-cards/" + r.id(), `{"report_date":"2026-02-06","account_id":"` + e.accountID + `"}`,
			map[string]any{"report_date": "2026-02-06", "account_id": e.accountID, "grade": nil}},
	}
	for _, tt := range tests {
		status, body := e.do(t, "PUT", tt.target, e.key, tt.body)
		if status != http.StatusOK {
			t.Errorf("PUT %s %s: got %d %s, want 200", tt.target, tt.body, status, body)
			continue
		}
		got := dataMap(t, body)
		if diff := hasFields(got, tt.want); diff != "" {
			t.Errorf("PUT %s %s: %s", tt.target, tt.body, diff)
		}
		if got["created_at"] != t0Text || got["updated_at"] != laterText {
			t.Errorf("PUT %s: created_at %v, updated_at %v; want %s, %s", tt.target, got["created_at"], got["updated_at"], t0Text, laterText)
		}
		if read := dataMap(t, must200(t, e.testServer, tt.target, e.key)); !reflect.DeepEqual(read, got) {
			t.Errorf("GET %s after PUT: got %v, want %v", tt.target, read, got)
		}
	}
}
