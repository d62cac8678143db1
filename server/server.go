// Package server is the journal's HTTP/JSON API: routing, authentication,
// input decoding and validation, and the error model. It never writes SQL:
// each handler calls one db method with the caller's user id.
package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"path"
	"runtime/debug"
	"strings"
	"time"

	"tradejournal/server/input"

	"tradejournal/server/problem"

	"tradejournal/db"
	"tradejournal/files"
	"tradejournal/server/auth"
	"tradejournal/server/upload"
	"tradejournal/server/web"
)

// Config holds the server's settings.
type Config struct {
	// PublicURL is what document URLs are built on, e.g. http://127.0.0.1:8080.
	PublicURL string
	// RateLimit is each key's requests per second (bursts of twice that);
	// 0 turns it off.
	RateLimit float64
	// AuthFailures is how many failed authentications a client address may
	// make a minute; 0 turns it off.
	AuthFailures int
	// Now is the clock of the rate limits; nil is time.Now.
	Now func() time.Time
	// MaxUploads is how many uploads (documents and imports) may be in
	// flight at once (default DefaultMaxUploads), MaxUploadsPerClient how
	// many of them one client address may hold (default
	// DefaultMaxUploadsPerClient), so that no one client can take every
	// slot. One more waits up to UploadWait (default 2 s), then gets 503.
	MaxUploads          int
	MaxUploadsPerClient int
	UploadWait          time.Duration
	// UploadMinRate is the slowest an upload's body may arrive, in bytes a
	// second averaged over each UploadRateWindow from its start (defaults
	// DefaultUploadMinRate and 10 s): a slower one is cut with a 408, so a
	// client trickling bytes cannot keep a slot.
	UploadMinRate    int64
	UploadRateWindow time.Duration
	// ImportsAtWork, when set, is told how many imports are at work each
	// time one starts or ends; serve passes ImportsAtWork.
	ImportsAtWork func(n int)
	// Secret is the data directory's key for signing document URLs
	// (files.SecretSize random bytes); without one, New makes a random key.
	Secret []byte
	// ListenAddr is the address the server listens on (host:port), and
	// AllowedHosts more names it answers to: a request whose Host is none
	// of them, localhost, the public URL's host or an IP address is
	// refused with 421 before anything else (DNS rebinding; see hostNames).
	ListenAddr   string
	AllowedHosts []string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client (see clientAddr); from any other address it is ignored.
	TrustedProxies []netip.Prefix
}

// Server serves the API. It is an http.Handler.
type Server struct {
	cfg     Config
	db      *db.DB
	files   *files.Store
	log     *slog.Logger
	mux     *http.ServeMux
	auth    *auth.Authenticator
	uploads *upload.Uploads
	docs    *upload.Documents
	pages   *web.Pages
	hosts   hostNames
}

// The defaults of the upload limits (Config).
const (
	DefaultMaxUploads          = 16
	DefaultMaxUploadsPerClient = 2
	DefaultUploadMinRate       = 16 << 10 // bytes a second
)

// handlerFunc is an API handler; p is the authenticated caller.
type handlerFunc func(w http.ResponseWriter, r *http.Request, p *db.Principal)

// route is one entry of the API's route table.
type route struct {
	pattern string
	scope   string // scope the caller's key needs
	nested  bool   // 400 and 404 use the documents' nested error body
	handler handlerFunc
}

