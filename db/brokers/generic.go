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
	row: fillRow,
}
