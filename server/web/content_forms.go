package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"tradejournal/db"
	"tradejournal/server/input"
	"tradejournal/server/problem"
)

// contentRoutes are the pages of write-ups, trading plans, chart books,
// report cards; payouts and expenses edited and deleted; documents
// replaced and deleted.
func (s *Pages) contentRoutes() []Route {
	routes := []Route{
		{Pattern: "GET /journal", Handler: s.page("content:read", s.handleJournal)},
		{Pattern: "GET /journal/report-cards", Handler: s.page("content:read", s.journalKind(s.reportCardSection))},
		{Pattern: "GET /journal/trading-plans", Handler: s.page("content:read", s.journalKind(s.planSection))},
		{Pattern: "GET /journal/write-ups", Handler: s.page("content:read", s.journalKind(s.writeUpSection))},
		{Pattern: "GET /journal/chart-books", Handler: s.page("content:read", s.journalKind(s.chartBookSection))},
	}
	routes = append(routes, s.reportCardPages().routes(s)...)
	routes = append(routes, s.planPages().routes(s)...)
	routes = append(routes, s.writeUpPages().routes(s)...)
	routes = append(routes, s.chartBookPages().routes(s)...)
	routes = append(routes, s.payoutFormRoutes()...)
	return append(routes, s.documentFormRoutes()...)
}

// livePages are a record's pages whose fields offer the user's own
// records (accounts, playbooks, trades, documents, tags): choose builds
// the fields for each request, from what the session may read; the
// builders (recordPages) do the rest. r names the record an edit is of,
// and a new form's link may name one (?trade_id=).
type livePages[In, T any] struct {
	recordPages[In, T]
	choose func(r *http.Request, sess *db.Session) ([]field, error)
}

// step runs one of the builders' steps (recordPages[In, T].newForm, …)
// with the fields chosen for the request.
func (lp livePages[In, T]) step(s *Pages, step func(recordPages[In, T], *Pages) pageFunc) pageFunc {
	return func(w http.ResponseWriter, r *http.Request, sess *db.Session) {
		rp := lp.recordPages
		fields, err := lp.choose(r, sess)
		if err != nil {
			s.errorPage(w, r, sess, err)
			return
		}
		rp.fields = fields
		step(rp, s)(w, r, sess)
	}
}

// routes are the record's form pages under its path, each post naming the
// API write it makes (api is the API's collection): the new form and its
// post when create, the edit and its post, the delete's confirm step and
// its post.
func (lp livePages[In, T]) routes(s *Pages, scope, api string, create bool,
	describe func(ctx context.Context, userID, id string) (string, []string, error),
	del func(ctx context.Context, userID, id string) error) []Route {
	p := lp.path
	var out []Route
	if create {
		out = append(out,
			Route{Pattern: "GET " + p + "/new", Handler: s.page(scope, lp.step(s, recordPages[In, T].newForm))},
			Route{Pattern: "POST " + p, Handler: s.page(scope, lp.step(s, recordPages[In, T].createPost)), API: "POST " + api})
	}
	return append(out,
		Route{Pattern: "GET " + p + "/{id}/edit", Handler: s.page(scope, lp.step(s, recordPages[In, T].editForm))},
		Route{Pattern: "POST " + p + "/{id}", Handler: s.page(scope, lp.step(s, recordPages[In, T].updatePost)), API: "PUT " + api + "/{id}"},
		Route{Pattern: "GET " + p + "/{id}/delete", Handler: s.page(scope, s.confirmDelete(lp.kind, p, lp.nav, describe))},
		Route{Pattern: "POST " + p + "/{id}/delete", Handler: s.page(scope, s.deletePost(lp.kind, p, del)), API: "DELETE " + api + "/{id}"})
}

