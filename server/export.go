package server

import (
	"encoding/csv"
	"net/http"
	"strconv"

	"tradejournal/server/input"

	"tradejournal/server/problem"

	"tradejournal/db"
)

// exportHeader is the generic import format's header, which the export
// writes so that an export imports back as it is.
var exportHeader = []string{"account_number", "symbol", "side", "quantity", "price", "commission", "timestamp", "exec_id"}

// handleTradeExport streams the fills of the filtered trades as CSV.
func (s *Server) handleTradeExport(w http.ResponseWriter, r *http.Request, p *db.Principal) {
	filter, err := input.TradeFilter(r.URL.Query())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="tradejournal-fills.csv"`)
	out := csv.NewWriter(w)
	out.Write(exportHeader)
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	err = s.db.ExportFills(r.Context(), p.UserID, filter, func(e db.ExportRow) error {
		out.Write([]string{e.AccountNumber, e.Symbol, e.Side, num(e.Quantity), num(e.Price), num(e.Commission), e.Timestamp, e.ExecID})
		return out.Error()
	})
	out.Flush()
	if err == nil {
		err = out.Error()
	}
	if err != nil {
		// The status is gone with the first row; the client sees a cut
		// body, and the cause goes to the log.
		s.log.ErrorContext(r.Context(), "export failed", "request_id", problem.RequestID(r.Context()), "err", err)
	}
}
