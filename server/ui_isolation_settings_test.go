package server_test

import (
	"net/url"
	"testing"
)

// settingsPageCases are the isolation walk's cases of the pages of settings: timezone, API keys, signing out everywhere. It may add
// alice's records (w.e is her journal) and their ids to w.aliceIDs.
func settingsPageCases(t *testing.T, w *pageWalk) map[string][]func(t *testing.T) {
	keys, err := w.e.db.Keys(t.Context(), "alice")
	if err != nil || len(keys) == 0 {
		t.Fatalf("alice's keys: %v %v", keys, err)
	}
	for _, k := range keys {
		w.aliceIDs = append(w.aliceIDs, k.ID, k.Prefix)
	}
	return map[string][]func(t *testing.T){
		"GET /settings":                      {w.shows("/settings")},
		"POST /settings/keys/{id}/revoke":    {w.notFound("POST", "/settings/keys/"+keys[0].ID+"/revoke", url.Values{"csrf": {w.csrf}})},
		"POST /settings/timezone":            {}, // sets bob's own user: TestSettings
		"POST /settings/keys":                {}, // makes bob's own key: TestSettings
		"POST /settings/sign-out-everywhere": {}, // ends bob's own sessions only: TestSettings
	}
}
