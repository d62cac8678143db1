package web

import (
	"bytes"
	"context"
	"crypto/subtle"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"html/template"
	"io"
	"io/fs"
	"log/slog"
	"math"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"tradejournal/server/problem"
	"tradejournal/server/upload"

	"tradejournal/db"
	"tradejournal/server/auth"
)

// Pages are the journal's web interface (DESIGN §11): pages rendered from
// the templates in ui/, for a browser signed in with an API key. A page
// calls the same db methods and the same checks (server/input) as the API,
// through the plumbing both share (server/auth, server/problem,
// server/upload), never the API's handlers; so every figure it shows is
// the API's.
type Pages struct {
	db        *db.DB
	log       *slog.Logger
	auth      *auth.Authenticator
	uploads   *upload.Uploads
	docs      *upload.Documents
	publicURL string
	// bufs are the buffers pages are written into, kept for the next page:
	// a trade list page is about 60 KB, which a new buffer reached by
	// doubling, allocating twice that for every page.
	bufs sync.Pool
}

// Config is what the pages are given: the journal and the plumbing they
// share with the API.
type Config struct {
	DB        *db.DB
	Log       *slog.Logger
	Auth      *auth.Authenticator
	Uploads   *upload.Uploads
	Documents *upload.Documents
	// PublicURL is where browsers reach the server (an https one makes
	// the session cookie Secure, and is an Origin forms may come from).
	PublicURL string
}

// New builds the pages around what they share with the API.
func New(c Config) *Pages {
	return &Pages{db: c.DB, log: c.Log, auth: c.Auth, uploads: c.Uploads, docs: c.Documents, publicURL: c.PublicURL}
}

//go:embed ui
var uiFiles embed.FS

// pageFunc renders one page for a signed-in session.
type pageFunc func(w http.ResponseWriter, r *http.Request, sess *db.Session)

// Route is one entry of the web interface's route table; the scope a page
// needs is its wrapper's (page). A post that makes one of the API's
// writes names it (API), for the route-parity test (DESIGN §11).
type Route struct {
	Pattern string
	Handler http.Handler
	API     string
}

