package server

import (
	"net/http"
	"net/url"
	"strings"

	"tradejournal/db"
)

// Payouts and expenses (DESIGN §10): the money a prop firm paid out of an
// account, and what trading there cost.

// maxReference bounds a payout's reference (the firm's payout number).
const maxReference = 200

// validatePayout checks a payout and normalises it in place; the API's
// body (jsonBody) and the web interface's form go through it alike.
func validatePayout(in *db.PayoutInput, create bool) error {
	f := fieldErrors{}
	in.AccountID.Value = bodyUUID(f, "account_id", in.AccountID, create || in.AccountID.Set)
	notNull(f, "date", in.Date)
	f.date("date", in.Date)
	money(f, "total_amount", in.TotalAmount, create)
	notNull(f, "profit_split", in.ProfitSplit)
	percent(f, "profit_split", in.ProfitSplit)
	notNull(f, "status", in.Status)
	f.oneOf("status", in.Status, db.PayoutStatuses)
	f.text("reference", in.Reference, maxReference)
	f.text("notes", in.Notes, maxDescription)
	f.uuids("document_ids", in.DocumentIDs)
	lowerIDs(&in.DocumentIDs)
	in.ProfitSplit.Value += 0 // no -0
	return f.err()
}

// validateExpense checks an expense and normalises it in place, for the
// API's body and the web interface's form alike.
func validateExpense(in *db.ExpenseInput, create bool) error {
	f := fieldErrors{}
	if in.AccountID.Set && !in.AccountID.Null {
		in.AccountID.Value = bodyUUID(f, "account_id", in.AccountID, true)
	}
	f.text("prop_firm", in.PropFirm, 200)
	notNull(f, "date", in.Date)
	f.date("date", in.Date)
	money(f, "amount", in.Amount, create)
	notNull(f, "currency", in.Currency)
	if in.Currency.Set && !in.Currency.Null {
		in.Currency.Value = strings.ToUpper(in.Currency.Value)
		if !isCurrencyCode(in.Currency.Value) {
			f.add("currency", "currency must be a three-letter ISO 4217 code such as USD")
		}
	}
	switch {
	case in.Category.Null || (create && !in.Category.Set):
		f.add("category", "category is required: one of "+strings.Join(db.ExpenseCategories, ", "))
	default:
		f.oneOf("category", in.Category, db.ExpenseCategories)
	}
	f.text("description", in.Description, maxDescription)
	f.uuids("document_ids", in.DocumentIDs)
	lowerIDs(&in.DocumentIDs)
	return f.err()
}

// money checks an amount of money that must be more than 0: required on
// create, never null.
func money(f fieldErrors, field string, v db.Optional[float64], create bool) {
	notNull(f, field, v)
	if create && !v.Set {
		f.add(field, field+" is required")
	}
	f.amount(field, v)
}

func parsePayoutFilter(q url.Values) (db.PayoutFilter, error) {
	f := fieldErrors{}
	filter := db.PayoutFilter{
		AccountID: f.queryUUID("account_id", strings.TrimSpace(q.Get("account_id"))),
		Status:    f.queryEnum("status", strings.TrimSpace(q.Get("status")), db.PayoutStatuses),
	}
	filter.StartDate, filter.EndDate = dateRange(f, q)
	return filter, f.err()
}

func parseExpenseFilter(q url.Values) (db.ExpenseFilter, error) {
	f := fieldErrors{}
	filter := db.ExpenseFilter{
		AccountID: f.queryUUID("account_id", strings.TrimSpace(q.Get("account_id"))),
		Category:  f.queryEnum("category", strings.TrimSpace(q.Get("category")), db.ExpenseCategories),
	}
	filter.StartDate, filter.EndDate = dateRange(f, q)
	return filter, f.err()
}

// handlePayoutSummary answers GET /payouts/summary, optionally between two
// dates.
func (s *Server) handlePayoutSummary(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	f := fieldErrors{}
	start, end := dateRange(f, r.URL.Query())
	if err := f.err(); err != nil {
		s.writeError(w, r, err)
		return
	}
	summary, err := s.db.PayoutSummary(r.Context(), p.UserID, start, end)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, dataBody[db.PayoutSummary]{summary})
}
