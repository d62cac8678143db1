package web

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"tradejournal/db"
	"tradejournal/server/input"
	"tradejournal/server/problem"
)

// tradeRoutes are the pages of trades: manual entry with fills, edit,
// delete, and the trade list's selection (bulk).
func (s *Pages) tradeRoutes() []Route {
	return []Route{
		{Pattern: "GET /trades/new", Handler: s.page("trades:write", s.handleTradeNew)},
		{Pattern: "POST /trades", Handler: s.page("trades:write", s.handleTradeCreate), API: "POST /api/v1/trades"},
		{Pattern: "GET /trades/{id}/edit", Handler: s.page("trades:write", s.handleTradeEdit)},
		{Pattern: "POST /trades/{id}", Handler: s.page("trades:write", s.handleTradeUpdate), API: "PUT /api/v1/trades/{id}"},
		{Pattern: "GET /trades/{id}/delete", Handler: s.page("trades:write", s.confirmDelete("Trade", "/trades", "trades", s.describeTradeDelete))},
		{Pattern: "POST /trades/{id}/delete", Handler: s.page("trades:write", s.deletePost("Trade", "/trades", deleteOnly(s.db.DeleteTrade))), API: "DELETE /api/v1/trades/{id}"},
		{Pattern: "GET /trades/bulk", Handler: s.page("trades:write", s.handleBulkForm)},
		{Pattern: "GET /trades/bulk/delete", Handler: s.page("trades:write", s.handleBulkDeleteConfirm)},
		{Pattern: "POST /trades/bulk", Handler: s.page("trades:write", s.handleBulkPost), API: "POST /api/v1/trades/bulk"},
	}
}

// The trade form reads into the API's db.TradeInput as POST and PUT
// /api/v1/trades bodies carry it, fills included, and checks it with the
// API's own input.Trade, input.Execution and input.Review. Its fills are
// rows named as the API names them ("executions[1].price"); an empty row
// is no fill, so the rows typed in are the fills in order, and a reason
// names a fill by its row in the form's words ("Fill 2: price must be a
// positive number"). With fills, a trade's entry, exit, quantity and
// prices are the fills' (the server derives them), so the fields for a
// trade typed in by hand are read only when no row is filled in.

// maxFills bounds a trade's fills, as the API does.
const maxFills = 1000

// fillRowsStep is how many empty fill rows a form shows, and how many
// more "More fill rows" adds.
const fillRowsStep = 6

// fillColumns are a fill row's inputs: the API's field and the form's word.
var fillColumns = []struct{ name, words string }{
	{"side", "side"}, {"price", "price"}, {"quantity", "quantity"}, {"commission", "commission"},
	{"execution_date", "date"}, {"execution_time", "time"},
}

// tradeChoice is an option of a select: its value and the words shown.
type tradeChoice struct{ Value, Text string }

// tradeField is one input of the trade form as the template shows it.
type tradeField struct {
	Name, Label, Kind, Hint string
	Required                bool
	Choices                 []tradeChoice
	Value, Error            string
}

// tradeLabels are the trade form's words for the API's fields, for its
// reasons.
var tradeLabels = map[string]string{
	"account_id": "Account", "symbol": "Symbol", "side": "Side", "entry_date": "Entry date", "asset_class": "Asset class",
	"status": "Status", "entry_time": "Entry time", "entry_price": "Entry price", "quantity": "Quantity",
	"exit_price": "Exit price", "exit_date": "Exit date", "exit_time": "Exit time", "review_notes": "Notes",
}

// fillRow is one fill row of the form: what is in its inputs, by column,
// and each column's reason.
type fillRow struct {
	Number         int // 1-based, as reasons name it
	Values, Errors map[string]string
}

// Value is what the row's column shows.
func (f fillRow) Value(column string) string { return f.Values[column] }

// Error is the row's column's reason, "" when it has none.
func (f fillRow) Error(column string) string { return f.Errors[column] }

