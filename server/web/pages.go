package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"tradejournal/server/problem"
	"tradejournal/server/upload"

	"tradejournal/db"
	"tradejournal/db/prop"
	"tradejournal/db/trading"
	"tradejournal/server/input"
)

// handleDashboard shows the summary figures, the equity curve and a month
// of daily net P&L of the trades the filters select (account, dates), from
// the statistics the API serves.
func (s *Pages) handleDashboard(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	q := r.URL.Query()
	filter, err := input.TradeFilter(url.Values{"account_id": q["account_id"], "start_date": q["start_date"], "end_date": q["end_date"]})
	var month time.Time // zero: the calendar picks its month
	if m := q.Get("month"); err == nil && m != "" {
		if month, err = time.Parse("2006-01", m); err != nil {
			err = input.Invalid("month", "month must be YYYY-MM")
		}
	}
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	ctx := r.Context()
	summary, err := s.db.StatsSummary(ctx, sess.UserID, filter)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	daily, err := s.db.StatsDaily(ctx, sess.UserID, filter)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	equity, err := s.db.StatsEquity(ctx, sess.UserID, filter, false)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	accounts, err := s.accounts(ctx, sess.UserID)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	cal := newCalendar(q, month, daily, s.db.Now().In(s.zone(sess.Timezone)))
	s.render(w, r, http.StatusOK, "dashboard", struct {
		pageData
		Filter   db.TradeFilter
		Summary  db.StatsSummary
		Accounts accountList
		Equity   equityCurve
		Calendar calendar
	}{pageData{Session: sess, Nav: "dashboard"}, filter, summary, accounts, newEquityCurve(equity), cal})
}

// equityCurve is the equity as an SVG polyline in a Width × Height box,
// inside a plot area that leaves room on the left for the amount axis and
// below for the date axis; Zero is the y of 0. Each point carries its
// date and equity for its hover title; the axes carry a few ticks.
type equityCurve struct {
	Width, Height, Zero float64
	Left, Bottom        float64 // the plot area's left and bottom edges
	Points              string
	Dots                []equityDot
	YTicks              []equityTick
	XTicks              []equityTick
	First, Last         float64
}

// equityDot is a point of the curve with what its hover shows.
type equityDot struct {
	X, Y   float64
	Date   string
	Equity float64
}

// equityTick is an axis's tick: where, what it reads, and which end of
// the label is at At (SVG's text-anchor).
type equityTick struct {
	At     float64
	Label  string
	Anchor string
}

// maxEquityDots bounds the hover points drawn: a long journal's curve
// keeps one a step of its points.
const maxEquityDots = 120

func newEquityCurve(points []db.EquityPoint) equityCurve {
	c := equityCurve{Width: 600, Height: 200, Left: 64, Bottom: 176}
	if len(points) == 0 {
		return c
	}
	lo, hi := 0.0, 0.0
	for _, p := range points {
		lo, hi = min(lo, p.Equity), max(hi, p.Equity)
	}
	span := hi - lo
	if span == 0 {
		span = 1
	}
	top := 8.0
	y := func(v float64) float64 { return c.Bottom - (v-lo)/span*(c.Bottom-top) }
	x := func(i int) float64 { return c.Left + float64(i+1)/float64(len(points))*(c.Width-c.Left-8) }
	var b strings.Builder
	fmt.Fprintf(&b, "%.1f,%.1f", c.Left, y(0))
	step := max(1, len(points)/maxEquityDots)
	for i, p := range points {
		fmt.Fprintf(&b, " %.1f,%.1f", x(i), y(p.Equity))
		if i%step == 0 || i == len(points)-1 {
			c.Dots = append(c.Dots, equityDot{X: x(i), Y: y(p.Equity), Date: p.Date, Equity: p.Equity})
		}
	}
	c.Points, c.Zero = b.String(), y(0)
	c.First, c.Last = points[0].Equity, points[len(points)-1].Equity
	ys := []float64{lo}
	if lo < 0 && hi > 0 {
		ys = append(ys, 0)
	}
	if hi != lo {
		ys = append(ys, hi)
	}
	for _, v := range ys {
		c.YTicks = append(c.YTicks, equityTick{At: y(v), Label: formatMoney(v)})
	}
	for _, i := range []int{0, len(points) / 2, len(points) - 1} {
		if len(c.XTicks) > 0 && c.XTicks[len(c.XTicks)-1].Label == points[i].Date {
			continue
		}
		anchor := "middle"
		if i == len(points)-1 { // at the chart's right edge: its date ends there
			anchor = "end"
		}
		c.XTicks = append(c.XTicks, equityTick{At: x(i), Label: points[i].Date, Anchor: anchor})
	}
	return c
}

