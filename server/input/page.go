package input

import (
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

// Page reads offset, page and limit. offset wins over page; values out
// of range are a 400 naming the parameter, never silently clamped.
func Page(q url.Values) (db.Page, error) {
	f := Errors{}
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
