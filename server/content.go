package server

import (
	"net/http"
	"net/url"
	"strings"

	"tradejournal/db"
	"tradejournal/server/input"
)

// The four kinds of content (write-ups, trading plans, chart books, report
// cards) differ only in their fields: each kind's file gives its validate,
// and the route table builds its five handlers from the shared builders
// (crud.go) over the kind's db.Content store.

// contentDecoder reads a content body (jsonBody) and checks it with the
// kind's validate, which normalises it in place; create says whether
// required fields must be present.
func contentDecoder[In any](validate func(f input.Errors, in *In, create bool)) decodeFunc[In] {
	return jsonBody(func(in *In, create bool) error {
		f := input.Errors{}
		validate(f, in, create)
		return f.Err()
	})
}

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

// checkTitle checks a title: trimmed, at most input.MaxTitle characters, and when
// required present on create and never blank or null.
func checkTitle(f input.Errors, v *db.Optional[string], create, required bool) {
	v.Value = strings.TrimSpace(v.Value)
	if required {
		f.Required("title", *v, create)
	}
	f.Text("title", *v, input.MaxTitle)
}

// checkRef checks a body's reference to another record by id, and lower-cases
// it. A required one must be present on create and is never null; an
// optional one is cleared by null.
func checkRef(f input.Errors, field string, v *db.Optional[string], create, required bool) {
	switch {
	case required && v.Null:
		f.Add(field, field+" cannot be null")
	case required && create && !v.Set:
		f.Add(field, field+" is required")
	case v.Set && !v.Null:
		f.UUID(field, v.Value)
	}
	v.Value = strings.ToLower(v.Value)
}

// checkIDList checks a list of ids in a body and lower-cases them.
func checkIDList(f input.Errors, field string, v *db.Optional[[]string]) {
	f.UUIDs(field, *v)
	input.LowerIDs(v)
}