// calendar is one month of daily net P&L, weeks from Monday.
type calendar struct {
	Title            string
	Weekdays         []string
	Weeks            [][]calendarDay
	PrevURL, NextURL string
}

type calendarDay struct {
	Date   string // "" for a cell outside the month
	Day    int
	Has    bool
	NetPnL float64
	Trades int
}

// newCalendar builds the given month, else (month zero) the month of the
// latest day with trades, else this month (now, in the user's timezone).
func newCalendar(q url.Values, month time.Time, daily []db.DailyStats, now time.Time) calendar {
	if month.IsZero() {
		month = now
		if len(daily) > 0 {
			if d, err := time.Parse(time.DateOnly, daily[len(daily)-1].Date); err == nil {
				month = d
			}
		}
	}
	first := time.Date(month.Year(), month.Month(), 1, 0, 0, 0, 0, time.UTC)
	byDate := map[string]db.DailyStats{}
	for _, d := range daily {
		byDate[d.Date] = d
	}
	c := calendar{Title: first.Format("January 2006"), Weekdays: []string{"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"}}
	week := make([]calendarDay, (int(first.Weekday())+6)%7) // blanks before the 1st
	for d := first; d.Month() == first.Month(); d = d.AddDate(0, 0, 1) {
		date := d.Format(time.DateOnly)
		st, has := byDate[date]
		week = append(week, calendarDay{Date: date, Day: d.Day(), Has: has, NetPnL: st.NetPnL, Trades: st.Trades})
		if len(week) == 7 {
			c.Weeks, week = append(c.Weeks, week), nil
		}
	}
	if len(week) > 0 {
		c.Weeks = append(c.Weeks, append(week, make([]calendarDay, 7-len(week))...))
	}
	link := func(m time.Time) string {
		v := url.Values{}
		for _, k := range []string{"account_id", "start_date", "end_date"} {
			if q.Get(k) != "" {
				v.Set(k, q.Get(k))
			}
		}
		v.Set("month", m.Format("2006-01"))
		return "/dashboard?" + v.Encode()
	}
	c.PrevURL, c.NextURL = link(first.AddDate(0, -1, 0)), link(first.AddDate(0, 1, 0))
	return c
}

// handleTradesPage lists the trades, filtered and paged as the API's list.
func (s *Pages) handleTradesPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	q := r.URL.Query()
	if !q.Has("limit") {
		q.Set("limit", "50")
	}
	page, err := input.Page(q)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	filter, err := input.TradeFilter(q)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	trades, total, err := s.db.TradeRows(r.Context(), sess.UserID, filter, page)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	accounts, err := s.accounts(r.Context(), sess.UserID)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	at := func(offset int) string {
		v := url.Values{}
		for k, vs := range q {
			if k != "page" && k != "offset" && len(vs) > 0 && vs[0] != "" {
				v.Set(k, vs[0])
			}
		}
		v.Set("offset", strconv.Itoa(offset))
		return "/trades?" + v.Encode()
	}
	// The review queue of the same selection (its dates select by the
	// trade's day).
	review := url.Values{}
	for k, vs := range q {
		if k != "page" && k != "offset" && k != "limit" && len(vs) > 0 && vs[0] != "" {
			review.Set(k, vs[0])
		}
	}
	var prev, next string
	if page.Offset > 0 {
		prev = at(max(0, page.Offset-page.Limit))
	}
	if page.Offset+len(trades) < total {
		next = at(page.Offset + page.Limit)
	}
	s.render(w, r, http.StatusOK, "trades", tradesPageData{pageData{Session: sess, Nav: "trades"}, tradesPage{Filter: filter,
		Statuses: db.TradeStatuses, Accounts: accounts, Trades: trades, CanWrite: sess.Can("trades:write"), Total: total,
		From: min(total, page.Offset+1), To: page.Offset + len(trades), PrevURL: prev, NextURL: next,
		ReviewURL: "/review?" + review.Encode()}})
}

