package server_test

import (
	"database/sql"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"

	"tradejournal/db"
)

// insertDocument adds a document row with SQL, without a file, and returns
// its id: these tests count rows, and a missing blob is no error when it is
// removed.
func insertDocument(t *testing.T, raw *sql.DB, userID, accountID string) string {
	t.Helper()
	id := uuid.NewString()
	_, err := raw.ExecContext(t.Context(), `INSERT INTO documents (id, user_id, account_id, document_name,
		category, file_name, file_size, mime_type, blob_hash, created_at, updated_at)
		VALUES (?, ?, ?, 'Payout', 'receipt', 'p.pdf', 3, 'application/pdf', ?, ?, ?)`,
		id, userID, accountID, strings.Repeat("ab", 32), t0Text, t0Text)
	if err != nil {
		t.Fatalf("insert document: %v", err)
	}
	return id
}

// insertTag adds a tag group with one tag for the user and returns the
// tag's id.
func insertTag(t *testing.T, raw *sql.DB, userID, name string) string {
	t.Helper()
	group, tag := uuid.NewString(), uuid.NewString()
	if _, err := raw.ExecContext(t.Context(), `INSERT INTO tag_groups (id, user_id, name, color, created_at, updated_at)
		VALUES (?, ?, ?, '#ff0000', ?, ?)`, group, userID, name+" group", t0Text, t0Text); err != nil {
		t.Fatalf("insert tag group: %v", err)
	}
	if _, err := raw.ExecContext(t.Context(), `INSERT INTO tags (id, user_id, tag_group_id, name, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?)`, tag, userID, group, name, t0Text, t0Text); err != nil {
		t.Fatalf("insert tag: %v", err)
	}
	return tag
}

func TestAccountDelete(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	a := ts.createAccount(t, key, `{"account_number":"A-1"}`)
	keep := ts.createAccount(t, key, `{"account_number":"A-2"}`)

	status, body := ts.do(t, "DELETE", "/api/v1/accounts/"+a.ID, key, "")
	want := `{"success":true,"deleted_id":"` + a.ID + `","warnings":[]}` + "\n"
	if status != http.StatusOK || string(body) != want {
		t.Errorf("delete: got %d %s, want 200 %s", status, body, want)
	}
	if status, _ := ts.do(t, "GET", "/api/v1/accounts/"+a.ID, key, ""); status != http.StatusNotFound {
		t.Errorf("get after delete: got %d, want 404", status)
	}
	if status, _ := ts.do(t, "DELETE", "/api/v1/accounts/"+a.ID, key, ""); status != http.StatusNotFound {
		t.Errorf("second delete: got %d, want 404", status)
	}
	raw := ts.sql(t)
	if n := count(t, raw, `SELECT count(*) FROM accounts WHERE id = ?`, a.ID); n != 0 {
		t.Errorf("deleted account's rows: got %d, want 0", n)
	}
	if n := count(t, raw, `SELECT count(*) FROM accounts WHERE id = ?`, keep.ID); n != 1 {
		t.Errorf("the other account's rows: got %d, want 1", n)
	}
}

func TestAccountDeleteWithTrades(t *testing.T) {
	ts := newTestServer(t)
	userID, key := ts.newUser(t, "alice")
	a := ts.createAccount(t, key, `{"account_number":"A-1"}`)
	raw := ts.sql(t)
	insertTrade(t, raw, userID, a.ID)
	insertTrade(t, raw, userID, a.ID)
	insertDocument(t, raw, userID, a.ID)
	target := "/api/v1/accounts/" + a.ID

	conflict := `{"error":"Account has trades, documents, payouts or expenses; delete them first or pass cascade=true",` +
		`"code":"CONFLICT","details":{"documents":"1","expenses":"0","payouts":"0","trades":"2"}}` + "\n"
	for _, q := range []string{"", "?cascade=false"} {
		status, body := ts.do(t, "DELETE", target+q, key, "")
		if status != http.StatusConflict || string(body) != conflict {
			t.Errorf("DELETE%s: got %d %s, want 409 %s", q, status, body, conflict)
		}
	}
	status, body := ts.do(t, "DELETE", target+"?cascade=maybe", key, "")
	if e := decode[errBody](t, body); status != http.StatusBadRequest || keys(e.Details) != "cascade" {
		t.Errorf("DELETE?cascade=maybe: got %d %s, want 400 naming cascade", status, body)
	}
	if n := count(t, raw, `SELECT count(*) FROM trades WHERE account_id = ?`, a.ID); n != 2 {
		t.Fatalf("trades after refused deletes: got %d, want 2", n)
	}

	status, body = ts.do(t, "DELETE", target+"?cascade=true", key, "")
	want := `{"success":true,"deleted_id":"` + a.ID + `","warnings":["Deleted 2 trades","Deleted 1 document"]}` + "\n"
	if status != http.StatusOK || string(body) != want {
		t.Errorf("DELETE?cascade=true: got %d %s, want 200 %s", status, body, want)
	}
	for _, table := range []string{"accounts", "trades", "documents"} {
		if n := count(t, raw, `SELECT count(*) FROM `+table); n != 0 {
			t.Errorf("%s rows after cascade: got %d, want 0", table, n)
		}
	}
}

