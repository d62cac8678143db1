package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"
)

// TestContentPagination walks every kind's list by offset and by page:
// newest first, every item once, the pagination object right, and each
// item with its own tags (and a chart book with its own documents).
func TestContentPagination(t *testing.T) {
	e := newContentEnv(t)
	g := e.newGroup(t, e.key, "Setups")
	tags := []string{e.newTag(t, e.key, g.ID, "A").ID, e.newTag(t, e.key, g.ID, "B").ID}
	for _, path := range contentPaths {
		var ids []string
		for i := range 23 {
			e.pinClock(t0.Add(time.Duration(i) * time.Second))
			extra := fmt.Sprintf(`"tag_ids":[%q]`, tags[i%2])
			if path == "/api/v1/chart-books" {
				extra += fmt.Sprintf(`,"document_ids":[%q]`, e.docs[i%2])
			}
			ids = append(ids, e.post(t, e.key, path, e.minimalBody(path, extra)).id())
		}
		slices.Reverse(ids)
		for _, tt := range []struct {
			query                        string
			wantFrom, wantTo, wantOffset int
			wantHasMore                  bool
		}{
			{"", 0, 20, 0, true},
			{"?limit=5&page=2", 5, 10, 5, true},
			{"?offset=18&limit=5", 18, 23, 18, false},
			{"?offset=3&page=4&limit=2", 3, 5, 3, true},
			{"?offset=30", 23, 23, 30, false},
			{"?limit=100", 0, 23, 0, false},
		} {
			l := e.listMaps(t, e.key, path+tt.query)
			if got, want := recordIDs(l.Data), ids[tt.wantFrom:tt.wantTo]; !slices.Equal(got, want) ||
				l.Pagination.Total != 23 || l.Pagination.HasMore != tt.wantHasMore || l.Pagination.Offset != tt.wantOffset {
				t.Errorf("%s%s: got %v %+v, want %v, total 23, offset %d, has_more %v",
					path, tt.query, got, l.Pagination, want, tt.wantOffset, tt.wantHasMore)
			}
			for _, item := range l.Data {
				n := 22 - slices.Index(ids, item.id()) // its creation index
				if got := tagIDsOf(item); !slices.Equal(got, []string{tags[n%2]}) {
					t.Errorf("%s item %d: tags %v, want [%s]", path, n, got, tags[n%2])
				}
				if docs, ok := item["document_ids"]; ok && !slices.Equal(docs.([]any), []any{e.docs[n%2]}) {
					t.Errorf("%s item %d: document_ids %v, want [%s]", path, n, docs, e.docs[n%2])
				}
			}
		}
		for _, q := range []string{"?limit=0", "?limit=101", "?page=0", "?offset=-1"} {
			if status, _ := e.do(t, "GET", path+q, e.key, ""); status != http.StatusBadRequest {
				t.Errorf("%s%s: got %d, want 400", path, q, status)
			}
		}
	}
}

// TestContentOrderTies: records created in the same millisecond list by
// id, descending.
func TestContentOrderTies(t *testing.T) {
	e := newContentEnv(t)
	e.pinClock(t0)
	e.pinIDs(t, idB, idA, idC)
	for range 3 {
		e.post(t, e.key, "/api/v1/trading-plans", `{"title":"Same time"}`)
	}
	if got := recordIDs(e.listMaps(t, e.key, "/api/v1/trading-plans").Data); !slices.Equal(got, []string{idC, idB, idA}) {
		t.Errorf("order: got %v, want %v", got, []string{idC, idB, idA})
	}
}

