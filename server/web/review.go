package web

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"time"

	"tradejournal/db"
	"tradejournal/server/input"
)

// The review queue (DESIGN §13) walks the closed trades a selection holds
// that are not reviewed, oldest first, each with the trade page's review
// form: "Save and next" saves it as the trade page's form does and goes
// on to the next. The selection is any filter of the trade list (its
// dates select by a trade's day, as the calendar's), by default the last
// reviewDays days in the user's timezone. The walk's address carries the
// selection and when the walk began (began), so that the trades reviewed
// during it stay in it, and its place: trade_id (that trade) or after
// (the one after that trade). ui/review.js adds the keys; the buttons
// and links do everything without it.

// reviewPage is the review queue's data: the trade at the walk's place,
// as the trade page shows it, and the place.
type reviewPage struct {
	tradePage
	Place            db.ReviewPlace
	Filter           db.TradeFilter
	Accounts         accountList
	Action           string // the form's address: this trade's save, with the walk
	StartURL         string // a new walk of the selection: its trades still to review
	PrevURL, NextURL string
	// Keep are the selection's filters the page's own filter form does
	// not show, which it carries on.
	Keep [][2]string
}

// reviewWalk is a walk's selection and start, read from its address, and
// the address's query that carries them on.
type reviewWalk struct {
	queue db.ReviewQueue
	query url.Values
}

// readReviewWalk reads the walk from its address; the selection's
// filters are the trade list's (input.TradeFilter, a bad one a 400 naming
// it), and a walk without a start begins now.
func (s *Pages) readReviewWalk(r *http.Request, sess *db.Session) (reviewWalk, error) {
	q := r.URL.Query()
	carried := url.Values{}
	for k, vs := range q {
		if k != "trade_id" && k != "after" && k != "new_tag" && len(vs) > 0 && vs[0] != "" {
			carried.Set(k, vs[0])
		}
	}
	if !carried.Has("start_date") && !carried.Has("end_date") {
		carried.Set("start_date", s.reviewSince(sess.Timezone))
	}
	filter, err := input.TradeFilter(carried)
	if err != nil {
		return reviewWalk{}, err
	}
	if !carried.Has("began") {
		carried.Set("began", s.db.Now().UTC().Format(db.TimeFormat))
	}
	if _, err := time.Parse(db.TimeFormat, carried.Get("began")); err != nil {
		return reviewWalk{}, input.Invalid("began", "began must be a time such as 2026-02-05T18:00:00.000Z")
	}
	filter.Reviewed = nil // the queue is the unreviewed trades
	return reviewWalk{queue: db.ReviewQueue{Filter: filter, Began: carried.Get("began")}, query: carried}, nil
}

// url is the walk's address with place (trade_id or after) set to id.
func (w reviewWalk) url(place, id string) string {
	v := url.Values{}
	for k, vs := range w.query {
		v[k] = vs
	}
	if place != "" {
		v.Set(place, id)
	}
	return "/review?" + v.Encode()
}

// handleReviewPage shows the walk at its place.
func (s *Pages) handleReviewPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	walk, err := s.readReviewWalk(r, sess)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	q := r.URL.Query()
	param := "trade_id"
	if q.Get(param) == "" && q.Get("after") != "" {
		param = "after"
	}
	at, after := q.Get(param), param == "after"
	if at != "" && !input.IsUUID(at) {
		s.errorPage(w, r, sess, input.Invalid(param, param+" must be a UUID"))
		return
	}
	s.renderReview(w, r, sess, http.StatusOK, walk, at, after, "", nil)
}

// handleReviewSave saves the review form of the walk's trade as the
// trade page's form does (saveReview) and goes on to the queue's next
// trade; a refused field shows the form again, in place, with what was
// typed and the reason.
func (s *Pages) handleReviewSave(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	id, err := input.PathID(r, "Trade")
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	walk, err := s.readReviewWalk(r, sess)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	refused, err := s.saveReview(r, sess, id)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	if refused != "" {
		s.renderReview(w, r, sess, http.StatusBadRequest, walk, id, false, refused, r.PostForm)
		return
	}
	http.Redirect(w, r, walk.url("after", id), http.StatusSeeOther)
}

// renderReview shows the walk at the trade at (or, with after, the one
// after it; the first when at is ""); problem and typed are a refused
// form's reason and values.
func (s *Pages) renderReview(w http.ResponseWriter, r *http.Request, sess *db.Session, status int,
	walk reviewWalk, at string, after bool, problem string, typed url.Values) {
	place, err := s.db.ReviewPlace(r.Context(), sess.UserID, walk.queue, at, after)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	restart := reviewWalk{query: url.Values{}}
	for k, vs := range walk.query {
		if k != "began" {
			restart.query[k] = vs
		}
	}
	p := reviewPage{Place: place, Filter: walk.queue.Filter, StartURL: restart.url("", "")}
	if place.TradeID != "" {
		if p.tradePage, err = s.tradePage(r, sess, place.TradeID, problem, typed); err != nil {
			s.errorPage(w, r, sess, err)
			return
		}
		p.Here = walk.url("trade_id", place.TradeID)
		p.Action = "/review/" + place.TradeID + "?" + walk.query.Encode()
	}
	p.pageData = pageData{Session: sess, Nav: "review"}
	for _, k := range slices.Sorted(maps.Keys(walk.query)) {
		if k != "account_id" && k != "start_date" && k != "end_date" && k != "began" {
			p.Keep = append(p.Keep, [2]string{k, walk.query.Get(k)})
		}
	}
	if place.PrevID != "" {
		p.PrevURL = walk.url("trade_id", place.PrevID)
	}
	if place.NextID != "" {
		p.NextURL = walk.url("trade_id", place.NextID)
	}
	if p.Accounts, err = s.accounts(r.Context(), sess.UserID); err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	s.render(w, r, status, "review", p)
}
