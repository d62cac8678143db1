package server_test

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"
)

// libraryPageCases are the isolation walk's cases of the pages of playbooks, strategies, tags and instruments. It may add
// alice's records (w.e is her journal) and their ids to w.aliceIDs.
func libraryPageCases(t *testing.T, w *pageWalk) map[string][]func(t *testing.T) {
	e, csrf := w.e, w.csrf
	playbook := e.createPlaybook(t, e.key, `{"title": "Alice's ORB", "entry_criteria": ["Above VWAP"]}`)
	w.aliceIDs = append(w.aliceIDs, playbook.ID)
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
var libraryPagesPending = map[string]string{
	"POST /api/v1/tags":                 "no page yet (issue 28)",
	"PUT /api/v1/tags":                  "no page yet (issue 28)",
	"DELETE /api/v1/tags":               "no page yet (issue 28)",
	"PUT /api/v1/instruments/{root}":    "no page yet (issue 28)",
	"DELETE /api/v1/instruments/{root}": "no page yet (issue 28)",
	"POST /api/v1/strategies":           "no page yet (issue 28)",
	"PUT /api/v1/strategies/{id}":       "no page yet (issue 28)",
	"DELETE /api/v1/strategies/{id}":    "no page yet (issue 28)",
}