// contentPages are a content kind's new, edit and delete pages, in the
// journal: a kind states what differs (its words, its form, its store and
// API collection), and routes wires the rest the same for every kind.
type contentPages[In, T any] struct {
	kind, path string // "Write-up", "/journal/write-ups"
	api        string // "/api/v1/write-ups": the collection its posts write to
	store      db.Content[T, In]
	read       func(r *formReader) In
	check      func(in *In, create bool) error
	values     func(T) url.Values
	// describe names a record, and what its delete takes with it, for
	// the confirm step; the name alone titles its edit.
	describe func(T) (string, []string)
	defaults func(r *http.Request, sess *db.Session) url.Values // nil: a new form shows empty
	choose   func(r *http.Request, sess *db.Session) ([]field, error)
}

// routes are the kind's form pages under content:write, each post naming
// the API write under api it makes: the store's get, its create and update
// with their refusals of another's records in the form's words, and its
// delete.
func (c contentPages[In, T]) routes(s *Pages) []Route {
	lp := livePages[In, T]{recordPages[In, T]{
		kind: c.kind, path: c.path, nav: "journal",
		read: c.read, check: c.check, values: c.values,
		get: c.store.Get, create: createWords(c.store.Create), update: updateWords(c.store.Update),
		describe: titleOf(c.describe), defaults: c.defaults,
	}, c.choose}
	return lp.routes(s, "content:write", c.api, true, contentDescriber(c.store, c.describe), deleteOnly(c.store.Delete))
}

// contentDescriber names what deleting a record of a content kind takes
// with it: describe reads it from the record itself, whose tags and
// documents are the links the store's Delete removes and counts.
func contentDescriber[T, In any](store db.Content[T, In], describe func(T) (string, []string)) func(ctx context.Context, userID, id string) (string, []string, error) {
	return func(ctx context.Context, userID, id string) (string, []string, error) {
		rec, err := store.Get(ctx, userID, id)
		if err != nil {
			return "", nil, err
		}
		title, out := describe(rec)
		return title, out, nil
	}
}

// refWords words a reference to a record that is not the user's (the
// db's *NotFoundError naming a field) as its form shows it beside the
// field, "Trade is not one of your trades", keeping the API's 404.
func refWords(err error) error {
	var nf *db.NotFoundError
	if !errors.As(err, &nf) || nf.Field == "" {
		return err
	}
	name, _, _ := strings.Cut(nf.Field, "[")
	kind := strings.ToLower(nf.Kind)
	reason := name + " is not one of your " + kind + "s"
	if strings.HasSuffix(name, "_ids") { // a list: document_ids, tag_ids
		reason = name + " holds a " + kind + " that is not yours"
	}
	return &problem.Problem{Status: http.StatusNotFound, Code: "NOT_FOUND", Message: nf.Error(), Details: map[string]string{name: reason}}
}

// createWords and updateWords are a store's create and update whose
// refusals of another's records are in the form's words (refWords).
func createWords[In, T any](create func(ctx context.Context, userID string, in In) (T, error)) func(ctx context.Context, userID string, in In) (T, error) {
	return func(ctx context.Context, userID string, in In) (T, error) {
		v, err := create(ctx, userID, in)
		return v, refWords(err)
	}
}

func updateWords[In, T any](update func(ctx context.Context, userID, id string, in In) (T, error)) func(ctx context.Context, userID, id string, in In) (T, error) {
	return func(ctx context.Context, userID, id string, in In) (T, error) {
		v, err := update(ctx, userID, id, in)
		return v, refWords(err)
	}
}

// titleOf is what a confirm step's describe names a record, without what
// its delete takes with it: the words its form pages name it by.
func titleOf[T any](describe func(T) (string, []string)) func(T) string {
	return func(v T) string {
		title, _ := describe(v)
		return title
	}
}

// unlinksTags is a confirm step's line for a record's tags, which stay.
func unlinksTags(tags []db.TagRef) []string {
	if len(tags) == 0 {
		return nil
	}
	return []string{"unlinks its " + count(len(tags), "tag", "tags") + " (the tags themselves stay)"}
}

// The report card: the day's journal.

