package trading

import "testing"

func TestParseSymbol(t *testing.T) {
	// A user override for FDXM shows that known, not the built-in table,
	// decides bare roots.
	known := func(root string) bool {
		_, ok := BuiltinPointValues[root]
		return ok || root == "FDXM"
	}
	tests := []struct {
		in    string
		root  string
		class string
	}{
		{"NQ", "NQ", AssetFutures},
		{"NQZ5", "NQ", AssetFutures},
		{"NQZ25", "NQ", AssetFutures},
		{"NQZ2025", "NQ", AssetFutures},
		{"/NQ", "NQ", AssetFutures},
		{"/NQZ5", "NQ", AssetFutures},
		{"/ZZZ", "ZZZ", AssetFutures},
		{"NQ 12-25", "NQ", AssetFutures},
		{"MNQH6", "MNQ", AssetFutures},
		{"6EZ5", "6E", AssetFutures},
		{"6E 03-26", "6E", AssetFutures},
		{"M2KM26", "M2K", AssetFutures},
		{"CLZ5", "CL", AssetFutures},
		{"CL", "CL", AssetFutures},
		{"ZM", "ZM", AssetFutures},
		{"BTC", "BTC", AssetFutures},
		{"ETH", "ETH", AssetFutures},
		{"FDXM", "FDXM", AssetFutures},
		{"XYZZ5", "XYZ", AssetFutures},
		{"FDAXZ5", "FDAX", AssetFutures},
		{"nqz5", "NQ", AssetFutures},
		{"  es  ", "ES", AssetFutures},
		{"FDAX", "FDAX", AssetStocks},
		{"AAPL", "AAPL", AssetStocks},
		{"aapl ", "AAPL", AssetStocks},
		{"F", "F", AssetStocks},
		{"NQ 13-25", "NQ 13-25", AssetStocks},
		{"NQZ255", "NQZ255", AssetStocks},
		{"FDAXXZ5", "FDAXXZ5", AssetStocks},
		{"AAPL  240119C00190000", "AAPL", AssetOptions},
		{"AAPL240119C00190000", "AAPL", AssetOptions},
		{"spy   250620p00500000", "SPY", AssetOptions},
		{"BTC-USD", "BTC-USD", AssetCrypto},
		{"BTCUSDT", "BTCUSDT", AssetCrypto},
		{"BTCUSD", "BTCUSD", AssetCrypto},
		{"ETH/USD", "ETH/USD", AssetCrypto},
		{"ethbtc", "ETHBTC", AssetCrypto},
		{"DOGE-USDC", "DOGE-USDC", AssetCrypto},
		{"BTCBTC", "BTCBTC", AssetStocks},
		{"EURUSD", "EURUSD", AssetForex},
		{"EUR/USD", "EUR/USD", AssetForex},
		{" usdjpy", "USDJPY", AssetForex},
		{"EUREUR", "EUREUR", AssetStocks},
	}
	for _, tt := range tests {
		got := ParseSymbol(tt.in, known)
		want := Symbol{Root: tt.root, AssetClass: tt.class}
		if got != want {
			t.Errorf("ParseSymbol(%q): got %+v, want %+v", tt.in, got, want)
		}
	}
}

func TestParseSymbolNilKnown(t *testing.T) {
	if got, want := ParseSymbol("CL", nil), (Symbol{Root: "CL", AssetClass: AssetFutures}); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestFuturesRoot(t *testing.T) {
	tests := []struct{ in, want string }{
		{"NQ", "NQ"},
		{"NQZ5", "NQ"},
		{"NQZ25", "NQ"},
		{"NQZ2025", "NQ"},
		{"/NQ", "NQ"},
		{"/NQZ5", "NQ"},
		{"NQ 12-25", "NQ"},
		{"/NQ 12-25", "NQ"},
		{"MNQH6", "MNQ"},
		{"6EZ5", "6E"},
		{"CLF26", "CL"},
		{"FDAXZ5", "FDAX"},
		{" mesm5 ", "MES"},
		{"aapl", "AAPL"},
		{"/", ""},
	}
	for _, tt := range tests {
		if got := FuturesRoot(tt.in); got != tt.want {
			t.Errorf("FuturesRoot(%q): got %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestBuiltinPointValues(t *testing.T) {
	// Spot checks against exchange contract specs; a typo here silently
	// scales every trade in that contract.
	tests := map[string]float64{
		"ES": 50, "MES": 5, "NQ": 20, "MNQ": 2, "YM": 5, "MYM": 0.5, "RTY": 50, "M2K": 5,
		"EMD": 100, "NKD": 5, "CL": 1000, "MCL": 100, "QM": 500, "NG": 10000, "QG": 2500,
		"RB": 42000, "HO": 42000, "GC": 100, "MGC": 10, "SI": 5000, "SIL": 1000, "HG": 25000,
		"MHG": 2500, "PL": 50, "ZB": 1000, "UB": 1000, "ZN": 1000, "TN": 1000, "ZF": 1000,
		"ZT": 2000, "6E": 125000, "M6E": 12500, "6J": 12500000, "6B": 62500, "6A": 100000,
		"6C": 100000, "6S": 125000, "ZC": 50, "ZS": 50, "ZW": 50, "ZL": 600, "ZM": 100,
		"LE": 400, "HE": 400, "VX": 1000, "BTC": 5, "MBT": 0.1, "ETH": 50, "MET": 0.1,
	}
	for root, want := range tests {
		if got, ok := BuiltinPointValues[root]; !ok || got != want {
			t.Errorf("BuiltinPointValues[%q]: got %v (present %v), want %v", root, got, ok, want)
		}
	}
}
