package server_test

import "testing"

// libraryPageCases are the isolation walk's cases of the pages of playbooks, strategies, tags and instruments. It may add
// alice's records (w.e is her journal) and their ids to w.aliceIDs.
func libraryPageCases(t *testing.T, w *pageWalk) map[string][]func(t *testing.T) {
	return nil
}

// libraryPagesPending are this group's API writes whose page is still to
// come; the route-parity test holds each entry until its page exists.
var libraryPagesPending = map[string]string{
	"POST /api/v1/tags":                 "no page yet (issue 28)",
	"PUT /api/v1/tags":                  "no page yet (issue 28)",
	"DELETE /api/v1/tags":               "no page yet (issue 28)",
	"PUT /api/v1/instruments/{root}":    "no page yet (issue 28)",
	"DELETE /api/v1/instruments/{root}": "no page yet (issue 28)",
	"POST /api/v1/playbooks":            "no page yet (issue 28)",
	"PUT /api/v1/playbooks/{id}":        "no page yet (issue 28)",
	"DELETE /api/v1/playbooks/{id}":     "no page yet (issue 28)",
	"POST /api/v1/strategies":           "no page yet (issue 28)",
	"PUT /api/v1/strategies/{id}":       "no page yet (issue 28)",
	"DELETE /api/v1/strategies/{id}":    "no page yet (issue 28)",
}
