package db

import (
	"context"

	"tradejournal/db/stats"
	"tradejournal/db/trading"
)

// PayoutTotals are what a prop firm paid the trader against what trading
// there cost, in one currency: paid payouts only.
type PayoutTotals struct {
	Currency     string   `json:"currency"`
	PaidTotal    float64  `json:"paid_total"`    // the paid payouts' total_amount
	TradersShare float64  `json:"traders_share"` // of those
	Expenses     float64  `json:"expenses"`      // 0 when none
	Net          float64  `json:"net"`           // traders_share − expenses
	ROI          *float64 `json:"roi"`           // net / expenses; null without expenses
}

// FirmTotals are a firm's totals in one currency; a nil firm is what has
// none (a retail account, an expense named no firm).
type FirmTotals struct {
	PropFirm *string `json:"prop_firm"`
	PayoutTotals
}

// AccountTotals are an account's totals in one currency; a nil account is
// the expenses of no account.
type AccountTotals struct {
	AccountID *string `json:"account_id"`
	PayoutTotals
}

// PayoutSummary is GET /payouts/summary: totals per currency, per firm and
// per account. Currencies are never added together.
type PayoutSummary struct {
	Currencies []PayoutTotals  `json:"currencies"`
	ByFirm     []FirmTotals    `json:"by_firm"`
	ByAccount  []AccountTotals `json:"by_account"`
}

// PayoutSummary adds up the user's paid payouts and expenses dated from
// start to end (YYYY-MM-DD, inclusive; "" is unbounded). A payout's currency
// and firm are its account's.
func (db *DB) PayoutSummary(ctx context.Context, userID, start, end string) (PayoutSummary, error) {
	paid, spent := filterOf("p.user_id", userID), filterOf("user_id", userID)
	paid.eq("p.status", "paid")
	paid.dates("p.date", start, end)
	spent.dates("date", start, end)
	// The money in and out, each row with its currency, firm and account;
	// every grouping below is by currency first.
	money := `WITH money (currency, prop_firm, account_id, paid, share, spent) AS (
		SELECT a.currency, a.prop_firm, p.account_id, p.total_amount, p.traders_share, 0
		FROM payouts p JOIN accounts a ON a.id = p.account_id WHERE ` + paid.where() + `
		UNION ALL
		SELECT currency, prop_firm, account_id, 0, 0, amount FROM expenses WHERE ` + spent.where() + `) `
	args := append(paid.args, spent.args...)
	// by groups by a column besides the currency (NULL: none), named rows
	// in order, then the row without one.
	by := func(tx txn, column string) ([]*string, []PayoutTotals, error) {
		rows, err := tx.Tx.QueryContext(ctx, money+`SELECT `+column+`, currency, total(paid), total(share), total(spent)
			FROM money GROUP BY currency, `+column+` ORDER BY currency, `+column+` IS NULL, `+column, args...)
		if err != nil {
			return nil, nil, err
		}
		defer rows.Close()
		var names []*string
		var out []PayoutTotals
		for rows.Next() {
			var name *string
			var t PayoutTotals
			if err := rows.Scan(&name, &t.Currency, &t.PaidTotal, &t.TradersShare, &t.Expenses); err != nil {
				return nil, nil, err
			}
			names, out = append(names, name), append(out, t.done())
		}
		return names, out, rows.Err()
	}
	return inTx(ctx, db.beginRead, func(tx txn) (PayoutSummary, error) {
		s := PayoutSummary{Currencies: []PayoutTotals{}, ByFirm: []FirmTotals{}, ByAccount: []AccountTotals{}}
		_, currencies, err := by(tx, "NULL")
		if err != nil {
			return s, err
		}
		s.Currencies = append(s.Currencies, currencies...)
		firms, totals, err := by(tx, "prop_firm")
		if err != nil {
			return s, err
		}
		for i, t := range totals {
			s.ByFirm = append(s.ByFirm, FirmTotals{firms[i], t})
		}
		accounts, totals, err := by(tx, "account_id")
		for i, t := range totals {
			s.ByAccount = append(s.ByAccount, AccountTotals{accounts[i], t})
		}
		return s, err
	})
}

// done rounds the sums and derives net and ROI.
func (t PayoutTotals) done() PayoutTotals {
	t.PaidTotal = trading.Round8(t.PaidTotal)
	t.TradersShare = trading.Round8(t.TradersShare)
	t.Expenses = trading.Round8(t.Expenses)
	t.Net = trading.Round8(t.TradersShare - t.Expenses)
	t.ROI = stats.Ratio(t.Net, t.Expenses)
	return t
}
