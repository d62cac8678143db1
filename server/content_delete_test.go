package server_test

import (
	"fmt"
	"net/http"
	"reflect"
	"testing"
)

// TestContentDelete: each kind's delete removes the record with its tag
// associations (and a chart book's document links), and its warnings
// count them; the tags and documents themselves stay.
func TestContentDelete(t *testing.T) {
	e := newContentEnv(t)
	g := e.newGroup(t, e.key, "Setups")
	a, b := e.newTag(t, e.key, g.ID, "A"), e.newTag(t, e.key, g.ID, "B")
	tagged := fmt.Sprintf(`"tag_ids":[%q,%q]`, a.ID, b.ID)
	docs := fmt.Sprintf(`"document_ids":[%q,%q]`, e.docs[0], e.docs[1])
	tests := []struct {
		path, extra string
		want        []string
	}{
		{"/api/v1/write-ups", tagged, []string{"Removed 2 tag associations"}},
		{"/api/v1/write-ups", "", []string{}},
		{"/api/v1/trading-plans", tagged, []string{"Removed 2 tag associations"}},
		{"/api/v1/chart-books", tagged + "," + docs, []string{"Unlinked 2 documents", "Removed 2 tag associations"}},
		{"/api/v1/chart-books", fmt.Sprintf(`"document_ids":[%q]`, e.docs[1]), []string{"Unlinked 1 document"}},
		{"/api/v1/report-cards", fmt.Sprintf(`"tag_ids":[%q]`, a.ID), []string{"Removed 1 tag association"}},
	}
	for _, tt := range tests {
		r := e.post(t, e.key, tt.path, e.minimalBody(tt.path, tt.extra))
		if got := e.deleted(t, e.key, tt.path, r.id()); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("DELETE %s (%s): warnings %q, want %q", tt.path, tt.extra, got, tt.want)
		}
		for _, method := range []string{"GET", "DELETE"} {
			if status, _ := e.do(t, method, tt.path+"/"+r.id(), e.key, ""); status != http.StatusNotFound {
				t.Errorf("%s %s after its delete: got %d, want 404", method, tt.path, status)
			}
		}
	}
	for _, c := range []struct {
		query string
		want  int
	}{
		{`SELECT count(*) FROM write_up_tags`, 0},
		{`SELECT count(*) FROM trading_plan_tags`, 0},
		{`SELECT count(*) FROM chart_book_tags`, 0},
		{`SELECT count(*) FROM chart_book_documents`, 0},
		{`SELECT count(*) FROM report_card_tags`, 0},
		{`SELECT count(*) FROM tags`, 2},
		{`SELECT count(*) FROM documents`, 3},
		{`SELECT count(*) FROM trades`, 2},
	} {
		if n := count(t, e.raw, c.query); n != c.want {
			t.Errorf("%s: got %d, want %d", c.query, n, c.want)
		}
	}
}

// TestTradeDeleteCascadesWriteUps: deleting a trade deletes its write-ups
// (and their tag associations) in the same transaction, and says how many;
// another trade's write-up stays.
func TestTradeDeleteCascadesWriteUps(t *testing.T) {
	e := newContentEnv(t)
	g := e.newGroup(t, e.key, "Mistakes")
	tag := e.newTag(t, e.key, g.ID, "FOMO")
	tr, _ := e.create(t, e.tradeBody("ES", "long", fills(0, "buy 1@5000", "sell 1@5002")))
	first := e.post(t, e.key, "/api/v1/write-ups", fmt.Sprintf(`{"trade_id":%q,"title":"One","tag_ids":[%q]}`, tr.ID, tag.ID))
	second := e.post(t, e.key, "/api/v1/write-ups", fmt.Sprintf(`{"trade_id":%q,"title":"Two"}`, tr.ID))
	kept := e.post(t, e.key, "/api/v1/write-ups", fmt.Sprintf(`{"trade_id":%q,"title":"Elsewhere"}`, e.tradeID))
	keptBody := must200(t, e.testServer, "/api/v1/write-ups/"+kept.id(), e.key)

	status, b := e.do(t, "DELETE", "/api/v1/trades/"+tr.ID, e.key, "")
	want := fmt.Sprintf(`{"success":true,"deleted_id":%q,"warnings":["Deleted 2 executions","Deleted 2 trade write-ups"]}`+"\n", tr.ID)
	if status != http.StatusOK || string(b) != want {
		t.Errorf("DELETE the trade: got %d %s, want 200 %s", status, b, want)
	}
	for _, id := range []string{first.id(), second.id()} {
		if status, _ := e.do(t, "GET", "/api/v1/write-ups/"+id, e.key, ""); status != http.StatusNotFound {
			t.Errorf("write-up %s of the deleted trade: got %d, want 404", id, status)
		}
	}
	if got := must200(t, e.testServer, "/api/v1/write-ups/"+kept.id(), e.key); string(got) != string(keptBody) {
		t.Errorf("the other trade's write-up: got %s, want %s", got, keptBody)
	}
	if l := e.listMaps(t, e.key, "/api/v1/write-ups"); !reflect.DeepEqual(recordIDs(l.Data), []string{kept.id()}) {
		t.Errorf("write-ups left: got %v, want only %s", recordIDs(l.Data), kept.id())
	}
	if n := count(t, e.raw, `SELECT count(*) FROM write_up_tags`); n != 0 {
		t.Errorf("write_up_tags left: got %d, want 0", n)
	}

	e.post(t, e.key, "/api/v1/write-ups", fmt.Sprintf(`{"trade_id":%q}`, e.tradeID))
	status, b = e.do(t, "DELETE", "/api/v1/trades/"+e.tradeID, e.key, "")
	want = fmt.Sprintf(`{"success":true,"deleted_id":%q,"warnings":["Deleted 2 trade write-ups"]}`+"\n", e.tradeID)
	if status != http.StatusOK || string(b) != want {
		t.Errorf("DELETE the trade with two write-ups: got %d %s, want 200 %s", status, b, want)
	}
}

