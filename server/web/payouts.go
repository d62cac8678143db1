package web

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

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
// accounts:write, forms to add either and links to edit or delete each.
func (s *Pages) handlePayoutsPage(w http.ResponseWriter, r *http.Request, sess *db.Session) {
	s.renderPayouts(w, r, sess, http.StatusOK, payoutsPage{Message: doneMessage(r.URL.Query(), "added", "saved", "deleted")})
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

// Payouts and expenses are edited and deleted on pages of their own, built
// on recordPages like the journal's; they are added from the payouts
// page's forms (handlePayoutCreate, handleExpenseCreate).

// payoutFormRoutes are the payouts' and expenses' edit and delete pages.
// GET /expenses is the payouts page, where expenses are listed, so that
// an expense's pages go back to it as a payout's do.
func (s *Pages) payoutFormRoutes() []Route {
	routes := s.payoutPages().routes(s, "accounts:write", "/api/v1/payouts", false, s.describePayoutDelete, deleteOnly(s.db.DeletePayout))
	routes = append(routes, s.expensePages().routes(s, "accounts:write", "/api/v1/expenses", false, s.describeExpenseDelete,
		deleteOnly(s.db.DeleteExpense))...)
	return append(routes, Route{Pattern: "GET /expenses", Handler: s.page("accounts:read", func(w http.ResponseWriter, r *http.Request, _ *db.Session) {
		target := "/payouts"
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, target, http.StatusSeeOther)
	})})
}

// payoutPages are a payout's edit and delete pages.
func (s *Pages) payoutPages() livePages[db.PayoutInput, db.Payout] {
	return livePages[db.PayoutInput, db.Payout]{recordPages[db.PayoutInput, db.Payout]{
		kind: "Payout", path: "/payouts", nav: "payouts",
		read: readPayoutForm, check: input.Payout, values: payoutValues,
		get: s.db.Payout, create: createWords(s.db.CreatePayout), update: updateWords(s.db.UpdatePayout),
		describe: func(p db.Payout) string { return "the payout of " + p.Date },
	}, s.payoutFields}
}

func (s *Pages) payoutFields(r *http.Request, sess *db.Session) ([]field, error) {
	accounts, err := s.accountChoices(r.Context(), sess)
	if err != nil {
		return nil, err
	}
	fields := []field{
		{Name: "account_id", Label: "Account", Kind: "select", Options: accounts, Required: true},
		{Name: "date", Label: "Date", Kind: "date", Required: true},
		{Name: "total_amount", Label: "Total amount (before the firm's share)", Kind: "number", Required: true},
		{Name: "profit_split", Label: "Your share (%)", Kind: "number", Hint: "The account's split when the payout was added"},
		{Name: "status", Label: "Status", Kind: "select", Choices: db.PayoutStatuses, Required: true,
			Hint: "Only a paid payout lowers the account's balance"},
		{Name: "reference", Label: "Reference", Kind: "text"},
		{Name: "notes", Label: "Notes", Kind: "textarea"},
	}
	return s.withDocumentChoices(r, sess, fields, receipts,
		linkedDocuments(sess.UserID, s.db.Payout, func(p db.Payout) []string { return p.DocumentIDs }))
}

// readPayoutForm reads the payout form as the API's body would carry it:
// an emptied reference or notes is cleared, an emptied date or status
// refused, an emptied number left as it was.
func readPayoutForm(r *formReader) db.PayoutInput {
	return db.PayoutInput{AccountID: r.text("account_id", false), Date: r.required("date"),
		TotalAmount: r.number("total_amount", false), ProfitSplit: r.number("profit_split", false),
		Status: r.required("status"), Reference: r.text("reference", true), Notes: r.text("notes", true),
		DocumentIDs: r.ids("document_ids")}
}

func payoutValues(p db.Payout) url.Values {
	return url.Values{"account_id": {p.AccountID}, "date": {p.Date}, "total_amount": {formatNumber(p.TotalAmount)},
		"profit_split": {formatNumber(p.ProfitSplit)}, "status": {p.Status}, "reference": {p.Reference},
		"notes": {p.Notes}, "document_ids": p.DocumentIDs}
}

// describePayoutDelete names a payout and what its delete unlinks (its
// documents, as DeletePayout's warning counts them) and gives back (a
// paid payout's amount, to the account's balance).
func (s *Pages) describePayoutDelete(ctx context.Context, userID, id string) (string, []string, error) {
	p, err := s.db.Payout(ctx, userID, id)
	if err != nil {
		return "", nil, err
	}
	out := unlinksDocuments(len(p.DocumentIDs))
	if p.Status == "paid" {
		out = append(out, "adds its "+formatMoney(p.TotalAmount)+" back to the account's balance, which a paid payout lowers")
	}
	return "the payout of " + p.Date + ", " + formatMoney(p.TotalAmount), out, nil
}

// expensePages are an expense's edit and delete pages.
func (s *Pages) expensePages() livePages[db.ExpenseInput, db.Expense] {
	return livePages[db.ExpenseInput, db.Expense]{recordPages[db.ExpenseInput, db.Expense]{
		kind: "Expense", path: "/expenses", nav: "payouts",
		read: readExpenseForm, check: input.Expense, values: expenseValues,
		get: s.db.Expense, create: createWords(s.db.CreateExpense), update: updateWords(s.db.UpdateExpense),
		describe: func(e db.Expense) string { return "the expense of " + e.Date },
	}, s.expenseFields}
}

