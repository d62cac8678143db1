package brokers

// ninjaTraderExecutions is the Executions grid's export (Control Center →
// Executions → right click → Export): one row per execution, partial fills
// each their own. Source id: the execution's ID (never its Order ID, which
// the partial fills of one order share). The grid exports only the columns
// it shows: with ID hidden the fills have no id, and the journal hashes
// them as it does any fill without one. Instruments read MNQ 12-25.
// Times follow the Windows locale: date_order decides 03/04/2025.
var ninjaTraderExecutions = spec{
	name:     "ninjatrader_executions",
	required: []string{"contract", "side", "quantity", "price", "time"},
	columns: map[string][]string{
		"account": {"Account"}, "contract": {"Instrument"}, "side": {"Action"}, "quantity": {"Quantity"},
		"price": {"Price"}, "time": {"Time"}, "id": {"ID", "Execution ID"}, "commission": {"Commission"},
		"fees": {"Fees"},
	},
	row: fillRow,
}

// ninjaTraderTrades is the Trade Performance → Trades grid's export: one
// round trip per row, its side in Market pos., its costs the commission and
// every fee column, split evenly between entry and exit. It numbers its
// rows afresh in every export, so its fills have no source id (they are
// hashed).
var ninjaTraderTrades = spec{
	name:     "ninjatrader_trades",
	required: []string{"contract", "side", "quantity", "entryPrice", "exitPrice", "entry", "exit"},
	columns: map[string][]string{
		"account": {"Account"}, "contract": {"Instrument"}, "side": {"Market pos.", "Market position"},
		"quantity": {"Qty", "Quantity"}, "entryPrice": {"Entry price"}, "exitPrice": {"Exit price"},
		"entry": {"Entry time"}, "exit": {"Exit time"}, "commission": {"Commission"},
		"fees": {"Clearing Fee"}, "fee2": {"Exchange Fee"}, "fee3": {"IP Fee"}, "fee4": {"NFA Fee"},
		"fee5": {"Brokerage Fee"},
	},
	row: roundTripRow,
}