// New builds the server around its dependencies.
func New(cfg Config, d *db.DB, store *files.Store, logger *slog.Logger) *Server {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxUploads <= 0 {
		cfg.MaxUploads = DefaultMaxUploads
	}
	if cfg.MaxUploadsPerClient <= 0 {
		cfg.MaxUploadsPerClient = DefaultMaxUploadsPerClient
	}
	if cfg.UploadWait <= 0 {
		cfg.UploadWait = 2 * time.Second
	}
	if cfg.UploadMinRate <= 0 {
		cfg.UploadMinRate = DefaultUploadMinRate
	}
	if cfg.UploadRateWindow <= 0 {
		cfg.UploadRateWindow = 10 * time.Second
	}
	if len(cfg.Secret) == 0 {
		// Links then verify only while this process runs; never a
		// guessable key.
		cfg.Secret = make([]byte, files.SecretSize)
		rand.Read(cfg.Secret)
	}
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	s := &Server{cfg: cfg, db: d, files: store, log: logger, mux: http.NewServeMux(),
		auth: auth.New(d, cfg.RateLimit, cfg.AuthFailures, cfg.Now), uploads: upload.New(upload.Limits{MaxUploads: cfg.MaxUploads, MaxPerClient: cfg.MaxUploadsPerClient,
			Wait: cfg.UploadWait, MinRate: cfg.UploadMinRate, RateWindow: cfg.UploadRateWindow, ImportsAtWork: cfg.ImportsAtWork}),
		docs:  &upload.Documents{DB: d, Files: store, Log: logger, PublicURL: cfg.PublicURL, Secret: cfg.Secret},
		hosts: newHostNames(cfg.ListenAddr, cfg.PublicURL, cfg.AllowedHosts)}
	for _, rt := range s.routes() {
		s.mux.Handle(rt.pattern, s.wrap(rt))
	}
	s.pages = web.New(web.Config{DB: d, Log: logger, Auth: s.auth, Uploads: s.uploads, Documents: s.docs, PublicURL: cfg.PublicURL})
	for _, p := range s.pages.Routes() {
		s.mux.Handle(p.Pattern, p.Handler)
	}
	return s
}