// Routes is the whole web interface.
func (s *Pages) Routes() []Route {
	static, _ := fs.Sub(uiFiles, "ui")
	accounts := s.accountPages()
	routes := []Route{
		{Pattern: "GET /{$}", Handler: http.RedirectHandler("/dashboard", http.StatusSeeOther)},
		{Pattern: "GET /login", Handler: http.HandlerFunc(s.handleLoginPage)},
		{Pattern: "POST /login", Handler: http.HandlerFunc(s.handleLogin)},
		{Pattern: "POST /logout", Handler: s.page("", s.handleLogout)},
		{Pattern: "GET /dashboard", Handler: s.page("trades:read", s.handleDashboard)},
		{Pattern: "GET /trades", Handler: s.page("trades:read", s.handleTradesPage)},
		{Pattern: "GET /days/{date}", Handler: s.page("trades:read", s.handleDayPage)},
		{Pattern: "GET /trades/{id}", Handler: s.page("trades:read", s.handleTradePage)},
		{Pattern: "GET /review", Handler: s.page("trades:read", s.handleReviewPage)},
		{Pattern: "POST /review/{id}", Handler: s.page("trades:write", s.handleReviewSave), API: "PUT /api/v1/trades/{id}"},
		{Pattern: "POST /trades/{id}/review", Handler: s.page("trades:write", s.handleTradeReview), API: "PUT /api/v1/trades/{id}"},
		{Pattern: "POST /trades/{id}/documents", Handler: s.uploadPage("documents:write", s.handleTradeDocumentPost)},
		{Pattern: "GET /import", Handler: s.page("trades:read", s.handleImportPage)},
		{Pattern: "GET /accounts", Handler: s.page("accounts:read", s.handleAccountsPage)},
		{Pattern: "GET /accounts/new", Handler: s.page("accounts:write", accounts.newForm(s))},
		{Pattern: "POST /accounts", Handler: s.page("accounts:write", accounts.createPost(s)), API: "POST /api/v1/accounts"},
		{Pattern: "GET /accounts/{id}/edit", Handler: s.page("accounts:write", accounts.editForm(s))},
		{Pattern: "POST /accounts/{id}", Handler: s.page("accounts:write", accounts.updatePost(s)), API: "PUT /api/v1/accounts/{id}"},
		{Pattern: "GET /accounts/{id}/delete", Handler: s.page("accounts:write", s.confirmDelete("Account", "/accounts", "accounts", s.describeAccountDelete))},
		{Pattern: "POST /accounts/{id}/delete", Handler: s.page("accounts:write", s.deletePost("Account", "/accounts", s.deleteAccount)), API: "DELETE /api/v1/accounts/{id}"},
		{Pattern: "GET /payouts", Handler: s.page("accounts:read", s.handlePayoutsPage)},
		{Pattern: "GET /library", Handler: s.page("playbooks:read", s.handleLibraryPage)},
		{Pattern: "GET /documents", Handler: s.page("documents:read", s.handleDocumentsPage)},
		{Pattern: "POST /documents", Handler: s.uploadPage("documents:write", s.handleDocumentPost), API: "POST /api/v1/documents"},
		{Pattern: "POST /payouts", Handler: s.page("accounts:write", s.handlePayoutCreate), API: "POST /api/v1/payouts"},
		{Pattern: "POST /expenses", Handler: s.page("accounts:write", s.handleExpenseCreate), API: "POST /api/v1/expenses"},
		{Pattern: "POST /import", Handler: s.uploadPage("trades:write", s.handleImportPost), API: "POST /api/v1/imports"},
		{Pattern: "POST /imports/{id}/undo", Handler: s.page("trades:write", s.handleImportUndo), API: "DELETE /api/v1/imports/{id}"},
		{Pattern: "GET /ui/import.js", Handler: http.StripPrefix("/ui/", http.FileServerFS(static))},
		{Pattern: "GET /ui/app.css", Handler: http.StripPrefix("/ui/", http.FileServerFS(static))},
		{Pattern: "GET /ui/login.js", Handler: http.StripPrefix("/ui/", http.FileServerFS(static))},
		{Pattern: "GET /ui/trade.js", Handler: http.StripPrefix("/ui/", http.FileServerFS(static))},
		{Pattern: "GET /ui/review.js", Handler: http.StripPrefix("/ui/", http.FileServerFS(static))},
	}
	routes = append(routes, s.mappingRoutes()...)
	routes = append(routes, s.libraryRoutes()...)
	routes = append(routes, s.tradeRoutes()...)
	routes = append(routes, s.contentRoutes()...)
	return append(routes, s.settingsRoutes()...)
}

// templates are the pages, each with the layout.
var templates = func() map[string]*template.Template {
	funcs := template.FuncMap{
		"money":    formatMoney,
		"moneyPtr": func(v *float64) string { return ptrOr(v, formatMoney) },
		"percent": func(v *float64) string { // of a fraction: 0.25 is 25.0%
			return ptrOr(v, func(f float64) string { return strconv.FormatFloat(f*100, 'f', 1, 64) + "%" })
		},
		"ratio": func(v *float64) string {
			return ptrOr(v, func(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) })
		},
		"number": formatNumber,
		// pct is a figure already in percent (62.345 is 62.3%), to one
		// decimal, as every percentage on the pages.
		"pct":  func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) + "%" },
		"when": formatWhen,
		// markdown shows a Markdown field as CommonMark, made safe.
		"markdown":   renderMarkdown,
		"numberPtr":  func(v *float64) string { return ptrOr(v, formatNumber) },
		"deref":      func(v *string) string { return ptrOr(v, func(s string) string { return s }) },
		"derefInt":   func(v *int) int { return *v },
		"derefFloat": func(v *float64) float64 { return *v },
		"derefBool":  func(v *bool) bool { return *v },
		"size":       formatSize,
		"lowRoom":    func(v *float64) bool { return v != nil && *v <= 0 },
		"stars":      func(n int) string { return strings.Repeat("★", n) + strings.Repeat("☆", 5-n) },
		"ruleText": func(snapshot json.RawMessage) string {
			var rule struct {
				Description   string `json:"description"`
				StrategyTitle string `json:"strategy_title"`
			}
			json.Unmarshal(snapshot, &rule)
			return rule.StrategyTitle + ": " + rule.Description
		},
		"pnlClass": pnlClass,
	}
	// Every template but the layout and the parts pages share is a page;
	// the route table is the one list of them.
	pages, err := fs.Glob(uiFiles, "ui/*.html")
	if err != nil {
		panic(err)
	}
	out := map[string]*template.Template{}
	for _, file := range pages {
		page := strings.TrimSuffix(path.Base(file), ".html")
		if page == "layout" || page == "parts" {
			continue
		}
		out[page] = template.Must(template.New(page).Funcs(funcs).ParseFS(uiFiles, "ui/layout.html", "ui/parts.html", file))
	}
	return out
}()