// tradesPageData is the trade list page's data: its main is written by
// tradesPage.writeMain straight into the page's buffer.
type tradesPageData struct {
	pageData
	main tradesPage
}

func (d tradesPageData) writeMain(b *bytes.Buffer) { d.main.writeMain(b) }

// tradePage is the one-trade page's data.
type tradePage struct {
	pageData
	Trade                 db.EnrichedTrade
	CanEdit, Saved        bool
	ShowPlaybooks         bool // the form has the playbook select
	ShowTags              bool // the form has the tags (and the tags field)
	Error                 string
	Notes, Stops, Targets string
	Ratings               []int
	Playbooks             []db.Playbook
	TagGroups             []db.TagGroup
	TagSet                map[string]bool
	// Documents are the trade's own (chart screenshots, DESIGN §13), with
	// links on this server's own paths; CanAttach, whether the session may
	// add one.
	Documents []upload.TradeDocument
	CanAttach bool
	// Here is the page's own address, for the tag box's way back.
	Here string
}

// handleTradePage shows one trade: its numbers, fills and rule
// evaluations, and its review, editable with trades:write.
func (s *Pages) handleTradePage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	s.renderTrade(w, r, sess, http.StatusOK, r.URL.Query().Has("saved"), "", nil)
}

// renderTrade shows the trade page; typed, when not nil, is a refused
// review form, whose values the form shows again in place of the trade's.
func (s *Pages) renderTrade(w http.ResponseWriter, r *http.Request, sess *db.Session, status int, saved bool, problem string, typed url.Values) {
	id, err := input.PathID(r, "Trade")
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	p, err := s.tradePage(r, sess, id, problem, typed)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	p.Saved = saved
	s.render(w, r, status, "trade", p)
}

// tradePage reads the user's trade id for a page that shows it with its
// review form: the trade page, and the review queue's; typed and problem
// are a refused review form's values and reason.
func (s *Pages) tradePage(r *http.Request, sess *db.Session, id, problem string, typed url.Values) (tradePage, error) {
	t, err := s.db.Trade(r.Context(), sess.UserID, id)
	if err != nil {
		return tradePage{}, err
	}
	p := tradePage{pageData: pageData{Session: sess, Nav: "trades"}, Trade: t, CanEdit: sess.Can("trades:write"),
		Error: problem, Notes: richText(t.ReviewNotes), Stops: levelsText(t.StopLossLevels),
		Targets: levelsText(t.TakeProfitLevels), Ratings: []int{1, 2, 3, 4, 5}, TagSet: map[string]bool{}, Here: "/trades/" + t.ID}
	for _, tag := range t.Tags {
		p.TagSet[tag.ID] = true
	}
	if typed != nil {
		p.keepTyped(typed)
	}
	// A tag just made from this page's tag box comes back ticked, for the
	// review's save to put on the trade.
	if tag := r.URL.Query().Get("new_tag"); tag != "" && typed == nil {
		p.TagSet[strings.ToLower(tag)] = true
	}
	if sess.Can("documents:read") {
		p.Documents = s.pageLinks(s.docs.PresentTrade(t.Documents))
		p.CanAttach = sess.Can("documents:write")
	}
	// The form offers the playbooks and tags only to a session that may
	// read them; without them it leaves the trade's as they are.
	p.ShowPlaybooks, p.ShowTags = p.CanEdit && sess.Can("playbooks:read"), p.CanEdit && sess.Can("tags:read")
	if p.ShowPlaybooks {
		if p.Playbooks, _, err = s.db.Playbooks(r.Context(), sess.UserID, db.Page{Limit: 100}); err != nil {
			return tradePage{}, err
		}
	}
	if p.ShowTags {
		if p.TagGroups, err = s.db.TagGroups(r.Context(), sess.UserID); err != nil {
			return tradePage{}, err
		}
	}
	return p, nil
}

