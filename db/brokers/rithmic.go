package brokers

// rithmicOrders is R|Trader Pro's order history export (Orders → Completed
// Orders → export): section titles such as "Completed Orders" come before
// the header, times name their zone in the header ("Update Time (EDT)").
// Filled orders are fills at their average price (source id: the order
// number); cancelled, working and rejected ones, and a row with Qty Filled
// 0, are skipped. A file without a Status column holds only filled orders.
// Its commission is the fill rate x the quantity filled.
var rithmicOrders = spec{
	name:     "rithmic_orders",
	required: []string{"side", "contract", "quantity", "price", "time"},
	columns: map[string][]string{
		"account": {"Account"}, "status": {"Status"}, "side": {"Buy/Sell"}, "contract": {"Symbol"},
		"quantity": {"Qty Filled"}, "price": {"Avg Fill Price"}, "time": {"Update Time"},
		"id": {"Order Number"}, "rate": {"Commission Fill Rate"},
	},
	row: orderRow,
}