// pnlClass is the class of an amount that colours it: a win's or a loss's.
func pnlClass(v float64) string {
	switch {
	case v > 0:
		return "win"
	case v < 0:
		return "loss"
	}
	return ""
}

// formatWhen shows a stored timestamp (2026-11-27T08:39:33.830Z) as the
// trader reads it: date and minute in their timezone; a value that is
// not a timestamp shows as it is.
func formatWhen(ts, timezone string) string {
	t, err := time.Parse(db.TimeFormat, ts)
	if err != nil {
		return ts
	}
	// A template function has no journal, so no zone cache: the zone is
	// loaded for each value.
	loc, err := time.LoadLocation(timezone)
	if err != nil {
		loc = time.UTC // as Pages.zone
	}
	return t.In(loc).Format("2006-01-02 15:04")
}

// zone is the user's timezone from the journal's cache, UTC when it does
// not load.
func (s *Pages) zone(name string) *time.Location {
	if loc, err := s.db.Location(name); err == nil {
		return loc
	}
	return time.UTC
}

func ptrOr[T any](v *T, f func(T) string) string {
	if v == nil {
		return "—"
	}
	return f(*v)
}

// formatMoney shows an amount as a trader reads it: sign, thousands and
// cents (the API's exact value rounded half away from zero to the cent),
// without a currency, which is the account's.
func formatMoney(v float64) string { return string(appendMoney(nil, v)) }

// appendMoney appends v as formatMoney shows it, for a page that writes
// many amounts into one buffer.
func appendMoney(b []byte, v float64) []byte {
	cents := math.Round(math.Abs(v) * 100)
	if v < 0 && cents > 0 {
		b = append(b, '-')
	}
	var digits [32]byte
	whole := strconv.AppendFloat(digits[:0], math.Floor(cents/100), 'f', 0, 64)
	for i, d := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, d)
	}
	cent := strconv.AppendFloat(digits[:0], math.Mod(cents, 100)+100, 'f', 0, 64)
	return append(append(b, '.'), cent[1:]...)
}

// accountList is the user's accounts as the pages offer them: in the
// filters and forms, and by number where a record names its account.
type accountList []db.AccountName

// Number is the number of the account id names, or "" when none does.
func (l accountList) Number(id string) string {
	for _, a := range l {
		if a.ID == id {
			return a.AccountNumber
		}
	}
	return ""
}

// accounts reads the user's accounts for a page, by number and name (a
// trader has a few; the first 100 are shown). The Accounts page, which
// shows everything of each, reads them whole.
func (s *Pages) accounts(ctx context.Context, userID string) (accountList, error) {
	return s.db.AccountNames(ctx, userID, maxPageAccounts)
}

// maxPageAccounts bounds the accounts a page offers and shows.
const maxPageAccounts = 100

// pageData is what every page's layout reads.
type pageData struct {
	Session *db.Session
	Nav     string
}

// CSRF is the session's form token, "" without a session.
func (p pageData) CSRF() string {
	if p.Session == nil {
		return ""
	}
	return p.Session.CSRF
}

// nav is the page data's pageData, which every page's embeds.
func (p pageData) nav() pageData { return p }

// layoutData is what the layout reads: the page's own data (Page, which
// its templates read) and the navigation's.
type layoutData struct {
	Page    any
	Session *db.Session
	Nav     string
	// Unreviewed counts the closed trades of the last 7 days not yet
	// reviewed, for a session that may read trades; -1 for one that may not.
	Unreviewed int
}