// fillError is a fill's reason as listed under the fills, with the id its
// input points to.
type fillError struct{ ID, Path, Text string }

// tradeFormPage is the data of the trade form template.
type tradeFormPage struct {
	pageData
	Title, Action, Submit, Cancel, DeleteURL string
	Problem, FillsProblem                    string
	Refused, NoAccounts                      bool
	Main, Manual                             []tradeField
	Notes                                    *tradeField
	Fills                                    []fillRow
	FillErrors                               []fillError
}

// handleTradeNew shows an empty trade form with six fill rows.
func (s *Pages) handleTradeNew(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	s.renderTradeForm(w, r, sess, http.StatusOK, nil, url.Values{}, padFills(nil, fillRowsStep), nil)
}

// handleTradeEdit shows a trade in its form: its fields and its fills, a
// row each, with empty rows to add more.
func (s *Pages) handleTradeEdit(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	t, err := s.pathTrade(r, sess)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	values, fills := tradeValues(t.Trade)
	s.renderTradeForm(w, r, sess, http.StatusOK, &t, values, padFills(fills, len(fills)+fillRowsStep), nil)
}

// handleTradeCreate records a trade from the form as POST /api/v1/trades
// does, and opens it.
func (s *Pages) handleTradeCreate(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	s.saveTrade(w, r, sess, nil)
}

// handleTradeUpdate saves the form over the trade as PUT
// /api/v1/trades/{id} does: its fills are replaced by the rows'.
func (s *Pages) handleTradeUpdate(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	t, err := s.pathTrade(r, sess)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	s.saveTrade(w, r, sess, &t)
}

func (s *Pages) pathTrade(r *http.Request, sess *db.Session) (db.EnrichedTrade, error) {
	id, err := input.PathID(r, "Trade")
	if err != nil {
		return db.EnrichedTrade{}, err
	}
	return s.db.Trade(r.Context(), sess.UserID, id)
}

// saveTrade reads, checks and saves the form (a new trade when t is nil),
// then opens the trade; "More fill rows" shows the form again with more
// rows and saves nothing; a refusal shows it again with what was typed
// and each reason beside its field or under the fills.
func (s *Pages) saveTrade(w http.ResponseWriter, r *http.Request, sess *db.Session, t *db.EnrichedTrade) {
	in, fills, rows, err := readTradeForm(r.PostForm, t == nil)
	if r.PostForm.Has("more") {
		s.renderTradeForm(w, r, sess, http.StatusOK, t, r.PostForm, padFills(fills, min(maxFills, rows+fillRowsStep)), nil)
		return
	}
	var id string
	if err == nil {
		if t == nil {
			var created db.Trade
			created, err = s.db.CreateTrade(r.Context(), sess.UserID, in)
			id = created.ID
		} else {
			id = t.ID
			_, err = s.db.UpdateTrade(r.Context(), sess.UserID, id, in)
		}
	}
	if err == nil {
		http.Redirect(w, r, "/trades/"+id+"?saved=1", http.StatusSeeOther)
		return
	}
	e := problem.Answer(w, r, s.log, err)
	if e.Status >= 500 || len(e.Details) == 0 && e.Status == http.StatusNotFound {
		s.renderError(w, r, sess, e)
		return
	}
	s.renderTradeForm(w, r, sess, e.Status, t, r.PostForm, padFills(fills, rows), e)
}

// renderTradeForm shows the trade form (an edit's when t is not nil) with
// values and fills, and a refusal's reasons when refused is not nil.
func (s *Pages) renderTradeForm(w http.ResponseWriter, r *http.Request, sess *db.Session, status int,
	t *db.EnrichedTrade, values url.Values, fills []fillRow, refused *problem.Problem) {
	accounts, err := s.accounts(r.Context(), sess.UserID)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	p := tradeFormPage{pageData: pageData{Session: sess, Nav: "trades"}, Title: "New trade", Action: "/trades",
		Submit: "Create trade", Cancel: "/trades", Fills: fills, NoAccounts: len(accounts) == 0}
	if t != nil {
		p.Title, p.Action, p.Submit = "Edit "+tradeTitle(t.Trade), "/trades/"+t.ID, "Save trade"
		p.Cancel, p.DeleteURL = "/trades/"+t.ID, "/trades/"+t.ID+"/delete"
	}
	reasons := map[string]string{}
	if refused != nil {
		p.Refused = true
		reasons, p.FillErrors, p.FillsProblem, p.Problem = tradeReasons(refused, p.Fills)
	}
	p.Main, p.Manual, p.Notes = tradeFields(accounts, t, values, reasons)
	s.render(w, r, status, "trade_form", p)
}

