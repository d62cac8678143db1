package brokers

// generic is the journal's own export (GET /api/v1/trades/export):
// account_number,symbol,side,quantity,price,commission,timestamp,exec_id.
// The timestamp is RFC 3339, or a local date and time.
var generic = spec{
	name:     "generic",
	required: []string{"contract", "side", "quantity", "price", "time"},
	columns: map[string][]string{
		"account": {"account_number", "account"}, "contract": {"symbol"}, "side": {"side"},
		"quantity": {"quantity"}, "price": {"price"}, "commission": {"commission"}, "time": {"timestamp"},
		"id": {"exec_id"},
	},
	row: func(r *reader, line int, rec []string) {
		f := Fill{Line: line, Account: r.cell(rec, "account"), Contract: contract(r.cell(rec, "contract")),
			SourceID: r.cell(rec, "id")}
		if f.Contract == "" {
			r.fail(line, "contract", "symbol is required")
		}
		f.Side, _ = r.side(line, rec, "side")
		f.Quantity, _ = r.positive(line, rec, "quantity")
		f.Price, _ = r.positive(line, rec, "price")
		f.Commission = r.costs(line, rec, "commission")
		r.add(f, r.stamp(line, rec, "time"))
	},
}