// keepTyped shows a refused review form's values instead of the trade's,
// so that nothing the trader typed is lost to a bad field.
func (p *tradePage) keepTyped(form url.Values) {
	p.Notes, p.Stops, p.Targets = form.Get("notes"), form.Get("stop_loss_levels"), form.Get("take_profit_levels")
	p.Trade.StarRating = nil
	if n, err := strconv.Atoi(form.Get("star_rating")); err == nil {
		p.Trade.StarRating = &n
	}
	if form.Has("playbook_id") {
		p.Trade.PlaybookID = nil
		if v := form.Get("playbook_id"); v != "" {
			p.Trade.PlaybookID = &v
		}
	}
	for i, c := range p.Trade.CriteriaChecklist {
		p.Trade.CriteriaChecklist[i].Checked = slices.Contains(form["checked"], c.CriterionID)
	}
	if form.Has("tags") {
		p.TagSet = map[string]bool{}
		for _, id := range form["tag_ids"] {
			p.TagSet[id] = true
		}
	}
	p.Trade.ReviewedAt = nil
	if form.Get("reviewed") == "true" {
		reviewed := "typed"
		p.Trade.ReviewedAt = &reviewed
	}
}

// reviewLabels are the review form's labels of the API's fields, for its
// reasons.
var reviewLabels = map[string]string{"star_rating": "Rating", "review_notes": "Notes", "stop_loss_levels": "Stops",
	"take_profit_levels": "Targets", "playbook_id": "Playbook", "criteria_checklist": "Checklist", "tag_ids": "Tags"}

// handleTradeReview saves the review form through the API's own checks
// (input.Review, input.Levels and input.Checklist) and the same
// UpdateTrade; a bad field shows the page again with the reason.
func (s *Pages) handleTradeReview(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	id, err := input.PathID(r, "Trade")
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	refused, err := s.saveReview(r, sess, id)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	if refused != "" {
		s.renderTrade(w, r, sess, http.StatusBadRequest, false, refused, r.PostForm)
		return
	}
	http.Redirect(w, r, "/trades/"+id+"?saved=1", http.StatusSeeOther)
}

// saveReview saves the posted review form over the user's trade id: a
// refusal of one of its fields (a 400) comes back as its reason in the
// form's words, to show in place; any other failure as err.
func (s *Pages) saveReview(r *http.Request, sess *db.Session, id string) (refused string, err error) {
	in, err := reviewInput(r.PostForm)
	if err == nil {
		_, err = s.db.UpdateTrade(r.Context(), sess.UserID, id, in)
	}
	if e, _ := problem.Of(err); err != nil && e.Status == http.StatusBadRequest {
		return formProblemText(e, reviewLabels), nil
	}
	return "", err
}