// tradeFields are the form's fields with their values and reasons: the
// trade's, the ones for a trade typed in by hand (no fills), and, on a
// new trade, its notes. An edit's asset class and status keep what the
// trade has unless changed: "From the symbol" and "From the P&L" clear a
// value set by hand (the API's null).
func tradeFields(accounts accountList, t *db.EnrichedTrade, values url.Values, reasons map[string]string) (main, manual []tradeField, notes *tradeField) {
	var accountChoices []tradeChoice
	for _, a := range accounts {
		text := a.AccountNumber
		if a.Name != "" {
			text += " · " + a.Name
		}
		accountChoices = append(accountChoices, tradeChoice{a.ID, text})
	}
	choices := func(first []tradeChoice, values []string) []tradeChoice {
		for _, v := range values {
			first = append(first, tradeChoice{v, v})
		}
		return first
	}
	assetClasses := []tradeChoice{{"", "From the symbol"}}
	if t != nil {
		assetClasses = []tradeChoice{{"", "As it is (" + t.AssetClass + ")"}, {"auto", "From the symbol"}}
	}
	main = []tradeField{
		{Name: "account_id", Label: "Account", Kind: "select", Required: true, Choices: accountChoices},
		{Name: "symbol", Label: "Symbol", Kind: "text", Required: true, Hint: "As your platform names it, such as NQH6 or AAPL"},
		{Name: "side", Label: "Side", Kind: "select", Required: true, Choices: choices(nil, db.TradeSides)},
		{Name: "entry_date", Label: "Entry date", Kind: "date", Required: true, Hint: "A fill without a date is of this day"},
		{Name: "asset_class", Label: "Asset class", Kind: "select", Choices: choices(assetClasses, db.AssetClasses)},
	}
	if t != nil {
		main = append(main, tradeField{Name: "status", Label: "Status", Kind: "select",
			Choices: choices([]tradeChoice{{"", "As it is (" + t.Status + ")"}, {"auto", "From the P&L"}}, db.TradeStatuses),
			Hint:    "A status other than the P&L's is kept until set back to From the P&L"})
	}
	manual = []tradeField{
		{Name: "entry_time", Label: "Entry time", Kind: "time"},
		{Name: "entry_price", Label: "Entry price", Kind: "number"},
		{Name: "quantity", Label: "Quantity", Kind: "number"},
		{Name: "exit_price", Label: "Exit price", Kind: "number", Hint: "Empty while the trade is open"},
		{Name: "exit_date", Label: "Exit date", Kind: "date", Hint: "The entry date when empty"},
		{Name: "exit_time", Label: "Exit time", Kind: "time"},
	}
	for _, list := range [][]tradeField{main, manual} {
		for i := range list {
			list[i].Value, list[i].Error = values.Get(list[i].Name), reasons[list[i].Name]
		}
	}
	if t == nil {
		notes = &tradeField{Name: "review_notes", Label: "Notes", Kind: "textarea", Value: values.Get("review_notes"),
			Error: reasons["review_notes"], Hint: "Optional; the rest of the review is on the trade's page"}
	}
	return main, manual, notes
}

