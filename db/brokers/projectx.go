package brokers

// ProjectX (TopstepX and the firms on its platform) writes its times with
// an offset (2025-10-15 09:31:05.123 -04:00), which wins over the import's
// zone.

// projectXOrders is the Orders export: filled orders are fills at their
// execution price (source id: the order's Id); cancelled, rejected and
// working orders are skipped. Sides read Bid (buy) and Ask (sell).
var projectXOrders = spec{
	name:     "projectx_orders",
	required: []string{"contract", "side", "status", "quantity", "price", "time"},
	columns: map[string][]string{
		"account": {"AccountName", "Account"}, "contract": {"ContractName", "Contract"}, "side": {"Side"},
		"status": {"Status"}, "quantity": {"Size", "FilledSize"}, "price": {"ExecutePrice", "FilledPrice", "AveragePrice"},
		"time": {"FilledAt", "ExecutedAt"}, "id": {"Id", "OrderId"}, "commission": {"Commissions", "Commission"},
		"fees": {"Fees"},
	},
	row: orderRow,
}

// projectXTrades is the Trades export: one round trip per row (Type Long
// or Short), its fees and commissions split evenly; source ids: the row's
// Id with :entry and :exit.
var projectXTrades = spec{
	name:     "projectx_trades",
	required: []string{"contract", "side", "quantity", "entryPrice", "exitPrice", "entry", "exit"},
	columns: map[string][]string{
		"account": {"AccountName", "Account"}, "contract": {"ContractName"}, "side": {"Type"}, "quantity": {"Size"},
		"entryPrice": {"EntryPrice"}, "exitPrice": {"ExitPrice"}, "entry": {"EnteredAt"}, "exit": {"ExitedAt"},
		"id": {"Id"}, "commission": {"Commissions"}, "fees": {"Fees"},
	},
	row: roundTripRow,
}
