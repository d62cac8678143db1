package web

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"tradejournal/server/problem"

	"tradejournal/db"
	"tradejournal/server/input"
)

// payoutsPage is the payouts and expenses page's data.
type payoutsPage struct {
	pageData
	Summary                           db.PayoutSummary
	Payouts                           []db.Payout
	Expenses                          []db.Expense
	Accounts                          accountList
	PayoutStatuses, ExpenseCategories []string
	CanEdit                           bool
	Message, Error                    string
}

// handlePayoutsPage shows paid-out against spent per currency (GET
// /payouts/summary), the latest payouts and expenses, and, with
// accounts:write, forms to add either.
func (s *Pages) handlePayoutsPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	var msg string
	if r.URL.Query().Has("added") {
		msg = "Added."
	}
	s.renderPayouts(w, r, sess, http.StatusOK, payoutsPage{Message: msg})
}

func (s *Pages) renderPayouts(w http.ResponseWriter, r *http.Request, sess *db.Session, status int, p payoutsPage) {
	ctx, page := r.Context(), db.Page{Limit: 50}
	var err error
	p.pageData = pageData{Session: sess, Nav: "payouts"}
	p.CanEdit = sess.Can("accounts:write")
	p.PayoutStatuses, p.ExpenseCategories = db.PayoutStatuses, db.ExpenseCategories
	if p.Summary, err = s.db.PayoutSummary(ctx, sess.UserID, "", ""); err == nil {
		if p.Payouts, _, err = s.db.Payouts(ctx, sess.UserID, db.PayoutFilter{}, page); err == nil {
			if p.Expenses, _, err = s.db.Expenses(ctx, sess.UserID, db.ExpenseFilter{}, page); err == nil {
				p.Accounts, err = s.accounts(ctx, sess.UserID)
			}
		}
	}
	if err != nil {
		s.errorPage(w, r, sess, err)
		return
	}
	s.render(w, r, status, "payouts", p)
}

// formAmount reads a form's number field into an Optional, absent when
// empty; what is not a number is a 400 naming it.
func formAmount(f input.Errors, form url.Values, field string) db.Optional[float64] {
	if n := f.QueryNumber(field, strings.TrimSpace(strings.ReplaceAll(form.Get(field), ",", ""))); n != nil {
		return db.Some(*n)
	}
	return db.Optional[float64]{}
}

// formText reads a form's text field into an Optional, absent when empty.
func formText(form url.Values, field string) db.Optional[string] {
	if v := strings.TrimSpace(form.Get(field)); v != "" {
		return db.Some(v)
	}
	return db.Optional[string]{}
}

// handlePayoutCreate adds a payout from the form, checked by the API's
// input.Payout and stored by the same CreatePayout.
func (s *Pages) handlePayoutCreate(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	f := input.Errors{}
	in := db.PayoutInput{AccountID: formText(r.PostForm, "account_id"), Date: formText(r.PostForm, "date"),
		TotalAmount: formAmount(f, r.PostForm, "total_amount"), Status: formText(r.PostForm, "status"),
		Reference: formText(r.PostForm, "reference")}
	s.afterPayoutsForm(w, r, sess, createFromForm(r.Context(), sess.UserID, f, in, input.Payout, s.db.CreatePayout))
}

// handleExpenseCreate adds an expense from the form, as the API's POST
// /expenses does.
func (s *Pages) handleExpenseCreate(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	f := input.Errors{}
	in := db.ExpenseInput{AccountID: formText(r.PostForm, "account_id"), Date: formText(r.PostForm, "date"),
		Amount: formAmount(f, r.PostForm, "amount"), Category: formText(r.PostForm, "category"),
		Description: formText(r.PostForm, "description")}
	s.afterPayoutsForm(w, r, sess, createFromForm(r.Context(), sess.UserID, f, in, input.Expense, s.db.CreateExpense))
}

// createFromForm is a page form's createHandler: what reading the form
// found wrong (f), else the API's validate, else the API's create.
func createFromForm[In, T any](ctx context.Context, userID string, f input.Errors, in In,
	validate func(*In, bool) error, create func(context.Context, string, In) (T, error)) error {
	if err := f.Err(); err != nil {
		return err
	}
	if err := validate(&in, true); err != nil {
		return err
	}
	_, err := create(ctx, userID, in)
	return err
}

// afterPayoutsForm answers a payouts page form: back to the page, or the
// page again with what was wrong.
func (s *Pages) afterPayoutsForm(w http.ResponseWriter, r *http.Request, sess *db.Session, err error) {
	if err == nil {
		http.Redirect(w, r, "/payouts?added=1", http.StatusSeeOther)
		return
	}
	s.formProblem(w, r, sess, err, func(status int, problem string) {
		s.renderPayouts(w, r, sess, status, payoutsPage{Error: problem})
	})
}

// formProblem answers a form whose save failed: for the form's fault (a
// 4xx) show gets the status and the reason, to show the page again with
// it; anything else is the error page.
func (s *Pages) formProblem(w http.ResponseWriter, r *http.Request, sess *db.Session, err error, show func(status int, problem string)) {
	e := problem.Answer(w, r, s.log, err)
	if e.Status >= 500 {
		s.renderError(w, r, sess, e)
		return
	}
	show(e.Status, problemText(e))
}

// formProblemText is an API error in a form's words: each field's reason
// with the field's label (labels, by the API's name of the field) in
// place of its JSON name, so that "stop_loss_levels[1].price must be a
// number" reads "Stops: the 2nd price must be a number" on the form whose
// field is labelled Stops. A field without a label keeps its name.
func formProblemText(e *problem.Problem, labels map[string]string) string {
	if len(e.Details) == 0 {
		return e.Message
	}
	var reasons []string
	for _, field := range slices.Sorted(maps.Keys(e.Details)) {
		reason := e.Details[field]
		name, rest := field, ""
		if i := strings.IndexAny(field, "[."); i >= 0 {
			name, rest = field[:i], field[i:]
		}
		label, ok := labels[name]
		if !ok {
			reasons = append(reasons, problemReason(field, reason))
			continue
		}
		reason = strings.TrimPrefix(strings.TrimPrefix(reason, field), " ")
		if n, ok := entryNumber(rest); ok {
			label += ", entry " + strconv.Itoa(n)
		}
		reasons = append(reasons, label+": "+reason)
	}
	return strings.Join(reasons, ". ")
}

// entryNumber is the 1-based number of a field path's first index
// ("[1].price" is entry 2).
func entryNumber(rest string) (int, bool) {
	if !strings.HasPrefix(rest, "[") {
		return 0, false
	}
	end := strings.IndexByte(rest, ']')
	if end < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(rest[1:end])
	return n + 1, err == nil
}

// problemReason is one field's reason, naming the field where the reason
// does not.
func problemReason(field, reason string) string {
	if !strings.HasPrefix(reason, field) {
		reason = field + ": " + reason
	}
	return reason
}

// problemText is an API error as one line for a page: the message and
// each field's reason, by field, named where the reason does not name it.
func problemText(e *problem.Problem) string {
	msg := e.Message
	for _, field := range slices.Sorted(maps.Keys(e.Details)) {
		msg += ". " + problemReason(field, e.Details[field])
	}
	return msg
}
