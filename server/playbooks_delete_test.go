package server_test

import (
	"database/sql"
	"net/http"
	"reflect"
	"testing"

	"github.com/google/uuid"

	"tradejournal/db"
)

// insertPlaybookUser adds a trading plan (table "trading_plans") or a chart
// book ("chart_books") naming the playbook with SQL; the content APIs do the
// same in TestReferencedDeletesKeepContent.
func insertPlaybookUser(t *testing.T, raw *sql.DB, table, userID, playbookID string) string {
	t.Helper()
	id := uuid.NewString()
	mustExec(t, raw, `INSERT INTO `+table+` (id, user_id, title, playbook_id, created_at, updated_at)
		VALUES (?, ?, 'linked', ?, ?, ?)`, id, userID, playbookID, t0Text, t0Text)
	return id
}

// deleted sends a DELETE and returns its warnings, failing unless it is a
// 200 naming id.
func (ts *testServer) deleted(t *testing.T, key, target, id string) []string {
	t.Helper()
	status, b := ts.do(t, "DELETE", target+"/"+id, key, "")
	d := decode[struct {
		Success   bool     `json:"success"`
		DeletedID string   `json:"deleted_id"`
		Warnings  []string `json:"warnings"`
	}](t, b)
	if status != http.StatusOK || !d.Success || d.DeletedID != id || d.Warnings == nil {
		t.Fatalf("DELETE %s/%s: got %d %s, want 200 with success, deleted_id and warnings", target, id, status, b)
	}
	return d.Warnings
}

// TestPlaybookDelete: the playbook, its criteria and strategy links go in
// one transaction; trades, trading plans and chart books stay with their
// playbook_id cleared; strategies and other playbooks are untouched.
func TestPlaybookDelete(t *testing.T) {
	e := newTradeEnv(t)
	raw := e.sql(t)
	s1 := e.createStrategy(t, e.key, `{"title":"S1"}`)
	s2 := e.createStrategy(t, e.key, `{"title":"S2"}`)
	tag := insertTag(t, raw, e.userID, "A+ setup")
	p := e.createPlaybook(t, e.key, `{"title":"ORB","strategy_ids":["`+s1.ID+`","`+s2.ID+`"],
		"entry_criteria":["e1","e2"],"exit_criteria":["x1"],"tag_ids":["`+tag+`"]}`)
	other := e.createPlaybook(t, e.key, `{"title":"Other","strategy_ids":["`+s1.ID+`"],"entry_criteria":["o1"]}`)

	var named []string
	for range 3 {
		id := insertTrade(t, raw, e.userID, e.accountID)
		mustExec(t, raw, `UPDATE trades SET playbook_id = ? WHERE id = ?`, p.ID, id)
		named = append(named, id)
	}
	mustExec(t, raw, `INSERT INTO trade_criteria_checks (trade_id, criterion_id, checked) VALUES (?, ?, 1)`,
		named[0], p.EntryCriteria[0].ID)
	elsewhere := insertTrade(t, raw, e.userID, e.accountID)
	mustExec(t, raw, `UPDATE trades SET playbook_id = ? WHERE id = ?`, other.ID, elsewhere)
	plan := insertPlaybookUser(t, raw, "trading_plans", e.userID, p.ID)
	books := []string{insertPlaybookUser(t, raw, "chart_books", e.userID, p.ID), insertPlaybookUser(t, raw, "chart_books", e.userID, p.ID)}

	got := e.deleted(t, e.key, "/api/v1/playbooks", p.ID)
	want := []string{"Unlinked 2 strategies", "Cleared the playbook of 3 trades", "Cleared the playbook of 1 trading plan",
		"Cleared the playbook of 2 chart books", "Removed 1 criteria checklist entry", "Removed 1 tag association"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("warnings: got %q, want %q", got, want)
	}

	for _, c := range []struct {
		query string
		args  []any
		want  int
	}{
		{`SELECT count(*) FROM playbooks WHERE id = ?`, []any{p.ID}, 0},
		{`SELECT count(*) FROM playbook_criteria WHERE playbook_id = ?`, []any{p.ID}, 0},
		{`SELECT count(*) FROM playbook_strategies WHERE playbook_id = ?`, []any{p.ID}, 0},
		{`SELECT count(*) FROM playbook_tags WHERE playbook_id = ?`, []any{p.ID}, 0},
		{`SELECT count(*) FROM trade_criteria_checks`, nil, 0},
		{`SELECT count(*) FROM trades WHERE playbook_id IS NULL AND id IN (?, ?, ?)`, []any{named[0], named[1], named[2]}, 3},
		{`SELECT count(*) FROM trades WHERE id = ? AND playbook_id = ?`, []any{elsewhere, other.ID}, 1},
		{`SELECT count(*) FROM trading_plans WHERE id = ? AND playbook_id IS NULL`, []any{plan}, 1},
		{`SELECT count(*) FROM chart_books WHERE id IN (?, ?) AND playbook_id IS NULL`, []any{books[0], books[1]}, 2},
		{`SELECT count(*) FROM strategies`, nil, 2},
		{`SELECT count(*) FROM tags WHERE id = ?`, []any{tag}, 1},
	} {
		if n := count(t, raw, c.query, c.args...); n != c.want {
			t.Errorf("%s: got %d, want %d", c.query, n, c.want)
		}
	}
	if status, _ := e.do(t, "GET", "/api/v1/playbooks/"+p.ID, e.key, ""); status != http.StatusNotFound {
		t.Errorf("get after delete: got %d, want 404", status)
	}
	if status, _ := e.do(t, "DELETE", "/api/v1/playbooks/"+p.ID, e.key, ""); status != http.StatusNotFound {
		t.Errorf("second delete: got %d, want 404", status)
	}
	kept := decode[dataOf[db.Playbook]](t, must200(t, e.testServer, "/api/v1/playbooks/"+other.ID, e.key)).Data
	if !reflect.DeepEqual(kept, other) {
		t.Errorf("the other playbook after the delete:\n got %+v\nwant %+v", kept, other)
	}
	if got := e.deleted(t, e.key, "/api/v1/playbooks", other.ID); !reflect.DeepEqual(got, []string{"Unlinked 1 strategy", "Cleared the playbook of 1 trade"}) {
		t.Errorf("warnings of the other playbook: got %q", got)
	}
	bare := e.createPlaybook(t, e.key, `{"title":"Bare"}`)
	if got := e.deleted(t, e.key, "/api/v1/playbooks", bare.ID); len(got) != 0 {
		t.Errorf("warnings of a bare playbook: got %q, want none", got)
	}
}

