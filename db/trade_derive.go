package db

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"time"

	"tradejournal/db/stats"
	"tradejournal/db/trading"
)

// Layouts of the dates, times and fill timestamps the API reads and writes.
const (
	DateLayout = "2006-01-02"
	TimeLayout = "15:04:05"
	// execution_timestamp is served in UTC with an explicit +00:00 offset.
	fillTimestampLayout = "2006-01-02T15:04:05.999999999"
)

func formatFillTimestamp(t time.Time) string {
	return t.UTC().Format(fillTimestampLayout) + "+00:00"
}

// parseFillTimestamp reads a stored execution_timestamp. The form is the
// one formatFillTimestamp writes, so it is read digit by digit, several
// times faster than time.Parse (the account status reads every fill);
// anything else goes to time.Parse.
func parseFillTimestamp(s string) (time.Time, error) {
	// 2006-01-02T15:04:05[.fraction]+00:00
	n := len(s)
	if n < 25 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[n-6:] != "+00:00" {
		return time.Parse(time.RFC3339Nano, s)
	}
	num := func(from, to int) (int, bool) {
		v := 0
		for i := from; i < to; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	year, ok1 := num(0, 4)
	month, ok2 := num(5, 7)
	day, ok3 := num(8, 10)
	hour, ok4 := num(11, 13)
	minute, ok5 := num(14, 16)
	sec, ok6 := num(17, 19)
	nanos, frac := 0, s[19:n-6]
	ok7 := true
	if frac != "" {
		if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
			ok7 = false
		} else if nanos, ok7 = num(20, n-6); ok7 {
			for range 10 - len(frac) {
				nanos *= 10
			}
		}
	}
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) || month < 1 || month > 12 || day < 1 || day > 31 ||
		hour > 23 || minute > 59 || sec > 59 {
		return time.Parse(time.RFC3339Nano, s)
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nanos, time.UTC)
	if t.Day() != day { // 31 April and the like: let time.Parse say so
		return time.Parse(time.RFC3339Nano, s)
	}
	return t, nil
}

