package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"tradejournal/db"
)

// TestMapColumnsPage: without script, a file no format reads is kept when
// the import page refuses it, and mapped on the page that names it: its
// header and first rows shown, a preview read by the unsaved mapping, the
// mapping saved as the API's POST saves it (the kept file then goes), and
// the next file of that header imports by format auto. Saved mappings are
// edited and deleted on their own pages.
func TestMapColumnsPage(t *testing.T) {
	e := newTradeEnv(t)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	csrf := attr(find(b.page(t, "/import"), byAttr("name", "csrf"))[0], "value")

	w := b.postMultipart(t, "/import?preview=1", [][2]string{{"csrf", csrf}}, "deals.csv", metaTraderFile, nil)
	body := w.Body.String()
	if w.Code != http.StatusBadRequest || !strings.Contains(body, "(its columns: Time, Deal, Symbol, Type, Volume, Price, Commission, Fee, Profit)") {
		t.Fatalf("unknown file: %d %s", w.Code, body)
	}
	var uploadID string
	var content []byte
	if err := e.sql(t).QueryRow(`SELECT id, content FROM import_uploads WHERE user_id = ? AND file_name = 'deals.csv'`, e.userID).
		Scan(&uploadID, &content); err != nil || string(content) != metaTraderFile {
		t.Fatalf("kept file: %v %q", err, content)
	}
	if !strings.Contains(body, `href="/import/uploads/`+uploadID+`"`) {
		t.Fatalf("no link to map its columns: %s", body)
	}
	// The script's fragment offers it too.
	w = b.postMultipart(t, "/import?preview=1", [][2]string{{"csrf", csrf}}, "deals.csv", metaTraderFile, map[string]string{"X-Fragment": "preview"})
	if !strings.HasPrefix(w.Body.String(), `<p role="alert" class="error">`) || !strings.Contains(w.Body.String(), `id="map-columns"`) {
		t.Errorf("fragment: %s", w.Body)
	}

	page := b.page(t, "/import/uploads/"+uploadID)
	var heads []*html.Node
	if table := find(page, func(n *html.Node) bool {
		return n.Data == "table" && attr(n, "data-file-head") != "" || hasAttr(n, "data-file-head")
	}); len(table) == 1 {
		heads = find(table[0], func(n *html.Node) bool { return n.Data == "th" })
	}
	var names []string
	for _, h := range heads {
		names = append(names, nodeText(h))
	}
	if strings.Join(names, ",") != "Time,Deal,Symbol,Type,Volume,Price,Commission,Fee,Profit" {
		t.Errorf("header shown: %q", names)
	}
	if cells := find(page, func(n *html.Node) bool { return n.Data == "td" && nodeText(n) == "1764599465" }); len(cells) != 1 {
		t.Errorf("first rows not shown")
	}
	if opts := find(page, func(n *html.Node) bool { return n.Data == "option" && attr(n, "value") == "Volume" }); len(opts) < 9 {
		t.Errorf("each role's select offers the header's names: %d options of Volume", len(opts))
	}

	form := url.Values{"csrf": {csrf}, "name": {"MetaTrader deals"}, "timestamp": {"Time"}, "symbol": {"Symbol"},
		"side": {"Type"}, "quantity": {"Volume"}, "price": {"Price"}, "commission": {"Commission", "Fee"}, "exec_id": {"Deal"},
		"buy": {"buy"}, "sell": {"sell"}, "skip": {"balance, credit"}, "date_order": {"auto"}, "decimal": {"point"},
		"account_id": {e.accountID}}
	missing := url.Values{}
	for k, v := range form {
		missing[k] = v
	}
	missing.Del("price")
	if w := b.send(t, "POST", "/import/uploads/"+uploadID+"?preview=1", missing, ""); w.Code != http.StatusBadRequest ||
		!strings.Contains(w.Body.String(), "columns.price is required") {
		t.Errorf("a mapping without price: %d", w.Code)
	}
	w = b.send(t, "POST", "/import/uploads/"+uploadID+"?preview=1", form, "")
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), "mapping: 4 rows, 2 fills, 2 skipped") ||
		!strings.Contains(w.Body.String(), "38.52") || !strings.Contains(w.Body.String(), `value="MetaTrader deals"`) {
		t.Fatalf("preview: %d %s", w.Code, w.Body)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM trades`) + count(t, e.sql(t), `SELECT count(*) FROM import_mappings`); n != 0 {
		t.Fatalf("the preview wrote %d rows", n)
	}
	w = b.send(t, "POST", "/import/uploads/"+uploadID, form, "")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/import?mapped=MetaTrader+deals" {
		t.Fatalf("save: %d %s", w.Code, w.Header().Get("Location"))
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM import_mappings WHERE name = 'MetaTrader deals' AND side_values IS NOT NULL`); n != 1 {
		t.Errorf("mapping rows: %d", n)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM import_uploads WHERE id = ?`, uploadID); n != 0 {
		t.Errorf("kept files after the save: %d", n)
	}
	if w := b.send(t, "GET", "/import/uploads/"+uploadID, nil, ""); w.Code != http.StatusNotFound {
		t.Errorf("the kept file's page after the save: %d", w.Code)
	}
	// Saved twice under one name: the page says so, nothing written.
	again, _ := e.db.CreateImportUpload(t.Context(), e.userID, "deals.csv", []byte(metaTraderFile))
	if w := b.send(t, "POST", "/import/uploads/"+again, form, ""); w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "already exists") {
		t.Errorf("duplicate name: %d", w.Code)
	}

	w = b.postMultipart(t, "/import", [][2]string{{"csrf", csrf}, {"account_id", e.accountID}}, "deals2.csv", metaTraderFile, nil)
	if w.Code != http.StatusSeeOther {
		t.Fatalf("the next file by auto: %d %s", w.Code, w.Body)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM imports WHERE format = 'mapping' AND mapping_id IS NOT NULL`); n != 1 {
		t.Errorf("imports by the mapping: %d", n)
	}

	var id string
	e.sql(t).QueryRow(`SELECT id FROM import_mappings WHERE name = 'MetaTrader deals'`).Scan(&id)
	list := b.page(t, "/import/mappings")
	if len(find(list, byAttr("data-mapping", id))) != 1 {
		t.Errorf("the list does not show the mapping")
	}
	edit := b.page(t, "/import/mappings/"+id+"/edit")
	if v := find(edit, byAttr("id", "f-skip")); len(v) != 1 || attr(v[0], "value") != "balance, credit" {
		t.Errorf("edit form's skip values")
	}
	edited := url.Values{"csrf": {csrf}, "name": {"MT5"}, "timestamp": {"Time"}, "symbol": {"Symbol"}, "side": {"Type"},
		"quantity": {"Volume"}, "price": {"Price"}, "commission": {"Commission, Fee"}, "buy": {""}, "sell": {""}, "skip": {""},
		"date_order": {"dmy"}, "decimal": {"comma"}, "timezone": {""}}
	if w := b.send(t, "POST", "/import/mappings/"+id, edited, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("edit: %d %s", w.Code, w.Body)
	}
	m := decode[struct{ Data db.ImportMapping }](t, must200(t, e.testServer, "/api/v1/import-mappings/"+id, e.key)).Data
	if m.Name != "MT5" || m.SideValues != nil || m.DateOrder != "dmy" || m.Decimal != "comma" || len(m.Columns.Commission) != 2 ||
		m.Columns.ExecID != nil {
		t.Errorf("after the edit: %+v", m)
	}
	if w := b.send(t, "POST", "/import/mappings/"+id+"/delete", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther {
		t.Errorf("delete: %d", w.Code)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM import_mappings`); n != 0 {
		t.Errorf("mappings after the delete: %d", n)
	}
}