// CSRF is the session's form token, "" without a session.
func (l layoutData) CSRF() string { return pageData{Session: l.Session}.CSRF() }

// render writes a page in the layout; a template error is a bug,
// answered as a 500.
func (s *Pages) render(w http.ResponseWriter, r *http.Request, status int, page string, data any) {
	l := layoutData{Page: data, Unreviewed: -1}
	if p, ok := data.(interface{ nav() pageData }); ok {
		l.Session, l.Nav = p.nav().Session, p.nav().Nav
	}
	if l.Session != nil && l.Session.Can("trades:read") {
		// A page shows without the count rather than fail for it.
		n, err := s.db.UnreviewedTrades(r.Context(), l.Session.UserID, s.reviewSince(l.Session.Timezone))
		if err != nil {
			s.log.ErrorContext(r.Context(), "count unreviewed trades", "request_id", problem.RequestID(r.Context()), "err", err)
		} else {
			l.Unreviewed = n
		}
	}
	buf := s.buffer()
	defer s.release(buf)
	s.send(w, r, status, page, buf, writeLayout(buf, templates[page], l))
}

// navLinks are the main navigation's links, in order: a page's Nav names
// the one it is under. The review queue's link, with its count, follows
// navReviewAfter.
var navLinks = []struct{ nav, href, text string }{
	{"dashboard", "/dashboard", "Dashboard"},
	{"trades", "/trades", "Trades"},
	{"journal", "/journal", "Journal"},
	{"import", "/import", "Import"},
	{"accounts", "/accounts", "Accounts"},
	{"payouts", "/payouts", "Payouts"},
	{"library", "/library", "Playbooks"},
	{"documents", "/documents", "Documents"},
	{"settings", "/settings", "Settings"},
}

// navReviewAfter is the navigation link the review queue's follows.
const navReviewAfter = "trades"

// mainWriter is a page's data that writes its own main (the trade list's),
// in place of its template's "main".
type mainWriter interface{ writeMain(b *bytes.Buffer) }

// writeLayout writes a page in the layout: its head with the page's
// title (layout.html's "head", so html/template escapes the title as the
// text of a <title>), for a session the navigation bar and the sign-out
// form, and the page's "main". The bar is written here, not by
// html/template, where it cost a reflective call for each of its eleven
// tests of the page's Nav (issue 31); it holds no value but the count and
// the session's token, escaped as the template escaped it
// (TestLayoutAsTheTemplate). A page's data that is a mainWriter writes
// its own main.
func writeLayout(b *bytes.Buffer, t *template.Template, l layoutData) error {
	if err := t.ExecuteTemplate(b, "head", l.Page); err != nil {
		return err
	}
	if l.Session != nil {
		b.WriteString("\n<header class=\"bar\">\n  <nav aria-label=\"Main\">")
		for _, link := range navLinks {
			b.WriteString("\n    <a href=\"")
			b.WriteString(link.href)
			b.WriteString(`"`)
			if link.nav == l.Nav {
				b.WriteString(` aria-current="page"`)
			}
			b.WriteString(">")
			b.WriteString(link.text)
			b.WriteString("</a>")
			if link.nav != navReviewAfter {
				continue
			}
			b.WriteString("\n    ") // the review link's line, empty without it
			if l.Unreviewed >= 0 {
				b.WriteString(`<a href="/review" id="nav-review"`)
				if l.Nav == "review" {
					b.WriteString(` aria-current="page"`)
				}
				b.WriteString(">Review")
				if l.Unreviewed > 0 {
					n := strconv.Itoa(l.Unreviewed)
					b.WriteString(` <span class="badge" data-unreviewed="` + n + `" title="Closed trades of the last 7 days not reviewed">` + n + `</span>`)
				}
				b.WriteString("</a>")
			}
		}
		b.WriteString("\n  </nav>\n  <form method=\"post\" action=\"/logout\" class=\"signout\">\n    <input type=\"hidden\" name=\"csrf\" value=\"")
		b.WriteString(html.EscapeString(l.CSRF()))
		b.WriteString("\">\n    <button type=\"submit\">Sign out</button>\n  </form>\n</header>\n")
	}
	b.WriteString("\n<main>\n")
	if m, ok := l.Page.(mainWriter); ok {
		m.writeMain(b)
	} else if err := t.ExecuteTemplate(b, "main", l.Page); err != nil {
		return err
	}
	b.WriteString("\n</main>\n</body>\n</html>\n")
	return nil
}