// reportCardPages are a report card's new, edit and delete pages; a new
// one is for today in the user's timezone, or the day its link names.
func (s *Pages) reportCardPages() contentPages[db.ReportCardInput, db.ReportCard] {
	return contentPages[db.ReportCardInput, db.ReportCard]{
		kind: "Report card", path: "/journal/report-cards", api: "/api/v1/report-cards", store: s.db.ReportCards(),
		read: readReportCardForm, check: input.ReportCard, values: reportCardValues, describe: describeReportCard,
		defaults: func(r *http.Request, sess *db.Session) url.Values {
			return url.Values{"report_date": {s.dayOf(r, sess)}}
		},
		choose: s.reportCardFields,
	}
}

func (s *Pages) reportCardFields(r *http.Request, sess *db.Session) ([]field, error) {
	out := []field{{Name: "report_date", Label: "Day", Kind: "date", Required: true}}
	if sess.Can("accounts:read") {
		accounts, err := s.accountChoices(r.Context(), sess)
		if err != nil {
			return nil, err
		}
		out = append(out, field{Name: "account_id", Label: "Account", Kind: "select", Options: accounts,
			Hint: "Empty for the whole day, every account"})
	}
	out = append(out,
		field{Name: "grade", Label: "Grade", Kind: "select", Choices: []string{"1", "2", "3", "4", "5"},
			Hint: "How well you traded your plan: 5 is your best"},
		field{Name: "notes_markdown", Label: "Notes", Kind: "textarea", Hint: "What went well, what to do differently (Markdown)"})
	return s.withTagChoices(r.Context(), sess, out)
}

// readReportCardForm reads the report card form as the API's body would
// carry it: on an edit an emptied account, grade or notes is cleared, an
// emptied day refused.
func readReportCardForm(r *formReader) db.ReportCardInput {
	return db.ReportCardInput{ReportDate: r.required("report_date"), AccountID: r.text("account_id", true),
		Grade: r.whole("grade", true), NotesMarkdown: r.text("notes_markdown", true), TagIDs: r.ids("tag_ids")}
}

func reportCardValues(c db.ReportCard) url.Values {
	v := url.Values{"report_date": {c.ReportDate}, "account_id": {orEmpty(c.AccountID)},
		"notes_markdown": {c.NotesMarkdown}, "tag_ids": tagIDsOf(c.Tags)}
	if c.Grade != nil {
		v.Set("grade", strconv.Itoa(*c.Grade))
	}
	return v
}

func describeReportCard(c db.ReportCard) (string, []string) {
	return "the report card of " + c.ReportDate, unlinksTags(c.Tags)
}

// The trading plan: tomorrow's plan, or a setup's.

// planPages are a trading plan's new, edit and delete pages; a new one is
// for today, or the day its link names, and titled after it.
func (s *Pages) planPages() contentPages[db.TradingPlanInput, db.TradingPlan] {
	return contentPages[db.TradingPlanInput, db.TradingPlan]{
		kind: "Trading plan", path: "/journal/trading-plans", api: "/api/v1/trading-plans", store: s.db.TradingPlans(),
		read: readPlanForm, check: input.TradingPlan, values: planValues, describe: describePlan,
		defaults: func(r *http.Request, sess *db.Session) url.Values {
			day := s.dayOf(r, sess)
			return url.Values{"plan_date": {day}, "title": {"Plan for " + day}}
		},
		choose: s.planFields,
	}
}

func (s *Pages) planFields(r *http.Request, sess *db.Session) ([]field, error) {
	out := []field{
		{Name: "title", Label: "Title", Kind: "text", Required: true},
		{Name: "plan_date", Label: "Day", Kind: "date", Hint: "The day the plan is for; empty for a plan of a setup"},
	}
	if sess.Can("playbooks:read") {
		playbooks, err := s.playbookChoices(r.Context(), sess)
		if err != nil {
			return nil, err
		}
		out = append(out, field{Name: "playbook_id", Label: "Playbook", Kind: "select", Options: playbooks})
	}
	out = append(out, field{Name: "content_markdown", Label: "Plan", Kind: "textarea",
		Hint: "Levels, scenarios, what you will and will not trade (Markdown)"})
	return s.withTagChoices(r.Context(), sess, out)
}

