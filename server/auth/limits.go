package auth

import (
	"context"
	"math"
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Default rate limits (DESIGN §12): no limit per key, since a personal
// server should not throttle its owner's scripts (--rate-limit N allows N
// requests a second per key); each client address may fail authentication
// DefaultAuthFailures times a minute before its failing requests get 429
// instead of 401. A valid key is never refused for its address.
const (
	DefaultRateLimit    = 0
	DefaultAuthFailures = 10
	maxAuthClients      = 10_000 // addresses remembered; the least recent go first
)

// limiters holds the token buckets of keys and of client addresses.
type limiters struct {
	perSecond    float64 // per key; 0 turns key limits off
	burst        int
	authFailures int // per client address and minute; 0 turns it off

	mu      sync.Mutex
	keys    map[string]*rate.Limiter
	clients map[string]*clientLimiter
}

type clientLimiter struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLimiters(perSecond float64, authFailures int) *limiters {
	return &limiters{
		perSecond:    perSecond,
		burst:        max(1, int(math.Ceil(perSecond))),
		authFailures: authFailures,
		keys:         make(map[string]*rate.Limiter),
		clients:      make(map[string]*clientLimiter),
	}
}

// allowKey takes a token from the key's bucket, or says how long to wait.
func (l *limiters) allowKey(keyID string, now time.Time) (bool, time.Duration) {
	if l.perSecond <= 0 {
		return true, 0
	}
	l.mu.Lock()
	lim, ok := l.keys[keyID]
	if !ok {
		lim = rate.NewLimiter(rate.Limit(l.perSecond), l.burst)
		l.keys[keyID] = lim
	}
	l.mu.Unlock()
	return take(lim, now)
}

// clientBlocked reports whether addr has used up its failed
// authentications, and how long until it may fail again.
func (l *limiters) clientBlocked(addr string, now time.Time) (bool, time.Duration) {
	if l.authFailures <= 0 {
		return false, 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	c, ok := l.clients[addr]
	if !ok || c.lim.TokensAt(now) >= 1 {
		return false, 0
	}
	r := c.lim.ReserveN(now, 1)
	defer r.CancelAt(now)
	return true, r.DelayFrom(now)
}

// authFailed spends one of addr's failed authentications.
func (l *limiters) authFailed(addr string, now time.Time) {
	if l.authFailures <= 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	c, ok := l.clients[addr]
	if !ok {
		if len(l.clients) >= maxAuthClients {
			l.evictOldest()
		}
		c = &clientLimiter{lim: rate.NewLimiter(rate.Every(time.Minute/time.Duration(l.authFailures)), l.authFailures)}
		l.clients[addr] = c
	}
	c.seen = now
	c.lim.AllowN(now, 1)
}

// evictOldest forgets the address least recently seen failing; a full
// table is rare (it takes 10,000 addresses), so a scan is cheap enough.
func (l *limiters) evictOldest() {
	var oldest string
	var at time.Time
	for addr, c := range l.clients {
		if oldest == "" || c.seen.Before(at) {
			oldest, at = addr, c.seen
		}
	}
	delete(l.clients, oldest)
}

func take(lim *rate.Limiter, now time.Time) (bool, time.Duration) {
	r := lim.ReserveN(now, 1)
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return false, d
	}
	return true, 0
}

// ClientAddr is the address the request comes from, for the per-address
// limits, the upload slots and the access log: what WithClientAddr put in
// its context (the server sets it once, as a request arrives, from the
// peer address and, behind a trusted proxy, X-Forwarded-For), else the
// peer's address without its port.
func ClientAddr(r *http.Request) string {
	if addr, ok := r.Context().Value(ctxClientAddr{}).(string); ok {
		return addr
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

type ctxClientAddr struct{}

// WithClientAddr gives a request's context the address it comes from.
func WithClientAddr(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, ctxClientAddr{}, addr)
}
