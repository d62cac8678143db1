package server_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"tradejournal/db"
)

// TestStrategyForms: a strategy made from its form, a rule a line with its
// severity and check, is the API's; a refused form comes back with what
// was typed and the reason in the API's words; the edit form shows the
// rules as they read back; an edit keeps the id (and the category) of
// each rule whose text is unchanged; the delete asks first, naming what
// goes, and then deletes.
func TestStrategyForms(t *testing.T) {
	e := newTradeEnv(t)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	if len(find(b.page(t, "/library"), byAttr("id", "new-strategy"))) != 1 {
		t.Fatal("the library page has no New strategy link")
	}
	newForm := b.page(t, "/strategies/new")
	if n := find(newForm, func(n *html.Node) bool { return n.Data == "option" && hasAttr(n, "selected") }); len(n) != 1 || attr(n[0], "value") != "risk_management" {
		t.Errorf("a new strategy's type: %q, want risk_management", texts(n))
	}
	csrf := csrfOf(t, b, "/strategies/new")

	// Refused: no title, a check out of its bounds.
	rules := "At most 2 contracts | critical | max_quantity 0\nMornings only | trading_window 09:30-11:30"
	w := b.send(t, "POST", "/strategies", url.Values{"csrf": {csrf}, "title": {""}, "type": {"risk_management"}, "strategy_rules": {rules}}, "")
	doc := parseHTML(t, w.Body.String())
	if w.Code != http.StatusBadRequest || reasonBeside(doc, "strategy_rules") != "Rules [0].check.value must be a number greater than 0" {
		t.Errorf("a bad check: %d, reason %q", w.Code, reasonBeside(doc, "strategy_rules"))
	}
	if n := find(doc, byAttr("id", "f-strategy_rules")); len(n) != 1 || nodeText(n[0]) != rules {
		t.Errorf("the rules typed are gone: %q", texts(n))
	}
	// The rest is checked by the API's own check once the form reads.
	rules = strings.Replace(rules, "max_quantity 0", "max_quantity 2", 1)
	w = b.send(t, "POST", "/strategies", url.Values{"csrf": {csrf}, "title": {""}, "type": {"risk_management"}, "strategy_rules": {rules}}, "")
	if doc := parseHTML(t, w.Body.String()); w.Code != http.StatusBadRequest || reasonBeside(doc, "title") != "Title is required" {
		t.Errorf("no title: %d, reason %q", w.Code, reasonBeside(doc, "title"))
	}
	status, body := e.do(t, "POST", "/api/v1/strategies", e.key, `{"title": "x", "strategy_rules": [{"description": "At most 2 contracts",
		"severity": "critical", "check": {"kind": "max_quantity", "value": 0}}]}`)
	if d := decode[errBody](t, body).Details; status != http.StatusBadRequest ||
		d["strategy_rules[0].check.value"] != "strategy_rules[0].check.value must be a number greater than 0" {
		t.Errorf("the API's reasons: %d %s", status, body)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM strategies`); n != 0 {
		t.Fatalf("refused forms wrote %d strategies", n)
	}

	rules = "At most 2 contracts | critical | max_quantity 2\nStop on every trade | require_stop_loss\n\n" +
		"Mornings only | trading_window 09:30-11:30\nIndex futures | allowed_symbols ES, NQ\nWalk away after three losers"
	tag := e.newTag(t, e.key, e.newGroup(t, e.key, "Setups").ID, "A+")
	good := url.Values{"csrf": {csrf}, "title": {"One lot"}, "type": {"risk_management"}, "description": {"Size"},
		"strategy_rules": {rules}, "tag_ids": {"", tag.ID}}
	if w := b.send(t, "POST", "/strategies", good, ""); w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/strategies?saved=1" {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	list := decode[listBody[db.Strategy]](t, must200(t, e.testServer, "/api/v1/strategies", e.key)).Data
	if len(list) != 1 {
		t.Fatalf("%d strategies after the form", len(list))
	}
	st := list[0]
	if got := ruleLines(st.StrategyRules); st.Title != "One lot" || st.Type != "risk_management" || st.Description != "Size" ||
		len(st.Tags) != 1 || st.Tags[0].ID != tag.ID ||
		got != "At most 2 contracts critical max_quantity 2|Stop on every trade warning require_stop_loss|"+
			"Mornings only warning trading_window 09:30:00-11:30:00|Index futures warning allowed_symbols ES,NQ|Walk away after three losers warning" {
		t.Errorf("the API reads the form's strategy as %+v: %s", st, got)
	}

	// The edit form shows the rules as they read back.
	edit := b.page(t, "/strategies/"+st.ID+"/edit")
	shown := "At most 2 contracts | critical | max_quantity 2\nStop on every trade | warning | require_stop_loss\n" +
		"Mornings only | warning | trading_window 09:30:00-11:30:00\nIndex futures | warning | allowed_symbols ES NQ\nWalk away after three losers"
	if n := find(edit, byAttr("id", "f-strategy_rules")); len(n) != 1 || nodeText(n[0]) != shown {
		t.Errorf("the edit form's rules: %q", texts(n))
	}
	// Sent back as shown, nothing changes.
	good.Set("strategy_rules", shown)
	if w := b.send(t, "POST", "/strategies/"+st.ID, good, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("edit: %d %s", w.Code, w.Body)
	}
	again := decode[dataOf[db.Strategy]](t, must200(t, e.testServer, "/api/v1/strategies/"+st.ID, e.key)).Data
	if ruleLines(again.StrategyRules) != ruleLines(st.StrategyRules) || ruleIDs(again.StrategyRules) != ruleIDs(st.StrategyRules) {
		t.Errorf("the form sent back as shown changed the rules: %s", ruleLines(again.StrategyRules))
	}
	// Reordered, a check changed, one dropped: the kept texts keep their
	// ids and categories.
	mustExec(t, e.sql(t), `UPDATE strategy_rules SET category = 'size' WHERE id = ?`, st.StrategyRules[0].ID)
	good.Set("strategy_rules", "Stop on every trade | critical | require_stop_loss\nAt most 2 contracts | critical | max_quantity 3")
	if w := b.send(t, "POST", "/strategies/"+st.ID, good, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("edit: %d %s", w.Code, w.Body)
	}
	after := decode[dataOf[db.Strategy]](t, must200(t, e.testServer, "/api/v1/strategies/"+st.ID, e.key)).Data.StrategyRules
	if len(after) != 2 || after[0].ID != st.StrategyRules[1].ID || after[1].ID != st.StrategyRules[0].ID ||
		after[1].Category != "size" || after[1].Check.Value != 3 || after[0].Severity != "critical" {
		t.Errorf("after the edit: %+v", after)
	}

	// Delete: the confirm step names what goes and changes nothing; the
	// post deletes; the playbook and the trade stay.
	e.createPlaybook(t, e.key, `{"title": "ORB", "strategy_ids": ["`+st.ID+`"]}`)
	trade := insertTrade(t, e.sql(t), e.userID, e.accountID)
	mustExec(t, e.sql(t), `INSERT INTO trade_strategies (trade_id, strategy_id, position) VALUES (?, ?, 0)`, trade, st.ID)
	if got := strings.Join(consequences(b.page(t, "/strategies/"+st.ID+"/delete")), "; "); got !=
		"deletes its 2 rules; takes it off 1 playbook, which stays; takes it off 1 trade, which keeps what its rules found; removes its 1 tag" {
		t.Errorf("the confirm step lists %q", got)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM strategies`); n != 1 {
		t.Fatal("the confirm step deleted the strategy")
	}
	if w := b.send(t, "POST", "/strategies/"+st.ID+"/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther ||
		w.Header().Get("Location") != "/strategies?deleted=1" {
		t.Fatalf("delete: %d %s", w.Code, w.Body)
	}
	if status, _ := e.do(t, "GET", "/api/v1/strategies/"+st.ID, e.key, ""); status != http.StatusNotFound {
		t.Errorf("the deleted strategy: %d, want 404", status)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM playbooks`) + count(t, e.sql(t), `SELECT count(*) FROM trades WHERE id = ?`, trade); n != 2 {
		t.Error("the playbook or the trade went with the strategy")
	}
}

// TestStrategyFormsRefuseTheReadOnlyAndStrangers: a read-only session
// sees no New, Edit or Delete and its posts are refused; another user's
// strategy is a 404 on every page and post.
func TestStrategyFormsRefuseTheReadOnlyAndStrangers(t *testing.T) {
	e := newTradeEnv(t)
	st := e.createStrategy(t, e.key, `{"title": "Alice's risk", "strategy_rules": [{"description": "One lot"}]}`)
	refusesOthers(t, e, "/library", nil, recordRoutes{base: "/strategies", id: st.ID, form: url.Values{"title": {"X"}, "strategy_rules": {""}}})
	if n := count(t, e.sql(t), `SELECT count(*) FROM strategy_rules WHERE strategy_id = ?`, st.ID); n != 1 {
		t.Error("a refused post changed alice's strategy")
	}
}

// ruleLines are rules as "description severity check", "|" apart.
func ruleLines(rules []db.StrategyRule) string {
	var out []string
	for _, r := range rules {
		line := r.Description + " " + r.Severity
		if c := r.Check; c != nil {
			line += " " + c.Kind
			switch {
			case c.Start != "":
				line += " " + c.Start + "-" + c.End
			case c.Symbols != nil:
				line += " " + strings.Join(c.Symbols, ",")
			case c.Value != 0:
				line += " " + strconv.FormatFloat(c.Value, 'f', -1, 64)
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "|")
}

// ruleIDs are rules' ids, "|" apart.
func ruleIDs(rules []db.StrategyRule) string {
	var out []string
	for _, r := range rules {
		out = append(out, r.ID)
	}
	return strings.Join(out, "|")
}
