package server_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// libraryPageCases are the isolation walk's cases of the pages of playbooks, strategies, tags and instruments. It may add
// alice's records (w.e is her journal) and their ids to w.aliceIDs.
func libraryPageCases(t *testing.T, w *pageWalk) map[string][]func(t *testing.T) {
	e, csrf := w.e, w.csrf
	playbook := e.createPlaybook(t, e.key, `{"title": "Alice's ORB", "entry_criteria": ["Above VWAP"]}`)
	group := e.newGroup(t, e.key, "Alice's setups")
	tag := e.newTag(t, e.key, group.ID, "Alice's A+")
	must200put(t, e, "/api/v1/instruments/ALICEQ9", `{"point_value": 10}`)
	strategy := e.createStrategy(t, e.key, `{"title": "Alice's risk", "strategy_rules": [{"description": "One lot"}]}`)
	w.aliceIDs = append(w.aliceIDs, playbook.ID, strategy.ID, group.ID, tag.ID, "ALICEQ9")
	form := func(kv ...string) url.Values {
		v := url.Values{"csrf": {csrf}}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	return map[string][]func(t *testing.T){
		"GET /playbooks":     {w.redirects("/playbooks", "/library")},
		"GET /playbooks/new": {w.shows("/playbooks/new")},
		"POST /playbooks": {w.makesHisOwn("/playbooks", form("title", "Alice's ORB", "entry_criteria", "Above VWAP"),
			`SELECT id FROM playbooks WHERE user_id <> ? AND title = 'Alice''s ORB'`, "/playbooks/%s/delete")},
		"GET /playbooks/{id}/edit":    {w.notFound("GET", "/playbooks/"+playbook.ID+"/edit", nil)},
		"POST /playbooks/{id}":        {w.notFound("POST", "/playbooks/"+playbook.ID, form("title", "Bob's", "entry_criteria", "Above VWAP"))},
		"GET /playbooks/{id}/delete":  {w.notFound("GET", "/playbooks/"+playbook.ID+"/delete", nil)},
		"POST /playbooks/{id}/delete": {w.notFound("POST", "/playbooks/"+playbook.ID+"/delete", form())},

		"GET /strategies":     {w.redirects("/strategies", "/library")},
		"GET /strategies/new": {w.shows("/strategies/new")},
		"POST /strategies": {w.makesHisOwn("/strategies", form("title", "Alice's risk", "type", "risk_management", "strategy_rules", "One lot"),
			`SELECT id FROM strategies WHERE user_id <> ? AND title = 'Alice''s risk'`, "/strategies/%s/delete")},
		"GET /strategies/{id}/edit":    {w.notFound("GET", "/strategies/"+strategy.ID+"/edit", nil)},
		"POST /strategies/{id}":        {w.notFound("POST", "/strategies/"+strategy.ID, form("title", "Bob's", "strategy_rules", ""))},
		"GET /strategies/{id}/delete":  {w.notFound("GET", "/strategies/"+strategy.ID+"/delete", nil)},
		"POST /strategies/{id}/delete": {w.notFound("POST", "/strategies/"+strategy.ID+"/delete", form())},

		"GET /tags": {w.shows("/tags"), func(t *testing.T) {
			if r := w.bob.send(t, "GET", "/tags", nil, ""); strings.Contains(r.Body.String(), "Alice's") {
				t.Error("bob's tags page shows alice's tags")
			}
		}},
		"POST /tags":                   {w.notFound("POST", "/tags", form("tag_group_id", group.ID, "name", "Bob's"))},
		"GET /tags/{id}/edit":          {w.notFound("GET", "/tags/"+tag.ID+"/edit", nil)},
		"POST /tags/{id}":              {w.notFound("POST", "/tags/"+tag.ID, form("name", "Bob's"))},
		"GET /tags/{id}/delete":        {w.notFound("GET", "/tags/"+tag.ID+"/delete", nil)},
		"POST /tags/{id}/delete":       {w.notFound("POST", "/tags/"+tag.ID+"/delete", form())},
		"GET /tag-groups":              {w.redirects("/tag-groups", "/tags")},
		"POST /tag-groups":             {w.makesHisOwn("/tag-groups", form("name", "Alice's setups"), `SELECT id FROM tag_groups WHERE user_id <> ? AND name = 'Alice''s setups'`, "/tag-groups/%s/delete")},
		"GET /tag-groups/{id}/edit":    {w.notFound("GET", "/tag-groups/"+group.ID+"/edit", nil)},
		"POST /tag-groups/{id}":        {w.notFound("POST", "/tag-groups/"+group.ID, form("name", "Bob's", "color", "#000000"))},
		"GET /tag-groups/{id}/delete":  {w.notFound("GET", "/tag-groups/"+group.ID+"/delete", nil)},
		"POST /tag-groups/{id}/delete": {w.notFound("POST", "/tag-groups/"+group.ID+"/delete", form())},
		"GET /instruments":             {w.shows("/instruments")},
		"POST /instruments": {w.makesHisOwn("/instruments", form("root", "ALICEQ9", "point_value", "99", "asset_class", "futures"),
			`SELECT root FROM instruments WHERE user_id <> ? AND root = 'ALICEQ9'`, "/instruments/%s/delete")},
		"GET /instruments/{root}/delete":  {w.notFound("GET", "/instruments/ALICEQ9/delete", nil)},
		"POST /instruments/{root}/delete": {w.notFound("POST", "/instruments/ALICEQ9/delete", form())},
		"POST /tags/defaults": {func(t *testing.T) {
			// bob's defaults are his; his deletes of them leave the
			// journal's counts as they were.
			if r := w.bob.send(t, "POST", "/tags/defaults", form(), ""); r.Code != http.StatusSeeOther {
				t.Fatalf("bob loading his defaults: %d", r.Code)
			}
			if g := e.groups(t, e.key); len(g) != 1 {
				t.Errorf("bob's defaults gave alice %d groups", len(g))
			}
			rows, err := e.sql(t).Query(`SELECT id FROM tag_groups WHERE user_id <> ?`, e.userID)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for rows.Next() {
				var id string
				rows.Scan(&id)
				ids = append(ids, id)
			}
			rows.Close()
			for _, id := range ids {
				if r := w.bob.send(t, "POST", "/tag-groups/"+id+"/delete", form(), ""); r.Code != http.StatusSeeOther {
					t.Errorf("bob deleting his group: %d", r.Code)
				}
			}
		}},
	}
}

// makesHisOwn posts bob's new record, named as alice's is, to create: it
// is his (found by query, of a user who is not alice), and his delete,
// through the page whose path deletePath (with %s for the id) names,
// leaves the journal's counts as they were.
func (w *pageWalk) makesHisOwn(create string, form url.Values, query, deletePath string) func(t *testing.T) {
	return func(t *testing.T) {
		if r := w.bob.send(t, "POST", create, form, ""); r.Code != http.StatusSeeOther {
			t.Fatalf("bob's POST %s: %d %s", create, r.Code, r.Body)
		}
		var id string
		if err := w.e.sql(t).QueryRow(query, w.e.userID).Scan(&id); err != nil {
			t.Fatalf("bob's record: %v", err)
		}
		target := fmt.Sprintf(deletePath, id)
		if r := w.bob.send(t, "POST", target, url.Values{"csrf": {w.csrf}}, ""); r.Code != http.StatusSeeOther {
			t.Errorf("bob's POST %s: %d", target, r.Code)
		}
	}
}

// libraryPagesPending are this group's API writes whose page is still to
// come; the route-parity test holds each entry until its page exists.
var libraryPagesPending = map[string]string{}
