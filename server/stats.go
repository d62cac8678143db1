package server

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"tradejournal/db"
	"tradejournal/server/input"
)

// statsHandler answers a statistic of DESIGN §9 over the trades the list's
// filters select (a malformed filter is a 400 naming it), as {"data": …}.
// compute reads the statistic's own parameters from the query.
func statsHandler[T any](s *Server, compute func(ctx context.Context, userID string, f db.TradeFilter, q url.Values) (T, error)) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, p *db.Principal) {
		q := r.URL.Query()
		filter, err := input.TradeFilter(q)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		v, err := compute(r.Context(), p.UserID, filter, q)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, dataBody[T]{v})
	}
}

func (s *Server) statsSummary(ctx context.Context, userID string, f db.TradeFilter, _ url.Values) (db.StatsSummary, error) {
	return s.db.StatsSummary(ctx, userID, f)
}

func (s *Server) statsDaily(ctx context.Context, userID string, f db.TradeFilter, _ url.Values) ([]db.DailyStats, error) {
	return s.db.StatsDaily(ctx, userID, f)
}

// statsEquity reads resolution: day (the default) or trade.
func (s *Server) statsEquity(ctx context.Context, userID string, f db.TradeFilter, q url.Values) ([]db.EquityPoint, error) {
	fe := input.Errors{}
	resolution := fe.QueryEnum("resolution", strings.TrimSpace(q.Get("resolution")), []string{"day", "trade"})
	if err := fe.Err(); err != nil {
		return nil, err
	}
	return s.db.StatsEquity(ctx, userID, f, resolution == "trade")
}

// statsBreakdown reads by, which is required.
func (s *Server) statsBreakdown(ctx context.Context, userID string, f db.TradeFilter, q url.Values) ([]db.BreakdownRow, error) {
	by := strings.TrimSpace(q.Get("by"))
	if err := input.Breakdown(by); err != nil {
		return nil, err
	}
	return s.db.StatsBreakdown(ctx, userID, f, by)
}
