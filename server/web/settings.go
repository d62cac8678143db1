package web

import (
	"net/http"
	"slices"
	"strings"

	"tradejournal/db"
	"tradejournal/server/input"
	"tradejournal/server/problem"
)

// settingsRoutes are the pages of settings: the timezone, API keys,
// signing out everywhere. They write the user and their keys, which the
// API leaves to the command line, so they name no API write.
func (s *Pages) settingsRoutes() []Route {
	return []Route{
		{Pattern: "GET /settings", Handler: s.page("", s.handleSettings)},
		{Pattern: "POST /settings/timezone", Handler: s.page("", s.settingsPost(s.handleTimezone))},
		{Pattern: "POST /settings/keys", Handler: s.page("", s.settingsPost(s.handleKeyCreate))},
		{Pattern: "POST /settings/keys/{id}/revoke", Handler: s.page("", s.settingsPost(s.handleKeyRevoke))},
		{Pattern: "POST /settings/sign-out-everywhere", Handler: s.page("", s.settingsPost(s.handleSignOutEverywhere))},
	}
}

// settingsPage is the settings page's data.
type settingsPage struct {
	pageData
	User      db.User
	Keys      []db.Key
	Zones     []string
	Scopes    []string // the scopes a new key may have: the session's own
	CanEdit   bool     // the session's key holds every write scope
	NewKey    string   // a key just created, shown this once
	NewKeyFor string
	Message   string
	Error     string
	Typed     map[string]string
}

// fullAccess reports whether a session's key may change settings: it
// holds every scope's write. A narrower key (a phone's read-only one) may
// look at the settings but not make keys, revoke them or sign everyone out.
func fullAccess(sess *db.Session) bool {
	all, _ := db.ParseScopes("write")
	for _, scope := range all {
		if !sess.Can(scope) {
			return false
		}
	}
	return true
}

// settingsPost admits a settings form only for a session with full
// access (fullAccess).
func (s *Pages) settingsPost(h pageFunc) pageFunc {
	return func(w http.ResponseWriter, r *http.Request, sess *db.Session) {
		if !fullAccess(sess) {
			s.errorPage(w, r, sess, &problem.Problem{Status: http.StatusForbidden, Code: "FORBIDDEN",
				Message: "Settings change only with a key that can write everything; sign in with such a key"})
			return
		}
		h(w, r, sess)
	}
}

func (s *Pages) handleSettings(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	s.renderSettings(w, r, sess, http.StatusOK, settingsPage{Message: doneMessage(r.URL.Query(), "saved", "revoked")})
}

// renderSettings shows the settings page p; p.User, when the handler has
// read it already, is not read again.
func (s *Pages) renderSettings(w http.ResponseWriter, r *http.Request, sess *db.Session, status int, p settingsPage) {
	var err error
	u := p.User
	if u.ID == "" {
		u, err = s.db.User(r.Context(), sess.UserID)
	}
	if err == nil {
		p.Keys, err = s.db.Keys(r.Context(), u.Name)
	}
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	p.pageData, p.User, p.CanEdit = pageData{Session: sess, Nav: "settings"}, u, fullAccess(sess)
	reads, _ := db.ParseScopes("read")
	writes, _ := db.ParseScopes("write")
	for _, sc := range append(reads, writes...) {
		if sess.Can(sc) {
			p.Scopes = append(p.Scopes, sc)
		}
	}
	p.Zones = commonZones
	if !slices.Contains(p.Zones, u.Timezone) {
		p.Zones = append([]string{u.Timezone}, p.Zones...)
	}
	s.render(w, r, status, "settings", p)
}

// commonZones are the timezones the form offers first; any IANA name may
// be typed.
var commonZones = []string{"America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles",
	"America/Sao_Paulo", "Europe/London", "Europe/Berlin", "Europe/Zurich", "Asia/Dubai", "Asia/Singapore",
	"Asia/Tokyo", "Australia/Sydney", "UTC"}

// handleTimezone sets the user's timezone, which buckets days and shows
// times on every page and in the API (as `user set --timezone`).
func (s *Pages) handleTimezone(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	tz := strings.TrimSpace(r.PostFormValue("timezone"))
	u, err := s.db.User(r.Context(), sess.UserID)
	if err == nil {
		if db.CheckTimezone(tz) != nil || tz == "" {
			s.renderSettings(w, r, sess, http.StatusBadRequest, settingsPage{User: u,
				Error: "Timezone must be an IANA name such as America/New_York; " + tz + " is not one.",
				Typed: map[string]string{"timezone": tz}})
			return
		}
		_, err = s.db.UpdateUser(r.Context(), u.Name, db.UserUpdate{Timezone: db.Some(tz)})
	}
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	http.Redirect(w, r, "/settings?saved=1", http.StatusSeeOther)
}

// handleKeyCreate makes an API key with the scopes ticked (each the
// session's own at most) and shows it this once, in the answer to the
// post: never in a URL, a redirect or a log.
func (s *Pages) handleKeyCreate(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	name := strings.TrimSpace(r.PostFormValue("name"))
	var scopes []string
	for _, sc := range r.PostForm["scopes"] {
		if !sess.Can(sc) {
			s.renderSettings(w, r, sess, http.StatusBadRequest, settingsPage{Error: "A new key may have only scopes this session's key has; " + sc + " is not one.",
				Typed: map[string]string{"name": name}})
			return
		}
		scopes = append(scopes, sc)
	}
	parsed, err := db.ParseScopes(strings.Join(scopes, ","))
	f := input.Errors{}
	switch {
	case len(scopes) == 0:
		f.Add("scopes", "Tick at least one scope.")
	case err != nil:
		f.Add("scopes", "Scopes: "+err.Error())
	}
	f.Text("name", db.Some(name), 200)
	if err := f.Err(); err != nil {
		e, _ := problem.Of(err)
		var reasons []string
		for _, reason := range e.Details {
			reasons = append(reasons, strings.Replace(reason, "name must", "The name must", 1))
		}
		slices.Sort(reasons)
		s.renderSettings(w, r, sess, http.StatusBadRequest, settingsPage{Error: strings.Join(reasons, " "),
			Typed: map[string]string{"name": name}})
		return
	}
	u, err := s.db.User(r.Context(), sess.UserID)
	var key string
	var k db.Key
	if err == nil {
		k, key, err = s.db.CreateKey(r.Context(), u.Name, name, parsed, false)
	}
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	s.renderSettings(w, r, sess, http.StatusOK, settingsPage{User: u, NewKey: key, NewKeyFor: k.Name})
}

// handleKeyRevoke revokes one of the user's keys. Revoking the key this
// session signed in with signs this browser out.
func (s *Pages) handleKeyRevoke(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	id := r.PathValue("id")
	if err := s.db.RevokeUserKey(r.Context(), sess.UserID, id); err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	if id == sess.KeyID {
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return
	}
	http.Redirect(w, r, "/settings?revoked=1", http.StatusSeeOther)
}

// handleSignOutEverywhere ends every browser session of the user's, this
// one included.
func (s *Pages) handleSignOutEverywhere(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	if _, err := s.db.EndUserSessions(r.Context(), sess.UserID); err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	s.signedOut(w, r)
}
