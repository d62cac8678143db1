package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"tradejournal/db"
	"tradejournal/db/trading"
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
	f := fieldErrors{}
	if req.Executions.Set {
		in.Executions.Set, in.Executions.Null = true, req.Executions.Null
		if len(req.Executions.Value) > maxExecutions {
			f.add("executions", fmt.Sprintf("executions may hold at most %d fills", maxExecutions))
		}
		for i, raw := range req.Executions.Value {
			var e db.ExecutionInput
			path := fmt.Sprintf("executions[%d]", i)
			if err := decodeElement(raw, &e, path); err != nil {
				f.merge(err)
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
	return in, f.err()
}

func validateTrade(f fieldErrors, in *db.TradeInput, create bool) {
	hasFills := in.Executions.Set && len(in.Executions.Value) > 0
	in.AccountID.Value = strings.ToLower(in.AccountID.Value)
	f.required("account_id", in.AccountID, create)
	if in.AccountID.Set && !in.AccountID.Null && in.AccountID.Value != "" {
		f.uuid("account_id", in.AccountID.Value)
	}
	f.required("symbol", in.Symbol, create)
	f.text("symbol", in.Symbol, 64)
	if in.Side.Null || (create && !in.Side.Set) || (in.Side.Set && !in.Side.Null && !isOneOf(in.Side.Value, db.TradeSides)) {
		f.add("side", "side must be long or short")
	}
	f.required("entry_date", in.EntryDate, create)
	f.date("entry_date", in.EntryDate)
	f.clock("entry_time", in.EntryTime)
	f.date("exit_date", in.ExitDate)
	f.clock("exit_time", in.ExitTime)
	if in.EntryDate.Set && in.ExitDate.Set && in.ExitDate.Value != "" && in.ExitDate.Value < in.EntryDate.Value {
		f.add("exit_date", "exit_date must not be before entry_date")
	}
	if (create && !hasFills && !in.EntryPrice.Set) || in.EntryPrice.Null {
		f.add("entry_price", "entry_price must be a positive number")
	}
	f.amount("entry_price", in.EntryPrice)
	if (create && !hasFills && !in.Quantity.Set) || in.Quantity.Null {
		f.add("quantity", "quantity must be a positive number")
	}
	f.amount("quantity", in.Quantity)
	f.amount("exit_price", in.ExitPrice)
	f.oneOf("status", in.Status, db.TradeStatuses)
	f.oneOf("asset_class", in.AssetClass, db.AssetClasses)
	if in.Executions.Null {
		f.add("executions", "executions cannot be null; send [] to remove every fill")
	}
	f.uuids("tag_ids", in.TagIDs)
	lowerIDs(&in.TagIDs)
}

func validateExecution(f fieldErrors, path string, e *db.ExecutionInput) {
	if !e.Side.Set || e.Side.Null || !isOneOf(e.Side.Value, db.ExecutionSides) {
		f.add(path+".side", path+".side must be buy or sell")
	}
	for _, n := range []struct {
		name string
		v    db.Optional[float64]
	}{{"price", e.Price}, {"quantity", e.Quantity}} {
		if !n.v.Set || n.v.Null {
			f.add(path+"."+n.name, path+"."+n.name+" must be a positive number")
		}
		f.amount(path+"."+n.name, n.v)
	}
	if e.Commission.Null {
		f.add(path+".commission", path+".commission cannot be null")
	}
	if msg := trading.CheckCommission(path+".commission", e.Commission.Value); msg != "" {
		f.add(path+".commission", msg)
	}
	f.oneOf(path+".execution_type", e.ExecutionType, db.ExecutionTypes)
	f.date(path+".execution_date", e.ExecutionDate)
	if e.ExecutionTimestamp.Set && !e.ExecutionTimestamp.Null {
		f.timestamp(path+".execution_timestamp", e.ExecutionTimestamp.Value)
		return
	}
	if !e.ExecutionTime.Set || e.ExecutionTime.Null {
		f.add(path+".execution_time", path+".execution_time is required (HH:MM:SS) unless execution_timestamp is given")
		return
	}
	f.clock(path+".execution_time", e.ExecutionTime)
}

// parseTradeFilter reads the list filters; a malformed value is a 400
// naming the parameter.
func parseTradeFilter(q url.Values) (db.TradeFilter, error) {
	f := fieldErrors{}
	v := func(name string) string { return strings.TrimSpace(q.Get(name)) }
	filter := db.TradeFilter{
		Symbol:     v("symbol"),
		AccountID:  f.queryUUID("account_id", v("account_id")),
		PlaybookID: f.queryUUID("playbook_id", v("playbook_id")),
		ImportID:   f.queryUUID("import_id", v("import_id")),
		Status:     f.queryEnum("status", v("status"), db.TradeStatuses),
		Side:       f.queryEnum("side", v("side"), db.TradeSides),
		AssetClass: f.queryEnum("asset_class", v("asset_class"), db.AssetClasses),
		MinPnL:     f.queryNumber("min_pnl", v("min_pnl")),
		MaxPnL:     f.queryNumber("max_pnl", v("max_pnl")),
		Reviewed:   f.queryBoolPtr("reviewed", v("reviewed")),
		MinRating:  f.queryRating("min_rating", v("min_rating")),

		HasViolations: f.queryBoolPtr("has_violations", v("has_violations")),
	}
	if len(filter.Symbol) > 64 {
		f.add("symbol", "symbol must be at most 64 characters")
	}
	if tags := v("tags"); tags != "" {
		for _, id := range strings.Split(tags, ",") {
			id = strings.ToLower(strings.TrimSpace(id))
			if !isUUID(id) {
				f.add("tags", "tags must be a comma-separated list of tag UUIDs")
				break
			}
			filter.TagIDs = append(filter.TagIDs, id)
		}
	}
	filter.StartDate, filter.EndDate = dateRange(f, q)
	return filter, f.err()
}