// tradeValues fills the form with a trade: its fields and its fills.
func tradeValues(t db.Trade) (url.Values, []fillRow) {
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	str := func(v *string) string {
		if v == nil {
			return ""
		}
		return *v
	}
	exit := ""
	if t.ExitPrice != nil {
		exit = num(*t.ExitPrice)
	}
	values := url.Values{"account_id": {t.AccountID}, "symbol": {t.Symbol}, "side": {t.Side}, "entry_date": {t.EntryDate},
		"entry_time": {str(t.EntryTime)}, "entry_price": {num(t.EntryPrice)}, "quantity": {num(t.Quantity)},
		"exit_price": {exit}, "exit_date": {str(t.ExitDate)}, "exit_time": {str(t.ExitTime)}}
	fills := make([]fillRow, len(t.Executions))
	for i, e := range t.Executions {
		fills[i] = fillRow{Values: map[string]string{"side": e.Side, "price": num(e.Price), "quantity": num(e.Quantity),
			"commission": num(e.Commission), "execution_date": e.ExecutionDate, "execution_time": e.ExecutionTime}}
	}
	return values, fills
}

// padFills numbers the fills and adds empty rows up to rows (at least the
// step's).
func padFills(fills []fillRow, rows int) []fillRow {
	out := slices.Clone(fills)
	for len(out) < max(rows, fillRowsStep) {
		out = append(out, fillRow{Values: map[string]string{}})
	}
	for i := range out {
		out[i].Number = i + 1
		if out[i].Errors == nil {
			out[i].Errors = map[string]string{}
		}
	}
	return out
}

// typedFills are the form's fill rows that hold anything, in order, and
// how many rows the form had.
func typedFills(values url.Values) (fills []fillRow, rows int, tooMany bool) {
	byRow := map[int]map[string]string{}
	for key, vs := range values {
		rest, ok := strings.CutPrefix(key, "executions[")
		i, column, ok2 := strings.Cut(rest, "].")
		n, err := strconv.Atoi(i)
		if !ok || !ok2 || err != nil || n < 0 || !slices.ContainsFunc(fillColumns, func(c struct{ name, words string }) bool { return c.name == column }) {
			continue
		}
		if n >= maxFills {
			tooMany = true
			continue
		}
		if byRow[n] == nil {
			byRow[n] = map[string]string{}
		}
		byRow[n][column] = strings.TrimSpace(vs[0])
		rows = max(rows, n+1)
	}
	for n := range rows {
		if row := byRow[n]; slices.ContainsFunc(fillColumns, func(c struct{ name, words string }) bool { return row[c.name] != "" }) {
			fills = append(fills, fillRow{Values: row})
		}
	}
	return fills, rows, tooMany
}

// readTradeForm reads the trade form into the API's input, checked as the
// API checks a body (create: POST, else PUT), with its filled-in fill rows
// and how many rows the form had.
func readTradeForm(values url.Values, create bool) (db.TradeInput, []fillRow, int, error) {
	fills, rows, tooMany := typedFills(values)
	// The reader reads the fills as the rows they are now, in order, so
	// that a reason's fill is the row that shows it.
	v := url.Values{}
	for k, vs := range values {
		if !strings.HasPrefix(k, "executions[") {
			v[k] = vs
		}
	}
	for i, f := range fills {
		for column, value := range f.Values {
			v.Set(fmt.Sprintf("executions[%d].%s", i, column), value)
		}
	}
	r := newFormReader(v, create, nil)
	in := db.TradeInput{AccountID: r.text("account_id", false), Symbol: r.text("symbol", false),
		Side: r.text("side", false), EntryDate: r.text("entry_date", false),
		AssetClass: readTradeChoice(r, "asset_class"), Status: readTradeChoice(r, "status")}
	if tooMany {
		r.errs.Add("executions", fmt.Sprintf("executions may hold at most %d fills", maxFills))
	}
	switch {
	case len(fills) > 0:
		execs := make([]db.ExecutionInput, len(fills))
		for i := range fills {
			path := fmt.Sprintf("executions[%d]", i)
			execs[i] = db.ExecutionInput{Side: r.text(path+".side", false), Price: r.number(path+".price", false),
				Quantity: r.number(path+".quantity", false), Commission: r.number(path+".commission", false),
				ExecutionDate: r.text(path+".execution_date", false), ExecutionTime: readTradeClock(r, path+".execution_time", false)}
			input.Execution(r.errs, path, &execs[i])
		}
		in.Executions = db.Some(execs)
	default:
		// A trade typed in by hand: on an edit whose rows are all empty,
		// its fills (if it had any) are removed, as a PUT with
		// "executions": [] does. A post without rows is not this form's
		// and leaves them, as a PUT without executions does.
		if !create && rows > 0 {
			in.Executions = db.Some([]db.ExecutionInput{})
		}
		in.EntryTime, in.EntryPrice = readTradeClock(r, "entry_time", true), r.number("entry_price", false)
		in.Quantity, in.ExitPrice = r.number("quantity", false), r.number("exit_price", true)
		in.ExitDate, in.ExitTime = r.text("exit_date", true), readTradeClock(r, "exit_time", true)
	}
	if notes := strings.TrimSpace(strings.ReplaceAll(v.Get("review_notes"), "\r\n", "\n")); create && notes != "" {
		in.ReviewNotes = db.Some(richDoc(notes))
	}
	if create {
		in.Status = db.Optional[string]{} // the server's to derive, as the API ignores it on create
	}
	input.Trade(r.errs, &in, create)
	input.Review(r.errs, &in)
	return in, fills, rows, r.err()
}

