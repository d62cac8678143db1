package input

import (
	"net/url"
	"strings"

	"tradejournal/db"
	"tradejournal/db/trading"
)

// Trade checks a trade's fields and normalises them in place; create says
// whether the fields a new trade needs must be present.
func Trade(f Errors, in *db.TradeInput, create bool) {
	hasFills := in.Executions.Set && len(in.Executions.Value) > 0
	in.AccountID.Value = strings.ToLower(in.AccountID.Value)
	f.Required("account_id", in.AccountID, create)
	if in.AccountID.Set && !in.AccountID.Null && in.AccountID.Value != "" {
		f.UUID("account_id", in.AccountID.Value)
	}
	f.Required("symbol", in.Symbol, create)
	f.Text("symbol", in.Symbol, 64)
	if in.Side.Null || (create && !in.Side.Set) || (in.Side.Set && !in.Side.Null && !IsOneOf(in.Side.Value, db.TradeSides)) {
		f.Add("side", "side must be long or short")
	}
	f.Required("entry_date", in.EntryDate, create)
	f.Date("entry_date", in.EntryDate)
	f.Clock("entry_time", in.EntryTime)
	f.Date("exit_date", in.ExitDate)
	f.Clock("exit_time", in.ExitTime)
	if in.EntryDate.Set && in.ExitDate.Set && in.ExitDate.Value != "" && in.ExitDate.Value < in.EntryDate.Value {
		f.Add("exit_date", "exit_date must not be before entry_date")
	}
	if (create && !hasFills && !in.EntryPrice.Set) || in.EntryPrice.Null {
		f.Add("entry_price", "entry_price must be a positive number")
	}
	f.Amount("entry_price", in.EntryPrice)
	if (create && !hasFills && !in.Quantity.Set) || in.Quantity.Null {
		f.Add("quantity", "quantity must be a positive number")
	}
	f.Amount("quantity", in.Quantity)
	f.Amount("exit_price", in.ExitPrice)
	f.OneOf("status", in.Status, db.TradeStatuses)
	f.OneOf("asset_class", in.AssetClass, db.AssetClasses)
	if in.Executions.Null {
		f.Add("executions", "executions cannot be null; send [] to remove every fill")
	}
	f.UUIDs("tag_ids", in.TagIDs)
	LowerIDs(&in.TagIDs)
	f.UUIDs("document_ids", in.DocumentIDs)
	LowerIDs(&in.DocumentIDs)
}

// Execution checks one fill of a trade, named path in the reasons.
func Execution(f Errors, path string, e *db.ExecutionInput) {
	if !e.Side.Set || e.Side.Null || !IsOneOf(e.Side.Value, db.ExecutionSides) {
		f.Add(path+".side", path+".side must be buy or sell")
	}
	for _, n := range []struct {
		name string
		v    db.Optional[float64]
	}{{"price", e.Price}, {"quantity", e.Quantity}} {
		if !n.v.Set || n.v.Null {
			f.Add(path+"."+n.name, path+"."+n.name+" must be a positive number")
		}
		f.Amount(path+"."+n.name, n.v)
	}
	if e.Commission.Null {
		f.Add(path+".commission", path+".commission cannot be null")
	}
	if msg := trading.CheckCommission(path+".commission", e.Commission.Value); msg != "" {
		f.Add(path+".commission", msg)
	}
	f.OneOf(path+".execution_type", e.ExecutionType, db.ExecutionTypes)
	f.Date(path+".execution_date", e.ExecutionDate)
	if e.ExecutionTimestamp.Set && !e.ExecutionTimestamp.Null {
		f.Timestamp(path+".execution_timestamp", e.ExecutionTimestamp.Value)
		return
	}
	if !e.ExecutionTime.Set || e.ExecutionTime.Null {
		f.Add(path+".execution_time", path+".execution_time is required (HH:MM:SS) unless execution_timestamp is given")
		return
	}
	f.Clock(path+".execution_time", e.ExecutionTime)
}

// TradeFilter reads the list filters; a malformed value is a 400
// naming the parameter.
func TradeFilter(q url.Values) (db.TradeFilter, error) {
	f := Errors{}
	v := func(name string) string { return strings.TrimSpace(q.Get(name)) }
	filter := db.TradeFilter{
		Symbol:     v("symbol"),
		AccountID:  f.QueryUUID("account_id", v("account_id")),
		PlaybookID: f.QueryUUID("playbook_id", v("playbook_id")),
		ImportID:   f.QueryUUID("import_id", v("import_id")),
		Status:     f.QueryEnum("status", v("status"), db.TradeStatuses),
		Side:       f.QueryEnum("side", v("side"), db.TradeSides),
		AssetClass: f.QueryEnum("asset_class", v("asset_class"), db.AssetClasses),
		MinPnL:     f.QueryNumber("min_pnl", v("min_pnl")),
		MaxPnL:     f.QueryNumber("max_pnl", v("max_pnl")),
		Reviewed:   f.QueryBoolPtr("reviewed", v("reviewed")),
		MinRating:  f.QueryRating("min_rating", v("min_rating")),

		HasViolations: f.QueryBoolPtr("has_violations", v("has_violations")),
	}
	if len(filter.Symbol) > 64 {
		f.Add("symbol", "symbol must be at most 64 characters")
	}
	if tags := v("tags"); tags != "" {
		for _, id := range strings.Split(tags, ",") {
			id = strings.ToLower(strings.TrimSpace(id))
			if !IsUUID(id) {
				f.Add("tags", "tags must be a comma-separated list of tag UUIDs")
				break
			}
			filter.TagIDs = append(filter.TagIDs, id)
		}
	}
	filter.StartDate, filter.EndDate = DateRange(f, q)
	return filter, f.Err()
}
