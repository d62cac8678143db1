package server

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"
	"tradejournal/server/problem"

	"tradejournal/db"
)

// authenticate finds who the request acts for and checks the route's scope.
func (s *Server) authenticate(r *http.Request, scope string) (*db.Principal, error) {
	scheme, key, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return nil, problem.InvalidKey
	}
	p, err := s.keyPrincipal(r.Context(), key)
	if err != nil {
		return nil, err
	}
	if err := admit(p, scope); err != nil {
		return nil, err
	}
	return p, nil
}

// admit lets a key's owner (through the API or a page's session) do what
// scope allows: an inactive subscription is problem.Subscription, a key without
// the scope problem.Forbidden. scope "" asks for none.
func admit(p *db.Principal, scope string) error {
	if p.Subscription != db.SubscriptionActive {
		return problem.Subscription
	}
	if scope != "" && !p.Can(scope) {
		return problem.Forbidden(scope)
	}
	return nil
}

// failedAuth answers a request whose key, sign-in key or sign-in link
// failed with err (a 401): it spends one of the client address's failed
// authentications, or, when they are spent, turns err into a 429 with
// Retry-After. Only a failing request reaches it, so a valid key or link
// is never refused for its address: a broken script on the owner's
// machine, or a stranger behind the same proxy, never locks out the owner.
func (s *Server) failedAuth(w http.ResponseWriter, r *http.Request, err error) error {
	addr, now := clientAddr(r), s.cfg.Now()
	if blocked, wait := s.limits.clientBlocked(addr, now); blocked {
		return problem.RateLimited(w, wait)
	}
	s.limits.authFailed(addr, now)
	return err
}

// keyPrincipal finds a key's owner, as the API and the sign-in page both
// need it: a malformed or unknown key is problem.InvalidKey, a revoked one
// problem.RevokedKey. Whether the owner may act is admit's.
func (s *Server) keyPrincipal(ctx context.Context, key string) (*db.Principal, error) {
	if !db.WellFormedKey(key) {
		return nil, problem.InvalidKey
	}
	p, err := s.db.Authenticate(ctx, key)
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
	s.usage.touch(p.KeyID, s.db.Now())
	return &p, nil
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
func (s *Server) FlushKeyUsage(ctx context.Context) error {
	return s.db.TouchKeys(ctx, s.usage.take())
}

// RecordKeyUsage flushes key usage every interval until ctx ends, then once
// more, so each key's last_used_at is written at most once per interval.
func (s *Server) RecordKeyUsage(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-ctx.Done():
			if err := s.FlushKeyUsage(context.WithoutCancel(ctx)); err != nil {
				s.log.Error("record key usage", "err", err)
			}
			return
		}
		if err := s.FlushKeyUsage(ctx); err != nil {
			s.log.Error("record key usage", "err", err)
		}
	}
}
