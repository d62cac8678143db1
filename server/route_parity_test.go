package server_test

import (
	"log/slog"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"tradejournal/db"
	"tradejournal/files"
	"tradejournal/server"
)

// apiOnly are the API's writes that no page makes, each with its reason.
var apiOnly = map[string]string{
	"POST /api/v1/fills": "platform scripts post fills as they happen; a person brings a file to the import page",
}

// TestRouteParity: every route of the API that writes (POST, PUT, DELETE
// under /api/v1) is made by a page's post (its Route names it) or is
// listed as API-only with its reason (DESIGN §11). The writes whose page
// is still to come are listed by their group of pages as pending, with
// the same effect, and a listed write that has its page fails the test
// until it is taken off its list.
func TestRouteParity(t *testing.T) {
	dir := t.TempDir()
	d, err := db.Open(t.Context(), filepath.Join(dir, "journal.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	store, err := files.Open(filepath.Join(dir, "files"))
	if err != nil {
		t.Fatal(err)
	}
	s := server.New(server.Config{}, d, store, slog.New(slog.DiscardHandler))
	pending := map[string]string{}
	for _, group := range []map[string]string{libraryPagesPending, tradePagesPending, contentPagesPending} {
		maps.Copy(pending, group)
	}
	writes := s.PageWrites()
	routes := map[string]bool{}
	for _, pattern := range s.RoutePatterns() {
		routes[pattern] = true
		method, path, _ := strings.Cut(pattern, " ")
		if method == "GET" || !strings.HasPrefix(path, "/api/v1/") {
			continue
		}
		page, hasPage := writes[pattern]
		_, only := apiOnly[pattern]
		_, waits := pending[pattern]
		switch {
		case hasPage && (only || waits):
			t.Errorf("%s is made by the page %s now: take it off its list", pattern, page)
		case !hasPage && !only && !waits:
			t.Errorf("%s writes, but no page makes it and it is not listed as API-only: give it a page (DESIGN §11)", pattern)
		}
	}
	for api, page := range writes {
		if !routes[api] {
			t.Errorf("the page %s names %s, which is not a route of the API", page, api)
		}
	}
}
