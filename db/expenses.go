package db

import (
	"context"
)

// Expense is money spent to trade at a prop firm: an evaluation, a reset,
// data. It may belong to one of the user's accounts.
type Expense struct {
	ID          string   `json:"id"`
	AccountID   *string  `json:"account_id"`
	PropFirm    *string  `json:"prop_firm"`
	Date        string   `json:"date"`
	Amount      float64  `json:"amount"`
	Currency    string   `json:"currency"`
	Category    string   `json:"category"`
	Description string   `json:"description"`
	DocumentIDs []string `json:"document_ids"`
	CreatedAt   string   `json:"created_at"`
	UpdatedAt   string   `json:"updated_at"`
}

// ExpenseInput is the body of an expense create or partial update. On
// create an absent date is today in the user's timezone; an absent
// currency and prop_firm are the account's (USD without one).
type ExpenseInput struct {
	AccountID   Optional[string]   `json:"account_id"`
	PropFirm    Optional[string]   `json:"prop_firm"`
	Date        Optional[string]   `json:"date"`
	Amount      Optional[float64]  `json:"amount"`
	Currency    Optional[string]   `json:"currency"`
	Category    Optional[string]   `json:"category"`
	Description Optional[string]   `json:"description"`
	DocumentIDs Optional[[]string] `json:"document_ids"`
}

// ExpenseCategories are the kinds of expense.
var ExpenseCategories = []string{"evaluation", "reset", "activation", "subscription", "data", "platform", "other"}

// ExpenseFilter narrows an expense list; zero fields do not filter.
type ExpenseFilter struct {
	AccountID string
	Category  string
	StartDate string // YYYY-MM-DD, inclusive, on the expense's date
	EndDate   string
}

// expenses keeps expenses, with their documents (receipts) in order.
var expenses = ledger[Expense]{
	kind:    "Expense",
	table:   "expenses",
	columns: `id, account_id, prop_firm, date, amount, currency, category, description, created_at, updated_at`,
	links: orderedLinks{table: "expense_documents", owner: "expense_id", target: "document_id",
		targets: "documents", kind: "Document", field: "document_ids"},
	fields: (*Expense).fields,
	docs:   func(e *Expense) *[]string { return &e.DocumentIDs },
}

func (e *Expense) fields() []any {
	return []any{&e.ID, &e.AccountID, &e.PropFirm, &e.Date, &e.Amount, &e.Currency, &e.Category, &e.Description,
		&e.CreatedAt, &e.UpdatedAt}
}

func (in ExpenseInput) apply(e *Expense) {
	assignPtr(&e.AccountID, in.AccountID)
	assignPtr(&e.PropFirm, in.PropFirm)
	assign(&e.Date, in.Date)
	assign(&e.Amount, in.Amount)
	assign(&e.Currency, in.Currency)
	assign(&e.Category, in.Category)
	assign(&e.Description, in.Description)
}

// CreateExpense records an expense of the user's.
func (db *DB) CreateExpense(ctx context.Context, userID string, in ExpenseInput) (Expense, error) {
	now := db.now()
	e := Expense{ID: db.NewID(), Currency: "USD", CreatedAt: now, UpdatedAt: now}
	return inTx(ctx, db.begin, func(tx txn) (Expense, error) {
		var err error
		if e.Date, err = db.today(ctx, tx, userID); err != nil {
			return Expense{}, err
		}
		if id := in.AccountID; id.Set && !id.Null {
			a, err := accountRef(ctx, tx, userID, id.Value)
			if err != nil {
				return Expense{}, err
			}
			e.Currency, e.PropFirm = a.Currency, a.PropFirm
		}
		in.apply(&e)
		return expenses.insert(ctx, tx, userID, &e, in.DocumentIDs)
	})
}

// Expense reads one of the user's expenses.
func (db *DB) Expense(ctx context.Context, userID, id string) (Expense, error) {
	return inTx(ctx, db.beginRead, func(tx txn) (Expense, error) {
		return expenses.load(ctx, tx, userID, id)
	})
}

// UpdateExpense changes the fields set in in. Moving it to another account
// keeps its currency and firm unless the body sets them.
func (db *DB) UpdateExpense(ctx context.Context, userID, id string, in ExpenseInput) (Expense, error) {
	return inTx(ctx, db.begin, func(tx txn) (Expense, error) {
		e, err := expenses.load(ctx, tx, userID, id)
		if err != nil {
			return Expense{}, err
		}
		if v := in.AccountID; v.Set && !v.Null && (e.AccountID == nil || v.Value != *e.AccountID) {
			if _, err := accountRef(ctx, tx, userID, v.Value); err != nil {
				return Expense{}, err
			}
		}
		in.apply(&e)
		e.UpdatedAt = db.now()
		return expenses.update(ctx, tx, userID, &e, in.DocumentIDs)
	})
}

// DeleteExpense removes one of the user's expenses; its documents stay,
// unlinked.
func (db *DB) DeleteExpense(ctx context.Context, userID, id string) (Deleted, error) {
	return expenses.delete(ctx, db, userID, id)
}

// Expenses lists a page of the user's expenses matching f, newest first,
// and the total.
func (db *DB) Expenses(ctx context.Context, userID string, f ExpenseFilter, page Page) ([]Expense, int, error) {
	w := filterOf("user_id", userID)
	w.eq("account_id", f.AccountID)
	w.eq("category", f.Category)
	w.dates("date", f.StartDate, f.EndDate)
	return expenses.list(ctx, db, w, page)
}
