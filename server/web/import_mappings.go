package web

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"tradejournal/db"
	"tradejournal/db/brokers"
	"tradejournal/server/input"
	"tradejournal/server/problem"
)

// Column mappings (DESIGN §14) on the pages: a file the import page cannot
// read is kept (db.CreateImportUpload) and its columns mapped on the
// import page, with a preview, then saved as the API's POST does; saved
// mappings are listed, edited and deleted on their own page.

// mappingRoles are the mapping's column fields, by the API's names of
// columns, as both forms offer them.
var mappingRoles = []field{
	{Name: "timestamp", Label: "Date and time (one column)", Hint: "Or a date column and a time column. Whole digits read as Unix time (UTC)."},
	{Name: "date", Label: "Date"},
	{Name: "time", Label: "Time"},
	{Name: "symbol", Label: "Symbol", Required: true},
	{Name: "side", Label: "Side", Required: true},
	{Name: "quantity", Label: "Quantity", Required: true},
	{Name: "price", Label: "Price", Required: true},
	{Name: "account", Label: "Account number"},
	{Name: "exec_id", Label: "Execution id"},
}

// mappingFields are a saved mapping's form: each column typed as the
// file's header writes it.
var mappingFields = func() []field {
	out := []field{{Name: "name", Label: "Name", Required: true}}
	for _, f := range mappingRoles {
		f.Required = false // the check names what is missing
		out = append(out, f)
	}
	return append(out,
		field{Name: "commission", Label: "Cost columns", Hint: "Comma-separated; their amounts are added up."},
		field{Name: "buy", Label: "Buy values", Hint: "Comma-separated values of the side column; leave buy, sell and skip empty for Buy/Sell/B/S."},
		field{Name: "sell", Label: "Sell values"},
		field{Name: "skip", Label: "Rows to skip", Hint: "Side values of rows that are no fills, such as balance, credit."},
		field{Name: "date_order", Label: "Date order", Kind: "select", Choices: db.MappingDateOrders, Required: true},
		field{Name: "decimal", Label: "Decimal mark", Kind: "select", Choices: db.MappingDecimals, Required: true},
		field{Name: "timezone", Label: "Timezone", Hint: "IANA name such as Europe/Berlin; empty for yours."})
}()

// readMapping reads a mapping form (either page's) into the API's input.
func readMapping(r *formReader) db.ImportMappingInput {
	in := db.ImportMappingInput{Name: r.text("name", false), DateOrder: r.text("date_order", false),
		Decimal: r.text("decimal", false), Timezone: r.text("timezone", true)}
	column := func(name string) *string {
		if v := strings.TrimSpace(r.values.Get(name)); v != "" {
			return &v
		}
		return nil
	}
	in.Columns = db.Some(brokers.MappingColumns{Timestamp: column("timestamp"), Date: column("date"), Time: column("time"),
		Symbol: column("symbol"), Side: column("side"), Quantity: column("quantity"), Price: column("price"),
		Account: column("account"), ExecID: column("exec_id"), Commission: commaList(r.values["commission"])})
	sides := brokers.SideValues{Buy: commaList(r.values["buy"]), Sell: commaList(r.values["sell"]), Skip: commaList(r.values["skip"])}
	switch {
	case len(sides.Buy)+len(sides.Sell)+len(sides.Skip) > 0:
		in.SideValues = db.Some(sides)
	case !r.create:
		in.SideValues = db.Optional[brokers.SideValues]{Set: true, Null: true}
	}
	return in
}

// commaList is a form's values, each split at its commas, trimmed, blanks
// dropped.
func commaList(values []string) []string {
	out := []string{}
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part != "" {
				out = append(out, part)
			}
		}
	}
	return out
}

