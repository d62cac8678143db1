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
	row: func(r *reader, line int, rec []string) {
		if !filledStatus(r.cell(rec, "status")) {
			r.file.Skipped++
			return
		}
		qty, ok := r.number(line, rec, "quantity")
		if ok && qty == 0 {
			r.file.Skipped++
			return
		}
		if ok && qty < 0 {
			r.fail(line, "quantity", r.file.Columns["quantity"]+" must be a positive number")
		}
		f := Fill{Line: line, Account: r.cell(rec, "account"), Contract: contract(r.cell(rec, "contract")),
			SourceID: r.cell(rec, "id"), Quantity: qty}
		f.Side, _ = r.side(line, rec, "side")
		f.Price, _ = r.positive(line, rec, "price")
		if rate := r.costs(line, rec, "rate"); rate != nil {
			c := *rate * qty
			f.Commission = &c
		}
		r.add(f, r.stamp(line, rec, "time"))
	},
}
