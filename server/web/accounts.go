package web

import (
	"context"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"tradejournal/db"
	"tradejournal/db/prop"
	"tradejournal/server/input"
)

// accountFields are the account form's fields: every field of an account
// the API takes but its tags (which the tag pages set), prop rules and the
// commission schedule included.
var accountFields = []field{
	{Name: "account_number", Label: "Account number", Kind: "text", Required: true,
		Hint: "As your platform's export files name it, so imports find the account"},
	{Name: "name", Label: "Name", Kind: "text"},
	{Name: "account_type", Label: "Type", Kind: "select", Choices: db.AccountTypes, Required: true},
	{Name: "prop_firm", Label: "Prop firm", Kind: "text"},
	{Name: "broker", Label: "Broker", Kind: "text"},
	{Name: "currency", Label: "Currency", Kind: "text", Hint: "A three-letter code such as USD"},
	{Name: "starting_balance", Label: "Starting balance", Kind: "number"},
	{Name: "status", Label: "Status", Kind: "select", Choices: db.AccountStatuses, Required: true},
	{Name: "commission_schedule", Label: "Commission schedule", Kind: "textarea",
		Hint: "Dollars per contract per side, by futures root or symbol: MNQ=0.62, ES=2.50, *=1.00"},
	{Name: "profit_target", Label: "Profit target", Kind: "number", Hint: "Above the starting balance"},
	{Name: "max_daily_loss", Label: "Daily loss limit", Kind: "number"},
	{Name: "max_drawdown", Label: "Maximum drawdown", Kind: "number"},
	{Name: "drawdown_mode", Label: "Drawdown", Kind: "select", Choices: prop.DrawdownModes},
	{Name: "drawdown_lock_at", Label: "Drawdown floor locks at", Kind: "number", Hint: "The balance at which a trailing floor stops rising"},
	{Name: "min_trading_days", Label: "Minimum trading days", Kind: "number"},
	{Name: "consistency_pct", Label: "Consistency rule (%)", Kind: "number", Hint: "The best day's largest share of the profit"},
	{Name: "max_contracts", Label: "Maximum contracts", Kind: "number"},
	{Name: "day_starts_at", Label: "Trading day starts at", Kind: "time", Hint: "18:00 for CME futures"},
	{Name: "day_timezone", Label: "Trading day's timezone", Kind: "text", Hint: "Such as America/New_York"},
	{Name: "profit_split", Label: "Your share of a payout (%)", Kind: "number"},
}

// accountPages are the account's new, edit and delete pages.
func (s *Pages) accountPages() recordPages[db.AccountInput, db.Account] {
	return recordPages[db.AccountInput, db.Account]{
		kind: "Account", path: "/accounts", nav: "accounts", fields: accountFields,
		read: readAccountForm, check: input.Account, values: accountValues,
		get: s.db.Account, create: s.db.CreateAccount, update: s.db.UpdateAccount,
		describe: func(a db.Account) string { return a.AccountNumber },
	}
}

// readAccountForm reads the account form as the API's body would carry it:
// on an edit an emptied rule is cleared (null), an emptied type, status,
// currency or day setting is left as it was.
func readAccountForm(r *formReader) db.AccountInput {
	in := db.AccountInput{
		AccountNumber: r.text("account_number", false), Name: r.text("name", true),
		AccountType: r.text("account_type", false), PropFirm: r.text("prop_firm", true),
		Broker: r.text("broker", true), Currency: r.text("currency", false),
		StartingBalance: r.number("starting_balance", false), Status: r.text("status", false),
		ProfitTarget: r.number("profit_target", true), MaxDailyLoss: r.number("max_daily_loss", true),
		MaxDrawdown: r.number("max_drawdown", true), DrawdownMode: r.text("drawdown_mode", true),
		DrawdownLockAt: r.number("drawdown_lock_at", true), MinTradingDays: r.whole("min_trading_days", true),
		ConsistencyPct: r.number("consistency_pct", true), MaxContracts: r.whole("max_contracts", true),
		DayStartsAt: r.text("day_starts_at", false), DayTimezone: r.text("day_timezone", false),
		ProfitSplit: r.number("profit_split", false),
	}
	in.CommissionSchedule = readSchedule(r)
	return in
}

