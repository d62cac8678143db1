package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"

	"tradejournal/db"
	"tradejournal/server/input"
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
	f := input.Errors{}
	p := db.Page{Limit: defaultLimit}
	if q.Has("limit") {
		n, err := strconv.Atoi(q.Get("limit"))
		if err != nil || n < 1 || n > maxLimit {
			f.Add("limit", "limit must be an integer from 1 to 100")
		}
		p.Limit = n
	}
	page := 1
	if q.Has("page") {
		n, err := strconv.Atoi(q.Get("page"))
		if err != nil || n < 1 || n > maxPage {
			f.Add("page", "page must be an integer of at least 1")
		}
		page = n
	}
	if q.Has("offset") {
		n, err := strconv.Atoi(q.Get("offset"))
		if err != nil || n < 0 {
			f.Add("offset", "offset must be an integer of at least 0")
		}
		p.Offset = n
	} else {
		p.Offset = (page - 1) * p.Limit
	}
	if err := f.Err(); err != nil {
		return db.Page{}, err
	}
	return p, nil
}

// writeList answers a page of items with its pagination object.
func writeList[T any](w http.ResponseWriter, items []T, total int, p db.Page) {
	if items == nil {
		items = []T{}
	}
	writeJSON(w, http.StatusOK, listBody[T]{Data: items, Pagination: paginationOf(len(items), total, p)})
}

// paginationOf is the pagination object of a page of n items.
func paginationOf(n, total int, p db.Page) pagination {
	return pagination{Total: total, Limit: p.Limit, Offset: p.Offset, HasMore: p.Offset+n < total}
}

// writeEncodedList is writeList for items the database keeps encoded (the
// trade list's listings): encoding/json would scan each item again to
// check and compact it, which took longer than the page's query.
func writeEncodedList(w http.ResponseWriter, items []json.RawMessage, total int, p db.Page) {
	tail, _ := json.Marshal(paginationOf(len(items), total, p)) // ints and a bool: no error
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
	writeBody(w, http.StatusOK, append(body, "}\n"...))
}
