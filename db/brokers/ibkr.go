package brokers

import (
	"math"
	"strings"
)

// ibkrFlex is an Interactive Brokers Flex Query of trades, exported as
// CSV. Sells may have a negative quantity; costs are written negative.
// The total cost is IBCommission (an Activity query's Trades) or Commission
// (a Trade Confirmation query's); where a row has no total the parts are
// added (broker, third-party and other commissions). Source id: IBExecID (or
// ExecID, TradeID). A cancellation (Buy/Sell BUY (Ca.) or SELL (Ca.), or
// TransactionType TradeCancel) is no fill: it and the latest earlier row it
// matches are skipped, and a later row with the cancelled execution's id
// (IBKR's re-booking) is a fill. A cancel's quantity reverses the row it
// cancels (BUY (Ca.) -2 cancels BUY 2), so its sign is never held against
// its side.
var ibkrFlex = spec{
	name:     "ibkr_flex",
	required: []string{"contract", "side", "quantity", "price", "time"},
	columns: map[string][]string{
		"account": {"ClientAccountID", "AccountID", "Account"}, "contract": {"Symbol"}, "side": {"Buy/Sell"},
		"quantity": {"Quantity"}, "price": {"TradePrice", "Price"}, "time": {"DateTime", "Date/Time"},
		"id": {"IBExecID", "ExecID", "TradeID"}, "type": {"TransactionType"},
		"total": {"IBCommission", "Commission"}, "commission": {"BrokerExecutionCommission"},
		"fees": {"BrokerClearingCommission"}, "fee2": {"ThirdPartyExecutionCommission"},
		"fee3": {"ThirdPartyClearingCommission"}, "fee4": {"ThirdPartyRegulatoryCommission"},
		"fee5": {"OtherCommission"},
	},
	row: ibkrRow,
}

func ibkrRow(r *reader, line int, rec []string) {
	rawSide := strings.ToUpper(r.cell(rec, "side"))
	cancel := strings.Contains(rawSide, "(CA.)") || strings.EqualFold(r.cell(rec, "type"), "TradeCancel")
	sideText := strings.TrimSpace(strings.Replace(rawSide, "(CA.)", "", 1))
	qty, okQty := r.number(line, rec, "quantity")
	f := Fill{Line: line, Account: r.cell(rec, "account"), Contract: contract(r.cell(rec, "contract")),
		SourceID: r.cell(rec, "id"), Quantity: math.Abs(qty)}
	side, okSide := side(sideText)
	switch {
	case sideText == "" && okQty && qty != 0:
		// The quantity's sign says it; a cancel's sign is the reverse of
		// the side it cancels (a buy is cancelled by a negative quantity).
		side, okSide = "buy", true
		if (qty < 0) != cancel {
			side = "sell"
		}
	case !okSide:
		r.fail(line, "side", r.file.Columns["side"]+" must be BUY or SELL")
	case okQty && qty < 0 && side == "buy" && !cancel:
		r.fail(line, "side", r.file.Columns["side"]+" says BUY but the quantity is negative (a sell)")
	}
	f.Side = side
	if cancel {
		r.file.Skipped++
		r.cancel(f, r.cell(rec, "price"))
		return
	}
	if okQty && qty == 0 {
		r.fail(line, "quantity", r.file.Columns["quantity"]+" must not be 0")
	}
	f.Price, _ = r.price(line, rec, "price", f.Contract)
	if r.cell(rec, "total") != "" {
		f.Commission = r.costs(line, rec, "total")
	} else {
		f.Commission = r.costs(line, rec, "commission", "fees", "fee2", "fee3", "fee4", "fee5")
	}
	r.add(f, r.stamp(line, rec, "time"))
}

// cancel skips the latest earlier fill that c cancels: the same execution
// id where c has one, else the same contract, side, quantity and price.
func (r *reader) cancel(c Fill, price string) {
	p, _ := number(price, r.opt.Decimal)
	if treasury(c.Contract) {
		p, _ = treasuryPrice(price, r.opt.Decimal)
	}
	for i := len(r.fills) - 1; i >= 0; i-- {
		f := &r.fills[i]
		if r.skipped[i] {
			continue
		}
		same := f.SourceID != "" && f.SourceID == c.SourceID
		if c.SourceID == "" {
			same = f.Contract == c.Contract && f.Side == c.Side && f.Quantity == c.Quantity && f.Price == math.Abs(p)
		}
		if same {
			if r.skipped == nil {
				r.skipped = map[int]bool{}
			}
			r.skipped[i] = true
			r.file.Skipped++
			return
		}
	}
}
