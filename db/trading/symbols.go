package trading

import (
	"regexp"
	"strings"
)

// Asset classes a trade's instrument can belong to.
const (
	AssetFutures = "futures"
	AssetOptions = "options"
	AssetForex   = "forex"
	AssetCrypto  = "crypto"
	AssetStocks  = "stocks"
)

// OptionPointValue is the multiplier of an equity option contract (100).
const OptionPointValue = 100.0

// BuiltinPointValues maps a futures root to its dollars per 1.00 of quoted
// price. Read-only.
//
// Only contracts whose specification is certain are listed: a missing root
// makes the caller ask for an override, a wrong one silently corrupts P&L.
var BuiltinPointValues = map[string]float64{
	// Equity indexes.
	"ES":  50,
	"MES": 5,
	"NQ":  20,
	"MNQ": 2,
	"YM":  5,
	"MYM": 0.5,
	"RTY": 50,
	"M2K": 5,
	"EMD": 100,
	"NKD": 5,
	"VX":  1000,

	// Energy.
	"CL":  1000,
	"MCL": 100,
	"QM":  500,
	"BZ":  1000,
	"NG":  10000,
	"QG":  2500,
	"RB":  42000,
	"HO":  42000,

	// Metals.
	"GC":  100,
	"MGC": 10,
	"SI":  5000,
	"SIL": 1000,
	"HG":  25000,
	"MHG": 2500,
	"PL":  50,
	"PA":  100,

	// Interest rates.
	"ZB": 1000,
	"UB": 1000,
	"ZN": 1000,
	"TN": 1000,
	"ZF": 1000,
	"ZT": 2000,

	// Currencies.
	"6E":  125000,
	"M6E": 12500,
	"6J":  12500000,
	"6B":  62500,
	"M6B": 6250,
	"6A":  100000,
	"M6A": 10000,
	"6C":  100000,
	"6S":  125000,
	"6N":  100000,
	"6M":  500000,

	// Grains, quoted in cents except soybean meal ($/short ton).
	"ZC": 50,
	"ZS": 50,
	"ZW": 50,
	"KE": 50,
	"ZL": 600,
	"ZM": 100,

	// Livestock, quoted in cents per pound.
	"LE": 400,
	"HE": 400,
	"GF": 500,

	// Crypto.
	"BTC": 5,
	"MBT": 0.1,
	"ETH": 50,
	"MET": 0.1,
}

// Symbol is what a trade's symbol says about its instrument.
type Symbol struct {
	Root       string // futures root ("NQ"), option underlying ("AAPL"), otherwise the normalised symbol (upper-cased, trimmed)
	AssetClass string
}

var (
	// Roots are capped at 4 characters so Eurex-style roots (FDAX) are
	// recognised while the month letter and year stay unambiguous: the month
	// is always the last letter before the trailing digits.
	monthCoded = regexp.MustCompile(`^([A-Z0-9]{1,4})[FGHJKMNQUVXZ]([0-9]{1,2}|[0-9]{4})$`)
	monthYear  = regexp.MustCompile(`^([A-Z0-9]{1,4}) +(0[1-9]|1[0-2])-[0-9]{2}$`)
	occ        = regexp.MustCompile(`^([A-Z]{1,6}) *[0-9]{6}[CP][0-9]{8}$`)
)

var cryptoBases = set("BTC", "ETH", "SOL", "XRP", "DOGE", "ADA", "LTC", "BCH", "DOT", "AVAX", "LINK", "MATIC",
	"BNB", "TRX", "XLM", "ATOM", "UNI", "SHIB")

var cryptoQuotes = set("USD", "USDT", "USDC", "EUR", "BTC", "ETH")

var fiat = set("USD", "EUR", "JPY", "GBP", "AUD", "CAD", "CHF", "NZD", "SEK", "NOK", "DKK", "SGD", "HKD",
	"MXN", "ZAR", "TRY", "CNH", "CNY", "PLN", "HUF", "CZK", "ILS", "INR", "KRW", "BRL", "THB", "TWD")

func set(codes ...string) map[string]bool {
	m := make(map[string]bool, len(codes))
	for _, c := range codes {
		m[c] = true
	}
	return m
}

// ParseSymbol classifies a symbol. known reports whether a futures root has a
// point value (built in or a user's override); nil means only the built-in
// table.
//
// A month-coded contract is futures even when its root is unknown, so the
// caller refuses it for lacking a point value instead of pricing it as a stock.
func ParseSymbol(symbol string, known func(root string) bool) Symbol {
	s := Normalise(symbol)
	if known == nil {
		known = func(root string) bool { _, ok := BuiltinPointValues[root]; return ok }
	}
	if strings.HasPrefix(s, "/") {
		return Symbol{Root: FuturesRoot(s), AssetClass: AssetFutures}
	}
	if root, ok := contractRoot(s); ok {
		return Symbol{Root: root, AssetClass: AssetFutures}
	}
	if known(s) {
		return Symbol{Root: s, AssetClass: AssetFutures}
	}
	if m := occ.FindStringSubmatch(s); m != nil {
		return Symbol{Root: m[1], AssetClass: AssetOptions}
	}
	if isPair(s, cryptoBases, cryptoQuotes) {
		return Symbol{Root: s, AssetClass: AssetCrypto}
	}
	if isPair(s, fiat, fiat) {
		return Symbol{Root: s, AssetClass: AssetForex}
	}
	return Symbol{Root: s, AssetClass: AssetStocks}
}

// FuturesRoot returns the root of a futures symbol in any accepted form, or
// the normalised symbol when no form matches.
func FuturesRoot(symbol string) string {
	s := Normalise(strings.TrimLeft(Normalise(symbol), "/"))
	if root, ok := contractRoot(s); ok {
		return root
	}
	return s
}

// Normalise is how symbols are stored and matched: trimmed, upper case.
func Normalise(symbol string) string {
	return strings.ToUpper(strings.TrimSpace(symbol))
}

// contractRoot returns the root of a symbol naming a contract month, in either
// the month-letter form (NQZ5) or the numeric form (NQ 12-25).
func contractRoot(s string) (string, bool) {
	if m := monthCoded.FindStringSubmatch(s); m != nil {
		return m[1], true
	}
	if m := monthYear.FindStringSubmatch(s); m != nil {
		return m[1], true
	}
	return "", false
}

// isPair reports whether s is a base code followed by a different quote code,
// optionally separated by "/" or "-". Codes vary in length (BTC, DOGE, USDT),
// so every base prefix is tried rather than splitting at a fixed position.
func isPair(s string, bases, quotes map[string]bool) bool {
	for base := range bases {
		rest, ok := strings.CutPrefix(s, base)
		if !ok {
			continue
		}
		if rest != "" && (rest[0] == '/' || rest[0] == '-') {
			rest = rest[1:]
		}
		if quotes[rest] && rest != base {
			return true
		}
	}
	return false
}
