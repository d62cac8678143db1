package db

import (
	"context"
	"database/sql"
	"errors"
	"strings"

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

// payoutDocuments keeps a payout's documents (confirmations) in order.
var payoutDocuments = orderedLinks{table: "payout_documents", owner: "payout_id", target: "document_id",
	targets: "documents", kind: "Document", field: "document_ids"}

const payoutColumns = `id, account_id, date, total_amount, profit_split, traders_share, firms_share,
	status, reference, notes, created_at, updated_at`

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
		split, err := accountSplit(ctx, tx, userID, in.AccountID.Value)
		if err != nil {
			return Payout{}, err
		}
		if p.Date, err = db.today(ctx, tx, userID); err != nil {
			return Payout{}, err
		}
		p.ProfitSplit = split
		in.apply(&p)
		fields := p.fields()
		if _, err := tx.ExecContext(ctx, `INSERT INTO payouts (user_id, `+payoutColumns+`)
			VALUES (?`+strings.Repeat(", ?", len(fields))+`)`, append([]any{userID}, fields...)...); err != nil {
			return Payout{}, err
		}
		if err := payoutDocuments.set(ctx, tx, userID, p.ID, in.DocumentIDs); err != nil {
			return Payout{}, err
		}
		return loadPayout(ctx, tx, userID, p.ID)
	})
}

// accountSplit is the profit split of one of the user's accounts; an
// account that is not the user's is a *NotFoundError naming account_id.
func accountSplit(ctx context.Context, q querier, userID, accountID string) (float64, error) {
	var split float64
	err := q.QueryRowContext(ctx, `SELECT profit_split FROM accounts WHERE user_id = ? AND id = ?`,
		userID, accountID).Scan(&split)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, &NotFoundError{Kind: "Account", Field: "account_id"}
	}
	return split, err
}

// today is the date in the user's timezone.
func (db *DB) today(ctx context.Context, q querier, userID string) (string, error) {
	loc, err := userLocation(ctx, q, userID)
	if err != nil {
		return "", err
	}
	return db.Now().In(loc).Format(DateLayout), nil
}

// Payout reads one of the user's payouts.
func (db *DB) Payout(ctx context.Context, userID, id string) (Payout, error) {
	return inTx(ctx, db.beginRead, func(tx txn) (Payout, error) {
		return loadPayout(ctx, tx, userID, id)
	})
}

func loadPayout(ctx context.Context, q querier, userID, id string) (Payout, error) {
	var p Payout
	err := q.QueryRowContext(ctx, `SELECT `+payoutColumns+` FROM payouts WHERE user_id = ? AND id = ?`,
		userID, id).Scan(p.fields()...)
	if errors.Is(err, sql.ErrNoRows) {
		return Payout{}, notFound("Payout")
	}
	if err != nil {
		return Payout{}, err
	}
	docs, err := payoutDocuments.load(ctx, q, []string{id})
	p.DocumentIDs = docs[id]
	return p, err
}

// UpdatePayout changes the fields set in in; the shares follow the total
// and the split. Moving it to another account keeps its split.
func (db *DB) UpdatePayout(ctx context.Context, userID, id string, in PayoutInput) (Payout, error) {
	return inTx(ctx, db.begin, func(tx txn) (Payout, error) {
		p, err := loadPayout(ctx, tx, userID, id)
		if err != nil {
			return Payout{}, err
		}
		if in.AccountID.Set && in.AccountID.Value != p.AccountID {
			if _, err := accountSplit(ctx, tx, userID, in.AccountID.Value); err != nil {
				return Payout{}, err
			}
		}
		in.apply(&p)
		p.UpdatedAt = db.now()
		fields := p.fields()
		if _, err := tx.ExecContext(ctx, `UPDATE payouts SET (`+payoutColumns+`) = (?`+
			strings.Repeat(", ?", len(fields)-1)+`) WHERE user_id = ? AND id = ?`, append(fields, userID, id)...); err != nil {
			return Payout{}, err
		}
		if err := payoutDocuments.set(ctx, tx, userID, id, in.DocumentIDs); err != nil {
			return Payout{}, err
		}
		return loadPayout(ctx, tx, userID, id)
	})
}