// readSchedule reads "MNQ=0.62, ES=2.50" (a line or a comma apart each) as
// a commission schedule; an edit's empty schedule clears it.
func readSchedule(r *formReader) db.Optional[db.CommissionSchedule] {
	v := strings.TrimSpace(r.values.Get("commission_schedule"))
	if v == "" {
		if !r.create && r.values.Has("commission_schedule") {
			return db.Optional[db.CommissionSchedule]{Set: true, Null: true}
		}
		return db.Optional[db.CommissionSchedule]{}
	}
	out := db.CommissionSchedule{}
	for _, entry := range strings.FieldsFunc(v, func(c rune) bool { return c == ',' || c == '\n' || c == ';' }) {
		key, rate, ok := strings.Cut(entry, "=")
		n, err := strconv.ParseFloat(strings.TrimSpace(rate), 64)
		if !ok || err != nil || strings.TrimSpace(key) == "" {
			r.errs.Add("commission_schedule", "commission_schedule must be pairs such as MNQ=0.62, ES=2.50; "+
				strconv.Quote(strings.TrimSpace(entry))+" is not one")
			return db.Optional[db.CommissionSchedule]{}
		}
		out[strings.TrimSpace(key)] = n
	}
	return db.Some(out)
}

// accountValues fills the form with an account.
func accountValues(a db.Account) url.Values {
	num := func(v *float64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(*v, 'f', -1, 64)
	}
	whole := func(v *int) string {
		if v == nil {
			return ""
		}
		return strconv.Itoa(*v)
	}
	str := func(v *string) string {
		if v == nil {
			return ""
		}
		return *v
	}
	var schedule []string
	for _, k := range slices.Sorted(maps.Keys(a.CommissionSchedule)) {
		schedule = append(schedule, k+"="+strconv.FormatFloat(a.CommissionSchedule[k], 'f', -1, 64))
	}
	split := a.ProfitSplit
	return url.Values{
		"account_number": {a.AccountNumber}, "name": {a.Name}, "account_type": {a.AccountType},
		"prop_firm": {str(a.PropFirm)}, "broker": {str(a.Broker)}, "currency": {a.Currency},
		"starting_balance": {num(a.StartingBalance)}, "status": {a.Status},
		"commission_schedule": {strings.Join(schedule, ", ")},
		"profit_target":       {num(a.ProfitTarget)}, "max_daily_loss": {num(a.MaxDailyLoss)},
		"max_drawdown": {num(a.MaxDrawdown)}, "drawdown_mode": {str(a.DrawdownMode)},
		"drawdown_lock_at": {num(a.DrawdownLockAt)}, "min_trading_days": {whole(a.MinTradingDays)},
		"consistency_pct": {num(a.ConsistencyPct)}, "max_contracts": {whole(a.MaxContracts)},
		"day_starts_at": {a.DayStartsAt}, "day_timezone": {a.DayTimezone}, "profit_split": {num(&split)},
	}
}

// describeAccountDelete names what deleting an account takes with it, from
// the counts DeleteAccount itself goes by.
func (s *Pages) describeAccountDelete(ctx context.Context, userID, id string) (string, []string, error) {
	a, err := s.db.Account(ctx, userID, id)
	if err != nil {
		return "", nil, err
	}
	n, err := s.db.AccountDependents(ctx, userID, id)
	if err != nil {
		return "", nil, err
	}
	var out []string
	if n.Trades > 0 {
		line := "deletes its " + count(n.Trades, "trade", "trades") + " with their fills and reviews"
		if n.WriteUps > 0 {
			line += " (and " + count(n.WriteUps, "write-up", "write-ups") + ")"
		}
		out = append(out, line)
	}
	for _, c := range []struct {
		n         int
		one, many string
	}{{n.Documents, "document", "documents"}, {n.Payouts, "payout", "payouts"}, {n.Expenses, "expense", "expenses"}} {
		if c.n > 0 {
			out = append(out, "deletes its "+count(c.n, c.one, c.many))
		}
	}
	if n.ReportCards > 0 {
		out = append(out, "keeps "+count(n.ReportCards, "report card", "report cards")+", no longer of this account")
	}
	if n.TagLinks > 0 {
		out = append(out, "removes its "+count(n.TagLinks, "tag", "tags"))
	}
	return a.AccountNumber, out, nil
}

// deleteAccount deletes an account and all that goes with it, as the
// API's DELETE ?cascade=true does, blobs included.
func (s *Pages) deleteAccount(ctx context.Context, userID, id string) error {
	var d db.Deleted
	err := s.docs.Files.Exclusive(func() (err error) {
		if d, err = s.db.DeleteAccount(ctx, userID, id, true); err == nil {
			s.docs.Remove(ctx, d.Blobs...)
		}
		return err
	})
	return err
}
