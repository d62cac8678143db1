package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"tradejournal/db"
	"tradejournal/db/trading"
	"tradejournal/server/input"
)

// tradeRequest is a trade body. Its executions are decoded one by one, so a
// wrong type names the fill: "executions[2].price".
type tradeRequest struct {
	db.TradeInput
	Executions        db.Optional[[]json.RawMessage] `json:"executions"`
	StopLossLevels    db.Optional[[]json.RawMessage] `json:"stop_loss_levels"`
	TakeProfitLevels  db.Optional[[]json.RawMessage] `json:"take_profit_levels"`
	CriteriaChecklist db.Optional[[]json.RawMessage] `json:"criteria_checklist"`
}

// maxExecutions bounds the fills of one trade.
const maxExecutions = 1000

// decodeTrade reads and validates a trade body. On create the status is
// the server's to derive, so a client's is ignored.
func decodeTrade(w http.ResponseWriter, r *http.Request, create bool) (db.TradeInput, error) {
	var req tradeRequest
	if err := decodeJSON(w, r, &req); err != nil {
		return db.TradeInput{}, err
	}
	in := req.TradeInput
	f := input.Errors{}
	if req.Executions.Set {
		in.Executions.Set, in.Executions.Null = true, req.Executions.Null
		if len(req.Executions.Value) > maxExecutions {
			f.Add("executions", fmt.Sprintf("executions may hold at most %d fills", maxExecutions))
		}
		for i, raw := range req.Executions.Value {
			var e db.ExecutionInput
			path := fmt.Sprintf("executions[%d]", i)
			if err := decodeElement(raw, &e, path); err != nil {
				f.Merge(err)
				continue
			}
			validateExecution(f, path, &e)
			in.Executions.Value = append(in.Executions.Value, e)
		}
	}
	if create {
		in.Status = db.Optional[string]{}
	}
	in.StopLossLevels = decodeLevels(f, "stop_loss_levels", req.StopLossLevels)
	in.TakeProfitLevels = decodeLevels(f, "take_profit_levels", req.TakeProfitLevels)
	in.CriteriaChecklist = decodeChecklist(f, req.CriteriaChecklist)
	validateTrade(f, &in, create)
	validateReview(f, &in)
	return in, f.Err()
}

func validateTrade(f input.Errors, in *db.TradeInput, create bool) {
	hasFills := in.Executions.Set && len(in.Executions.Value) > 0
	in.AccountID.Value = strings.ToLower(in.AccountID.Value)
	f.Required("account_id", in.AccountID, create)
	if in.AccountID.Set && !in.AccountID.Null && in.AccountID.Value != "" {
		f.UUID("account_id", in.AccountID.Value)
	}
	f.Required("symbol", in.Symbol, create)
	f.Text("symbol", in.Symbol, 64)
	if in.Side.Null || (create && !in.Side.Set) || (in.Side.Set && !in.Side.Null && !input.IsOneOf(in.Side.Value, db.TradeSides)) {
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
	input.LowerIDs(&in.TagIDs)
}

func validateExecution(f input.Errors, path string, e *db.ExecutionInput) {
	if !e.Side.Set || e.Side.Null || !input.IsOneOf(e.Side.Value, db.ExecutionSides) {
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

// parseTradeFilter reads the list filters; a malformed value is a 400
// naming the parameter.
func parseTradeFilter(q url.Values) (db.TradeFilter, error) {
	f := input.Errors{}
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
			if !input.IsUUID(id) {
				f.Add("tags", "tags must be a comma-separated list of tag UUIDs")
				break
			}
			filter.TagIDs = append(filter.TagIDs, id)
		}
	}
	filter.StartDate, filter.EndDate = input.DateRange(f, q)
	return filter, f.Err()
}