// mappingValues fill a mapping's form.
func mappingValues(m db.ImportMapping) url.Values {
	v := url.Values{"name": {m.Name}, "date_order": {m.DateOrder}, "decimal": {m.Decimal}}
	c := m.Columns
	for name, col := range map[string]*string{"timestamp": c.Timestamp, "date": c.Date, "time": c.Time, "symbol": c.Symbol,
		"side": c.Side, "quantity": c.Quantity, "price": c.Price, "account": c.Account, "exec_id": c.ExecID} {
		if col != nil {
			v.Set(name, *col)
		}
	}
	v.Set("commission", strings.Join(c.Commission, ", "))
	if s := m.SideValues; s != nil {
		v.Set("buy", strings.Join(s.Buy, ", "))
		v.Set("sell", strings.Join(s.Sell, ", "))
		v.Set("skip", strings.Join(s.Skip, ", "))
	}
	if m.Timezone != nil {
		v.Set("timezone", *m.Timezone)
	}
	return v
}

// mappingPages are a saved mapping's edit pages; its list is
// handleMappingsPage.
func (s *Pages) mappingPages() recordPages[db.ImportMappingInput, db.ImportMapping] {
	return recordPages[db.ImportMappingInput, db.ImportMapping]{
		kind: "Import mapping", path: "/import/mappings", nav: "import", fields: mappingFields,
		read: readMapping, check: input.ImportMapping, values: mappingValues,
		get: s.db.ImportMappingRecord, create: s.db.CreateImportMapping, update: s.db.UpdateImportMapping,
		describe: func(m db.ImportMapping) string { return "mapping " + m.Name },
		defaults: func(*http.Request, *db.Session) url.Values {
			return url.Values{"date_order": {"auto"}, "decimal": {"point"}}
		},
	}
}

func (s *Pages) mappingRoutes() []Route {
	mp := s.mappingPages()
	return []Route{
		{Pattern: "GET /import/mappings", Handler: s.page("trades:read", s.handleMappingsPage)},
		{Pattern: "GET /import/mappings/new", Handler: s.page("trades:write", mp.newForm(s))},
		{Pattern: "POST /import/mappings", Handler: s.page("trades:write", mp.createPost(s)), API: "POST /api/v1/import-mappings"},
		{Pattern: "GET /import/mappings/{id}/edit", Handler: s.page("trades:write", mp.editForm(s))},
		{Pattern: "POST /import/mappings/{id}", Handler: s.page("trades:write", mp.updatePost(s)), API: "PUT /api/v1/import-mappings/{id}"},
		{Pattern: "GET /import/mappings/{id}/delete", Handler: s.page("trades:write",
			s.confirmDelete("Import mapping", "/import/mappings", "import", s.describeMappingDelete))},
		{Pattern: "POST /import/mappings/{id}/delete", Handler: s.page("trades:write",
			s.deletePost("Import mapping", "/import/mappings", deleteOnly(s.db.DeleteImportMapping))), API: "DELETE /api/v1/import-mappings/{id}"},
		{Pattern: "GET /import/uploads/{id}", Handler: s.page("trades:write", s.handleMapUploadPage)},
		{Pattern: "POST /import/uploads/{id}", Handler: s.page("trades:write", s.handleMapUploadPost), API: "POST /api/v1/import-mappings"},
	}
}

func (s *Pages) describeMappingDelete(ctx context.Context, userID, id string) (string, []string, error) {
	m, err := s.db.ImportMappingRecord(ctx, userID, id)
	return "mapping " + m.Name, []string{"Imports read with it stay; files with its header no longer import by format auto."}, err
}

// mappingsPage is the list of saved mappings.
type mappingsPage struct {
	pageData
	Mappings []db.ImportMapping
	CanEdit  bool
	Message  string
}

func (s *Pages) handleMappingsPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	ms, _, err := s.db.ImportMappings(r.Context(), sess.UserID, db.Page{Limit: 500})
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	s.render(w, r, http.StatusOK, "mappings", mappingsPage{pageData: pageData{Session: sess, Nav: "import"}, Mappings: ms,
		CanEdit: sess.Can("trades:write"), Message: doneMessage(r.URL.Query(), "saved", "deleted")})
}

// mapForm is the import page's section that maps a kept file's columns:
// its header and first rows, and the form's values.
type mapForm struct {
	UploadID, FileName string
	Header             []string
	Rows               [][]string
	Roles              []field
	DateOrders         []string
	Decimals           []string
	Values             url.Values
}

// Value is what the form shows in the field name.
func (m mapForm) Value(name string) string { return m.Values.Get(name) }