// DeletePayout removes one of the user's payouts; its documents stay,
// unlinked.
func (db *DB) DeletePayout(ctx context.Context, userID, id string) (Deleted, error) {
	return deleteWithDocuments(ctx, db, userID, id, "payouts", payoutDocuments, "Payout")
}

// deleteWithDocuments removes a payout or an expense, whose document links
// go by ON DELETE CASCADE; the warnings count them.
func deleteWithDocuments(ctx context.Context, db *DB, userID, id, table string, links orderedLinks, kind string) (Deleted, error) {
	return inTx(ctx, db.begin, func(tx txn) (Deleted, error) {
		var docs int
		err := tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM `+links.table+` WHERE `+links.owner+` = x.id)
			FROM `+table+` x WHERE x.user_id = ? AND x.id = ?`, userID, id).Scan(&docs)
		if errors.Is(err, sql.ErrNoRows) {
			return Deleted{}, notFound(kind)
		}
		if err != nil {
			return Deleted{}, err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE user_id = ? AND id = ?`, userID, id); err != nil {
			return Deleted{}, err
		}
		d := Deleted{ID: id, Warnings: []string{}}
		if docs > 0 {
			d.Warnings = append(d.Warnings, "Unlinked "+plural(docs, "document"))
		}
		return d, nil
	})
}

// Payouts lists a page of the user's payouts matching f, newest first, and
// the total.
func (db *DB) Payouts(ctx context.Context, userID string, f PayoutFilter, page Page) ([]Payout, int, error) {
	w := filterOf("user_id", userID)
	w.eq("account_id", f.AccountID)
	w.eq("status", f.Status)
	w.dates("date", f.StartDate, f.EndDate)
	return listWithDocuments(ctx, db, "payouts", payoutColumns, w, page, payoutDocuments,
		func(p *Payout) []any { return p.fields() }, func(p *Payout, docs []string) { p.DocumentIDs = docs })
}

// filter is the condition of a list's query, every value a parameter.
type filter struct {
	conds []string
	args  []any
}

// filterOf starts a filter with the user's rows: column names the user id.
func filterOf(column, userID string) *filter {
	return &filter{conds: []string{column + " = ?"}, args: []any{userID}}
}

// eq adds column = value when value is set.
func (f *filter) eq(column, value string) {
	if value != "" {
		f.conds, f.args = append(f.conds, column+" = ?"), append(f.args, value)
	}
}

// where is the condition's text.
func (f *filter) where() string { return strings.Join(f.conds, " AND ") }

// dates bounds a date column, both ends inclusive, when they are set.
func (f *filter) dates(column, start, end string) {
	if start != "" {
		f.conds, f.args = append(f.conds, column+" >= ?"), append(f.args, start)
	}
	if end != "" {
		f.conds, f.args = append(f.conds, column+" <= ?"), append(f.args, end)
	}
}

// listWithDocuments reads a page of a payout or expense list, newest first,
// with each record's documents (one query for the page) and the total.
func listWithDocuments[T any](ctx context.Context, db *DB, table, columns string, f *filter, page Page,
	links orderedLinks, fields func(*T) []any, setDocs func(*T, []string)) ([]T, int, error) {
	where := f.where()
	var total int
	items, err := inTx(ctx, db.beginRead, func(tx txn) ([]T, error) {
		// The filter's text varies, so these run unprepared (see txn).
		if err := tx.Tx.QueryRowContext(ctx, `SELECT count(*) FROM `+table+` WHERE `+where, f.args...).Scan(&total); err != nil {
			return nil, err
		}
		rows, err := tx.Tx.QueryContext(ctx, `SELECT `+columns+` FROM `+table+` WHERE `+where+`
			ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, append(f.args, page.Limit, page.Offset)...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := []T{}
		var ids []string
		for rows.Next() {
			var rec T
			ptrs := fields(&rec)
			if err := rows.Scan(ptrs...); err != nil {
				return nil, err
			}
			out = append(out, rec)
			ids = append(ids, *ptrs[0].(*string)) // every list of fields starts with the id
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		docs, err := links.load(ctx, tx, ids)
		for i := range out {
			setDocs(&out[i], docs[ids[i]])
		}
		return out, err
	})
	return items, total, err
}