// tradeChoice reads a select whose "" leaves the field as it is and "auto"
// gives it back to the server to derive (null).
func readTradeChoice(r *formReader, name string) db.Optional[string] {
	switch v := strings.TrimSpace(r.values.Get(name)); v {
	case "":
		return db.Optional[string]{}
	case "auto":
		if r.create {
			return db.Optional[string]{}
		}
		return db.Optional[string]{Set: true, Null: true}
	default:
		return db.Some(v)
	}
}

// clock reads a time field: HH:MM (a browser's time input without
// seconds) is HH:MM:00.
func readTradeClock(r *formReader, name string, clearable bool) db.Optional[string] {
	v := r.text(name, clearable)
	if v.Set && !v.Null && len(v.Value) == 5 && v.Value[2] == ':' {
		v.Value += ":00"
	}
	return v
}

// fillRef is a fill named in a reason by the API's path.
var fillRef = regexp.MustCompile(`executions\[(\d+)\]`)

// tradeReasons sorts a refused trade's reasons in the form's words: each
// field's beside it ("Entry price must be a positive number"), each fill's
// on its row and listed under the fills ("Fill 2: price must be a positive
// number"), what is about the fills as a whole, and the rest as one line.
func tradeReasons(e *problem.Problem, fills []fillRow) (byField map[string]string, fillErrs []fillError, fillsProblem, rest string) {
	byField = map[string]string{}
	var others []string
	for _, path := range slices.Sorted(maps.Keys(e.Details)) {
		reason := e.Details[path]
		if m := fillRef.FindStringSubmatch(path); m != nil && strings.HasPrefix(path, "executions[") {
			n, _ := strconv.Atoi(m[1])
			column := strings.TrimPrefix(path, m[0]+".")
			words := column
			for _, c := range fillColumns {
				if c.name == column {
					words = c.words
				}
			}
			tail := strings.TrimSuffix(strings.TrimPrefix(reason, path), " unless execution_timestamp is given")
			text := fmt.Sprintf("Fill %d: %s%s", n+1, words, tail)
			if n < len(fills) {
				fills[n].Errors[column] = text
			}
			fillErrs = append(fillErrs, fillError{ID: fmt.Sprintf("e-fill-%d-%s", n, column), Path: path, Text: text})
			continue
		}
		if path == "executions" {
			fillsProblem = fillWords(reason)
			continue
		}
		label, ok := tradeLabels[path]
		if !ok {
			others = append(others, problemReason(path, reason))
			continue
		}
		byField[path] = tradeFieldWords(label, path, reason)
	}
	if len(e.Details) == 0 {
		others = append(others, e.Message)
	}
	return byField, fillErrs, fillsProblem, strings.Join(others, ". ")
}

