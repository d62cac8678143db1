package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"tradejournal/db"
	"tradejournal/db/trading"
	"tradejournal/server/input"
	"tradejournal/server/problem"
)

// The instruments page lists the point values trades are priced with,
// the built-in ones and the user's own, with a form that sets a root's
// own point value (PUT /api/v1/instruments/{root}) and a delete of one's
// own behind a confirm step (DELETE /api/v1/instruments/{root}). Either
// re-prices the root's trades.

// instrumentRoutes are the pages of the point-value overrides.
func (s *Pages) instrumentRoutes() []Route {
	return []Route{
		{Pattern: "GET /instruments", Handler: s.page("trades:read", s.handleInstrumentsPage)},
		{Pattern: "POST /instruments", Handler: s.page("trades:write", s.handleInstrumentSet), API: "PUT /api/v1/instruments/{root}"},
		{Pattern: "GET /instruments/{root}/delete", Handler: s.page("trades:write", s.handleInstrumentConfirm)},
		{Pattern: "POST /instruments/{root}/delete", Handler: s.page("trades:write", s.handleInstrumentDelete), API: "DELETE /api/v1/instruments/{root}"},
	}
}

var instrumentFields = []field{
	{Name: "root", Label: "Root", Kind: "text", Required: true, Hint: "The futures root, such as NQ or 6E"},
	{Name: "point_value", Label: "Point value", Kind: "number", Required: true,
		Hint: "Dollars per 1.00 of the quoted price: 20 for NQ, 12.5 for ZN"},
	{Name: "asset_class", Label: "Asset class", Kind: "select", Choices: db.AssetClasses, Required: true},
}

// instrumentsPage is the instruments page's data: every point value, and
// the form (empty, a root's to change, or as refused).
type instrumentsPage struct {
	pageData
	Instruments []db.Instrument
	CanEdit     bool
	Message     string
	Form        form
}

func (s *Pages) handleInstrumentsPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	q := r.URL.Query()
	p := instrumentsPage{Form: form{Fields: instrumentFields, Values: url.Values{"asset_class": {trading.AssetFutures}}}}
	repriced := ""
	if n, err := strconv.Atoi(q.Get("repriced")); err == nil && n > 0 {
		repriced = "; " + count(n, "trade", "trades") + " re-priced"
	}
	if root := q.Get("saved"); input.IsInstrumentRoot(root) {
		p.Message = root + "'s point value is saved" + repriced + "."
	}
	if root := q.Get("deleted"); input.IsInstrumentRoot(root) {
		p.Message = "Your point value of " + root + " is deleted" + repriced + "."
	}
	s.renderInstruments(w, r, sess, http.StatusOK, p, db.NormaliseRoot(q.Get("root")))
}

// renderInstruments shows the page; edit, when it names a root listed,
// fills the form with its point value to change.
func (s *Pages) renderInstruments(w http.ResponseWriter, r *http.Request, sess *db.Session, status int, p instrumentsPage, edit string) {
	list, err := s.db.Instruments(r.Context(), sess.UserID)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	for _, in := range list {
		if edit != "" && in.Root == edit {
			p.Form.Values = url.Values{"root": {in.Root}, "point_value": {strconv.FormatFloat(in.PointValue, 'f', -1, 64)},
				"asset_class": {in.AssetClass}}
		}
	}
	p.pageData, p.Instruments, p.CanEdit = pageData{Session: sess, Nav: "library"}, list, sess.Can("trades:write")
	s.render(w, r, status, "instruments", p)
}

// handleInstrumentSet sets a root's own point value, as the API's PUT
// does, re-pricing its trades: back to the page saying how many, or the
// form again with what was typed and why it was refused.
func (s *Pages) handleInstrumentSet(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	fr := newFormReader(r.PostForm, true, instrumentFields)
	root := db.NormaliseRoot(r.PostFormValue("root"))
	pointValue, class := fr.number("point_value", false), fr.text("asset_class", false)
	err := fr.err()
	var assetClass string
	if err == nil {
		assetClass, err = input.Instrument(root, pointValue, class)
	}
	var n int
	if err == nil {
		_, n, err = s.db.SetInstrument(r.Context(), sess.UserID, root, pointValue.Value, assetClass)
	}
	if err != nil {
		e := problem.Answer(w, r, s.log, err)
		if e.Status >= 500 {
			s.renderError(w, r, sess, e)
			return
		}
		f := form{Fields: instrumentFields, Values: r.PostForm}
		f.Errors, f.Problem = fieldReasons(e, instrumentFields)
		if e.Status == http.StatusConflict {
			f.Problem = problemText(e) // its count names no field: the message says what it is
		}
		s.renderInstruments(w, r, sess, e.Status, instrumentsPage{Form: f}, "")
		return
	}
	http.Redirect(w, r, "/instruments?saved="+root+"&repriced="+strconv.Itoa(n), http.StatusSeeOther)
}

// ownInstrument is the user's own point value of the path's root; a root
// the user has none of (or that is no root) is not found.
func (s *Pages) ownInstrument(ctx context.Context, userID string, r *http.Request) (db.Instrument, error) {
	root := db.NormaliseRoot(r.PathValue("root"))
	if input.IsInstrumentRoot(root) {
		list, err := s.db.Instruments(ctx, userID)
		if err != nil {
			return db.Instrument{}, err
		}
		for _, in := range list {
			if in.Root == root && in.Source == "user" {
				return in, nil
			}
		}
	}
	return db.Instrument{}, &db.NotFoundError{Kind: "Instrument"}
}

// handleInstrumentConfirm is the delete's confirm step: the trades it
// re-prices (db.RootTrades: the trades DeleteInstrument re-prices), and
// what with.
func (s *Pages) handleInstrumentConfirm(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	in, err := s.ownInstrument(r.Context(), sess.UserID, r)
	var n int
	if err == nil {
		n, err = s.db.RootTrades(r.Context(), sess.UserID, in.Root)
	}
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	var out []string
	builtin, ok := trading.BuiltinPointValues[in.Root]
	switch {
	case n > 0 && ok:
		out = append(out, "re-prices its "+count(n, "trade", "trades")+" with the built-in point value, "+
			strconv.FormatFloat(builtin, 'f', -1, 64))
	case n > 0:
		out = append(out, "re-prices its "+count(n, "trade", "trades")+"; "+in.Root+
			" has no built-in point value, so while futures trades of it remain the delete is refused")
	}
	s.render(w, r, http.StatusOK, "confirm", confirmPage{pageData: pageData{Session: sess, Nav: "library"},
		Title: "Delete your point value of " + in.Root + "?", Action: "/instruments/" + in.Root + "/delete",
		Cancel: "/instruments", Submit: "Delete your point value of " + in.Root, Consequences: out})
}

// handleInstrumentDelete deletes the user's point value of a root, as the
// API's DELETE does, re-pricing its trades.
func (s *Pages) handleInstrumentDelete(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	root := db.NormaliseRoot(r.PathValue("root"))
	if !input.IsInstrumentRoot(root) {
		s.errorPage(w, r, sess, &db.NotFoundError{Kind: "Instrument"})
		return
	}
	_, n, err := s.db.DeleteInstrument(r.Context(), sess.UserID, root)
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	http.Redirect(w, r, "/instruments?deleted="+root+"&repriced="+strconv.Itoa(n), http.StatusSeeOther)
}