// TestContentFilters: each kind's reference filter, and its date range:
// plans by plan_date, report cards by report_date, write-ups and chart
// books by the day they were created in the user's timezone (New York
// here). Ranges are inclusive; an id that names nothing of the caller's
// matches nothing; a malformed value is a 400 naming the parameter.
func TestContentFilters(t *testing.T) {
	e := newContentEnv(t)
	other, _ := e.create(t, e.tradeBody("NQ", "long", `"entry_price": 21000, "quantity": 1`))
	pb2 := e.createPlaybook(t, e.key, `{"title":"Second"}`).ID
	acct2 := e.createAccount(t, e.key, `{"account_number": "APEX-2"}`).ID
	// 23:30 on Feb 4, 22:00 on Feb 5 and 10:00 on Feb 6, in New York.
	moments := []time.Time{
		time.Date(2026, 2, 5, 4, 30, 0, 0, time.UTC),
		time.Date(2026, 2, 6, 3, 0, 0, 0, time.UTC),
		time.Date(2026, 2, 6, 15, 0, 0, 0, time.UTC),
	}
	made := map[string][]string{} // path → ids, in creation order
	add := func(at time.Time, path, body string) {
		e.pinClock(at)
		made[path] = append(made[path], e.post(t, e.key, path, body).id())
	}
	for i, at := range moments {
		trade, pb, acct := e.tradeID, e.playbookID, e.accountID
		if i == 1 {
			trade, pb, acct = other.ID, pb2, acct2
		}
		date := fmt.Sprintf("2026-02-%02d", 4+i)
		add(at, "/api/v1/write-ups", fmt.Sprintf(`{"trade_id":%q}`, trade))
		add(at, "/api/v1/trading-plans", fmt.Sprintf(`{"title":"P","plan_date":%q,"playbook_id":%q}`, date, pb))
		add(at, "/api/v1/chart-books", fmt.Sprintf(`{"title":"B","playbook_id":%q}`, pb))
		add(at, "/api/v1/report-cards", fmt.Sprintf(`{"report_date":%q,"account_id":%q}`, date, acct))
	}
	add(moments[0], "/api/v1/trading-plans", `{"title":"Undated"}`)
	add(moments[0], "/api/v1/report-cards", `{"report_date":"2026-02-05"}`)
	w, p, b, r := made["/api/v1/write-ups"], made["/api/v1/trading-plans"], made["/api/v1/chart-books"], made["/api/v1/report-cards"]

	tests := []struct {
		target string
		want   []string // newest first
	}{
		{"/api/v1/write-ups?trade_id=" + e.tradeID, []string{w[2], w[0]}},
		{"/api/v1/write-ups?trade_id=" + other.ID, []string{w[1]}},
		{"/api/v1/write-ups?trade_id=" + e.bob.tradeID, nil},
		{"/api/v1/write-ups?start_date=2026-02-05&end_date=2026-02-05", []string{w[1]}},
		{"/api/v1/write-ups?start_date=2026-02-05", []string{w[2], w[1]}},
		{"/api/v1/write-ups?end_date=2026-02-04", []string{w[0]}},
		{"/api/v1/write-ups?trade_id=" + e.tradeID + "&start_date=2026-02-05", []string{w[2]}},
		{"/api/v1/write-ups?playbook_id=not-a-filter-here", []string{w[2], w[1], w[0]}},

		{"/api/v1/trading-plans?playbook_id=" + e.playbookID, []string{p[2], p[0]}},
		{"/api/v1/trading-plans?playbook_id=" + e.bob.playbookID, nil},
		{"/api/v1/trading-plans?start_date=2026-02-05", []string{p[2], p[1]}},
		{"/api/v1/trading-plans?end_date=2026-02-05", []string{p[1], p[0]}},
		{"/api/v1/trading-plans?start_date=2026-02-05&end_date=2026-02-05", []string{p[1]}},
		{"/api/v1/trading-plans", []string{p[2], p[1], p[3], p[0]}},

		{"/api/v1/chart-books?playbook_id=" + pb2, []string{b[1]}},
		{"/api/v1/chart-books?start_date=2026-02-06&end_date=2026-02-06", []string{b[2]}},
		{"/api/v1/chart-books?playbook_id=" + e.playbookID + "&end_date=2026-02-05", []string{b[0]}},

		{"/api/v1/report-cards?account_id=" + e.accountID, []string{r[2], r[0]}},
		{"/api/v1/report-cards?account_id=" + e.bob.accountID, nil},
		{"/api/v1/report-cards?start_date=2026-02-05&end_date=2026-02-05", []string{r[1], r[3]}},
		{"/api/v1/report-cards?account_id=" + acct2 + "&start_date=2026-02-06", nil},
	}
	for _, tt := range tests {
		l := e.listMaps(t, e.key, tt.target)
		if got := recordIDs(l.Data); !slices.Equal(got, tt.want) || l.Pagination.Total != len(tt.want) {
			t.Errorf("GET %s: got %v (total %d), want %v", tt.target, got, l.Pagination.Total, tt.want)
		}
	}

	bad := []struct{ target, field string }{
		{"/api/v1/write-ups?trade_id=nope", "trade_id"},
		{"/api/v1/write-ups?start_date=2026-02-30", "start_date"},
		{"/api/v1/trading-plans?playbook_id=nope", "playbook_id"},
		{"/api/v1/trading-plans?end_date=yesterday", "end_date"},
		{"/api/v1/chart-books?playbook_id=" + e.playbookID + "x", "playbook_id"},
		{"/api/v1/chart-books?start_date=2026-02-06&end_date=2026-02-05", "end_date"},
		{"/api/v1/report-cards?account_id=1", "account_id"},
		{"/api/v1/report-cards?start_date=20260205", "start_date"},
	}
	for _, tt := range bad {
		status, body := e.do(t, "GET", tt.target, e.key, "")
		if got := decode[errBody](t, body); status != http.StatusBadRequest || keys(got.Details) != tt.field {
			t.Errorf("GET %s: got %d %s, want 400 naming %s", tt.target, status, body, tt.field)
		}
	}
}