// tradeFieldWords is a field's reason as the form says it: by its label, and
// naming other fields by theirs ("Exit date must not be before entry
// date").
func tradeFieldWords(label, path, reason string) string {
	tail, named := strings.CutPrefix(reason, path)
	if !named {
		return label + ": " + reason
	}
	for name, other := range tradeLabels {
		if strings.Contains(name, "_") {
			tail = strings.ReplaceAll(tail, name, strings.ToLower(other))
		}
	}
	return label + tail
}

// fillWords names the fills of a reason by their rows: "executions[1]
// (sell 2) would reverse …" is "Fill 2 (sell 2) would reverse …".
func fillWords(reason string) string {
	reason = fillRef.ReplaceAllStringFunc(reason, func(ref string) string {
		n, _ := strconv.Atoi(fillRef.FindStringSubmatch(ref)[1])
		return "Fill " + strconv.Itoa(n+1)
	})
	if tail, ok := strings.CutPrefix(reason, "executions "); ok {
		return "Fills: " + tail
	}
	return reason
}

// tradeTitle names a trade as titles do: "ESH6 long of 2026-02-05".
func tradeTitle(t db.Trade) string {
	return t.Symbol + " " + t.Side + " of " + t.EntryDate
}

// describeTradeDelete names what deleting a trade takes with it, from the
// counts DeleteTrade's warnings give.
func (s *Pages) describeTradeDelete(ctx context.Context, userID, id string) (string, []string, error) {
	t, err := s.db.Trade(ctx, userID, id)
	if err != nil {
		return "", nil, err
	}
	n, err := s.db.TradeRemoval(ctx, userID, []string{id})
	if err != nil {
		return "", nil, err
	}
	return "the " + tradeTitle(t.Trade), tradeRemovalLines(n), nil
}

// tradeRemovalLines are what goes with deleted trades, as a confirm step lists
// it.
func tradeRemovalLines(n db.TradeRemoval) []string {
	var out []string
	if n.Fills > 0 {
		out = append(out, "deletes "+count(n.Fills, "fill", "fills"))
	}
	if n.WriteUps > 0 {
		out = append(out, "deletes "+count(n.WriteUps, "write-up", "write-ups"))
	}
	if n.TagLinks > 0 {
		out = append(out, "removes "+count(n.TagLinks, "tag link", "tag links")+" (the tags stay)")
	}
	if n.Documents > 0 {
		out = append(out, "unlinks "+count(n.Documents, "document", "documents")+" (the documents stay)")
	}
	return out
}

// The trade list's selection: the list ticks trades (a GET form, so that
// no token travels in an address) and opens the bulk form, which names
// how many are ticked and offers the changes POST /api/v1/trades/bulk
// makes (tags added and removed, the playbook, reviewed), or the delete,
// behind its confirm step. Its post is read into db.TradeBulk, checked by
// the rules the API's decodeTradeBulk checks, and saved by the same
// BulkTrades: all the trades change, or none.

// bulkLabels are the bulk form's words for the API's fields.
var bulkLabels = map[string]string{"trade_ids": "Trades", "add_tag_ids": "Add tags", "remove_tag_ids": "Remove tags",
	"playbook_id": "Playbook", "reviewed": "Reviewed", "delete": "Delete"}

// bulkPage is the data of the bulk form and of its delete's confirm step.
type bulkPage struct {
	pageData
	TradeIDs                []string
	Trades                  int
	ShowTags, ShowPlaybooks bool
	TagGroups               []db.TagGroup
	Playbooks               []db.Playbook
	Values                  url.Values
	Errors                  map[string]string
	Problem, DeleteURL      string
	Consequences            []string
}

// Value is what the form shows in the field name.
func (p bulkPage) Value(name string) string { return p.Values.Get(name) }