// reviewDays is how many days, today's included, the review queue and
// the navigation's count go back by default.
const reviewDays = 7

// reviewSince is the first day of the default review selection: the
// last reviewDays days in the user's timezone (every page's navigation
// counts them, so the zone comes from the journal's cache).
func (s *Pages) reviewSince(timezone string) string {
	return s.db.Now().In(s.zone(timezone)).AddDate(0, 0, 1-reviewDays).Format(time.DateOnly)
}

// renderPart answers with one named template of a page: a fragment of
// it that the page's script asks for.
func (s *Pages) renderPart(w http.ResponseWriter, r *http.Request, status int, page, name string, data any) {
	buf := s.buffer()
	defer s.release(buf)
	s.send(w, r, status, page, buf, templates[page].ExecuteTemplate(buf, name, data))
}

// buffer is an empty buffer to write a page into, to release once sent.
func (s *Pages) buffer() *bytes.Buffer {
	if b, ok := s.bufs.Get().(*bytes.Buffer); ok {
		return b
	}
	return new(bytes.Buffer)
}

// release keeps b for another page, unless a page of unusual length (a
// long journal page, an import's preview) grew it past maxKeptBuffer.
func (s *Pages) release(b *bytes.Buffer) {
	if b.Cap() <= maxKeptBuffer {
		b.Reset()
		s.bufs.Put(b)
	}
}

// maxKeptBuffer bounds a buffer kept for the next page.
const maxKeptBuffer = 256 << 10

// send answers with a page, or a fragment of one, written into buf; err,
// the template's error, is a bug, answered as a 500.
func (s *Pages) send(w http.ResponseWriter, r *http.Request, status int, page string, buf *bytes.Buffer, err error) {
	if err != nil {
		s.log.ErrorContext(r.Context(), "render page", "request_id", problem.RequestID(r.Context()), "page", page, "err", err)
		status, buf = http.StatusInternalServerError, bytes.NewBufferString("Internal error\n")
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	// Said, so that net/http sends the page as one body, not in chunks.
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	// Scripts, styles and images come from this server only, forms post
	// only here, and no other site may frame a page.
	h.Set("Content-Security-Policy", "default-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("Referrer-Policy", "same-origin")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// errorPage answers an error as a page: the API's status, message and
// headers (problem.Answer).
func (s *Pages) errorPage(w http.ResponseWriter, r *http.Request, sess *db.Session, err error) {
	s.renderError(w, r, sess, problem.Answer(w, r, s.log, err))
}

// renderError shows e as the error page.
func (s *Pages) renderError(w http.ResponseWriter, r *http.Request, sess *db.Session, e *problem.Problem) {
	msg := problemText(e)
	data := struct {
		pageData
		Title, Message string
	}{pageData{Session: sess}, http.StatusText(e.Status), msg}
	s.render(w, r, e.Status, "error", data)
}

// page wraps a page for a signed-in session with scope: a browser that
// is not signed in (or whose session ended, or whose key was revoked) is
// sent to /login; a form post must come from this site and carry the
// session's CSRF token.
func (s *Pages) page(scope string, h pageFunc) http.Handler {
	return s.signedIn(scope, false, h)
}

// uploadPage is page for a multipart post (a file), which streams: its
// handler checks the token, the form's first part, before reading on.
func (s *Pages) uploadPage(scope string, h pageFunc) http.Handler {
	return s.signedIn(scope, true, h)
}

func (s *Pages) signedIn(scope string, multipart bool, h pageFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sess := s.auth.Session(r)
		if sess == nil {
			http.Redirect(w, r, "/login", http.StatusSeeOther)
			return
		}
		// A session spends its key's requests as the key's API calls do.
		if err := s.auth.Spend(w, sess.KeyID); err != nil {
			s.errorPage(w, r, sess, err)
			return
		}
		if r.Method == http.MethodPost {
			if err := s.checkForm(w, r, sess, multipart); err != nil {
				s.errorPage(w, r, sess, err)
				return
			}
		}
		if err := auth.Admit(&sess.Principal, scope); err != nil {
			s.errorPage(w, r, sess, err)
			return
		}
		h(w, r, sess)
	})
}

// checkForm admits a form post: from this site, of the kind the route
// takes (a multipart post's handler checks its token as it streams), and,
// when url-encoded, within maxFormBody and carrying the session's CSRF
// token.
func (s *Pages) checkForm(w http.ResponseWriter, r *http.Request, sess *db.Session, multipart bool) error {
	if !s.sameOrigin(r) || isMultipart(r) != multipart {
		return errStaleForm
	}
	if multipart {
		return nil
	}
	if err := readForm(w, r); err != nil {
		return err
	}
	if subtle.ConstantTimeCompare([]byte(r.PostFormValue("csrf")), []byte(sess.CSRF)) != 1 {
		return errStaleForm
	}
	return nil
}

// readForm reads a url-encoded form post of at most maxFormBody: a larger
// one is errFormTooLarge, which says so, rather than a form cut short
// (whose token, its last field, would be lost).
func readForm(w http.ResponseWriter, r *http.Request) error {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBody)
	err := r.ParseForm()
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return errFormTooLarge
	}
	return err
}

