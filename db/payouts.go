package db

import (
	"context"

	"tradejournal/db/prop"
)

// Payout is money a prop firm paid, or is to pay, out of an account
// (DESIGN §10). The shares are derived from the total and the split; only a
// paid payout lowers the account's balance.
type Payout struct {
	ID           string   `json:"id"`
	AccountID    string   `json:"account_id"`
	Date         string   `json:"date"`
	TotalAmount  float64  `json:"total_amount"` // gross, taken from the account
	ProfitSplit  float64  `json:"profit_split"` // the trader's percent
	TradersShare float64  `json:"traders_share"`
	FirmsShare   float64  `json:"firms_share"`
	Status       string   `json:"status"`
	Reference    string   `json:"reference"`
	Notes        string   `json:"notes"`
	DocumentIDs  []string `json:"document_ids"`
	CreatedAt    string   `json:"created_at"`
	UpdatedAt    string   `json:"updated_at"`
}

// PayoutInput is the body of a payout create or partial update. On create
// an absent date is today in the user's timezone, an absent split the
// account's, an absent status "requested".
type PayoutInput struct {
	AccountID   Optional[string]   `json:"account_id"`
	Date        Optional[string]   `json:"date"`
	TotalAmount Optional[float64]  `json:"total_amount"`
	ProfitSplit Optional[float64]  `json:"profit_split"`
	Status      Optional[string]   `json:"status"`
	Reference   Optional[string]   `json:"reference"`
	Notes       Optional[string]   `json:"notes"`
	DocumentIDs Optional[[]string] `json:"document_ids"`
}

// PayoutStatuses are a payout's statuses, in the order a payout moves.
var PayoutStatuses = []string{"requested", "approved", "paid", "rejected", "cancelled"}

// PayoutFilter narrows a payout list; zero fields do not filter.
type PayoutFilter struct {
	AccountID string
	Status    string
	StartDate string // YYYY-MM-DD, inclusive, on the payout's date
	EndDate   string
}

// payouts keeps payouts, with their documents (confirmations) in order.
var payouts = ledger[Payout]{
	kind:  "Payout",
	table: "payouts",
	columns: `id, account_id, date, total_amount, profit_split, traders_share, firms_share,
		status, reference, notes, created_at, updated_at`,
	links: orderedLinks{table: "payout_documents", owner: "payout_id", target: "document_id",
		targets: "documents", kind: "Document", field: "document_ids"},
	fields: (*Payout).fields,
	docs:   func(p *Payout) *[]string { return &p.DocumentIDs },
}

func (p *Payout) fields() []any {
	return []any{&p.ID, &p.AccountID, &p.Date, &p.TotalAmount, &p.ProfitSplit, &p.TradersShare, &p.FirmsShare,
		&p.Status, &p.Reference, &p.Notes, &p.CreatedAt, &p.UpdatedAt}
}

// apply copies the fields set in in onto p and derives the shares.
func (in PayoutInput) apply(p *Payout) {
	assign(&p.AccountID, in.AccountID)
	assign(&p.Date, in.Date)
	assign(&p.TotalAmount, in.TotalAmount)
	assign(&p.ProfitSplit, in.ProfitSplit)
	assign(&p.Status, in.Status)
	assign(&p.Reference, in.Reference)
	assign(&p.Notes, in.Notes)
	p.TradersShare, p.FirmsShare = prop.Split(p.TotalAmount, p.ProfitSplit)
}

// CreatePayout records a payout of one of the user's accounts.
func (db *DB) CreatePayout(ctx context.Context, userID string, in PayoutInput) (Payout, error) {
	now := db.now()
	p := Payout{ID: db.NewID(), Status: "requested", CreatedAt: now, UpdatedAt: now}
	return inTx(ctx, db.begin, func(tx txn) (Payout, error) {
		a, err := accountRef(ctx, tx, userID, in.AccountID.Value)
		if err != nil {
			return Payout{}, err
		}
		if p.Date, err = db.today(ctx, tx, userID); err != nil {
			return Payout{}, err
		}
		p.ProfitSplit = a.ProfitSplit
		in.apply(&p)
		return payouts.insert(ctx, tx, userID, &p, in.DocumentIDs)
	})
}

// today is the date in the user's timezone.
func (db *DB) today(ctx context.Context, q querier, userID string) (string, error) {
	loc, err := db.userLocation(ctx, q, userID)
	if err != nil {
		return "", err
	}
	return db.Now().In(loc).Format(DateLayout), nil
}

// Payout reads one of the user's payouts.
func (db *DB) Payout(ctx context.Context, userID, id string) (Payout, error) {
	return inTx(ctx, db.beginRead, func(tx txn) (Payout, error) {
		return payouts.load(ctx, tx, userID, id)
	})
}

// UpdatePayout changes the fields set in in; the shares follow the total
// and the split. Moving it to another account keeps its split.
func (db *DB) UpdatePayout(ctx context.Context, userID, id string, in PayoutInput) (Payout, error) {
	return inTx(ctx, db.begin, func(tx txn) (Payout, error) {
		p, err := payouts.load(ctx, tx, userID, id)
		if err != nil {
			return Payout{}, err
		}
		if in.AccountID.Set && in.AccountID.Value != p.AccountID {
			if _, err := accountRef(ctx, tx, userID, in.AccountID.Value); err != nil {
				return Payout{}, err
			}
		}
		in.apply(&p)
		p.UpdatedAt = db.now()
		return payouts.update(ctx, tx, userID, &p, in.DocumentIDs)
	})
}

// DeletePayout removes one of the user's payouts; its documents stay,
// unlinked.
func (db *DB) DeletePayout(ctx context.Context, userID, id string) (Deleted, error) {
	return payouts.delete(ctx, db, userID, id)
}

// Payouts lists a page of the user's payouts matching f, newest first, and
// the total.
func (db *DB) Payouts(ctx context.Context, userID string, f PayoutFilter, page Page) ([]Payout, int, error) {
	w := filterOf("user_id", userID)
	w.eq("account_id", f.AccountID)
	w.eq("status", f.Status)
	w.dates("date", f.StartDate, f.EndDate)
	return payouts.list(ctx, db, w, page)
}
