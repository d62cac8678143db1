// Package auth is who a request acts for, for the API and the web pages
// alike: API keys, browser sessions, the failed-authentication budget of
// each client address, each key's rate limit, and when keys were last used.
package auth

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"tradejournal/db"
	"tradejournal/server/problem"
)

// SessionCookie is a browser session's cookie; its value is the session id.
const SessionCookie = "tj_session"

// Authenticator finds the principal of API keys and sessions and keeps the
// limits around them.
type Authenticator struct {
	db     *db.DB
	now    func() time.Time
	limits *limiters
	usage  keyUsage
}

// New is an Authenticator over d: each key may make perSecond requests a
// second (0: no limit), each client address may fail authFailures times a
// minute (0: no limit), on the clock now.
func New(d *db.DB, perSecond float64, authFailures int, now func() time.Time) *Authenticator {
	return &Authenticator{db: d, now: now, limits: newLimiters(perSecond, authFailures)}
}

// Request finds who an API request acts for (its bearer key) and checks
// the route's scope.
func (a *Authenticator) Request(r *http.Request, scope string) (*db.Principal, error) {
	scheme, key, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return nil, problem.InvalidKey
	}
	p, err := a.Key(r.Context(), key)
	if err != nil {
		return nil, err
	}
	if err := Admit(p, scope); err != nil {
		return nil, err
	}
	return p, nil
}

// Admit lets a key's owner (through the API or a page's session) do what
// scope allows: an inactive subscription is problem.Subscription, a key
// without the scope problem.Forbidden. scope "" asks for none.
func Admit(p *db.Principal, scope string) error {
	if p.Subscription != db.SubscriptionActive {
		return problem.Subscription
	}
	if scope != "" && !p.Can(scope) {
		return problem.Forbidden(scope)
	}
	return nil
}

// Failed answers a request whose key, sign-in key or sign-in link failed
// with err (a 401): it spends one of the client address's failed
// authentications, or, when they are spent, turns err into a 429 with
// Retry-After. Only a failing request reaches it, so a valid key or link
// is never refused for its address: a broken script on the owner's
// machine, or a stranger behind the same proxy, never locks out the owner.
func (a *Authenticator) Failed(w http.ResponseWriter, r *http.Request, err error) error {
	addr, now := ClientAddr(r), a.now()
	if blocked, wait := a.limits.clientBlocked(addr, now); blocked {
		return problem.RateLimited(w, wait)
	}
	a.limits.authFailed(addr, now)
	return err
}

// Spend takes one of the key's requests (--rate-limit), through the API or
// a session alike, or is the 429 that says when to come back.
func (a *Authenticator) Spend(w http.ResponseWriter, keyID string) error {
	if ok, wait := a.limits.allowKey(keyID, a.now()); !ok {
		return problem.RateLimited(w, wait)
	}
	return nil
}

// Key finds a key's owner, as the API and the sign-in page both need it: a
// malformed or unknown key is problem.InvalidKey, a revoked one
// problem.RevokedKey. Whether the owner may act is Admit's.
func (a *Authenticator) Key(ctx context.Context, key string) (*db.Principal, error) {
	if !db.WellFormedKey(key) {
		return nil, problem.InvalidKey
	}
	p, err := a.db.Authenticate(ctx, key)
	var nf *db.NotFoundError
	if errors.As(err, &nf) {
		return nil, problem.InvalidKey
	}
	if err != nil {
		return nil, err
	}
	if p.Revoked {
		return nil, problem.RevokedKey
	}
	a.usage.touch(p.KeyID, a.db.Now())
	return &p, nil
}

// Session is the request's live browser session, or nil.
func (a *Authenticator) Session(r *http.Request) *db.Session {
	c, err := r.Cookie(SessionCookie)
	if err != nil || len(c.Value) != 43 {
		return nil
	}
	sess, err := a.db.Session(r.Context(), c.Value)
	if err != nil || sess.Revoked {
		return nil
	}
	a.usage.touch(sess.KeyID, a.db.Now())
	return &sess
}

// keyUsage remembers when keys were last used, in memory, until the next
// flush: writing last_used_at on every request would make reads write.
type keyUsage struct {
	mu      sync.Mutex
	pending map[string]time.Time
}

func (u *keyUsage) touch(keyID string, at time.Time) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.pending == nil {
		u.pending = make(map[string]time.Time)
	}
	u.pending[keyID] = at
}

func (u *keyUsage) take() map[string]time.Time {
	u.mu.Lock()
	defer u.mu.Unlock()
	p := u.pending
	u.pending = nil
	return p
}

// FlushKeyUsage writes the remembered last-used times of keys.
func (a *Authenticator) FlushKeyUsage(ctx context.Context) error {
	return a.db.TouchKeys(ctx, a.usage.take())
}

// RecordKeyUsage flushes key usage every interval until ctx ends, then once
// more, so each key's last_used_at is written at most once per interval.
func (a *Authenticator) RecordKeyUsage(ctx context.Context, interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-ctx.Done():
			if err := a.FlushKeyUsage(context.WithoutCancel(ctx)); err != nil {
				log.Error("record key usage", "err", err)
			}
			return
		}
		if err := a.FlushKeyUsage(ctx); err != nil {
			log.Error("record key usage", "err", err)
		}
	}
}
