package server_test

import (
	"net/url"
	"testing"
)

// mappingPageCases are the column mapping pages' isolation cases: alice's
// mapping and her kept file are bob's 404s, and his own mapping is his.
func mappingPageCases(t *testing.T, w *pageWalk) map[string][]func(t *testing.T) {
	e, csrf := w.e, w.csrf
	m := e.createMapping(t, e.key, metaTraderMapping)
	upload, err := e.db.CreateImportUpload(t.Context(), e.userID, "alice-mt.csv", []byte(metaTraderFile))
	if err != nil {
		t.Fatal(err)
	}
	w.aliceIDs = append(w.aliceIDs, m.ID, upload, "alice-mt.csv")
	form := func(kv ...string) url.Values {
		v := url.Values{"csrf": {csrf}}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return v
	}
	mapping := func(name string) url.Values {
		return form("name", name, "timestamp", "Time", "symbol", "Symbol", "side", "Type", "quantity", "Volume", "price", "Price",
			"date_order", "auto", "decimal", "point")
	}
	return map[string][]func(t *testing.T){
		"GET /import/mappings":     {w.shows("/import/mappings")},
		"GET /import/mappings/new": {w.shows("/import/mappings/new")},
		"POST /import/mappings": {w.makesHisOwn("/import/mappings", mapping("MetaTrader deals"),
			`SELECT id FROM import_mappings WHERE user_id <> ? AND name = 'MetaTrader deals'`, "/import/mappings/%s/delete")},
		"GET /import/mappings/{id}/edit":    {w.notFound("GET", "/import/mappings/"+m.ID+"/edit", nil)},
		"POST /import/mappings/{id}":        {w.notFound("POST", "/import/mappings/"+m.ID, mapping("Bob's"))},
		"GET /import/mappings/{id}/delete":  {w.notFound("GET", "/import/mappings/"+m.ID+"/delete", nil)},
		"POST /import/mappings/{id}/delete": {w.notFound("POST", "/import/mappings/"+m.ID+"/delete", form())},
		"GET /import/uploads/{id}":          {w.notFound("GET", "/import/uploads/"+upload, nil)},
		"POST /import/uploads/{id}": {
			w.notFound("POST", "/import/uploads/"+upload, mapping("Bob's")),
			w.notFound("POST", "/import/uploads/"+upload+"?preview=1", mapping("Bob's")),
		},
	}
}