// readPlanForm reads the trading plan form: on an edit an emptied day,
// playbook or plan is cleared, an emptied title refused.
func readPlanForm(r *formReader) db.TradingPlanInput {
	return db.TradingPlanInput{Title: r.required("title"), PlanDate: r.text("plan_date", true),
		PlaybookID: r.text("playbook_id", true), ContentMarkdown: r.text("content_markdown", true), TagIDs: r.ids("tag_ids")}
}

func planValues(p db.TradingPlan) url.Values {
	return url.Values{"title": {p.Title}, "plan_date": {orEmpty(p.PlanDate)}, "playbook_id": {orEmpty(p.PlaybookID)},
		"content_markdown": {p.ContentMarkdown}, "tag_ids": tagIDsOf(p.Tags)}
}

func describePlan(p db.TradingPlan) (string, []string) {
	return "the trading plan " + strconv.Quote(p.Title), unlinksTags(p.Tags)
}

// The write-up: a trade's review, in words.

// writeUpPages are a write-up's new, edit and delete pages; a new one is
// of the trade its link names (?trade_id=, from the trade's page).
func (s *Pages) writeUpPages() contentPages[db.WriteUpInput, db.WriteUp] {
	return contentPages[db.WriteUpInput, db.WriteUp]{
		kind: "Write-up", path: "/journal/write-ups", api: "/api/v1/write-ups", store: s.db.WriteUps(),
		read: readWriteUpForm, check: input.WriteUp, values: writeUpValues, describe: describeWriteUp,
		defaults: func(r *http.Request, sess *db.Session) url.Values {
			return url.Values{"trade_id": {r.URL.Query().Get("trade_id")}}
		},
		choose: s.writeUpFields,
	}
}

// writeUpFields offer the user's latest trades by date, symbol, side and
// net P&L, with the one the write-up is of or its link names; a session
// that may not read trades types the trade's id.
func (s *Pages) writeUpFields(r *http.Request, sess *db.Session) ([]field, error) {
	trade := field{Name: "trade_id", Label: "Trade", Kind: "text", Required: true, Hint: "The trade's id, as its page's address shows it"}
	if sess.Can("trades:read") {
		ctx := r.Context()
		trades, _, err := s.db.Trades(ctx, sess.UserID, db.TradeFilter{}, db.Page{Limit: 100})
		if err != nil {
			return nil, err
		}
		trade.Kind, trade.Hint = "select", ""
		for _, t := range trades {
			trade.Options = append(trade.Options, option{t.ID, tradeWords(t)})
		}
		// The trade of the write-up edited, or of the new one's link,
		// may be older than the latest 100; one not the user's is no
		// choice.
		named := r.URL.Query().Get("trade_id")
		if id := r.PathValue("id"); input.IsUUID(id) {
			if w, err := s.db.WriteUps().Get(ctx, sess.UserID, strings.ToLower(id)); err == nil {
				named = w.TradeID
			}
		}
		if named != "" && !slices.ContainsFunc(trade.Options, func(o option) bool { return o.Value == named }) && input.IsUUID(named) {
			if t, err := s.db.Trade(ctx, sess.UserID, strings.ToLower(named)); err == nil {
				trade.Options = append([]option{{t.ID, tradeWords(t.Trade)}}, trade.Options...)
			}
		}
	}
	return s.withTagChoices(r.Context(), sess, []field{
		trade,
		{Name: "title", Label: "Title", Kind: "text"},
		{Name: "content_markdown", Label: "Write-up", Kind: "textarea", Hint: "Why you took it, how you managed it, what it teaches (Markdown)"},
	})
}

// tradeWords name a trade as a choice: its day, contract, side and net.
func tradeWords(t db.Trade) string {
	return t.EntryDate + " " + t.Symbol + " " + t.Side + ", net " + formatMoney(t.NetPnL)
}

// readWriteUpForm reads the write-up form: an edit's emptied title or text
// is cleared; its trade can be changed, never emptied.
func readWriteUpForm(r *formReader) db.WriteUpInput {
	return db.WriteUpInput{TradeID: r.text("trade_id", false), Title: r.text("title", true),
		ContentMarkdown: r.text("content_markdown", true), TagIDs: r.ids("tag_ids")}
}

