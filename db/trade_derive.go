package db

import (
	"context"
	"database/sql"
	"errors"
	"time"
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
		if s := normalise(in.Symbol.Value); s != t.Symbol {
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

	loc, err := userLocation(ctx, tx, userID)
	if err != nil {
		return err
	}
	if in.Executions.Set {
		t.Executions = make([]Execution, len(in.Executions.Value))
		for i, f := range in.Executions.Value {
			t.Executions[i] = db.newExecution(f, t.EntryDate, loc)
		}
	}
	overrides, err := loadOverrides(ctx, tx, userID)
	if err != nil {
		return err
	}
	// A value the server would derive anyway is no override: a client
	// sending back a trade it read must not pin its class or status.
	if in.AssetClass.Set && !in.AssetClass.Null {
		if _, derived, _, err := resolveInstrument(t.Symbol, "", false, overrides); err == nil && derived == t.AssetClass {
			t.assetClassSet = false
		}
	}
	if err := priceTrade(t, overrides); err != nil {
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
// its quantity, prices, dates, P&L and status from its fills, or from its
// own entry and exit when it has none.
func priceTrade(t *Trade, overrides map[string]Instrument) error {
	root, class, pv, err := resolveInstrument(t.Symbol, t.AssetClass, t.assetClassSet, overrides)
	if err != nil {
		return err
	}
	t.root, t.AssetClass, t.PointValue = root, class, pv

	closed := false
	if len(t.Executions) > 0 {
		fills := make([]Fill, len(t.Executions))
		for i, e := range t.Executions {
			at, err := time.Parse(time.RFC3339Nano, e.ExecutionTimestamp)
			if err != nil {
				return err
			}
			fills[i] = Fill{Side: e.Side, Price: e.Price, Quantity: e.Quantity, Commission: e.Commission, At: at, Type: e.clientType}
		}
		pos, err := Derive(t.Side, fills, pv)
		if err != nil {
			return err
		}
		ordered := make([]Execution, len(t.Executions))
		for k, i := range pos.Order {
			ordered[k] = t.Executions[i]
			ordered[k].ExecutionType = pos.Types[i]
		}
		t.Executions = ordered
		first := t.Executions[0]
		t.Quantity, t.EntryPrice, t.ExitPrice = pos.Quantity, pos.EntryPrice, pos.ExitPrice
		t.EntryDate, t.EntryTime = first.ExecutionDate, &first.ExecutionTime
		t.ExitDate, t.ExitTime, t.exitDateSet = nil, nil, false
		if pos.Flat {
			last := lastClosingFill(t.Executions)
			t.ExitDate, t.ExitTime = &last.ExecutionDate, &last.ExecutionTime
		}
		t.GrossPnL, t.TotalCommission, t.NetPnL = pos.GrossPnL, pos.Commission, pos.NetPnL
		closed = pos.Flat
	} else {
		t.Executions = []Execution{}
		t.GrossPnL, t.TotalCommission = 0, 0
		if t.ExitPrice != nil {
			t.GrossPnL = PnL(t.Side, t.EntryPrice, *t.ExitPrice, t.Quantity, pv)
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
		t.NetPnL = Round8(t.GrossPnL - t.TotalCommission)
	}

	t.derivedStatus = "open"
	if closed {
		t.derivedStatus = Status(t.NetPnL)
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
	if err := db.evaluateRules(ctx, tx, userID, t, false); err != nil {
		return err
	}
	return db.reevaluateDays(ctx, tx, userID, t.ID, before, dayKey{t.AccountID, t.EntryDate})
}

// lastClosingFill is the last fill against the trade's side: the exit.
func lastClosingFill(fills []Execution) Execution {
	opening := fills[0].Side
	for i := len(fills) - 1; i >= 0; i-- {
		if fills[i].Side != opening {
			return fills[i]
		}
	}
	return fills[len(fills)-1]
}

// resolveInstrument finds a symbol's root, asset class and point value: the
// client's asset class if it set one, else the user's override of the bare
// symbol, else what the symbol's form says. A futures root without a point
// value is refused, never priced at a guess.
func resolveInstrument(symbol, class string, classSet bool, overrides map[string]Instrument) (root, assetClass string, pv float64, err error) {
	s := normalise(symbol)
	switch {
	case classSet:
		assetClass, root = class, s
		switch class {
		case AssetFutures:
			root = FuturesRoot(s)
		case AssetOptions:
			if m := occ.FindStringSubmatch(s); m != nil {
				root = m[1]
			}
		}
	case overrides[s].Root != "":
		assetClass, root = overrides[s].AssetClass, s
	default:
		sym := ParseSymbol(s, func(r string) bool {
			if o, ok := overrides[r]; ok {
				return o.AssetClass == AssetFutures
			}
			_, ok := BuiltinPointValues[r]
			return ok
		})
		assetClass, root = sym.AssetClass, sym.Root
	}
	if o, ok := overrides[root]; ok && o.AssetClass == assetClass {
		return root, assetClass, o.PointValue, nil
	}
	switch assetClass {
	case AssetFutures:
		v, ok := BuiltinPointValues[root]
		if !ok {
			return "", "", 0, &InvalidError{Field: "symbol", Message: "no point value is known for futures root " + root +
				": set one with PUT /api/v1/instruments/" + root}
		}
		return root, assetClass, v, nil
	case AssetOptions:
		return root, assetClass, OptionPointValue, nil
	}
	return root, assetClass, 1, nil
}

// userLocation is the user's timezone, in which dates and times are read.
func userLocation(ctx context.Context, q querier, userID string) (*time.Location, error) {
	var tz string
	if err := q.QueryRowContext(ctx, `SELECT timezone FROM users WHERE id = ?`, userID).Scan(&tz); err != nil {
		return nil, err
	}
	return time.LoadLocation(tz)
}