// TestAccountTags applies tags by tag_ids, reads them back in every shape,
// and counts the associations a delete removes.
func TestAccountTags(t *testing.T) {
	ts := newTestServer(t)
	userID, key := ts.newUser(t, "alice")
	bobID, _ := ts.newUser(t, "bob")
	raw := ts.sql(t)
	live := insertTag(t, raw, userID, "live")
	bobsTag := insertTag(t, raw, bobID, "bob's")

	a := ts.createAccount(t, key, `{"account_number":"A-1","tag_ids":["`+strings.ToUpper(live)+`","`+live+`"]}`)
	want := []db.TagRef{{ID: live, Name: "live", TagGroupID: a.Tags[0].TagGroupID, GroupColor: "#ff0000"}}
	if len(a.Tags) != 1 || a.Tags[0] != want[0] {
		t.Fatalf("created account's tags: got %+v, want %+v", a.Tags, want)
	}
	l := decode[listBody[db.Account]](t, must200(t, ts, "/api/v1/accounts", key))
	if len(l.Data) != 1 || len(l.Data[0].Tags) != 1 || l.Data[0].Tags[0] != want[0] {
		t.Errorf("listed account's tags: got %+v, want %+v", l.Data, want)
	}

	const tagNotFound = `{"error":"Tag not found","code":"NOT_FOUND","details":{"tag_ids":"Tag not found"}}` + "\n"
	for _, body := range []string{
		`{"account_number":"A-2","tag_ids":["` + idA + `"]}`,
		`{"account_number":"A-2","tag_ids":["` + bobsTag + `"]}`,
		`{"account_number":"A-2","tag_ids":["` + live + `","` + bobsTag + `"]}`,
	} {
		status, got := ts.do(t, "POST", "/api/v1/accounts", key, body)
		if status != http.StatusNotFound || string(got) != tagNotFound {
			t.Errorf("POST %s: got %d %s, want 404 %s", body, status, got, tagNotFound)
		}
	}
	if n := count(t, raw, `SELECT count(*) FROM accounts WHERE account_number = 'A-2'`); n != 0 {
		t.Errorf("account A-2 was stored although its tags were refused")
	}

	status, got := ts.do(t, "PUT", "/api/v1/accounts/"+a.ID, key, `{"tag_ids":["`+bobsTag+`"]}`)
	if status != http.StatusNotFound {
		t.Errorf("PUT with bob's tag: got %d %s, want 404", status, got)
	}
	if n := count(t, raw, `SELECT count(*) FROM account_tags WHERE account_id = ?`, a.ID); n != 1 {
		t.Errorf("tags after a refused update: got %d, want 1", n)
	}

	status, body := ts.do(t, "DELETE", "/api/v1/accounts/"+a.ID, key, "")
	wantDel := `{"success":true,"deleted_id":"` + a.ID + `","warnings":["Removed 1 tag association"]}` + "\n"
	if status != http.StatusOK || string(body) != wantDel {
		t.Errorf("delete: got %d %s, want 200 %s", status, body, wantDel)
	}
	if n := count(t, raw, `SELECT count(*) FROM tags WHERE id = ?`, live); n != 1 {
		t.Errorf("the tag itself went with the account")
	}
}

func TestAccountTagsCleared(t *testing.T) {
	ts := newTestServer(t)
	userID, key := ts.newUser(t, "alice")
	tag := insertTag(t, ts.sql(t), userID, "live")
	a := ts.createAccount(t, key, `{"account_number":"A-1","tag_ids":["`+tag+`"]}`)
	for _, tt := range []struct{ body, want string }{
		{`{"name":"kept"}`, tag},
		{`{"tag_ids":[]}`, ""},
	} {
		status, body := ts.do(t, "PUT", "/api/v1/accounts/"+a.ID, key, tt.body)
		var got []string
		for _, tr := range decode[struct{ Data db.Account }](t, body).Data.Tags {
			got = append(got, tr.ID)
		}
		if status != http.StatusOK || strings.Join(got, ",") != tt.want {
			t.Errorf("PUT %s: got %d tags %v, want 200 tags [%s]", tt.body, status, got, tt.want)
		}
	}
}

// must200 GETs target and fails the test unless the answer is 200.
func must200(t *testing.T, ts *testServer, target, key string) []byte {
	t.Helper()
	status, body := ts.do(t, "GET", target, key, "")
	if status != http.StatusOK {
		t.Fatalf("GET %s: got %d %s, want 200", target, status, body)
	}
	return body
}
