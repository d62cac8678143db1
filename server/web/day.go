package web

import (
	"net/http"
	"strings"
	"time"

	"tradejournal/db"
	"tradejournal/server/input"
	"tradejournal/server/upload"
)

// dayPage is the day page's data: the day as GET /api/v1/days/{date}
// answers it, each trade's screenshots, the trading days around it, and
// the day after, for tomorrow's plan.
type dayPage struct {
	pageData
	Day              db.Day
	Shots            map[string][]upload.TradeDocument // by trade id
	Accounts         accountList
	AccountID        string
	Prev, Next       string
	Tomorrow         string
	CanWrite         bool // the session may write the journal
	ShowJournal      bool // the session may read it
	WeekdayAndDate   string
	ReportCardsToAdd bool
}

// handleDayPage shows one trading day: its figures, its trades with their
// screenshots, its trading plan and report card (each a click from its
// form), the write-ups of its trades, and the trading days before and
// after. The calendar's days lead here.
func (s *Pages) handleDayPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	date := r.PathValue("date")
	if !input.IsDate(date) {
		s.errorPage(w, r, sess, input.Invalid("date", "date must be a date YYYY-MM-DD from 1900 to 2999"))
		return
	}
	f := input.Errors{}
	accountID := f.QueryUUID("account_id", strings.TrimSpace(r.URL.Query().Get("account_id")))
	if err := f.Err(); err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	ctx := r.Context()
	d, err := s.db.Day(ctx, sess.UserID, date, accountID, sess.Can("content:read"))
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	p := dayPage{pageData: pageData{Session: sess, Nav: "dashboard"}, Day: d, AccountID: accountID,
		Shots: map[string][]upload.TradeDocument{}, CanWrite: sess.Can("content:write"), ShowJournal: d.TradingPlans != nil}
	if p.Prev, p.Next, err = s.db.AdjacentTradingDays(ctx, sess.UserID, date, accountID); err == nil {
		p.Accounts, err = s.accounts(ctx, sess.UserID)
	}
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	if sess.Can("documents:read") {
		var ids []string
		for _, t := range d.Trades {
			if t.DocumentCount > 0 {
				ids = append(ids, t.ID)
			}
		}
		if len(ids) > 0 {
			docs, err := s.db.TradesDocuments(ctx, sess.UserID, ids)
			if err != nil {
				s.errorPage(w, r, sess, err)
				return
			}
			for _, id := range ids {
				p.Shots[id] = s.pageLinks(s.docs.PresentTrade(docs[id]))
			}
		}
	}
	day, _ := time.Parse(db.DateLayout, date)
	p.Tomorrow = day.AddDate(0, 0, 1).Format(db.DateLayout)
	p.WeekdayAndDate = day.Format("Monday 2 January 2006")
	s.render(w, r, http.StatusOK, "day", p)
}
