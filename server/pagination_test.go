package server_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"tradejournal/db"
)

// seedAccounts creates n accounts one second apart, ACC-01 first, and returns
// their ids newest first: the order every list must serve.
func seedAccounts(t *testing.T, ts *testServer, key string, n int) []string {
	t.Helper()
	var ids []string
	for i := 1; i <= n; i++ {
		ts.pinClock(t0.Add(time.Duration(i) * time.Second))
		a := ts.createAccount(t, key, fmt.Sprintf(`{"account_number":"ACC-%02d"}`, i))
		ids = append(ids, a.ID)
	}
	slices.Reverse(ids)
	return ids
}

func listIDs(items []db.Account) []string {
	ids := []string{}
	for _, a := range items {
		ids = append(ids, a.ID)
	}
	return ids
}

func TestPagination(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	all := seedAccounts(t, ts, key, 23)
	tests := []struct {
		query                 string
		wantLimit, wantOffset int
		wantFrom, wantTo      int // the page is all[wantFrom:wantTo]
		wantHasMore           bool
	}{
		{"", 20, 0, 0, 20, true},
		{"?limit=5", 5, 0, 0, 5, true},
		{"?page=2&limit=5", 5, 5, 5, 10, true},
		{"?page=2", 20, 20, 20, 23, false},
		{"?page=5&limit=5", 5, 20, 20, 23, false},
		{"?page=6&limit=5", 5, 25, 23, 23, false},
		{"?offset=3&limit=4", 4, 3, 3, 7, true},
		{"?offset=1&page=3&limit=5", 5, 1, 1, 6, true}, // offset wins
		{"?page=3&offset=0&limit=5", 5, 0, 0, 5, true},
		{"?offset=18&limit=5", 5, 18, 18, 23, false}, // exactly the last item
		{"?offset=17&limit=5", 5, 17, 17, 22, true},
		{"?offset=23", 20, 23, 23, 23, false},
		{"?offset=1000", 20, 1000, 23, 23, false},
		{"?limit=1", 1, 0, 0, 1, true},
		{"?limit=100", 100, 0, 0, 23, false},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			status, body := ts.do(t, "GET", "/api/v1/accounts"+tt.query, key, "")
			if status != http.StatusOK {
				t.Fatalf("status: got %d %s, want 200", status, body)
			}
			l := decode[listBody[db.Account]](t, body)
			p := l.Pagination
			if p.Total != 23 || p.Limit != tt.wantLimit || p.Offset != tt.wantOffset || p.HasMore != tt.wantHasMore {
				t.Errorf("pagination: got %+v, want {Total:23 Limit:%d Offset:%d HasMore:%v}",
					p, tt.wantLimit, tt.wantOffset, tt.wantHasMore)
			}
			if got, want := listIDs(l.Data), all[tt.wantFrom:tt.wantTo]; !slices.Equal(got, want) {
				t.Errorf("items: got %v, want %v", got, want)
			}
		})
	}
}

// TestPaginationEmptyData: a page past the end is `[]`, never null.
func TestPaginationEmptyData(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	_, body := ts.do(t, "GET", "/api/v1/accounts", key, "")
	want := `{"data":[],"pagination":{"total":0,"limit":20,"offset":0,"has_more":false}}` + "\n"
	if string(body) != want {
		t.Errorf("empty list: got %s, want %s", body, want)
	}
}

func TestPaginationInvalid(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	tests := []struct{ query, wantFields string }{
		{"limit=0", "limit"},
		{"limit=101", "limit"},
		{"limit=-1", "limit"},
		{"limit=abc", "limit"},
		{"limit=", "limit"},
		{"limit=2.5", "limit"},
		{"offset=-1", "offset"},
		{"offset=x", "offset"},
		{"page=0", "page"},
		{"page=-2", "page"},
		{"page=x", "page"},
		{"page=99999999999999999999", "page"},
		{"page=0&offset=5", "page"}, // offset wins, but a bad page is still bad
		{"limit=0&offset=-1&page=0", "limit,offset,page"},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			status, body := ts.do(t, "GET", "/api/v1/accounts?"+tt.query, key, "")
			if status != http.StatusBadRequest {
				t.Fatalf("status: got %d %s, want 400", status, body)
			}
			e := decode[errBody](t, body)
			if e.Code != "VALIDATION_ERROR" {
				t.Errorf("code: got %s, want VALIDATION_ERROR", e.Code)
			}
			if got := keys(e.Details); got != tt.wantFields {
				t.Errorf("details fields: got %q, want %q (%v)", got, tt.wantFields, e.Details)
			}
		})
	}
}

// TestPaginationWalk follows SPEC.md's recipe: advance the offset by the
// items returned until has_more is false. Every account comes exactly once,
// newest first.
func TestPaginationWalk(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	all := seedAccounts(t, ts, key, 23)
	for _, limit := range []int{1, 5, 7, 20, 23, 100} {
		var got []string
		offset, more := 0, true
		for pages := 0; more; pages++ {
			if pages > 23 {
				t.Fatalf("limit %d: more than 23 pages", limit)
			}
			_, body := ts.do(t, "GET", fmt.Sprintf("/api/v1/accounts?offset=%d&limit=%d", offset, limit), key, "")
			l := decode[listBody[db.Account]](t, body)
			got = append(got, listIDs(l.Data)...)
			offset += len(l.Data)
			more = l.Pagination.HasMore
		}
		if !slices.Equal(got, all) {
			t.Errorf("limit %d: walked %v, want %v", limit, got, all)
		}
	}
}

// TestOrderTieBreak: accounts created in the same millisecond come by id,
// descending, whatever order they were inserted in.
func TestOrderTieBreak(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	ts.pinClock(t0)
	ids := []string{
		"0190a000-0000-7000-8000-000000000002",
		"0190a000-0000-7000-8000-000000000003",
		"0190a000-0000-7000-8000-000000000001",
	}
	next := 0
	ts.db.NewID = func() string { next++; return ids[next-1] }
	for i := range ids {
		ts.createAccount(t, key, fmt.Sprintf(`{"account_number":"TIE-%d"}`, i))
	}
	// One older account sorts after all three, although its id is largest.
	ts.pinClock(t0.Add(-time.Millisecond))
	ts.db.NewID = func() string { return "0190a000-0000-7000-8000-000000000009" }
	ts.createAccount(t, key, `{"account_number":"OLDER"}`)

	want := []string{ids[1], ids[0], ids[2], "0190a000-0000-7000-8000-000000000009"}
	for _, limit := range []int{1, 2, 4} {
		var got []string
		for offset := 0; offset < len(want); offset += limit {
			_, body := ts.do(t, "GET", fmt.Sprintf("/api/v1/accounts?limit=%d&offset=%d", limit, offset), key, "")
			got = append(got, listIDs(decode[listBody[db.Account]](t, body).Data)...)
		}
		if !slices.Equal(got, want) {
			t.Errorf("limit %d: order got %v, want %v", limit, got, want)
		}
	}
}