// Checked reports whether the box of id is ticked in the field name.
func (p bulkPage) Checked(name, id string) bool { return slices.Contains(p.Values[name], id) }

// Error is the field name's reason, "" when it has none.
func (p bulkPage) Error(name string) string { return p.Errors[name] }

// bulkTagList is one of the form's lists of tag boxes.
type bulkTagList struct{ Name, Label, Error string }

// TagLists are the form's two lists of tag boxes: tags to add, to remove.
func (p bulkPage) TagLists() []bulkTagList {
	return []bulkTagList{{"add_tag_ids", bulkLabels["add_tag_ids"], p.Errors["add_tag_ids"]},
		{"remove_tag_ids", bulkLabels["remove_tag_ids"], p.Errors["remove_tag_ids"]}}
}

// bulkSelection checks the ticked trades as the API checks trade_ids (1
// to 500 ids, each the user's) and counts what deleting them takes.
func (s *Pages) bulkSelection(ctx context.Context, sess *db.Session, ids []string) ([]string, db.TradeRemoval, error) {
	if n := len(ids); n == 0 || n > input.MaxBulkTrades {
		return nil, db.TradeRemoval{}, &problem.Problem{Status: http.StatusBadRequest, Code: "VALIDATION_ERROR",
			Message: fmt.Sprintf("Tick 1 to %d trades on the trade list first (%d were ticked)", input.MaxBulkTrades, n)}
	}
	f := input.Errors{}
	ids = slices.Clone(ids)
	for i, id := range ids {
		ids[i], _ = f.UUID(fmt.Sprintf("trade_ids[%d]", i), id)
	}
	if err := f.Err(); err != nil {
		return nil, db.TradeRemoval{}, err
	}
	n, err := s.db.TradeRemoval(ctx, sess.UserID, ids)
	return ids, n, err
}

// handleBulkForm shows the changes the ticked trades can take together.
func (s *Pages) handleBulkForm(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	ids, n, err := s.bulkSelection(r.Context(), sess, r.URL.Query()["trade_ids"])
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	s.renderBulk(w, r, sess, http.StatusOK, ids, n, url.Values{}, nil)
}

// renderBulk shows the bulk form with values and a refusal's reasons.
// The tags and playbooks are offered only to a session that may read
// them.
func (s *Pages) renderBulk(w http.ResponseWriter, r *http.Request, sess *db.Session, status int, ids []string,
	n db.TradeRemoval, values url.Values, refused *problem.Problem) {
	p := bulkPage{pageData: pageData{Session: sess, Nav: "trades"}, TradeIDs: ids, Trades: n.Trades, Values: values,
		Errors: map[string]string{}, ShowTags: sess.Can("tags:read"), ShowPlaybooks: sess.Can("playbooks:read"),
		DeleteURL: "/trades/bulk/delete?" + url.Values{"trade_ids": ids}.Encode()}
	var err error
	if p.ShowTags {
		if p.TagGroups, err = s.db.TagGroups(r.Context(), sess.UserID); err != nil {
			s.errorPage(w, r, sess, err)
			return
		}
	}
	if p.ShowPlaybooks {
		if p.Playbooks, _, err = s.db.Playbooks(r.Context(), sess.UserID, db.Page{Limit: 100}); err != nil {
			s.errorPage(w, r, sess, err)
			return
		}
	}
	if refused != nil {
		p.Errors, p.Problem = bulkReasons(refused)
	}
	s.render(w, r, status, "trade_bulk", p)
}

// handleBulkDeleteConfirm is the bulk delete's confirm step: how many
// trades go and what goes with them, from the counts the API's warnings
// give. It changes nothing.
func (s *Pages) handleBulkDeleteConfirm(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	ids, n, err := s.bulkSelection(r.Context(), sess, r.URL.Query()["trade_ids"])
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	s.render(w, r, http.StatusOK, "trade_bulk_delete", bulkPage{pageData: pageData{Session: sess, Nav: "trades"},
		TradeIDs: ids, Trades: n.Trades, Consequences: tradeRemovalLines(n)})
}