func writeUpValues(w db.WriteUp) url.Values {
	return url.Values{"trade_id": {w.TradeID}, "title": {w.Title}, "content_markdown": {w.ContentMarkdown}, "tag_ids": tagIDsOf(w.Tags)}
}

func describeWriteUp(w db.WriteUp) (string, []string) {
	if w.Title == "" {
		return "the untitled write-up", unlinksTags(w.Tags)
	}
	return "the write-up " + strconv.Quote(w.Title), unlinksTags(w.Tags)
}

// The chart book: charts and documents kept together, in order.

// chartBookPages are a chart book's new, edit and delete pages.
func (s *Pages) chartBookPages() contentPages[db.ChartBookInput, db.ChartBook] {
	return contentPages[db.ChartBookInput, db.ChartBook]{
		kind: "Chart book", path: "/journal/chart-books", api: "/api/v1/chart-books", store: s.db.ChartBooks(),
		read: readChartBookForm, check: input.ChartBook, values: chartBookValues, describe: describeChartBook,
		choose: s.chartBookFields,
	}
}

func (s *Pages) chartBookFields(r *http.Request, sess *db.Session) ([]field, error) {
	out := []field{
		{Name: "title", Label: "Title", Kind: "text", Required: true},
		{Name: "description", Label: "Description", Kind: "textarea"},
	}
	if sess.Can("playbooks:read") {
		playbooks, err := s.playbookChoices(r.Context(), sess)
		if err != nil {
			return nil, err
		}
		out = append(out, field{Name: "playbook_id", Label: "Playbook", Kind: "select", Options: playbooks})
	}
	out, err := s.withDocumentChoices(r, sess, out, field{Label: "Charts and documents",
		Hint: "Kept in the order shown: upload charts on the documents page or a trade's page"},
		linkedDocuments(sess.UserID, s.db.ChartBooks().Get, func(b db.ChartBook) []string { return b.DocumentIDs }))
	if err != nil {
		return nil, err
	}
	return s.withTagChoices(r.Context(), sess, out)
}

// readChartBookForm reads the chart book form: an emptied description or
// playbook is cleared, an emptied title refused; the boxes ticked are its
// documents, in the form's order.
func readChartBookForm(r *formReader) db.ChartBookInput {
	return db.ChartBookInput{Title: r.required("title"), Description: r.text("description", true),
		PlaybookID: r.text("playbook_id", true), DocumentIDs: r.ids("document_ids"), TagIDs: r.ids("tag_ids")}
}

func chartBookValues(b db.ChartBook) url.Values {
	return url.Values{"title": {b.Title}, "description": {b.Description}, "playbook_id": {orEmpty(b.PlaybookID)},
		"document_ids": b.DocumentIDs, "tag_ids": tagIDsOf(b.Tags)}
}

func describeChartBook(b db.ChartBook) (string, []string) {
	return "the chart book " + strconv.Quote(b.Title), append(unlinksDocuments(len(b.DocumentIDs)), unlinksTags(b.Tags)...)
}

// The choices the forms offer, each read only when the session may.

// accountChoices are the user's accounts, by number.
func (s *Pages) accountChoices(ctx context.Context, sess *db.Session) ([]option, error) {
	accounts, err := s.accounts(ctx, sess.UserID)
	out := make([]option, len(accounts))
	for i, a := range accounts {
		out[i] = option{a.ID, a.AccountNumber}
		if a.Name != "" {
			out[i].Label += " · " + a.Name
		}
	}
	return out, err
}

// playbookChoices are the user's playbooks (the first 100), by title.
func (s *Pages) playbookChoices(ctx context.Context, sess *db.Session) ([]option, error) {
	playbooks, _, err := s.db.Playbooks(ctx, sess.UserID, db.Page{Limit: 100})
	out := make([]option, len(playbooks))
	for i, p := range playbooks {
		out[i] = option{p.ID, p.Title}
	}
	return out, err
}

