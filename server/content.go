package server

import (
	"net/http"
	"net/url"
	"strings"

	"tradejournal/db"
	"tradejournal/server/input"
)

// The four kinds of content (write-ups, trading plans, chart books, report
// cards) differ only in their fields: each kind's check is server/input's
// (the journal pages' forms call it too), read through jsonBody, and the
// route table builds its five handlers from the shared builders (crud.go)
// over the kind's db.Content store.

// contentList answers a kind's list, filtered by its references and dates
// (read in the caller's timezone).
func contentList[T, In any](s *Server, store db.Content[T, In]) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *db.Principal) {
		page, err := input.Page(r.URL.Query())
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		filter, err := parseContentFilter(r.URL.Query(), store.RefFilters(), p.Timezone)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		items, total, err := store.List(r.Context(), p.UserID, filter, page)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeList(w, items, total, page)
	}
}

// parseContentFilter reads a content list's filters: each reference column
// the kind has (trade_id, playbook_id, account_id) and start_date /
// end_date. A malformed value is a 400 naming the parameter.
func parseContentFilter(q url.Values, refs []string, timezone string) (db.ContentFilter, error) {
	f := input.Errors{}
	filter := db.ContentFilter{
		Refs:     map[string]string{},
		Timezone: timezone,
	}
	for _, name := range refs {
		filter.Refs[name] = f.QueryUUID(name, strings.TrimSpace(q.Get(name)))
	}
	filter.StartDate, filter.EndDate = input.DateRange(f, q)
	return filter, f.Err()
}
