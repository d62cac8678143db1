package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestDocumentList: every filter, the order and the pagination, with dates
// read in the user's timezone (America/New_York, the default).
func TestDocumentList(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	_, bob := ts.newUser(t, "bob")
	a := ts.createAccount(t, key, `{"account_number":"A-1"}`)
	b := ts.createAccount(t, key, `{"account_number":"PROP_77"}`)
	ts.createAccount(t, bob, `{"account_number":"A-1"}`)
	pdf := testdata(t, "payout.pdf")
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	docs := map[string]string{} // short name → id
	for _, d := range []struct{ short, when, number, category, name string }{
		{"d1", "2026-02-05T03:00:00Z", "A-1", "receipt", "Fee 100%"},                     // Feb 4, 22:00 in New York
		{"d2", "2026-02-05T15:00:00Z", "A-1", "payout-confirmation", "Payout March"},     // Feb 5
		{"d3", "2026-02-06T04:59:00Z", "PROP_77", "evaluation-pass-certificate", "Eval"}, // Feb 5, 23:59
		{"d4", "2026-02-06T05:00:00Z", "PROP_77", "receipt", "fee_a"},                    // Feb 6, 00:00
	} {
		ts.pinClock(at(d.when))
		parts := []part{filePart("p.pdf", pdf), field("document_name", d.name), field("category", d.category),
			field("account_number", d.number)}
		docs[d.short] = ts.mustUpload(t, key, parts, http.StatusCreated).ID
	}
	ts.mustUpload(t, bob, form("A-1", filePart("p.pdf", pdf)), http.StatusCreated) // never in alice's lists

	tests := []struct {
		query     string
		want      string // short names in order
		wantTotal int
		wantMore  bool
	}{
		{"", "d4 d3 d2 d1", 4, false},
		{"limit=2", "d4 d3", 4, true},
		{"limit=2&offset=2", "d2 d1", 4, false},
		{"limit=3&page=2", "d1", 4, false},
		{"offset=9", "", 4, false},
		{"account_id=" + a.ID, "d2 d1", 2, false},
		{"account_id=" + strings.ToUpper(b.ID), "d4 d3", 2, false},
		{"account_id=0194d2f0-0000-7000-8000-000000000001", "", 0, false},
		{"category=receipt", "d4 d1", 2, false},
		{"search=FEE", "d4 d1", 2, false},
		{"search=" + url.QueryEscape("%"), "d1", 1, false},
		{"search=_", "d4 d3", 2, false}, // fee_a, and PROP_77's documents
		{"search=prop_", "d4 d3", 2, false},
		{"search=march", "d2", 1, false},
		{"search=" + url.QueryEscape(" a-1 "), "d2 d1", 2, false},
		{"search=nothing", "", 0, false},
		{"start_date=2026-02-05&end_date=2026-02-05", "d3 d2", 2, false},
		{"start_date=2026-02-06", "d4", 1, false},
		{"end_date=2026-02-04", "d1", 1, false},
		{"category=receipt&start_date=2026-02-05", "d4", 1, false},
		{"account_id=" + a.ID + "&category=receipt&search=fee&end_date=2026-02-04", "d1", 1, false},
	}
	for _, tt := range tests {
		l := decode[listBody[docJSON]](t, must200(t, ts, "/api/v1/documents?"+tt.query, key))
		var got []string
		for _, d := range l.Data {
			for short, id := range docs {
				if id == d.ID {
					got = append(got, short)
				}
			}
		}
		if strings.Join(got, " ") != tt.want || l.Pagination.Total != tt.wantTotal || l.Pagination.HasMore != tt.wantMore {
			t.Errorf("?%s: got %v total %d has_more %v, want [%s] total %d has_more %v",
				tt.query, got, l.Pagination.Total, l.Pagination.HasMore, tt.want, tt.wantTotal, tt.wantMore)
		}
	}

	for _, tt := range []struct{ query, field string }{
		{"limit=0", "limit"},
		{"limit=101", "limit"},
		{"offset=-1", "offset"},
		{"page=0", "page"},
		{"account_id=42", "account_id"},
		{"category=invoice", "category"},
		{"start_date=2026-2-5", "start_date"},
		{"end_date=tomorrow", "end_date"},
		{"start_date=2026-02-06&end_date=2026-02-05", "end_date"},
	} {
		w := ts.request(t, "GET", "/api/v1/documents?"+tt.query, key, "")
		wantNested(t, w, http.StatusBadRequest, "VALIDATION_ERROR", "", tt.field)
	}
}