// withTagChoices adds the tags field to a form's fields when the session may
// read tags; without it a save leaves a record's tags as they are.
func (s *Pages) withTagChoices(ctx context.Context, sess *db.Session, fields []field) ([]field, error) {
	if !sess.Can("tags:read") {
		return fields, nil
	}
	groups, err := s.db.TagGroups(ctx, sess.UserID)
	if err != nil {
		return nil, err
	}
	var tags []option
	for _, g := range groups {
		for _, t := range g.Tags {
			tags = append(tags, option{t.ID, g.Name + ": " + t.Name})
		}
	}
	return append(fields, field{Name: "tag_ids", Label: "Tags", Kind: "checks", Options: tags}), nil
}

func tagIDsOf(tags []db.TagRef) []string {
	out := make([]string, len(tags))
	for i, t := range tags {
		out[i] = t.ID
	}
	return out
}

func orEmpty(v *string) string {
	if v == nil {
		return ""
	}
	return *v
}

// todayOf is the date in the session's timezone.
func (s *Pages) todayOf(sess *db.Session) time.Time {
	return s.db.Now().In(s.zone(sess.Timezone))
}

// dayOf is the day a new form's link names (?date=YYYY-MM-DD), or today
// in the session's timezone.
func (s *Pages) dayOf(r *http.Request, sess *db.Session) string {
	if d := r.URL.Query().Get("date"); input.IsDate(d) {
		return d
	}
	return s.todayOf(sess).Format(db.DateLayout)
}

// dayOfTimestamp is the day of a stored timestamp in timezone.
func dayOfTimestamp(ts, timezone string) string {
	day, _, _ := strings.Cut(formatWhen(ts, timezone), " ")
	return day
}

// journalExcerpt is the start of a text, on one line, for a list.
func journalExcerpt(text string, n int) string {
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	return string([]rune(text)[:n]) + "…"
}

// The journal: the day's report card and plans at hand, and each kind of
// content, newest first.

// journalSection is one kind of content as the journal lists it.
type journalSection struct {
	Key, Title, Path, New string // "report-cards", "Report cards", its pages' path, its New link's words
	WhenLabel, Empty      string
	Rows                  []journalRow
	Total                 int
}

// journalRow is one record in its section: when, what, and more.
type journalRow struct {
	ID, When, Title, Detail string
	Link, LinkText          string // what it is of (a trade), when it names one
	Tags                    []db.TagRef
}

// journalPage is the journal's data: every kind's newest, or one kind's
// whole list a page at a time (Whole).
type journalPage struct {
	pageData
	CanEdit, Whole       bool
	Message              string
	Today, Tomorrow      string
	TodayCard, TodayPlan string // the ids of today's report card and plan, "" when none
	TomorrowPlan         string
	Sections             []journalSection
	PrevURL, NextURL     string
}

// journalLookup names what content refers to (accounts, playbooks), read
// once for a page and only when the session may read them.
type journalLookup struct {
	accounts, playbooks map[string]string
}

// sectionFunc reads one kind's section: a page of its records, newest
// first, and their total.
type sectionFunc func(ctx context.Context, sess *db.Session, names journalLookup, page db.Page) (journalSection, error)

// handleJournal shows today's report card and plans (or links to write
// them) and the newest of each kind, each with its pages.
func (s *Pages) handleJournal(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	ctx := r.Context()
	p, names, err := s.journalStart(r, sess)
	if err == nil {
		today := s.todayOf(sess)
		p.Today, p.Tomorrow = today.Format(db.DateLayout), today.AddDate(0, 0, 1).Format(db.DateLayout)
		p.TodayCard, err = firstID(s.db.ReportCards(), ctx, sess, p.Today, func(c db.ReportCard) string { return c.ID })
	}
	if err == nil {
		p.TodayPlan, err = firstID(s.db.TradingPlans(), ctx, sess, p.Today, func(t db.TradingPlan) string { return t.ID })
	}
	if err == nil {
		p.TomorrowPlan, err = firstID(s.db.TradingPlans(), ctx, sess, p.Tomorrow, func(t db.TradingPlan) string { return t.ID })
	}
	for _, section := range []sectionFunc{s.reportCardSection, s.planSection, s.writeUpSection, s.chartBookSection} {
		if err != nil {
			break
		}
		var sec journalSection
		sec, err = section(ctx, sess, names, db.Page{Limit: 10})
		p.Sections = append(p.Sections, sec)
	}
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	s.render(w, r, http.StatusOK, "journal", p)
}