// TestStrategyDelete: the strategy, its rules and its links go; playbooks
// and trades stay, and rule evaluations keep their snapshot.
func TestStrategyDelete(t *testing.T) {
	e := newTradeEnv(t)
	raw := e.sql(t)
	tag := insertTag(t, raw, e.userID, "Risk")
	s := e.createStrategy(t, e.key, `{"title":"Risk","tag_ids":["`+tag+`"],
		"strategy_rules":[{"description":"max 2","check":{"kind":"max_quantity","value":2}}]}`)
	keep := e.createStrategy(t, e.key, `{"title":"Keep"}`)
	p1 := e.createPlaybook(t, e.key, `{"title":"P1","strategy_ids":["`+s.ID+`","`+keep.ID+`"]}`)
	e.createPlaybook(t, e.key, `{"title":"P2","strategy_ids":["`+s.ID+`"]}`)
	trade := insertTrade(t, raw, e.userID, e.accountID)
	mustExec(t, raw, `INSERT INTO trade_strategies (trade_id, strategy_id, position) VALUES (?, ?, 0)`, trade, s.ID)
	mustExec(t, raw, `INSERT INTO trade_rule_evaluations (id, trade_id, strategy_id, rule_id, result, rule_snapshot,
		evaluated_at, position) VALUES (?, ?, ?, ?, 'pass', '{}', ?, 0)`, uuid.NewString(), trade, s.ID, s.StrategyRules[0].ID, t0Text)

	got := e.deleted(t, e.key, "/api/v1/strategies", s.ID)
	want := []string{"Removed from 2 playbooks", "Removed from 1 trade", "Removed 1 tag association"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("warnings: got %q, want %q", got, want)
	}
	for _, c := range []struct {
		query string
		want  int
	}{
		{`SELECT count(*) FROM strategies`, 1},
		{`SELECT count(*) FROM strategy_rules`, 0},
		{`SELECT count(*) FROM playbook_strategies`, 1},
		{`SELECT count(*) FROM trade_strategies`, 0},
		{`SELECT count(*) FROM strategy_tags`, 0},
		{`SELECT count(*) FROM playbooks`, 2},
		{`SELECT count(*) FROM trades`, 1},
		{`SELECT count(*) FROM trade_rule_evaluations WHERE strategy_id IS NULL`, 1},
	} {
		if n := count(t, raw, c.query); n != c.want {
			t.Errorf("%s: got %d, want %d", c.query, n, c.want)
		}
	}
	left := decode[dataOf[db.Playbook]](t, must200(t, e.testServer, "/api/v1/playbooks/"+p1.ID, e.key)).Data
	if len(left.Strategies) != 1 || left.Strategies[0].ID != keep.ID {
		t.Errorf("P1's strategies: got %+v, want only Keep", left.Strategies)
	}
	if status, _ := e.do(t, "GET", "/api/v1/strategies/"+s.ID, e.key, ""); status != http.StatusNotFound {
		t.Errorf("get after delete: got %d, want 404", status)
	}
	if got := e.deleted(t, e.key, "/api/v1/strategies", keep.ID); !reflect.DeepEqual(got, []string{"Removed from 1 playbook"}) {
		t.Errorf("warnings of Keep: got %q", got)
	}
}
