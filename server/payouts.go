package server

import (
	"net/http"
	"net/url"
	"strings"

	"tradejournal/db"
	"tradejournal/server/input"
)

// Payouts and expenses (DESIGN §10): the money a prop firm paid out of an
// account, and what trading there cost.

// maxReference bounds a payout's reference (the firm's payout number).
const maxReference = 200

// validatePayout checks a payout and normalises it in place; the API's
// body (jsonBody) and the web interface's form go through it alike.
func validatePayout(in *db.PayoutInput, create bool) error {
	f := input.Errors{}
	in.AccountID.Value = input.BodyUUID(f, "account_id", in.AccountID, create || in.AccountID.Set)
	input.NotNull(f, "date", in.Date)
	f.Date("date", in.Date)
	money(f, "total_amount", in.TotalAmount, create)
	input.NotNull(f, "profit_split", in.ProfitSplit)
	percent(f, "profit_split", in.ProfitSplit)
	input.NotNull(f, "status", in.Status)
	f.OneOf("status", in.Status, db.PayoutStatuses)
	f.Text("reference", in.Reference, maxReference)
	f.Text("notes", in.Notes, maxDescription)
	f.UUIDs("document_ids", in.DocumentIDs)
	input.LowerIDs(&in.DocumentIDs)
	in.ProfitSplit.Value += 0 // no -0
	return f.Err()
}

// validateExpense checks an expense and normalises it in place, for the
// API's body and the web interface's form alike.
func validateExpense(in *db.ExpenseInput, create bool) error {
	f := input.Errors{}
	if in.AccountID.Set && !in.AccountID.Null {
		in.AccountID.Value = input.BodyUUID(f, "account_id", in.AccountID, true)
	}
	f.Text("prop_firm", in.PropFirm, 200)
	input.NotNull(f, "date", in.Date)
	f.Date("date", in.Date)
	money(f, "amount", in.Amount, create)
	input.NotNull(f, "currency", in.Currency)
	if in.Currency.Set && !in.Currency.Null {
		in.Currency.Value = strings.ToUpper(in.Currency.Value)
		if !isCurrencyCode(in.Currency.Value) {
			f.Add("currency", "currency must be a three-letter ISO 4217 code such as USD")
		}
	}
	switch {
	case in.Category.Null || (create && !in.Category.Set):
		f.Add("category", "category is required: one of "+strings.Join(db.ExpenseCategories, ", "))
	default:
		f.OneOf("category", in.Category, db.ExpenseCategories)
	}
	f.Text("description", in.Description, maxDescription)
	f.UUIDs("document_ids", in.DocumentIDs)
	input.LowerIDs(&in.DocumentIDs)
	return f.Err()
}

// money checks an amount of money that must be more than 0: required on
// create, never null.
func money(f input.Errors, field string, v db.Optional[float64], create bool) {
	input.NotNull(f, field, v)
	if create && !v.Set {
		f.Add(field, field+" is required")
	}
	f.Amount(field, v)
}

func parsePayoutFilter(q url.Values) (db.PayoutFilter, error) {
	f := input.Errors{}
	filter := db.PayoutFilter{
		AccountID: f.QueryUUID("account_id", strings.TrimSpace(q.Get("account_id"))),
		Status:    f.QueryEnum("status", strings.TrimSpace(q.Get("status")), db.PayoutStatuses),
	}
	filter.StartDate, filter.EndDate = input.DateRange(f, q)
	return filter, f.Err()
}

func parseExpenseFilter(q url.Values) (db.ExpenseFilter, error) {
	f := input.Errors{}
	filter := db.ExpenseFilter{
		AccountID: f.QueryUUID("account_id", strings.TrimSpace(q.Get("account_id"))),
		Category:  f.QueryEnum("category", strings.TrimSpace(q.Get("category")), db.ExpenseCategories),
	}
	filter.StartDate, filter.EndDate = input.DateRange(f, q)
	return filter, f.Err()
}

// handlePayoutSummary answers GET /payouts/summary, optionally between two
// dates.
func (s *Server) handlePayoutSummary(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	f := input.Errors{}
	start, end := input.DateRange(f, r.URL.Query())
	if err := f.Err(); err != nil {
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