// reviewInput turns the review form into the API's trade input, checked
// as a PUT body would be.
func reviewInput(form url.Values) (db.TradeInput, error) {
	f := input.Errors{}
	var in db.TradeInput
	in.StarRating = db.Optional[int]{Set: true, Null: true}
	if v := form.Get("star_rating"); v != "" {
		n, _ := strconv.Atoi(v) // 0, or the nearest int, when not one: input.Review refuses it
		in.StarRating = db.Some(n)
	}
	in.ReviewNotes = db.Optional[json.RawMessage]{Set: true, Null: true}
	if notes := strings.TrimSpace(strings.ReplaceAll(form.Get("notes"), "\r\n", "\n")); notes != "" {
		in.ReviewNotes = db.Some(richDoc(notes))
	}
	in.StopLossLevels = levelsForm(f, "stop_loss_levels", form.Get("stop_loss_levels"))
	in.TakeProfitLevels = levelsForm(f, "take_profit_levels", form.Get("take_profit_levels"))
	// A field the form did not show is left as it is.
	if form.Has("playbook_id") {
		in.PlaybookID = db.Optional[string]{Set: true, Null: true}
		if v := form.Get("playbook_id"); v != "" {
			in.PlaybookID = db.Some(v)
		}
	}
	if criteria := form["criterion"]; len(criteria) > 0 {
		checks := make([]db.CriterionCheck, len(criteria))
		for i, c := range criteria {
			checks[i] = db.CriterionCheck{CriterionID: c, Checked: slices.Contains(form["checked"], c)}
		}
		input.Checklist(f, checks)
		in.CriteriaChecklist = db.Some(checks)
	}
	if form.Has("tags") { // the form showed the tags: those checked are the trade's
		in.TagIDs = db.Some(append([]string{}, form["tag_ids"]...))
	}
	in.Reviewed = db.Some(form.Get("reviewed") == "true")
	input.Trade(f, &in, false)
	input.Review(f, &in)
	return in, f.Err()
}

// levelsForm reads "4995, 4990@1" (a price, or price@quantity, each) as
// the levels they are, checked as the API checks its levels.
func levelsForm(f input.Errors, field, v string) db.Optional[[]trading.Level] {
	out := db.Optional[[]trading.Level]{Set: true, Value: []trading.Level{}}
	for _, part := range strings.Split(v, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		price, qty, hasQty := strings.Cut(part, "@")
		l := trading.Level{}
		ok := formFloat(price, &l.Price)
		if hasQty {
			l.Quantity = new(float64)
			ok = formFloat(qty, l.Quantity) && ok
		}
		if !ok {
			f.Add(field, field+" must be prices such as 4995, 4990@1")
			return out
		}
		out.Value = append(out.Value, l)
	}
	input.Levels(f, field, out.Value)
	return out
}

// formFloat reads a form's finite number into dst.
func formFloat(s string, dst *float64) bool {
	n, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	*dst = n
	return err == nil && !math.IsNaN(n) && !math.IsInf(n, 0)
}