// errFormTooLarge refuses a form larger than maxFormBody.
var errFormTooLarge = &problem.Problem{Status: http.StatusRequestEntityTooLarge, Code: "PAYLOAD_TOO_LARGE",
	Message: fmt.Sprintf("The form is larger than %d KiB, so nothing was saved; shorten its longest text", maxFormBody>>10)}

// errStaleForm refuses a form without this session's token.
var errStaleForm = &problem.Problem{Status: http.StatusForbidden, Code: "FORBIDDEN",
	Message: "This form is stale or came from another site; reload the page and try again"}

// isMultipart reports whether a post is a multipart form, whose token its
// handler reads from the stream (the page wrapper must not buffer it).
func isMultipart(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return strings.EqualFold(mt, "multipart/form-data")
}

// uploadForm opens a page's file upload as the API's are opened
// (openUpload) and checks that the form's first part is the session's CSRF
// token, before any file is read.
func (s *Pages) uploadForm(w http.ResponseWriter, r *http.Request, sess *db.Session) (mr *multipart.Reader, release func(), err error) {
	if mr, release, err = s.uploads.Open(w, r); err != nil {
		return nil, nil, err
	}
	part, err := mr.NextPart()
	if err != nil || part.FormName() != "csrf" {
		release()
		return nil, nil, errStaleForm
	}
	token, err := io.ReadAll(io.LimitReader(part, 256))
	if err != nil || subtle.ConstantTimeCompare(token, []byte(sess.CSRF)) != 1 {
		release()
		return nil, nil, errStaleForm
	}
	return mr, release, nil
}

// maxFormBody bounds a page's form post: what the API takes as a JSON
// body, so that a form carries any field the API would take (notes of
// 256 KiB, encoded) and the field's own limit is the one that speaks.
const maxFormBody = 1 << 20

// sameOrigin reports whether a form post comes from this site: its Origin,
// when the browser sends one, is the origin (scheme, host and port) the
// request was sent to, or the public URL's (behind a proxy that adds TLS).
func (s *Pages) sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return r.Header.Get("Sec-Fetch-Site") == "" || r.Header.Get("Sec-Fetch-Site") == "same-origin"
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	o := originOf(origin)
	return o != "" && (o == originOf(scheme+"://"+r.Host) || o == originOf(s.publicURL))
}

// originOf is a URL's origin as scheme://host:port, lower case and with
// the scheme's default port spelled out, or "" when it has none.
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return u.Scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// loginPage is the sign-in page's data: the key form, or, for a sign-in
// link, whom its token signs in as and the button that does it.
type loginPage struct {
	pageData
	Error string
	Token string         // a sign-in link's token, to spend on the click
	As    *db.LoginToken // whom Token signs in as
}

func (s *Pages) handleLoginPage(w http.ResponseWriter, r *http.Request) {
	if s.auth.Session(r) != nil {
		http.Redirect(w, r, "/dashboard", http.StatusSeeOther)
		return
	}
	s.render(w, r, http.StatusOK, "login", loginPage{})
}