// routes is the whole API.
func (s *Server) routes() []route {
	writeUps, plans, chartBooks, reportCards := s.db.WriteUps(), s.db.TradingPlans(), s.db.ChartBooks(), s.db.ReportCards()
	return []route{
		{"GET /api/v1/accounts", "accounts:read", false, listHandler(s, s.db.Accounts)},
		{"GET /api/v1/accounts/{id}", "accounts:read", false, getHandler(s, "Account", s.db.Account)},
		{"POST /api/v1/accounts", "accounts:write", false, createHandler(s, jsonBody(input.Account), s.db.CreateAccount)},
		{"PUT /api/v1/accounts/{id}", "accounts:write", false, updateHandler(s, "Account", jsonBody(input.Account), s.db.UpdateAccount)},
		{"DELETE /api/v1/accounts/{id}", "accounts:write", false, s.handleAccountDelete},
		{"GET /api/v1/accounts/{id}/status", "accounts:read", false, getHandler(s, "Account", s.db.AccountStatus)},

		{"GET /api/v1/payouts", "accounts:read", false, filteredList(s, input.PayoutFilter, s.db.Payouts, writeList)},
		{"GET /api/v1/payouts/summary", "accounts:read", false, s.handlePayoutSummary},
		{"GET /api/v1/payouts/{id}", "accounts:read", false, getHandler(s, "Payout", s.db.Payout)},
		{"POST /api/v1/payouts", "accounts:write", false, createHandler(s, jsonBody(input.Payout), s.db.CreatePayout)},
		{"PUT /api/v1/payouts/{id}", "accounts:write", false, updateHandler(s, "Payout", jsonBody(input.Payout), s.db.UpdatePayout)},
		{"DELETE /api/v1/payouts/{id}", "accounts:write", false, deleteHandler(s, "Payout", s.db.DeletePayout)},

		{"GET /api/v1/expenses", "accounts:read", false, filteredList(s, input.ExpenseFilter, s.db.Expenses, writeList)},
		{"GET /api/v1/expenses/{id}", "accounts:read", false, getHandler(s, "Expense", s.db.Expense)},
		{"POST /api/v1/expenses", "accounts:write", false, createHandler(s, jsonBody(input.Expense), s.db.CreateExpense)},
		{"PUT /api/v1/expenses/{id}", "accounts:write", false, updateHandler(s, "Expense", jsonBody(input.Expense), s.db.UpdateExpense)},
		{"DELETE /api/v1/expenses/{id}", "accounts:write", false, deleteHandler(s, "Expense", s.db.DeleteExpense)},

		{"GET /api/v1/trades", "trades:read", false, filteredList(s, input.TradeFilter, s.db.TradeListing, writeEncodedList)},
		{"GET /api/v1/trades/{id}", "trades:read", false, s.handleTradeGet},
		{"POST /api/v1/trades", "trades:write", false, createHandler(s, decodeTrade, s.tradeCreate)},
		{"PUT /api/v1/trades/{id}", "trades:write", false, updateHandler(s, "Trade", decodeTrade, s.tradeUpdate)},
		{"DELETE /api/v1/trades/{id}", "trades:write", false, deleteHandler(s, "Trade", s.db.DeleteTrade)},
		{"POST /api/v1/trades/bulk", "trades:write", false, s.handleTradeBulk},

		{"GET /api/v1/trades/export", "trades:read", false, s.handleTradeExport},

		{"GET /api/v1/days/{date}", "trades:read", false, s.handleDay},

		{"GET /api/v1/stats/summary", "trades:read", false, statsHandler(s, s.statsSummary)},
		{"GET /api/v1/stats/daily", "trades:read", false, statsHandler(s, s.statsDaily)},
		{"GET /api/v1/stats/equity", "trades:read", false, statsHandler(s, s.statsEquity)},
		{"GET /api/v1/stats/breakdown", "trades:read", false, statsHandler(s, s.statsBreakdown)},

		{"GET /api/v1/imports", "trades:read", false, listHandler(s, s.db.Imports)},
		{"GET /api/v1/imports/{id}", "trades:read", false, getHandler(s, "Import", s.db.ImportRecord)},
		{"POST /api/v1/imports", "trades:write", false, s.handleImportCreate},
		{"DELETE /api/v1/imports/{id}", "trades:write", false, s.handleImportDelete},
		{"POST /api/v1/fills", "trades:write", false, s.handleFills},

		{"GET /api/v1/import-mappings", "trades:read", false, listHandler(s, s.db.ImportMappings)},
		{"GET /api/v1/import-mappings/{id}", "trades:read", false, getHandler(s, "Import mapping", s.db.ImportMappingRecord)},
		{"POST /api/v1/import-mappings", "trades:write", false, createHandler(s, jsonBody(input.ImportMapping), s.db.CreateImportMapping)},
		{"PUT /api/v1/import-mappings/{id}", "trades:write", false, updateHandler(s, "Import mapping", jsonBody(input.ImportMapping), s.db.UpdateImportMapping)},
		{"DELETE /api/v1/import-mappings/{id}", "trades:write", false, deleteHandler(s, "Import mapping", s.db.DeleteImportMapping)},

		{"GET /api/v1/tags", "tags:read", false, s.handleTagList},
		{"POST /api/v1/tags", "tags:write", false, s.handleTagCreate},
		{"PUT /api/v1/tags", "tags:write", false, s.handleTagUpdate},
		{"DELETE /api/v1/tags", "tags:write", false, s.handleTagDelete},

		{"GET /api/v1/instruments", "trades:read", false, s.handleInstrumentList},
		{"PUT /api/v1/instruments/{root}", "trades:write", false, s.handleInstrumentSet},
		{"DELETE /api/v1/instruments/{root}", "trades:write", false, s.handleInstrumentDelete},

		{"GET /api/v1/playbooks", "playbooks:read", false, listHandler(s, s.db.Playbooks)},
		{"GET /api/v1/playbooks/{id}", "playbooks:read", false, getHandler(s, "Playbook", s.db.Playbook)},
		{"POST /api/v1/playbooks", "playbooks:write", false, createHandler(s, decodePlaybook, s.db.CreatePlaybook)},
		{"PUT /api/v1/playbooks/{id}", "playbooks:write", false, updateHandler(s, "Playbook", decodePlaybook, s.db.UpdatePlaybook)},
		{"DELETE /api/v1/playbooks/{id}", "playbooks:write", false, deleteHandler(s, "Playbook", s.db.DeletePlaybook)},

		{"GET /api/v1/strategies", "playbooks:read", false, filteredList(s, parseStrategyFilter, s.db.Strategies, writeList)},
		{"GET /api/v1/strategies/{id}", "playbooks:read", false, getHandler(s, "Strategy", s.db.Strategy)},
		{"POST /api/v1/strategies", "playbooks:write", false, createHandler(s, decodeStrategy, s.db.CreateStrategy)},
		{"PUT /api/v1/strategies/{id}", "playbooks:write", false, updateHandler(s, "Strategy", decodeStrategy, s.db.UpdateStrategy)},
		{"DELETE /api/v1/strategies/{id}", "playbooks:write", false, deleteHandler(s, "Strategy", s.db.DeleteStrategy)},

		{"GET /api/v1/documents", "documents:read", true, s.handleDocumentList},
		{"GET /api/v1/documents/{id}", "documents:read", true, s.handleDocumentGet},
		{"POST /api/v1/documents", "documents:write", true, s.handleDocumentUpload},
		{"PUT /api/v1/documents/{id}", "documents:write", true, s.handleDocumentUpdate},
		{"DELETE /api/v1/documents/{id}", "documents:write", true, s.handleDocumentDelete},

		// The signed link is the authorization: no API key (scope "").
		{"GET /api/v1/files/{id}/{name}", "", false, s.handleFileDownload},

		// The document describes the API and holds no data: no key.
		{"GET /api/v1/openapi.json", "", false, s.handleOpenAPI},

		{"GET /api/v1/write-ups", "content:read", false, contentList(s, writeUps)},
		{"GET /api/v1/write-ups/{id}", "content:read", false, getHandler(s, writeUps.Kind(), writeUps.Get)},
		{"POST /api/v1/write-ups", "content:write", false, createHandler(s, jsonBody(input.WriteUp), writeUps.Create)},
		{"PUT /api/v1/write-ups/{id}", "content:write", false, updateHandler(s, writeUps.Kind(), jsonBody(input.WriteUp), writeUps.Update)},
		{"DELETE /api/v1/write-ups/{id}", "content:write", false, deleteHandler(s, writeUps.Kind(), writeUps.Delete)},

		{"GET /api/v1/trading-plans", "content:read", false, contentList(s, plans)},
		{"GET /api/v1/trading-plans/{id}", "content:read", false, getHandler(s, plans.Kind(), plans.Get)},
		{"POST /api/v1/trading-plans", "content:write", false, createHandler(s, jsonBody(input.TradingPlan), plans.Create)},
		{"PUT /api/v1/trading-plans/{id}", "content:write", false, updateHandler(s, plans.Kind(), jsonBody(input.TradingPlan), plans.Update)},
		{"DELETE /api/v1/trading-plans/{id}", "content:write", false, deleteHandler(s, plans.Kind(), plans.Delete)},

		{"GET /api/v1/chart-books", "content:read", false, contentList(s, chartBooks)},
		{"GET /api/v1/chart-books/{id}", "content:read", false, getHandler(s, chartBooks.Kind(), chartBooks.Get)},
		{"POST /api/v1/chart-books", "content:write", false, createHandler(s, jsonBody(input.ChartBook), chartBooks.Create)},
		{"PUT /api/v1/chart-books/{id}", "content:write", false, updateHandler(s, chartBooks.Kind(), jsonBody(input.ChartBook), chartBooks.Update)},
		{"DELETE /api/v1/chart-books/{id}", "content:write", false, deleteHandler(s, chartBooks.Kind(), chartBooks.Delete)},

		{"GET /api/v1/report-cards", "content:read", false, contentList(s, reportCards)},
		{"GET /api/v1/report-cards/{id}", "content:read", false, getHandler(s, reportCards.Kind(), reportCards.Get)},
		{"POST /api/v1/report-cards", "content:write", false, createHandler(s, jsonBody(input.ReportCard), reportCards.Create)},
		{"PUT /api/v1/report-cards/{id}", "content:write", false, updateHandler(s, reportCards.Kind(), jsonBody(input.ReportCard), reportCards.Update)},
		{"DELETE /api/v1/report-cards/{id}", "content:write", false, deleteHandler(s, reportCards.Kind(), reportCards.Delete)},
	}
}

