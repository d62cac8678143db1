package db

import (
	"cmp"
	"context"
	"slices"

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
	type group struct {
		currency         string
		firm, account    *string
		paid, share, exp float64
	}
	groups, err := inTx(ctx, db.beginRead, func(tx txn) ([]group, error) {
		rows, err := tx.Tx.QueryContext(ctx, `SELECT a.currency, a.prop_firm, p.account_id,
				sum(p.total_amount), sum(p.traders_share), 0
			FROM payouts p JOIN accounts a ON a.id = p.account_id
			WHERE `+paid.where()+` GROUP BY a.currency, a.prop_firm, p.account_id
			UNION ALL
			SELECT currency, prop_firm, account_id, 0, 0, sum(amount) FROM expenses
			WHERE `+spent.where()+` GROUP BY currency, prop_firm, account_id`,
			append(paid.args, spent.args...)...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []group
		for rows.Next() {
			var g group
			if err := rows.Scan(&g.currency, &g.firm, &g.account, &g.paid, &g.share, &g.exp); err != nil {
				return nil, err
			}
			out = append(out, g)
		}
		return out, rows.Err()
	})
	if err != nil {
		return PayoutSummary{}, err
	}

	// A firm or account, by currency; none is the row without one.
	type key struct {
		currency string
		none     bool
		id       string
	}
	keyOf := func(currency string, id *string) key {
		if id == nil {
			return key{currency: currency, none: true}
		}
		return key{currency: currency, id: *id}
	}
	currencies, firms, accounts := totalsBy[string](), totalsBy[key](), totalsBy[key]()
	for _, g := range groups {
		for _, t := range []*PayoutTotals{
			currencies.get(g.currency, g.currency),
			firms.get(keyOf(g.currency, g.firm), g.currency),
			accounts.get(keyOf(g.currency, g.account), g.currency),
		} {
			t.PaidTotal += g.paid
			t.TradersShare += g.share
			t.Expenses += g.exp
		}
		firms.labels[keyOf(g.currency, g.firm)] = g.firm
		accounts.labels[keyOf(g.currency, g.account)] = g.account
	}

	s := PayoutSummary{Currencies: []PayoutTotals{}, ByFirm: []FirmTotals{}, ByAccount: []AccountTotals{}}
	for _, c := range sortedKeys(currencies.rows, func(a, b string) int { return cmp.Compare(a, b) }) {
		s.Currencies = append(s.Currencies, currencies.rows[c].done())
	}
	byKey := func(a, b key) int {
		// Within a currency, named rows by name, then the one without.
		none := func(k key) int {
			if k.none {
				return 1
			}
			return 0
		}
		return cmp.Or(cmp.Compare(a.currency, b.currency), cmp.Compare(none(a), none(b)), cmp.Compare(a.id, b.id))
	}
	for _, k := range sortedKeys(firms.rows, byKey) {
		s.ByFirm = append(s.ByFirm, FirmTotals{firms.labels[k], firms.rows[k].done()})
	}
	for _, k := range sortedKeys(accounts.rows, byKey) {
		s.ByAccount = append(s.ByAccount, AccountTotals{accounts.labels[k], accounts.rows[k].done()})
	}
	return s, nil
}

// totals collects PayoutTotals by a key, with each key's label.
type totals[K comparable] struct {
	rows   map[K]*PayoutTotals
	labels map[K]*string
}

func totalsBy[K comparable]() totals[K] {
	return totals[K]{rows: map[K]*PayoutTotals{}, labels: map[K]*string{}}
}

func (t totals[K]) get(k K, currency string) *PayoutTotals {
	r := t.rows[k]
	if r == nil {
		r = &PayoutTotals{Currency: currency}
		t.rows[k] = r
	}
	return r
}

// done rounds the sums and derives net and ROI.
func (t *PayoutTotals) done() PayoutTotals {
	out := *t
	out.PaidTotal = trading.Round8(t.PaidTotal)
	out.TradersShare = trading.Round8(t.TradersShare)
	out.Expenses = trading.Round8(t.Expenses)
	out.Net = trading.Round8(out.TradersShare - out.Expenses)
	out.ROI = stats.Ratio(out.Net, out.Expenses)
	return out
}

func sortedKeys[K comparable, V any](m map[K]V, compare func(a, b K) int) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compare)
	return keys
}
