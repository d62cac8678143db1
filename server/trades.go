package server

import (
	"encoding/json"
	"fmt"
	"net/http"

	"tradejournal/db"
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
			input.Execution(f, path, &e)
			in.Executions.Value = append(in.Executions.Value, e)
		}
	}
	if create {
		in.Status = db.Optional[string]{}
	}
	in.StopLossLevels = decodeLevels(f, "stop_loss_levels", req.StopLossLevels)
	in.TakeProfitLevels = decodeLevels(f, "take_profit_levels", req.TakeProfitLevels)
	in.CriteriaChecklist = decodeChecklist(f, req.CriteriaChecklist)
	input.Trade(f, &in, create)
	input.Review(f, &in)
	return in, f.Err()
}