// applyTrade copies the fields given in in onto t, checks the references,
// and derives every computed field. It is the one place where a trade's
// numbers are computed, on create, update and re-pricing alike.
func (db *DB) applyTrade(ctx context.Context, tx txn, userID string, t *Trade, in TradeInput) error {
	if in.AccountID.Set && in.AccountID.Value != t.AccountID {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM accounts WHERE user_id = ? AND id = ?`, userID, in.AccountID.Value).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return &NotFoundError{Kind: "Account", Field: "account_id"}
		}
		if err != nil {
			return err
		}
		t.AccountID = in.AccountID.Value
	}
	if in.Symbol.Set {
		if s := trading.Normalise(in.Symbol.Value); s != t.Symbol {
			// An asset class set by hand was about the old symbol.
			t.assetClassSet = in.AssetClass.Set && !in.AssetClass.Null
			t.Symbol = s
		}
	}
	if in.Side.Set {
		t.Side = in.Side.Value
	}
	if in.AssetClass.Set {
		t.assetClassSet = !in.AssetClass.Null
		t.AssetClass = in.AssetClass.Value
	}
	if in.Status.Set {
		t.statusOverride = in.Status.Ptr()
	}
	if in.EntryDate.Set {
		// An exit date that defaulted to the entry date follows it.
		if !in.ExitDate.Set && !t.exitDateSet && t.ExitDate != nil && *t.ExitDate == t.EntryDate {
			t.ExitDate = &in.EntryDate.Value
		}
		t.EntryDate = in.EntryDate.Value
	}
	if in.EntryTime.Set {
		t.EntryTime = in.EntryTime.Ptr()
	}
	if in.EntryPrice.Set {
		t.EntryPrice = in.EntryPrice.Value
	}
	if in.Quantity.Set {
		t.Quantity = in.Quantity.Value
	}
	if in.ExitPrice.Set {
		t.ExitPrice = in.ExitPrice.Ptr()
	}
	if in.ExitDate.Set {
		t.ExitDate = in.ExitDate.Ptr()
		t.exitDateSet = t.ExitDate != nil
	}
	if in.ExitTime.Set {
		t.ExitTime = in.ExitTime.Ptr()
	}
	if err := db.applyReview(ctx, tx, userID, t, in); err != nil {
		return err
	}

	loc, overrides, err := db.pricing(ctx, tx, userID)
	if err != nil {
		return err
	}
	if in.Executions.Set {
		t.Executions = make([]Execution, len(in.Executions.Value))
		for i, f := range in.Executions.Value {
			t.Executions[i] = db.newExecution(f, t.EntryDate, loc)
		}
	}
	// A value the server would derive anyway is no override: a client
	// sending back a trade it read must not pin its class or status.
	if in.AssetClass.Set && !in.AssetClass.Null {
		if derived, err := trading.Resolve(t.Symbol, "", false, overrides); err == nil && derived.AssetClass == t.AssetClass {
			t.assetClassSet = false
		}
	}
	if err := priceTrade(t, overrides, loc); err != nil {
		return err
	}
	if in.Status.Set && !in.Status.Null && t.derivedStatus == in.Status.Value {
		t.statusOverride = nil
	}
	return nil
}

// newExecution builds a fill from its input. A fill without a timestamp
// happened on its date (default: the trade's entry date) at its time in the
// user's timezone; a fill with one gets its date and time from it.
func (db *DB) newExecution(in ExecutionInput, entryDate string, loc *time.Location) Execution {
	e := Execution{
		ID:         db.NewID(),
		Side:       in.Side.Value,
		Price:      in.Price.Value,
		Quantity:   in.Quantity.Value,
		Commission: in.Commission.Value,
		clientType: in.ExecutionType.Value,
	}
	var at time.Time
	if ts := in.ExecutionTimestamp.Value; ts != "" {
		at, _ = time.Parse(time.RFC3339Nano, ts) // the server checked the form
	} else {
		date := in.ExecutionDate.Value
		if date == "" {
			date = entryDate
		}
		at, _ = time.ParseInLocation(DateLayout+" "+TimeLayout, date+" "+in.ExecutionTime.Value, loc)
	}
	local := at.In(loc)
	e.ExecutionDate = local.Format(DateLayout)
	e.ExecutionTime = local.Format(TimeLayout)
	e.ExecutionTimestamp = formatFillTimestamp(at)
	return e
}

// priceTrade resolves the trade's instrument and point value and derives
// its quantity, prices, dates, P&L, status, day and holding time from its
// fills, or from its own entry and exit (times in loc) when it has none.
func priceTrade(t *Trade, overrides map[string]trading.Instrument, loc *time.Location) error {
	inst, err := trading.Resolve(t.Symbol, t.AssetClass, t.assetClassSet, overrides)
	if err != nil {
		return err
	}
	t.root, t.AssetClass, t.PointValue = inst.Root, inst.AssetClass, inst.PointValue
	pv := inst.PointValue

	closed := false
	if len(t.Executions) > 0 {
		fills := make([]trading.Fill, len(t.Executions))
		for i, e := range t.Executions {
			at, err := time.Parse(time.RFC3339Nano, e.ExecutionTimestamp)
			if err != nil {
				return err
			}
			fills[i] = trading.Fill{Side: e.Side, Price: e.Price, Quantity: e.Quantity, Commission: e.Commission, At: at, Type: e.clientType}
		}
		pos, err := trading.Derive(t.Side, fills, pv)
		if err != nil {
			return err
		}
		ordered := make([]Execution, len(t.Executions))
		for k, i := range pos.Order {
			ordered[k] = t.Executions[i]
			ordered[k].ExecutionType = pos.Types[i]
			if ordered[k].Commission == 0 {
				// A commission of -0 (which "must be zero or more" lets
				// through) is stored as 0: the trade in hand, which its
				// listing and a PUT's answer are made from, says 0 too.
				ordered[k].Commission = 0
			}
		}
		t.Executions = ordered
		first := t.Executions[0]
		t.Quantity, t.EntryPrice, t.ExitPrice = pos.Quantity, pos.EntryPrice, pos.ExitPrice
		t.EntryDate, t.EntryTime = first.ExecutionDate, &first.ExecutionTime
		t.ExitDate, t.ExitTime, t.exitDateSet = nil, nil, false
		t.holdSeconds = nil
		if pos.Flat {
			k := lastClosingFill(t.Executions)
			last := t.Executions[k]
			t.ExitDate, t.ExitTime = &last.ExecutionDate, &last.ExecutionTime
			t.holdSeconds = held(fills[pos.Order[0]].At, fills[pos.Order[k]].At)
		}
		t.GrossPnL, t.TotalCommission, t.NetPnL = pos.GrossPnL, pos.Commission, pos.NetPnL
		closed = pos.Flat
	} else {
		t.Executions = []Execution{}
		t.GrossPnL, t.TotalCommission = 0, 0
		if t.ExitPrice != nil {
			t.GrossPnL = trading.PnL(t.Side, t.EntryPrice, *t.ExitPrice, t.Quantity, pv)
			if t.ExitDate == nil {
				d := t.EntryDate // a day trade unless told otherwise
				t.ExitDate, t.exitDateSet = &d, false
			}
			if *t.ExitDate < t.EntryDate {
				return &InvalidError{Field: "exit_date", Message: "exit_date must not be before entry_date " + t.EntryDate}
			}
			closed = true
		} else {
			t.ExitDate, t.ExitTime, t.exitDateSet = nil, nil, false
		}
		t.NetPnL = trading.Round8(t.GrossPnL - t.TotalCommission)
		t.holdSeconds = nil
		if closed && t.EntryTime != nil && t.ExitTime != nil {
			entry, err1 := time.ParseInLocation(DateLayout+" "+TimeLayout, t.EntryDate+" "+*t.EntryTime, loc)
			exit, err2 := time.ParseInLocation(DateLayout+" "+TimeLayout, *t.ExitDate+" "+*t.ExitTime, loc)
			if err1 == nil && err2 == nil {
				t.holdSeconds = held(entry, exit)
			}
		}
	}
	t.day = stats.Day(t.ExitDate, t.EntryDate)

	t.derivedStatus = "open"
	if closed {
		t.derivedStatus = trading.Status(t.NetPnL)
	}
	t.Status = t.derivedStatus
	if t.statusOverride != nil {
		t.Status = *t.statusOverride
	}
	t.review.rRatio, err = planR(t)
	return err
}

// saveReviewLinks writes what a saved trade links to (checklist answers,
// strategies), then checks it against its strategies' rules and the other
// trades of its day, and of the day it left (before), against theirs.
func (db *DB) saveReviewLinks(ctx context.Context, tx txn, userID string, t *Trade, in TradeInput, before dayKey) error {
	if in.CriteriaChecklist.Set || in.PlaybookID.Set {
		if err := setChecklist(ctx, tx, userID, t, in.CriteriaChecklist); err != nil {
			return err
		}
	}
	if err := setTradeStrategies(ctx, tx, userID, t.ID, in.RiskManagementStrategyIDs); err != nil {
		return err
	}
	after := dayKey{t.AccountID, t.EntryDate}
	// A new trade has no evaluations, and strategies only when the user has
	// some: a user without strategies (most) has none on any trade, so
	// there is nothing to evaluate or re-check, and the day's trades need
	// not be searched.
	if before == (dayKey{}) && !in.RiskManagementStrategyIDs.Set {
		var none bool
		if err := tx.QueryRowContext(ctx, `SELECT NOT EXISTS (SELECT 1 FROM strategies WHERE user_id = ?)`, userID).Scan(&none); err != nil {
			return err
		}
		if none {
			return nil
		}
	}
	// Most trades are checked against no strategy and share their days with
	// no trade that is: one probe says so, and then there is nothing to
	// evaluate, clear or re-check.
	if !t.review.hasViolations {
		var unruled bool
		if err := tx.QueryRowContext(ctx, unruledQuery, t.ID, userID, before.accountID, before.date,
			after.accountID, after.date).Scan(&unruled); err != nil {
			return err
		}
		if unruled {
			return nil
		}
	}
	if err := db.evaluateRules(ctx, tx, userID, t, false); err != nil {
		return err
	}
	return db.reevaluateDays(ctx, tx, userID, t.ID, before, after)
}

// unruledQuery is true when trade ?1 has no strategies and no evaluations,
// and no other trade of user ?2 on account ?3's day ?4 or account ?5's
// day ?6 has strategies. A day each, so that each is a search of
// trades_account: an OR of the two days scanned all the user's trades
// (TestUnruledQueryPlan).
const unruledQuery = `SELECT
	NOT EXISTS (SELECT 1 FROM trade_strategies WHERE trade_id = ?1)
	AND NOT EXISTS (SELECT 1 FROM trade_rule_evaluations WHERE trade_id = ?1)
	AND NOT EXISTS (SELECT 1 FROM trades t JOIN trade_strategies ts ON ts.trade_id = t.id
		WHERE t.user_id = ?2 AND t.account_id = ?3 AND t.entry_date = ?4 AND t.id != ?1)
	AND NOT EXISTS (SELECT 1 FROM trades t JOIN trade_strategies ts ON ts.trade_id = t.id
		WHERE t.user_id = ?2 AND t.account_id = ?5 AND t.entry_date = ?6 AND t.id != ?1)`

// lastClosingFill is the index of the last fill against the trade's side:
// the exit.
func lastClosingFill(fills []Execution) int {
	opening := fills[0].Side
	for i := len(fills) - 1; i >= 0; i-- {
		if fills[i].Side != opening {
			return i
		}
	}
	return len(fills) - 1
}

// held is the whole seconds from entry to exit, nil if exit is before entry.
func held(entry, exit time.Time) *int64 {
	if exit.Before(entry) {
		return nil
	}
	s := int64(exit.Sub(entry) / time.Second)
	return &s
}

// userLocation is the user's timezone, in which dates and times are read.
func (db *DB) userLocation(ctx context.Context, q querier, userID string) (*time.Location, error) {
	var tz string
	if err := q.QueryRowContext(ctx, `SELECT timezone FROM users WHERE id = ?`, userID).Scan(&tz); err != nil {
		return nil, err
	}
	return db.zones.load(tz)
}

// pricing is what a trade's numbers are derived with: the user's
// timezone and point-value overrides, read in one query.
func (db *DB) pricing(ctx context.Context, q querier, userID string) (*time.Location, map[string]trading.Instrument, error) {
	rows, err := q.QueryContext(ctx, `SELECT u.timezone, i.root, i.point_value, i.asset_class
		FROM users u LEFT JOIN instruments i ON i.user_id = u.id WHERE u.id = ?`, userID)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var tz string
	found := false
	overrides := make(map[string]trading.Instrument)
	for rows.Next() {
		found = true
		var root, assetClass sql.NullString
		var pointValue sql.NullFloat64
		if err := rows.Scan(&tz, &root, &pointValue, &assetClass); err != nil {
			return nil, nil, err
		}
		if root.Valid {
			overrides[root.String] = trading.Instrument{Root: root.String, PointValue: pointValue.Float64, AssetClass: assetClass.String}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	if !found {
		return nil, nil, sql.ErrNoRows
	}
	loc, err := db.zones.load(tz)
	return loc, overrides, err
}

// zones are the time zones loaded, by name: time.LoadLocation opens, reads
// and parses the zone's file at every call, and a journal's users name a
// few zones over and over (every trade saved reads its user's).
type zones struct {
	mu     sync.Mutex
	byName map[string]*time.Location
}

// Location is the time zone of an IANA name, loaded once and kept: the
// pages read their user's on every request.
func (db *DB) Location(name string) (*time.Location, error) { return db.zones.load(name) }

func (z *zones) load(name string) (*time.Location, error) {
	z.mu.Lock()
	defer z.mu.Unlock()
	if loc, ok := z.byName[name]; ok {
		return loc, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	if z.byName == nil {
		z.byName = map[string]*time.Location{}
	}
	z.byName[name] = loc
	return loc, nil
}
