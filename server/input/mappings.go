package input

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"tradejournal/db"
	"tradejournal/db/brokers"
)

// Limits of a column mapping.
const (
	MaxMappingName   = 100
	maxColumnName    = 200 // a header name
	maxMappingValues = 20  // commission columns; values of each side list
)

// ImportMapping checks a column mapping (DESIGN §14) and normalises it in
// place: names trimmed; symbol, side, quantity, price and a time
// (timestamp, or date and time) required whenever columns are given (on
// create they must be); side_values, when given, with a buy and a sell
// value and no value in two lists.
func ImportMapping(in *db.ImportMappingInput, create bool) error {
	f := Errors{}
	in.Name.Value = strings.TrimSpace(in.Name.Value)
	f.Required("name", in.Name, create)
	f.Text("name", in.Name, MaxMappingName)
	switch {
	case in.Columns.Null:
		f.Add("columns", "columns cannot be null")
	case in.Columns.Set:
		mappingColumns(f, &in.Columns.Value)
	case create:
		f.Add("columns", "columns is required")
	}
	if v := in.SideValues.Ptr(); v != nil {
		sideValues(f, v)
	}
	NotNull(f, "date_order", in.DateOrder)
	f.OneOf("date_order", in.DateOrder, db.MappingDateOrders)
	NotNull(f, "decimal", in.Decimal)
	f.OneOf("decimal", in.Decimal, db.MappingDecimals)
	if tz := in.Timezone.Ptr(); tz != nil {
		*tz = strings.TrimSpace(*tz)
		if db.CheckTimezone(*tz) != nil {
			f.Add("timezone", "timezone must be an IANA zone name such as America/New_York, or null for yours")
		}
	}
	return f.Err()
}

// mappingColumns checks each column name and the roles a file must have.
func mappingColumns(f Errors, c *brokers.MappingColumns) {
	named := func(field string, v *string, required bool) bool {
		path := "columns." + field
		switch {
		case v == nil:
			if required {
				f.Add(path, path+" is required: the file's header name of that column")
			}
			return false
		case strings.TrimSpace(*v) == "":
			f.Add(path, path+" must name a column of the file's header (or be null)")
		case utf8.RuneCountInString(*v) > maxColumnName:
			f.Add(path, path+" must be at most "+strconv.Itoa(maxColumnName)+" characters")
		}
		*v = strings.TrimSpace(*v)
		return true
	}
	named("symbol", c.Symbol, true)
	named("side", c.Side, true)
	named("quantity", c.Quantity, true)
	named("price", c.Price, true)
	named("account", c.Account, false)
	named("exec_id", c.ExecID, false)
	stamp := named("timestamp", c.Timestamp, false)
	date := named("date", c.Date, false)
	clock := named("time", c.Time, false)
	switch {
	case stamp && (date || clock):
		f.Add("columns.timestamp", "columns.timestamp is one column of date and time: give it, or columns.date and columns.time, not both")
	case !stamp && !date && !clock:
		f.Add("columns.timestamp", "columns.timestamp is required (or columns.date and columns.time)")
	case date && !clock:
		f.Add("columns.time", "columns.time is required with columns.date")
	case clock && !date:
		f.Add("columns.date", "columns.date is required with columns.time")
	}
	if len(c.Commission) > maxMappingValues {
		f.Add("columns.commission", "columns.commission must list at most "+strconv.Itoa(maxMappingValues)+" columns")
	}
	for i := range c.Commission {
		named("commission["+strconv.Itoa(i)+"]", &c.Commission[i], false)
	}
}

// sideValues checks the side lists: buy and sell needed, skip optional,
// values non-blank and each in one list only.
func sideValues(f Errors, v *brokers.SideValues) {
	seen := map[string]string{}
	list := func(name string, values []string, required bool) {
		path := "side_values." + name
		switch {
		case len(values) == 0 && required:
			f.Add(path, path+" must list at least one value")
		case len(values) > maxMappingValues:
			f.Add(path, path+" must list at most "+strconv.Itoa(maxMappingValues)+" values")
		}
		for i, s := range values {
			at := path + "[" + strconv.Itoa(i) + "]"
			key := strings.ToLower(strings.TrimSpace(s))
			switch {
			case key == "":
				f.Add(at, at+" must not be blank")
			case utf8.RuneCountInString(s) > maxColumnName:
				f.Add(at, at+" must be at most "+strconv.Itoa(maxColumnName)+" characters")
			case seen[key] != "" && seen[key] != name:
				f.Add(at, at+" "+strings.TrimSpace(s)+" is already a "+seen[key]+" value")
			}
			if seen[key] == "" {
				seen[key] = name
			}
		}
	}
	list("buy", v.Buy, true)
	list("sell", v.Sell, true)
	list("skip", v.Skip, false)
}