// journalKind shows one kind's whole list, 50 a page, newest first.
func (s *Pages) journalKind(section sectionFunc) pageFunc {
	return func(w http.ResponseWriter, r *http.Request, sess *db.Session) {
		q := r.URL.Query()
		if !q.Has("limit") {
			q.Set("limit", "50")
		}
		page, err := input.Page(q)
		p, names, err2 := s.journalStart(r, sess)
		if err == nil {
			err = err2
		}
		var sec journalSection
		if err == nil {
			sec, err = section(r.Context(), sess, names, page)
		}
		if err != nil {
			s.errorPage(w, r, sess, err)
			return
		}
		p.Whole, p.Sections = true, []journalSection{sec}
		at := func(offset int) string {
			return sec.Path + "?offset=" + strconv.Itoa(offset) + "&limit=" + strconv.Itoa(page.Limit)
		}
		if page.Offset > 0 {
			p.PrevURL = at(max(page.Offset-page.Limit, 0))
		}
		if page.Offset+len(sec.Rows) < sec.Total {
			p.NextURL = at(page.Offset + page.Limit)
		}
		s.render(w, r, http.StatusOK, "journal", p)
	}
}

// journalStart is what every journal page reads first: the page's frame,
// its message, and the names its records refer to.
func (s *Pages) journalStart(r *http.Request, sess *db.Session) (journalPage, journalLookup, error) {
	p := journalPage{pageData: pageData{Session: sess, Nav: "journal"}, CanEdit: sess.Can("content:write"),
		Message: doneMessage(r.URL.Query(), "saved", "deleted")}
	names := journalLookup{accounts: map[string]string{}, playbooks: map[string]string{}}
	if sess.Can("accounts:read") {
		accounts, err := s.accounts(r.Context(), sess.UserID)
		if err != nil {
			return p, names, err
		}
		for _, a := range accounts {
			names.accounts[a.ID] = a.AccountNumber
		}
	}
	if sess.Can("playbooks:read") {
		playbooks, err := s.playbookChoices(r.Context(), sess)
		if err != nil {
			return p, names, err
		}
		for _, o := range playbooks {
			names.playbooks[o.Value] = o.Label
		}
	}
	return p, names, nil
}

// writeUpSection lists write-ups by the day they were written, each
// linking its trade (named when the session may read trades).
func (s *Pages) writeUpSection(ctx context.Context, sess *db.Session, _ journalLookup, page db.Page) (journalSection, error) {
	sec := journalSection{Key: "write-ups", Title: "Write-ups", Path: "/journal/write-ups", New: "New write-up",
		WhenLabel: "Written", Empty: "No write-ups yet: a trade's page has a link to write one."}
	writeUps, total, err := s.db.WriteUps().List(ctx, sess.UserID, db.ContentFilter{Timezone: sess.Timezone}, page)
	sec.Total = total
	trades := map[string]string{}
	if err == nil && sess.Can("trades:read") && len(writeUps) > 0 {
		// The page's trades, read at once, for their names.
		ids := make([]string, len(writeUps))
		for i, w := range writeUps {
			ids[i] = w.TradeID
		}
		var list []db.Trade
		if list, _, err = s.db.Trades(ctx, sess.UserID, db.TradeFilter{IDs: ids}, db.Page{Limit: len(ids)}); err != nil {
			return sec, err
		}
		for _, t := range list {
			trades[t.ID] = tradeWords(t)
		}
	}
	for _, w := range writeUps {
		row := journalRow{ID: w.ID, When: dayOfTimestamp(w.CreatedAt, sess.Timezone), Title: w.Title, Tags: w.Tags,
			Detail: journalExcerpt(w.ContentMarkdown, 140)}
		if row.Title == "" {
			row.Title = "Untitled"
		}
		if sess.Can("trades:read") {
			row.Link, row.LinkText = "/trades/"+w.TradeID, trades[w.TradeID]
		}
		sec.Rows = append(sec.Rows, row)
	}
	return sec, err
}