func (s *Pages) expenseFields(r *http.Request, sess *db.Session) ([]field, error) {
	accounts, err := s.accountChoices(r.Context(), sess)
	if err != nil {
		return nil, err
	}
	fields := []field{
		{Name: "account_id", Label: "Account", Kind: "select", Options: accounts, Hint: "Empty for a firm's fee that is no account's"},
		{Name: "prop_firm", Label: "Prop firm", Kind: "text"},
		{Name: "date", Label: "Date", Kind: "date", Required: true},
		{Name: "amount", Label: "Amount", Kind: "number", Required: true},
		{Name: "currency", Label: "Currency", Kind: "text", Hint: "A three-letter code such as USD"},
		{Name: "category", Label: "Category", Kind: "select", Choices: db.ExpenseCategories, Required: true},
		{Name: "description", Label: "Description", Kind: "textarea"},
	}
	return s.withDocumentChoices(r, sess, fields, receipts,
		linkedDocuments(sess.UserID, s.db.Expense, func(e db.Expense) []string { return e.DocumentIDs }))
}

// readExpenseForm reads the expense form: an emptied account, firm or
// description is cleared, an emptied date, currency or category refused.
func readExpenseForm(r *formReader) db.ExpenseInput {
	return db.ExpenseInput{AccountID: r.text("account_id", true), PropFirm: r.text("prop_firm", true),
		Date: r.required("date"), Amount: r.number("amount", false), Currency: r.required("currency"),
		Category: r.required("category"), Description: r.text("description", true), DocumentIDs: r.ids("document_ids")}
}

func expenseValues(e db.Expense) url.Values {
	return url.Values{"account_id": {orEmpty(e.AccountID)}, "prop_firm": {orEmpty(e.PropFirm)}, "date": {e.Date},
		"amount": {formatNumber(e.Amount)}, "currency": {e.Currency}, "category": {e.Category},
		"description": {e.Description}, "document_ids": e.DocumentIDs}
}

// describeExpenseDelete names an expense and the documents its delete
// unlinks, as DeleteExpense's warning counts them.
func (s *Pages) describeExpenseDelete(ctx context.Context, userID, id string) (string, []string, error) {
	e, err := s.db.Expense(ctx, userID, id)
	if err != nil {
		return "", nil, err
	}
	return "the expense of " + e.Date + ", " + formatMoney(e.Amount) + " " + e.Currency + " (" + e.Category + ")",
		unlinksDocuments(len(e.DocumentIDs)), nil
}

// receipts is the documents field of a payout's or an expense's form.
var receipts = field{Label: "Documents", Hint: "Confirmations and receipts, uploaded on the documents page"}

// unlinksDocuments is a confirm step's line for a record's documents,
// which stay.
func unlinksDocuments(n int) []string {
	if n == 0 {
		return nil
	}
	return []string{"unlinks its " + count(n, "document", "documents") + " (the documents themselves stay)"}
}

// formatNumber is a stored number as a form shows it: exactly, without
// separators.
func formatNumber(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// withDocumentChoices adds the documents field (docs: its label and hint)
// to a form's fields when the session may read documents: a box per
// document of the user's (the first 100, newest first), those the edited
// record links first, in its order, so that saving keeps the order.
// linked reads the record r's path names.
func (s *Pages) withDocumentChoices(r *http.Request, sess *db.Session, fields []field, docs field,
	linked func(ctx context.Context, id string) ([]string, error)) ([]field, error) {
	if !sess.Can("documents:read") {
		return fields, nil
	}
	ctx := r.Context()
	list, _, err := s.db.Documents(ctx, sess.UserID, db.DocumentFilter{}, db.Page{Limit: 100})
	if err != nil {
		return nil, err
	}
	var first []string
	if id := r.PathValue("id"); input.IsUUID(id) {
		// Not the user's record: no choice to order; the step answers 404.
		first, _ = linked(ctx, strings.ToLower(id))
	}
	words := func(d db.Document) string { return d.DocumentName + " (" + d.FileName + ")" }
	listed := map[string]db.Document{}
	for _, d := range list {
		listed[d.ID] = d
	}
	for _, id := range first {
		d, ok := listed[id]
		if !ok { // linked, but older than the newest 100
			if d, err = s.db.Document(ctx, sess.UserID, id); err != nil {
				continue
			}
		}
		docs.Options = append(docs.Options, option{d.ID, words(d)})
	}
	for _, d := range list {
		if !slices.Contains(first, d.ID) {
			docs.Options = append(docs.Options, option{d.ID, words(d)})
		}
	}
	docs.Name, docs.Kind = "document_ids", "checks"
	return append(fields, docs), nil
}

// linkedDocuments is withDocumentChoices' linked for a kind whose get reads
// the user's record of that id and ids are the documents it links, in order.
func linkedDocuments[T any](userID string, get func(ctx context.Context, userID, id string) (T, error),
	ids func(T) []string) func(ctx context.Context, id string) ([]string, error) {
	return func(ctx context.Context, id string) ([]string, error) {
		v, err := get(ctx, userID, id)
		return ids(v), err
	}
}