// TestReferencedDeletesKeepContent: deleting a playbook keeps the trading
// plans and chart books that named it, with playbook_id null (SPEC.md
// Playbooks rule 1); deleting an account keeps its report cards, with
// account_id null; deleting a document drops it from chart books. Each
// delete's warnings say so, and nothing else of the records changes.
func TestReferencedDeletesKeepContent(t *testing.T) {
	e := newContentEnv(t)
	other := e.createPlaybook(t, e.key, `{"title":"Other"}`)
	named := fmt.Sprintf(`"playbook_id":%q`, e.playbookID)
	plan := e.post(t, e.key, "/api/v1/trading-plans", `{"title":"P","plan_date":"2026-02-10","content_markdown":"C",`+named+`}`)
	otherPlan := e.post(t, e.key, "/api/v1/trading-plans", fmt.Sprintf(`{"title":"Q","playbook_id":%q}`, other.ID))
	books := []contentRecord{
		e.post(t, e.key, "/api/v1/chart-books", fmt.Sprintf(`{"title":"B1","document_ids":[%q,%q],%s}`, e.docs[1], e.docs[0], named)),
		e.post(t, e.key, "/api/v1/chart-books", `{"title":"B2",`+named+`}`),
	}

	got := e.deleted(t, e.key, "/api/v1/playbooks", e.playbookID)
	want := []string{"Cleared the playbook of 1 trading plan", "Cleared the playbook of 2 chart books"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("playbook delete warnings: got %q, want %q", got, want)
	}
	for _, r := range append(books, plan) {
		path := "/api/v1/chart-books/"
		if r["plan_date"] != nil {
			path = "/api/v1/trading-plans/"
		}
		after := dataMap(t, must200(t, e.testServer, path+r.id(), e.key))
		r["playbook_id"] = nil
		if !reflect.DeepEqual(after, r) {
			t.Errorf("%s%s after the playbook's delete:\n got %v\nwant %v", path, r.id(), after, r)
		}
	}
	if after := dataMap(t, must200(t, e.testServer, "/api/v1/trading-plans/"+otherPlan.id(), e.key)); after["playbook_id"] != other.ID {
		t.Errorf("the other playbook's plan: playbook_id %v, want %s", after["playbook_id"], other.ID)
	}

	mustExec(t, e.raw, `DELETE FROM documents WHERE id = ?`, e.docs[1])
	after := dataMap(t, must200(t, e.testServer, "/api/v1/chart-books/"+books[0].id(), e.key))
	if !reflect.DeepEqual(after["document_ids"], []any{e.docs[0]}) {
		t.Errorf("chart book after a document's delete: document_ids %v, want [%s]", after["document_ids"], e.docs[0])
	}

	acct := e.createAccount(t, e.key, `{"account_number": "CARDS-1"}`)
	card := e.post(t, e.key, "/api/v1/report-cards", fmt.Sprintf(`{"report_date":"2026-02-05","grade":2,"account_id":%q}`, acct.ID))
	if got := e.deleted(t, e.key, "/api/v1/accounts", acct.ID); !reflect.DeepEqual(got, []string{"Cleared the account of 1 report card"}) {
		t.Errorf("account delete warnings: got %q", got)
	}
	card["account_id"] = nil
	if after := dataMap(t, must200(t, e.testServer, "/api/v1/report-cards/"+card.id(), e.key)); !reflect.DeepEqual(after, card) {
		t.Errorf("report card after its account's delete:\n got %v\nwant %v", after, card)
	}
}