// Selected reports whether the select name has column chosen.
func (m mapForm) Selected(name, column string) bool {
	return slices.Contains(commaList(m.Values[name]), column)
}

// guessColumns fills a new map form: each role with the column of its own
// name (Symbol for symbol), where the header has one.
func guessColumns(header []string) url.Values {
	v := url.Values{"date_order": {"auto"}, "decimal": {"point"}}
	for _, role := range append(mappingRoles, field{Name: "commission"}) {
		for _, h := range header {
			if strings.EqualFold(strings.ReplaceAll(h, " ", "_"), role.Name) {
				v.Set(role.Name, h)
				break
			}
		}
	}
	return v
}

// keptFile reads a kept file of the user's and its first rows.
func (s *Pages) keptFile(r *http.Request, sess *db.Session) (db.ImportUpload, mapForm, error) {
	id, err := input.PathID(r, "Upload")
	if err != nil {
		return db.ImportUpload{}, mapForm{}, err
	}
	u, err := s.db.ImportUploadRecord(r.Context(), sess.UserID, id)
	if err != nil {
		return db.ImportUpload{}, mapForm{}, err
	}
	m := mapForm{UploadID: id, FileName: u.FileName, Roles: mappingRoles, DateOrders: db.MappingDateOrders,
		Decimals: db.MappingDecimals}
	m.Header, m.Rows, err = brokers.Head(bytes.NewReader(u.Content), 5)
	return u, m, err
}

// handleMapUploadPage shows a kept file's header and first rows with the
// form that maps its columns.
func (s *Pages) handleMapUploadPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	_, m, err := s.keptFile(r, sess)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	m.Values = guessColumns(m.Header)
	s.renderImport(w, r, sess, http.StatusOK, importPage{Map: &m})
}

// handleMapUploadPost previews the kept file read by the mapping as typed
// (?preview: a dry run, as the import page's preview), or saves the
// mapping as POST /api/v1/import-mappings does; the kept file then goes.
func (s *Pages) handleMapUploadPost(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	u, m, err := s.keptFile(r, sess)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	m.Values = r.PostForm
	fr := newFormReader(r.PostForm, true, mappingFields)
	in := readMapping(fr)
	if err = fr.err(); err == nil {
		err = input.ImportMapping(&in, true)
	}
	if err == nil && r.URL.Query().Has("preview") {
		var imp db.Import
		if imp, err = s.previewMapping(r, sess, u, in); err == nil {
			s.renderImport(w, r, sess, http.StatusOK, importPage{Map: &m, Preview: &importPreview{Import: imp}})
			return
		}
	} else if err == nil {
		var saved db.ImportMapping
		if saved, err = s.db.CreateImportMapping(r.Context(), sess.UserID, in); err == nil {
			if err = s.db.DeleteImportUpload(r.Context(), sess.UserID, u.ID); err == nil {
				http.Redirect(w, r, "/import?mapped="+url.QueryEscape(saved.Name), http.StatusSeeOther)
				return
			}
		}
	}
	e := problem.Answer(w, r, s.log, err)
	if e.Status >= 500 {
		s.renderError(w, r, sess, e)
		return
	}
	s.renderImport(w, r, sess, e.Status, importPage{Map: &m, Error: importProblemText(e)})
}

// previewMapping is a dry run of the kept file read by the unsaved
// mapping, into the account the form names or by the file's account column.
func (s *Pages) previewMapping(r *http.Request, sess *db.Session, u db.ImportUpload, in db.ImportMappingInput) (db.Import, error) {
	m := in.Draft().Broker()
	file, err := brokers.Read(bytes.NewReader(u.Content), brokers.Options{Mapping: &m, Location: s.zone(sess.Timezone)})
	if err != nil {
		return db.Import{}, err
	}
	f := input.Errors{}
	accountID := ""
	if id := r.PostFormValue("account_id"); id != "" {
		accountID, _ = f.UUID("account_id", id)
	}
	if err := f.Err(); err != nil {
		return db.Import{}, err
	}
	return s.db.Import(r.Context(), sess.UserID, db.ImportInput{File: file, FileName: u.FileName,
		Timezone: sess.Timezone, AccountID: accountID, DryRun: true, ListUnknown: true})
}
