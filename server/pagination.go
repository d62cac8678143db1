package server

import (
	"encoding/json"
	"net/http"

	"tradejournal/db"
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
