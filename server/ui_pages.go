package server

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"tradejournal/db"
)

// handleDashboard shows the summary figures, the equity curve and a month
// of daily net P&L of the trades the filters select (account, dates), from
// the statistics the API serves.
func (s *Server) handleDashboard(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	q := r.URL.Query()
	filter, err := parseTradeFilter(url.Values{"account_id": q["account_id"], "start_date": q["start_date"], "end_date": q["end_date"]})
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
	accounts, _, err := s.db.Accounts(ctx, sess.UserID, db.Page{Limit: 100})
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	cal, err := newCalendar(q, daily, s.db.Now(), sess.Timezone)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	s.render(w, r, http.StatusOK, "dashboard", struct {
		pageData
		Filter   db.TradeFilter
		Summary  db.StatsSummary
		Accounts []db.Account
		Equity   equityCurve
		Calendar calendar
	}{pageData{sess, sess.CSRF, "dashboard"}, filter, summary, accounts, newEquityCurve(equity), cal})
}

// equityCurve is the equity as an SVG polyline in a Width × Height box,
// Zero the y of 0.
type equityCurve struct {
	Width, Height, Zero float64
	Points              string
	First, Last         float64
}

func newEquityCurve(points []db.EquityPoint) equityCurve {
	c := equityCurve{Width: 600, Height: 160}
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
	y := func(v float64) float64 { return c.Height - 4 - (v-lo)/span*(c.Height-8) }
	var b strings.Builder
	fmt.Fprintf(&b, "0,%.1f", y(0))
	for i, p := range points {
		fmt.Fprintf(&b, " %.1f,%.1f", float64(i+1)/float64(len(points))*c.Width, y(p.Equity))
	}
	c.Points, c.Zero = b.String(), y(0)
	c.First, c.Last = points[0].Equity, points[len(points)-1].Equity
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

// newCalendar builds the month q's month names (YYYY-MM), else the month
// of the latest day with trades, else this month in the user's timezone.
func newCalendar(q url.Values, daily []db.DailyStats, now time.Time, timezone string) (calendar, error) {
	loc, err := time.LoadLocation(timezone)
	if err != nil {
		loc = time.UTC
	}
	month := now.In(loc)
	if len(daily) > 0 {
		if d, err := time.Parse(time.DateOnly, daily[len(daily)-1].Date); err == nil {
			month = d
		}
	}
	if m := q.Get("month"); m != "" {
		if month, err = time.Parse("2006-01", m); err != nil {
			return calendar{}, invalid("month", "month must be YYYY-MM")
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
	return c, nil
}

// handleTradesPage lists the trades, filtered and paged as the API's list.
func (s *Server) handleTradesPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	q := r.URL.Query()
	if !q.Has("limit") {
		q.Set("limit", "50")
	}
	page, err := parsePage(q)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	filter, err := parseTradeFilter(q)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	trades, total, err := s.db.Trades(r.Context(), sess.UserID, filter, page)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	accounts, _, err := s.db.Accounts(r.Context(), sess.UserID, db.Page{Limit: 100})
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
	var prev, next string
	if page.Offset > 0 {
		prev = at(max(0, page.Offset-page.Limit))
	}
	if page.Offset+len(trades) < total {
		next = at(page.Offset + page.Limit)
	}
	s.render(w, r, http.StatusOK, "trades", struct {
		pageData
		Filter           db.TradeFilter
		Statuses         []string
		Accounts         []db.Account
		Trades           []db.Trade
		Total, From, To  int
		PrevURL, NextURL string
	}{pageData{sess, sess.CSRF, "trades"}, filter, db.TradeStatuses, accounts, trades, total,
		min(total, page.Offset+1), page.Offset + len(trades), prev, next})
}