// wrap authenticates a request for its route before the handler runs. A
// route without a scope is public: its handler gets no principal and does
// its own checking.
func (s *Server) wrap(rt route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rt.nested {
			r = r.WithContext(context.WithValue(r.Context(), ctxNested, true))
		}
		if rt.scope == "" {
			rt.handler(w, r, nil)
			return
		}
		p, err := s.auth.Request(r, rt.scope)
		if err != nil {
			if e, _ := problem.Of(err); e.Status == http.StatusUnauthorized {
				err = s.auth.Failed(w, r, err)
			}
			s.writeError(w, r, err)
			return
		}
		if err := s.auth.Spend(w, p.KeyID); err != nil {
			s.writeError(w, r, err)
			return
		}
		rt.handler(w, r, p)
	})
}

// ServeHTTP gives every request an id and its client address, refuses a
// Host the journal does not answer to, recovers panics into a 500, logs
// the request (never its key), and answers unknown routes and wrong methods in
// JSON rather than the mux's plain text.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	id := newRequestID()
	h := w.Header()
	h.Set("X-Request-Id", id)
	// No API answer is for a cache (it is one user's data, or an error of
	// the moment), and none is to be sniffed into another type. The signed
	// download sets its own caching.
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	client := clientAddr(r, s.cfg.TrustedProxies)
	r = r.WithContext(auth.WithClientAddr(problem.WithRequestID(r.Context(), id), client))
	rec := &statusRecorder{ResponseWriter: w}
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("panic", "request_id", id, "method", r.Method, "path", r.URL.Path,
				"panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if rec.status == 0 {
				s.writeError(rec, r, problem.Internal)
			}
		}
		s.log.Info("request", "request_id", id, "client", client, "method", r.Method, "path", r.URL.Path,
			"status", rec.status, "bytes", rec.bytes, "duration", time.Since(start))
	}()
	if !s.hosts.allow(r.Host) {
		// Before the route, the key, the limits and the body: a page that
		// reached the journal through a name it does not own gets nothing,
		// and the request's URL (a signed link, say) is passed on to none.
		h.Set("Referrer-Policy", "no-referrer")
		s.log.Warn("refused a request for a host name this server does not answer to (if the name is yours: serve --allowed-host NAME)",
			"request_id", id, "host", r.Host, "client", client)
		s.writeError(rec, r, problem.Misdirected)
		return
	}
	if _, pattern := s.mux.Handler(r); pattern == "" || r.URL.Path != cleanPath(r.URL.Path) {
		// The mux would answer 404 or 405 (with Allow) in plain text, or
		// redirect a path such as /api/v1//accounts with an HTML body.
		h, _ := s.mux.Handler(r)
		h.ServeHTTP(&jsonErrorWriter{ResponseWriter: rec, s: s, r: r}, r)
		return
	}
	s.mux.ServeHTTP(rec, r)
}

