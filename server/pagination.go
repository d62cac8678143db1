package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"tradejournal/db"
)

// Page size bounds of every list route.
const (
	defaultLimit = 20
	maxLimit     = 100
	maxPage      = 1_000_000_000 // keeps (page-1)*limit far from overflow
)

// pagination is the pagination object of every list response.
type pagination struct {
	Total   int  `json:"total"`
	Limit   int  `json:"limit"`
	Offset  int  `json:"offset"`
	HasMore bool `json:"has_more"`
}

type listBody[T any] struct {
	Data       []T        `json:"data"`
	Pagination pagination `json:"pagination"`
}

// parsePage reads offset, page and limit. offset wins over page; values out
// of range are a 400 naming the parameter, never silently clamped.
func parsePage(q url.Values) (db.Page, error) {
	f := fieldErrors{}
	p := db.Page{Limit: defaultLimit}
	if q.Has("limit") {
		n, err := strconv.Atoi(q.Get("limit"))
		if err != nil || n < 1 || n > maxLimit {
			f.add("limit", "limit must be an integer from 1 to 100")
		}
		p.Limit = n
	}
	page := 1
	if q.Has("page") {
		n, err := strconv.Atoi(q.Get("page"))
		if err != nil || n < 1 || n > maxPage {
			f.add("page", "page must be an integer of at least 1")
		}
		page = n
	}
	if q.Has("offset") {
		n, err := strconv.Atoi(q.Get("offset"))
		if err != nil || n < 0 {
			f.add("offset", "offset must be an integer of at least 0")
		}
		p.Offset = n
	} else {
		p.Offset = (page - 1) * p.Limit
	}
	if err := f.err(); err != nil {
		return db.Page{}, err
	}
	return p, nil
}

// writeList answers a page of items with its pagination object.
func writeList[T any](w http.ResponseWriter, items []T, total int, p db.Page) {
	if items == nil {
		items = []T{}
	}
	page := pagination{
		Total: total, Limit: p.Limit, Offset: p.Offset,
		HasMore: p.Offset+len(items) < total,
	}
	if encoded, ok := any(items).([]json.RawMessage); ok {
		writeEncodedList(w, encoded, page)
		return
	}
	writeJSON(w, http.StatusOK, listBody[T]{Data: items, Pagination: page})
}

// writeEncodedList answers a page of items the database keeps encoded (the
// trade list's listings) as writeJSON would: encoding/json would scan each
// item again to check and compact it, which took longer than the page's
// query.
func writeEncodedList(w http.ResponseWriter, items []json.RawMessage, page pagination) {
	tail, _ := json.Marshal(page) // ints and a bool: no error
	n := len(`{"data":[],"pagination":}`+"\n") + len(items) + len(tail)
	for _, item := range items {
		n += len(item)
	}
	body := make([]byte, 0, n)
	body = append(body, `{"data":[`...)
	for i, item := range items {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, item...)
	}
	body = append(body, `],"pagination":`...)
	body = append(body, tail...)
	body = append(body, "}\n"...)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}
