package server

import (
	"context"
	"time"

	"tradejournal/server/auth"
)

// The defaults of the rate limits (Config): see auth.
const (
	DefaultRateLimit    = auth.DefaultRateLimit
	DefaultAuthFailures = auth.DefaultAuthFailures
)

// FlushKeyUsage writes the remembered last-used times of keys.
func (s *Server) FlushKeyUsage(ctx context.Context) error {
	return s.auth.FlushKeyUsage(ctx)
}

// RecordKeyUsage flushes key usage every interval until ctx ends, then once
// more, so each key's last_used_at is written at most once per interval.
func (s *Server) RecordKeyUsage(ctx context.Context, interval time.Duration) {
	s.auth.RecordKeyUsage(ctx, interval, s.log)
}