// cleanPath is the path the mux routes for p (net/http's own rule): a
// request for any other path gets a redirect to this one.
func cleanPath(p string) string {
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if strings.HasSuffix(p, "/") && np != "/" {
		np += "/"
	}
	return np
}

func newRequestID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// statusRecorder remembers the status and size of a response, for the log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the connection.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// jsonErrorWriter turns the mux's plain-text 404 and 405 into the API's
// JSON errors, keeping the Allow header it sets.
type jsonErrorWriter struct {
	http.ResponseWriter
	s     *Server
	r     *http.Request
	wrote bool
}

func (j *jsonErrorWriter) WriteHeader(code int) {
	if j.wrote {
		return
	}
	j.wrote = true
	h := j.Header()
	// http.Error, which wrote these headers, may have dropped the API's own.
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	switch code {
	case http.StatusMethodNotAllowed:
		j.s.writeError(j.ResponseWriter, j.r, &problem.Problem{Status: code, Code: "METHOD_NOT_ALLOWED",
			Message: "Method " + j.r.Method + " is not allowed here; allowed: " + h.Get("Allow")})
	case http.StatusMovedPermanently, http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		// No route has this exact path; an API client gets the 404, not a
		// redirect meant for browsers.
		h.Del("Location")
		fallthrough
	case http.StatusNotFound:
		j.s.writeError(j.ResponseWriter, j.r, &problem.Problem{Status: http.StatusNotFound, Code: "NOT_FOUND", Message: "No such route"})
	default:
		j.ResponseWriter.WriteHeader(code)
	}
}

func (j *jsonErrorWriter) Write(b []byte) (int, error) {
	if !j.wrote {
		j.WriteHeader(http.StatusOK)
	}
	return len(b), nil // the mux's own text is dropped
}