func levelsText(levels []trading.Level) string {
	var parts []string
	for _, l := range levels {
		s := strconv.FormatFloat(l.Price, 'f', -1, 64)
		if l.Quantity != nil {
			s += "@" + strconv.FormatFloat(*l.Quantity, 'f', -1, 64)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// richDoc is plain text as a rich-text document: a paragraph per block of
// lines, a hard break per line break.
func richDoc(text string) json.RawMessage {
	type node struct {
		Type    string `json:"type"`
		Text    string `json:"text,omitempty"`
		Content []node `json:"content,omitempty"`
	}
	doc := node{Type: "doc", Content: []node{}}
	for _, block := range strings.Split(text, "\n\n") {
		p := node{Type: "paragraph"}
		for i, line := range strings.Split(strings.TrimSpace(block), "\n") {
			if i > 0 {
				p.Content = append(p.Content, node{Type: "hardBreak"})
			}
			if line != "" {
				p.Content = append(p.Content, node{Type: "text", Text: line})
			}
		}
		doc.Content = append(doc.Content, p)
	}
	b, _ := json.Marshal(doc)
	return b
}

// richText is a rich-text document's text: paragraphs apart by a blank
// line, hard breaks as line breaks.
func richText(doc json.RawMessage) string {
	type node struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Content []node `json:"content"`
	}
	var root node
	if json.Unmarshal(doc, &root) != nil {
		return ""
	}
	var b strings.Builder
	var walk func(n node)
	walk = func(n node) {
		switch n.Type {
		case "text":
			b.WriteString(n.Text)
		case "hardBreak":
			b.WriteString("\n")
		}
		for i, c := range n.Content {
			if i > 0 && n.Type == "doc" {
				b.WriteString("\n\n")
			}
			walk(c)
		}
	}
	walk(root)
	return b.String()
}

// accountRow is an account and where it stands against its rules.
type accountRow struct {
	Account   db.Account
	Status    prop.Status
	TargetPct int // of the profit target reached, 0..100; 0 without a target
}

// ConsistencyBroken reports whether the best day's share of the profit is
// above the account's consistency rule (the status's consistency_ok).
func (a accountRow) ConsistencyBroken() bool {
	return a.Status.ConsistencyOK != nil && !*a.Status.ConsistencyOK
}

// Broken reports whether the status breaks any rule: a breach or the
// consistency rule.
func (a accountRow) Broken() bool { return len(a.Status.Breaches) > 0 || a.ConsistencyBroken() }

// HasRules reports whether the account has a rule the status checks, so
// that "No rule broken" says something.
func (a accountRow) HasRules() bool {
	r := a.Account
	return r.MaxDrawdown != nil || r.MaxDailyLoss != nil || r.ConsistencyPct != nil || r.MaxContracts != nil
}

// handleAccountsPage shows each account with its prop status (GET
// /accounts/{id}/status's figures): balance, the floor and the room to it,
// today's loss left, the target, days, consistency and breaches.
func (s *Pages) handleAccountsPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	accounts, _, err := s.db.Accounts(r.Context(), sess.UserID, db.Page{Limit: maxPageAccounts})
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	statuses, err := s.db.AccountStatuses(r.Context(), sess.UserID, accounts)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	rows := make([]accountRow, len(accounts))
	for i, a := range accounts {
		st := statuses[i]
		rows[i] = accountRow{Account: a, Status: st}
		if t, left := a.ProfitTarget, st.ProfitTargetRemaining; t != nil && *t > 0 && left != nil {
			rows[i].TargetPct = int(max(0, min(100, (*t-*left) / *t * 100)))
		}
	}
	msg := doneMessage(r.URL.Query(), "saved", "deleted")
	s.render(w, r, http.StatusOK, "accounts", struct {
		pageData
		Accounts []accountRow
		CanEdit  bool
		Message  string
	}{pageData{Session: sess, Nav: "accounts"}, rows, sess.Can("accounts:write"), msg})
}

// handleLibraryPage shows the trader's playbooks (criteria, strategies),
// strategies (rules) and tags, as the API lists them.
func (s *Pages) handleLibraryPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	ctx, page := r.Context(), db.Page{Limit: 100}
	playbooks, _, err := s.db.Playbooks(ctx, sess.UserID, page)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	strategies, _, err := s.db.Strategies(ctx, sess.UserID, db.StrategyFilter{}, page)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	var groups []db.TagGroup
	if sess.Can("tags:read") {
		if groups, err = s.db.TagGroups(ctx, sess.UserID); err != nil {
			s.errorPage(w, r, sess, err)
			return
		}
	}
	s.render(w, r, http.StatusOK, "library", struct {
		pageData
		Playbooks  []db.Playbook
		Strategies []db.Strategy
		TagGroups  []db.TagGroup
	}{pageData{Session: sess, Nav: "library"}, playbooks, strategies, groups})
}

// pageLinks makes documents' links paths on this server: a page is read
// on whatever host the browser reached, and its images must come from
// that origin (the pages' Content-Security-Policy), not the public URL's.
func (s *Pages) pageLinks(docs []upload.TradeDocument) []upload.TradeDocument {
	for i := range docs {
		docs[i].DocumentURL = strings.TrimPrefix(docs[i].DocumentURL, s.publicURL)
		if docs[i].ThumbnailURL != nil {
			path := strings.TrimPrefix(*docs[i].ThumbnailURL, s.publicURL)
			docs[i].ThumbnailURL = &path
		}
	}
	return docs
}
