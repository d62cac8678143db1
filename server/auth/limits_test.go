package auth

import (
	"strconv"
	"testing"
	"time"
)

// TestAuthFailureMemoryBounded: however many addresses fail, at most
// maxAuthClients are remembered, and the one seen failing longest ago goes
// first.
func TestAuthFailureMemoryBounded(t *testing.T) {
	l := newLimiters(0, DefaultAuthFailures)
	start := time.Date(2026, 2, 5, 15, 0, 0, 0, time.UTC)
	for i := range maxAuthClients + 500 {
		l.authFailed("10.0."+strconv.Itoa(i/256)+"."+strconv.Itoa(i%256), start.Add(time.Duration(i)*time.Millisecond))
	}
	if n := len(l.clients); n != maxAuthClients {
		t.Errorf("%d addresses remembered, want %d", n, maxAuthClients)
	}
	if _, ok := l.clients["10.0.0.0"]; ok {
		t.Errorf("the oldest address is still remembered")
	}
	last := maxAuthClients + 499
	if _, ok := l.clients["10.0."+strconv.Itoa(last/256)+"."+strconv.Itoa(last%256)]; !ok {
		t.Errorf("the newest address was forgotten")
	}
}
