package brokers

import (
	"strconv"
	"strings"
)

// Tradovate writes three exports this journal reads. Its cells often carry
// a leading space (" Buy", " Filled"); values are trimmed.

// tradovateOrders is the Orders tab's export: one row per order, with its
// average fill price and filled quantity. Filled orders are fills (source
// id: the order id); cancelled, working, rejected and expired ones are
// skipped. It has no commission column.
var tradovateOrders = spec{
	name:     "tradovate_orders",
	required: []string{"side", "contract", "status", "quantity", "price"},
	columns: map[string][]string{
		"account": {"Account"}, "contract": {"Contract"}, "side": {"B/S"}, "status": {"Status"},
		"quantity": {"filledQty", "Filled Qty"}, "price": {"avgPrice", "Avg Fill Price"},
		"time": {"Fill Time", "Timestamp"}, "id": {"Order ID", "orderId"},
	},
	row: orderRow,
}

// filledStatus reports whether an order's status makes it a fill. A file
// without a status column has only filled orders.
func filledStatus(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "filled", "fill", "complete", "completed", "executed":
		return true
	}
	return false
}

// tradovatePerformance is the Performance tab's export: one row per paired
// round trip (a scale-out's rows share one buy fill). Source ids:
// buyFillId/sellFillId with :entry and :exit. No account, no commission.
var tradovatePerformance = spec{
	name:     "tradovate_performance",
	required: []string{"contract", "quantity", "buyPrice", "sellPrice", "bought", "sold", "buyID", "sellID"},
	columns: map[string][]string{
		"contract": {"symbol"}, "quantity": {"qty"}, "buyPrice": {"buyPrice"}, "sellPrice": {"sellPrice"},
		"bought": {"boughtTimestamp"}, "sold": {"soldTimestamp"}, "buyID": {"buyFillId"}, "sellID": {"sellFillId"},
	},
	row: roundTripRow,
}

// tradovatePositions is the Position History export: like Performance, one
// row per paired quantity, with the account. A position still open is a
// row with no pair, no fill ids, no prices and no exit: skipped, with a
// warning.
var tradovatePositions = spec{
	name:     "tradovate_positions",
	required: []string{"contract", "quantity", "buyPrice", "sellPrice", "bought", "sold", "buyID", "sellID"},
	columns: map[string][]string{
		"account": {"Account"}, "contract": {"Contract"}, "quantity": {"Paired Qty"},
		"buyPrice": {"Buy Price"}, "sellPrice": {"Sell Price"}, "bought": {"Bought Timestamp"},
		"sold": {"Sold Timestamp"}, "buyID": {"Buy Fill ID"}, "sellID": {"Sell Fill ID"}, "pairID": {"Pair ID"},
	},
	row: roundTripRow,
}

// roundTripRow reads a row that pairs a buy and a sell: the shared shape of
// the round-trip formats, by role. "side" ("Long"/"Short"), "entry"/"exit"
// prices and times where a format writes them so, "cost" columns split
// evenly, "id" or "buyID"/"sellID" for the source ids.
func roundTripRow(r *reader, line int, rec []string) {
	tr := trip{line: line, account: r.cell(rec, "account"), contract: contract(r.cell(rec, "contract"))}
	if tr.contract == "" {
		r.fail(line, "contract", r.file.Columns["contract"]+" is required")
	} else if r.openPosition(rec) {
		r.file.Skipped++
		r.file.Warnings = append(r.file.Warnings,
			tr.contract+": open position not imported: the file has no exit for it (line "+strconv.Itoa(line)+")")
		return
	}
	tr.quantity, _ = r.positive(line, rec, "quantity")
	tr.buyID, tr.sellID = r.cell(rec, "buyID"), r.cell(rec, "sellID")
	tr.id = r.cell(rec, "id")
	if tr.id == "" && tr.buyID != "" && tr.sellID != "" {
		tr.id = tr.buyID + "/" + tr.sellID
	}
	tr.cost = r.costs(line, rec, "commission", "fees", "fee2", "fee3", "fee4", "fee5")
	if r.has("side") {
		switch strings.ToLower(r.cell(rec, "side")) {
		case "long", "buy":
			tr.side = "long"
		case "short", "sell":
			tr.side = "short"
		default:
			r.fail(line, "side", r.file.Columns["side"]+" must be Long or Short")
		}
	}
	if r.has("entryPrice") {
		// Entry and exit columns: the side says which was the buy.
		entry, _ := r.price(line, rec, "entryPrice", tr.contract)
		exit, _ := r.price(line, rec, "exitPrice", tr.contract)
		in, out := r.stamp(line, rec, "entry"), r.stamp(line, rec, "exit")
		tr.buyPrice, tr.sellPrice, tr.bought, tr.sold = entry, exit, in, out
		if tr.side == "short" {
			tr.buyPrice, tr.sellPrice, tr.bought, tr.sold = exit, entry, out, in
		}
	} else {
		tr.buyPrice, _ = r.price(line, rec, "buyPrice", tr.contract)
		tr.sellPrice, _ = r.price(line, rec, "sellPrice", tr.contract)
		tr.bought, tr.sold = r.stamp(line, rec, "bought"), r.stamp(line, rec, "sold")
	}
	r.trips = append(r.trips, tr)
}

// openPosition reports whether a round-trip row is a position still open:
// it has no exit (no exit price and time; where the file pairs a buy and a
// sell, no pair or fill ids, no prices, and a time missing).
func (r *reader) openPosition(rec []string) bool {
	blank := func(roles ...string) bool {
		for _, role := range roles {
			if r.cell(rec, role) != "" {
				return false
			}
		}
		return true
	}
	if r.has("entryPrice") {
		return blank("exitPrice", "exit")
	}
	return blank("id", "pairID", "buyID", "sellID", "buyPrice", "sellPrice") && (blank("bought") || blank("sold"))
}