// handleBulkPost makes the bulk change, as POST /api/v1/trades/bulk, and
// goes back to the list; a refusal shows the form again with what was
// ticked and chosen, and why.
func (s *Pages) handleBulkPost(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	b, err := readBulk(r.PostForm)
	var res db.TradeBulkResult
	if err == nil {
		res, err = s.db.BulkTrades(r.Context(), sess.UserID, b)
	}
	if err == nil {
		if b.Delete {
			http.Redirect(w, r, "/trades?deleted="+strconv.Itoa(res.Deleted), http.StatusSeeOther)
			return
		}
		http.Redirect(w, r, "/trades?updated="+strconv.Itoa(res.Updated), http.StatusSeeOther)
		return
	}
	e := problem.Answer(w, r, s.log, err)
	// The trades were ticked on the list: a fault in them is no field of
	// this form's, so it is the error page.
	ids, n, selErr := s.bulkSelection(r.Context(), sess, r.PostForm["trade_ids"])
	if selErr != nil {
		s.errorPage(w, r, sess, selErr)
		return
	}
	if e.Status >= 500 {
		s.renderError(w, r, sess, e)
		return
	}
	s.renderBulk(w, r, sess, e.Status, ids, n, r.PostForm, e)
}

// readBulk reads the bulk form into the API's db.TradeBulk, checked by the
// rules the API checks a body by (input.TradeBulk): 1 to 500 trade ids, every id a
// UUID, a tag added or removed but not both, at least one action, and a
// delete alone. An empty playbook or reviewed leaves it as it is; the
// playbook "none" clears it (the API's null).
func readBulk(v url.Values) (db.TradeBulk, error) {
	f := input.Errors{}
	ticked := func(name string) []string {
		var out []string
		for _, id := range v[name] {
			if id = strings.TrimSpace(id); id != "" || name == "trade_ids" {
				out = append(out, id)
			}
		}
		return out
	}
	b := db.TradeBulk{TradeIDs: ticked("trade_ids"), AddTagIDs: ticked("add_tag_ids"), RemoveTagIDs: ticked("remove_tag_ids"),
		Delete: v.Get("delete") == "true"}
	switch p := strings.TrimSpace(v.Get("playbook_id")); p {
	case "":
	case "none":
		b.PlaybookID = db.Optional[string]{Set: true, Null: true}
	default:
		b.PlaybookID = db.Some(p)
	}
	switch reviewed := v.Get("reviewed"); reviewed {
	case "":
	case "true", "false":
		b.Reviewed = db.Some(reviewed == "true")
	default:
		f.Add("reviewed", "reviewed must be true or false")
	}
	input.TradeBulk(f, &b)
	return b, f.Err()
}

// bulkReasons are a refused bulk change's reasons in the form's words,
// each beside its field ("Remove tags: a tag is added or removed, not
// both"), and the rest as one line.
func bulkReasons(e *problem.Problem) (byField map[string]string, rest string) {
	byField = map[string]string{}
	var others []string
	for _, path := range slices.Sorted(maps.Keys(e.Details)) {
		reason := e.Details[path]
		name, _, _ := strings.Cut(path, "[")
		label, ok := bulkLabels[name]
		switch {
		case path == "body":
			others = append(others, "Choose a change: tags to add or remove, a playbook, or reviewed")
		case !ok:
			others = append(others, problemReason(path, reason))
		default:
			tail, named := strings.CutPrefix(reason, path)
			switch i := strings.LastIndex(tail, ": "); {
			case !named:
				reason = label + ": " + reason
			case i >= 0:
				reason = label + ": " + tail[i+2:]
			default:
				reason = label + tail
			}
			if _, dup := byField[name]; !dup {
				byField[name] = reason
			}
		}
	}
	if len(e.Details) == 0 {
		others = append(others, e.Message)
	}
	return byField, strings.Join(others, ". ")
}