// handleLogin signs a browser in, in a cookie only this server reads: with
// an API key typed into the form, or with a sign-in link's token, which
// login.js posts from the link's fragment. A token is only looked at until
// the page's button is pressed (confirm), so that a link opened in someone
// else's browser shows whose journal it opens before it opens it.
func (s *Pages) handleLogin(w http.ResponseWriter, r *http.Request) {
	fail := func(err error) {
		e := problem.Answer(w, r, s.log, err)
		if e.Status >= 500 {
			s.renderError(w, r, nil, e)
			return
		}
		if e.Status == http.StatusUnauthorized {
			w.Header().Set("WWW-Authenticate", "Bearer")
		}
		s.render(w, r, e.Status, "login", loginPage{Error: e.Message})
	}
	if !s.sameOrigin(r) {
		fail(&problem.Problem{Status: http.StatusForbidden, Code: "FORBIDDEN", Message: "This form came from another site."})
		return
	}
	if err := readForm(w, r); err != nil {
		fail(err)
		return
	}
	var id string
	var err error
	if token := r.PostFormValue("token"); token != "" {
		if r.PostFormValue("confirm") != "1" {
			as, err := s.db.LoginTokenFor(r.Context(), token)
			if err != nil {
				fail(s.failedSignIn(w, r, err))
				return
			}
			s.render(w, r, http.StatusOK, "login", loginPage{Token: token, As: &as})
			return
		}
		id, _, err = s.db.UseLoginToken(r.Context(), token)
	} else {
		var p *db.Principal
		if p, err = s.auth.Key(r.Context(), strings.TrimSpace(r.PostFormValue("key"))); err == nil {
			if err = auth.Admit(p, ""); err == nil {
				id, _, err = s.db.CreateSession(r.Context(), p.KeyID)
			}
		}
	}
	if err != nil {
		fail(s.failedSignIn(w, r, err))
		return
	}
	http.SetCookie(w, &http.Cookie{Name: auth.SessionCookie, Value: id, Path: "/", MaxAge: int(db.SessionTTL.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secure(r)})
	http.Redirect(w, r, "/dashboard", http.StatusSeeOther)
}

// failedSignIn is the answer to a sign-in that failed with err, in the
// sign-in page's words: a bad key or link spends the address's failed
// authentications (auth.Failed); anything else is answered as it is.
func (s *Pages) failedSignIn(w http.ResponseWriter, r *http.Request, err error) error {
	var nf *db.NotFoundError
	switch {
	case errors.As(err, &nf):
		err = &problem.Problem{Status: http.StatusUnauthorized, Code: "UNAUTHORIZED",
			Message: "This sign-in link has expired or was used already; tradejournal login-link --user NAME makes a new one."}
	case err == problem.InvalidKey || err == problem.RevokedKey:
		err = &problem.Problem{Status: http.StatusUnauthorized, Code: "UNAUTHORIZED", Message: "That key is not valid, or was revoked."}
	case err == problem.Subscription:
		return &problem.Problem{Status: http.StatusForbidden, Code: "SUBSCRIPTION_REQUIRED", Message: "Your subscription is inactive."}
	default:
		return err
	}
	return s.auth.Failed(w, r, err)
}

// secure reports whether the browser reaches the server over https, so
// that the cookie must never travel without it.
func (s *Pages) secure(r *http.Request) bool {
	return r.TLS != nil || strings.HasPrefix(s.publicURL, "https://")
}

func (s *Pages) handleLogout(w http.ResponseWriter, r *http.Request, _ *db.Session) {
	if c, err := r.Cookie(auth.SessionCookie); err == nil {
		if err := s.db.EndSession(r.Context(), c.Value); err != nil {
			s.errorPage(w, r, nil, err)
			return
		}
	}
	s.signedOut(w, r)
}

// signedOut ends a sign-out, of this session or of all the user's: the
// browser's session cookie cleared, with the attributes the sign-in set
// it with, and the way back to the sign-in page.
func (s *Pages) signedOut(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: auth.SessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secure(r)})
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}
