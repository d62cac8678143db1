package input

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"tradejournal/db"
	"tradejournal/db/prop"
	"tradejournal/db/trading"
)

// Account checks an account body and normalises it in place.
func Account(in *db.AccountInput, create bool) error {
	f := Errors{}
	in.AccountNumber.Value = strings.TrimSpace(in.AccountNumber.Value)
	f.Required("account_number", in.AccountNumber, create)
	f.Text("account_number", in.AccountNumber, 128)
	f.Text("name", in.Name, 200)
	f.Text("prop_firm", in.PropFirm, 200)
	f.Text("broker", in.Broker, 200)
	NotNull(f, "account_type", in.AccountType)
	f.OneOf("account_type", in.AccountType, db.AccountTypes)
	NotNull(f, "status", in.Status)
	f.OneOf("status", in.Status, db.AccountStatuses)
	NotNull(f, "currency", in.Currency)
	if in.Currency.Set && !in.Currency.Null {
		in.Currency.Value = strings.ToUpper(in.Currency.Value)
		if !IsCurrencyCode(in.Currency.Value) {
			f.Add("currency", "currency must be a three-letter ISO 4217 code such as USD")
		}
	}
	f.HTTPURL("firms_logo", in.FirmsLogo)
	if v := in.StartingBalance; v.Set && !v.Null && v.Value < 0 {
		f.Add("starting_balance", "starting_balance must be zero or more")
	}
	if in.StartingBalance.Value == 0 {
		in.StartingBalance.Value = 0 // -0 would serve as -0 here but as 0 once stored
	}
	schedule(f, &in.CommissionSchedule)
	rules(f, in)
	f.UUIDs("tag_ids", in.TagIDs)
	LowerIDs(&in.TagIDs)
	return f.Err()
}

// rules checks an account's prop-firm rules (DESIGN §10).
func rules(f Errors, in *db.AccountInput) {
	for _, v := range []struct {
		field string
		value *db.Optional[float64]
	}{
		{"profit_target", &in.ProfitTarget}, {"max_daily_loss", &in.MaxDailyLoss},
		{"max_drawdown", &in.MaxDrawdown}, {"drawdown_lock_at", &in.DrawdownLockAt},
	} {
		if v.value.Set && !v.value.Null {
			if msg := trading.CheckCommission(v.field, v.value.Value); msg != "" {
				f.Add(v.field, fmt.Sprintf("%s must be an amount from 0 to %g", v.field, float64(trading.MaxAmount)))
			}
			v.value.Value += 0 // no -0
		}
	}
	f.OneOf("drawdown_mode", in.DrawdownMode, prop.DrawdownModes)
	for _, v := range []struct {
		field string
		value db.Optional[int]
	}{{"min_trading_days", in.MinTradingDays}, {"max_contracts", in.MaxContracts}} {
		if v.value.Set && !v.value.Null && (v.value.Value < 0 || v.value.Value > maxRuleCount) {
			f.Add(v.field, fmt.Sprintf("%s must be a whole number from 0 to %d", v.field, maxRuleCount))
		}
	}
	Percent(f, "consistency_pct", in.ConsistencyPct)
	NotNull(f, "profit_split", in.ProfitSplit)
	Percent(f, "profit_split", in.ProfitSplit)
	in.ConsistencyPct.Value += 0 // no -0
	in.ProfitSplit.Value += 0
	NotNull(f, "day_starts_at", in.DayStartsAt)
	if v := in.DayStartsAt; v.Set && !v.Null {
		if _, err := time.Parse("15:04", v.Value); err != nil || len(v.Value) != 5 {
			f.Add("day_starts_at", "day_starts_at must be a time HH:MM, such as 18:00")
		}
	}
	NotNull(f, "day_timezone", in.DayTimezone)
	if v := in.DayTimezone; v.Set && !v.Null {
		if err := db.CheckTimezone(v.Value); err != nil {
			f.Add("day_timezone", "day_timezone must be an IANA timezone such as America/New_York; "+
				strconv.Quote(v.Value)+" is not one")
		}
	}
}

// maxRuleCount bounds the whole-number rules (trading days, contracts).
const maxRuleCount = 1_000_000

// Percent checks a percentage field: 0 to 100.
func Percent(f Errors, field string, v db.Optional[float64]) {
	if v.Set && !v.Null && !(v.Value >= 0 && v.Value <= 100) {
		f.Add(field, field+" must be a percentage from 0 to 100")
	}
}

// maxScheduleEntries bounds an account's commission schedule.
const maxScheduleEntries = 500

// schedule checks a commission schedule and writes its keys as
// they are matched: upper case, trimmed, futures roots without a slash.
func schedule(f Errors, v *db.Optional[db.CommissionSchedule]) {
	if !v.Set || v.Null {
		return
	}
	if len(v.Value) > maxScheduleEntries {
		f.Add("commission_schedule", fmt.Sprintf("commission_schedule may hold at most %d entries", maxScheduleEntries))
		return
	}
	out := make(db.CommissionSchedule, len(v.Value))
	for k, rate := range v.Value {
		key := db.NormaliseRoot(k)
		field := "commission_schedule." + k
		switch {
		case key == "" || len(key) > 32:
			f.Add(field, field+` must be keyed by a futures root, a symbol or "*" (1 to 32 characters)`)
		case trading.CheckCommission(field, rate) != "":
			f.Add(field, field+" must be zero or more dollars per contract per side")
		}
		out[key] = rate + 0 // no -0
	}
	v.Value = out
}

// IsCurrencyCode reports whether s has the shape of an ISO 4217 code: three
// upper-case letters.
func IsCurrencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for i := 0; i < 3; i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}
