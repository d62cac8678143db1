package trading

// Instrument is what prices a symbol: its root, asset class and point value.
type Instrument struct {
	Root       string
	AssetClass string
	PointValue float64
}

// Resolve finds a symbol's root, asset class and point value: the client's
// asset class if it set one (classSet), else the user's override of the bare
// symbol, else what the symbol's form says. overrides are the user's own
// point values by root. A futures root without a point value is refused,
// never priced at a guess.
func Resolve(symbol, class string, classSet bool, overrides map[string]Instrument) (Instrument, error) {
	s := Normalise(symbol)
	var root, assetClass string
	switch {
	case classSet:
		assetClass, root = class, s
		switch class {
		case AssetFutures:
			root = FuturesRoot(s)
		case AssetOptions:
			if m := occ.FindStringSubmatch(s); m != nil {
				root = m[1]
			}
		}
	case overrides[s].Root != "":
		assetClass, root = overrides[s].AssetClass, s
	default:
		sym := ParseSymbol(s, func(r string) bool {
			if o, ok := overrides[r]; ok {
				return o.AssetClass == AssetFutures
			}
			_, ok := BuiltinPointValues[r]
			return ok
		})
		assetClass, root = sym.AssetClass, sym.Root
	}
	if o, ok := overrides[root]; ok && o.AssetClass == assetClass {
		return Instrument{root, assetClass, o.PointValue}, nil
	}
	switch assetClass {
	case AssetFutures:
		v, ok := BuiltinPointValues[root]
		if !ok {
			return Instrument{}, &InvalidError{Field: "symbol", Message: "no point value is known for futures root " + root +
				": set one with PUT /api/v1/instruments/" + root}
		}
		return Instrument{root, assetClass, v}, nil
	case AssetOptions:
		return Instrument{root, assetClass, OptionPointValue}, nil
	}
	return Instrument{root, assetClass, 1}, nil
}
