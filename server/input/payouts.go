package input

import (
	"net/url"
	"strings"

	"tradejournal/db"
)

// maxReference bounds a payout's reference (the firm's payout number).
const maxReference = 200

// Payout checks a payout and normalises it in place; the API's
// body (jsonBody) and the web interface's form go through it alike.
func Payout(in *db.PayoutInput, create bool) error {
	f := Errors{}
	in.AccountID.Value = BodyUUID(f, "account_id", in.AccountID, create || in.AccountID.Set)
	NotNull(f, "date", in.Date)
	f.Date("date", in.Date)
	money(f, "total_amount", in.TotalAmount, create)
	NotNull(f, "profit_split", in.ProfitSplit)
	Percent(f, "profit_split", in.ProfitSplit)
	NotNull(f, "status", in.Status)
	f.OneOf("status", in.Status, db.PayoutStatuses)
	f.Text("reference", in.Reference, maxReference)
	f.Text("notes", in.Notes, MaxDescription)
	f.UUIDs("document_ids", in.DocumentIDs)
	LowerIDs(&in.DocumentIDs)
	in.ProfitSplit.Value += 0 // no -0
	return f.Err()
}

// Expense checks an expense and normalises it in place, for the
// API's body and the web interface's form alike.
func Expense(in *db.ExpenseInput, create bool) error {
	f := Errors{}
	if in.AccountID.Set && !in.AccountID.Null {
		in.AccountID.Value = BodyUUID(f, "account_id", in.AccountID, true)
	}
	f.Text("prop_firm", in.PropFirm, 200)
	NotNull(f, "date", in.Date)
	f.Date("date", in.Date)
	money(f, "amount", in.Amount, create)
	NotNull(f, "currency", in.Currency)
	if in.Currency.Set && !in.Currency.Null {
		in.Currency.Value = strings.ToUpper(in.Currency.Value)
		if !IsCurrencyCode(in.Currency.Value) {
			f.Add("currency", "currency must be a three-letter ISO 4217 code such as USD")
		}
	}
	switch {
	case in.Category.Null || (create && !in.Category.Set):
		f.Add("category", "category is required: one of "+strings.Join(db.ExpenseCategories, ", "))
	default:
		f.OneOf("category", in.Category, db.ExpenseCategories)
	}
	f.Text("description", in.Description, MaxDescription)
	f.UUIDs("document_ids", in.DocumentIDs)
	LowerIDs(&in.DocumentIDs)
	return f.Err()
}

// money checks an amount of money that must be more than 0: required on
// create, never null.
func money(f Errors, field string, v db.Optional[float64], create bool) {
	NotNull(f, field, v)
	if create && !v.Set {
		f.Add(field, field+" is required")
	}
	f.Amount(field, v)
}

// PayoutFilter reads the payouts list's filters.
func PayoutFilter(q url.Values) (db.PayoutFilter, error) {
	f := Errors{}
	filter := db.PayoutFilter{
		AccountID: f.QueryUUID("account_id", strings.TrimSpace(q.Get("account_id"))),
		Status:    f.QueryEnum("status", strings.TrimSpace(q.Get("status")), db.PayoutStatuses),
	}
	filter.StartDate, filter.EndDate = DateRange(f, q)
	return filter, f.Err()
}

// ExpenseFilter reads the expenses list's filters.
func ExpenseFilter(q url.Values) (db.ExpenseFilter, error) {
	f := Errors{}
	filter := db.ExpenseFilter{
		AccountID: f.QueryUUID("account_id", strings.TrimSpace(q.Get("account_id"))),
		Category:  f.QueryEnum("category", strings.TrimSpace(q.Get("category")), db.ExpenseCategories),
	}
	filter.StartDate, filter.EndDate = DateRange(f, q)
	return filter, f.Err()
}
