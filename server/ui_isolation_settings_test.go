package server_test

import "testing"

// settingsPageCases are the isolation walk's cases of the pages of settings: timezone, API keys, signing out everywhere. It may add
// alice's records (w.e is her journal) and their ids to w.aliceIDs.
func settingsPageCases(t *testing.T, w *pageWalk) map[string][]func(t *testing.T) {
	return nil
}