// chartBookSection lists chart books by the day they were made, each with
// its playbook, its documents' count and its description.
func (s *Pages) chartBookSection(ctx context.Context, sess *db.Session, names journalLookup, page db.Page) (journalSection, error) {
	sec := journalSection{Key: "chart-books", Title: "Chart books", Path: "/journal/chart-books", New: "New chart book",
		WhenLabel: "Made", Empty: "No chart books yet: gather a setup's best charts in one."}
	books, total, err := s.db.ChartBooks().List(ctx, sess.UserID, db.ContentFilter{Timezone: sess.Timezone}, page)
	sec.Total = total
	for _, b := range books {
		detail := []string{count(len(b.DocumentIDs), "document", "documents")}
		if b.PlaybookID != nil && names.playbooks[*b.PlaybookID] != "" {
			detail = append([]string{names.playbooks[*b.PlaybookID]}, detail...)
		}
		if b.Description != "" {
			detail = append(detail, journalExcerpt(b.Description, 140))
		}
		sec.Rows = append(sec.Rows, journalRow{ID: b.ID, When: dayOfTimestamp(b.CreatedAt, sess.Timezone), Title: b.Title,
			Detail: strings.Join(detail, " · "), Tags: b.Tags})
	}
	return sec, err
}

// firstID is the id of the first record of a dated kind on day, "" when
// there is none.
func firstID[T, In any](store db.Content[T, In], ctx context.Context, sess *db.Session, day string, id func(T) string) (string, error) {
	items, _, err := store.List(ctx, sess.UserID, db.ContentFilter{StartDate: day, EndDate: day, Timezone: sess.Timezone}, db.Page{Limit: 1})
	if err != nil || len(items) == 0 {
		return "", err
	}
	return id(items[0]), nil
}

func (s *Pages) reportCardSection(ctx context.Context, sess *db.Session, names journalLookup, page db.Page) (journalSection, error) {
	sec := journalSection{Key: "report-cards", Title: "Report cards", Path: "/journal/report-cards", New: "New report card",
		WhenLabel: "Day", Empty: "No report cards yet: grade a day you traded."}
	cards, total, err := s.db.ReportCards().List(ctx, sess.UserID, db.ContentFilter{Timezone: sess.Timezone}, page)
	sec.Total = total
	for _, c := range cards {
		row := journalRow{ID: c.ID, When: c.ReportDate, Title: "No grade", Tags: c.Tags}
		if c.Grade != nil {
			row.Title = "Grade " + strconv.Itoa(*c.Grade) + " of 5"
		}
		var detail []string
		if c.AccountID != nil && names.accounts[*c.AccountID] != "" {
			detail = append(detail, names.accounts[*c.AccountID])
		}
		if c.NotesMarkdown != "" {
			detail = append(detail, journalExcerpt(c.NotesMarkdown, 140))
		}
		row.Detail = strings.Join(detail, " · ")
		sec.Rows = append(sec.Rows, row)
	}
	return sec, err
}

func (s *Pages) planSection(ctx context.Context, sess *db.Session, names journalLookup, page db.Page) (journalSection, error) {
	sec := journalSection{Key: "trading-plans", Title: "Trading plans", Path: "/journal/trading-plans", New: "New trading plan",
		WhenLabel: "Day", Empty: "No trading plans yet."}
	plans, total, err := s.db.TradingPlans().List(ctx, sess.UserID, db.ContentFilter{Timezone: sess.Timezone}, page)
	sec.Total = total
	for _, p := range plans {
		row := journalRow{ID: p.ID, When: orEmpty(p.PlanDate), Title: p.Title, Tags: p.Tags}
		var detail []string
		if p.PlaybookID != nil && names.playbooks[*p.PlaybookID] != "" {
			detail = append(detail, names.playbooks[*p.PlaybookID])
		}
		if p.ContentMarkdown != "" {
			detail = append(detail, journalExcerpt(p.ContentMarkdown, 140))
		}
		row.Detail = strings.Join(detail, " · ")
		sec.Rows = append(sec.Rows, row)
	}
	return sec, err
}
