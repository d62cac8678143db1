package brokers

import (
	"io"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"
)

// spec is one platform's export: the headers that place it, the aliases of
// the columns it reads by role, and how one row becomes fills.
type spec struct {
	name     string
	required []string            // roles whose column the file must have
	columns  map[string][]string // role → header aliases, as the platform writes them
	row      func(r *reader, line int, rec []string)
	costs    []string // the roles fillRow sums as a fill's cost; nil: commission and fees
	mapping  *Mapping // the user's mapping this spec reads by, nil for a platform's format
}

// fits reports whether the header has a column for every required role.
func (s spec) fits(t *table) bool {
	for _, role := range s.required {
		if i, _ := t.col(s.columns[role]...); i < 0 {
			return false
		}
	}
	return true
}

// missing names the required columns the header lacks.
func (s spec) missing(t *table) []string {
	var out []string
	for _, role := range s.required {
		if i, _ := t.col(s.columns[role]...); i < 0 {
			out = append(out, s.columns[role][0])
		}
	}
	return out
}

// reader reads one file's rows by a spec.
type reader struct {
	t    *table
	opt  Options
	file *File
	bad  rowErrs
	idx  map[string]int
	// fills are the fill rows' fills, in file order, each with its time
	// where its date reads without the file's date order; skipped are
	// those a later row cancelled (IBKR).
	fills   []Fill
	skipped map[int]bool
	// digits are the times that wait for the date order (digits only:
	// 10/15/2025), the fills' in file order, then the round trips' (added
	// by finish); digitsAt says whose each is (the i-th fill's, or the
	// round trips' times after the fills), and digitsFrom, for a fill's,
	// its column and zone (an index in sources). They are the slices the
	// order is decided on: a file of a million US dates is not copied.
	digits     []parsedStamp
	digitsAt   []int
	digitsFrom []int32
	sources    []stampSource
	// stampBad are the fills' times that do not read, and late those whose
	// instant fails (at most MaxRowErrors each: no more are reported), each
	// in file order.
	stampBad rowErrs
	late     []lateStamp
	trips    []trip
	// costRoles are the roles fillRow sums as a fill's cost.
	costRoles []string
	// mapping is the user's mapping the file is read by, nil for a format.
	mapping *Mapping
	// zones are the zones the headers name, by column, each made once: a
	// time's zone is compared by identity (source).
	zones map[int]*time.Location
	// contracts are the contract cells read so far, as contract writes
	// them: a file names a few contracts in up to a million rows.
	contracts map[string]string
	names     map[string]string // the account cells read so far
}

// stampSource is where a fill's time was read: its column and the zone
// its header names (nil for none).
type stampSource struct {
	column string
	zone   *time.Location
}

// lateStamp is the i-th time whose date read but whose instant does not
// (a local time a DST change skips), for the row error.
type lateStamp struct {
	i      int
	line   int
	column string
	err    error
}

// trip is a round-trip row: two fills, whose order its times decide.
type trip struct {
	line              int
	account, contract string
	side              string // "long", "short", or "" to decide by the times
	quantity          float64
	buyPrice          float64
	sellPrice         float64
	bought, sold      stamp
	buyID, sellID     string // fill ids where the file has them, to order equal times
	id                string // the row's id, "" when none
	cost              *float64
}

// read runs the spec over every row, then reads the times.
func (s spec) read(t *table, opt Options) (*File, error) {
	r := &reader{t: t, opt: opt, idx: map[string]int{}, costRoles: s.costs, mapping: s.mapping, zones: map[int]*time.Location{},
		file: &File{Format: s.name, Fills: []Fill{}, Warnings: []string{}, Columns: map[string]string{}}}
	if r.costRoles == nil {
		r.costRoles = []string{"commission", "fees"}
	}
	if s.mapping != nil {
		r.file.MappingID, r.file.Timezone = s.mapping.ID, s.mapping.Timezone
	}
	for role, aliases := range s.columns {
		i, name := t.col(aliases...)
		r.idx[role] = i
		r.file.Columns[role] = name
		if i >= 0 && t.zones[i] != "" {
			offset, ok := headerZones[t.zones[i]]
			if !ok {
				return nil, &FieldError{"timezone", "the header " + name + " names a zone this journal does not know (" +
					t.zones[i] + "); known: UTC, GMT, EST, EDT, CST, CDT, MST, MDT, PST, PDT, BST, CET, CEST, EET, EEST, JST, AEST, AEDT"}
			}
			r.zones[i] = time.FixedZone(t.zones[i], offset)
		}
	}
	for {
		rec, line, err := t.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if summaryRow(rec) {
			continue
		}
		r.file.Rows++
		s.row(r, line, rec)
	}
	return r.finish()
}

// summaryRow is a line that is no data row: a section title (one cell),
// or a total.
func summaryRow(rec []string) bool {
	filled := 0
	for _, c := range rec {
		if c != "" {
			filled++
		}
	}
	first := strings.ToLower(rec[0])
	return filled <= 1 || first == "total" || first == "totals" || first == "subtotal" || first == "summary"
}

// cell is the row's value for role, "" when the file has no such column.
func (r *reader) cell(rec []string, role string) string {
	if i, ok := r.idx[role]; ok && i >= 0 && i < len(rec) {
		return rec[i]
	}
	return ""
}

// has reports whether the file has a column for role.
func (r *reader) has(role string) bool {
	i, ok := r.idx[role]
	return ok && i >= 0
}

// fail notes a bad cell of role.
func (r *reader) fail(line int, role, msg string) {
	r.bad.add(line, r.file.Columns[role], msg)
}

// number reads role's cell as a number; a bad one is a row error.
func (r *reader) number(line int, rec []string, role string) (float64, bool) {
	v, err := number(r.cell(rec, role), r.opt.Decimal)
	if err != nil {
		r.fail(line, role, r.file.Columns[role]+" "+err.Error())
		return 0, false
	}
	return v, true
}

// positive reads a price or quantity, which must be above 0.
func (r *reader) positive(line int, rec []string, role string) (float64, bool) {
	v, ok := r.number(line, rec, role)
	if ok && !(v > 0) {
		r.fail(line, role, r.file.Columns[role]+" must be a positive number")
		return 0, false
	}
	return v, ok
}

// price reads a price of contract, which must be above 0: in 32nds where
// the contract is a Treasury future.
func (r *reader) price(line int, rec []string, role, contract string) (float64, bool) {
	if !treasury(contract) {
		return r.positive(line, rec, role)
	}
	v, err := treasuryPrice(r.cell(rec, role), r.opt.Decimal)
	switch {
	case err != nil:
		r.fail(line, role, r.file.Columns[role]+" "+err.Error())
		return 0, false
	case !(v > 0):
		r.fail(line, role, r.file.Columns[role]+" must be a positive number")
		return 0, false
	}
	return v, true
}

// side reads role's cell as buy or sell: by the mapping's side values
// where it has them.
func (r *reader) side(line int, rec []string, role string) (string, bool) {
	if r.mapping != nil && r.mapping.SideValues != nil {
		s, ok := mappingSide(r.mapping.SideValues, r.cell(rec, role))
		if !ok {
			r.fail(line, role, r.file.Columns[role]+" must be one of the mapping's side values ("+sideValuesText(r.mapping.SideValues)+")")
		}
		return s, ok
	}
	s, ok := side(r.cell(rec, role))
	if !ok {
		r.fail(line, role, r.file.Columns[role]+" must be Buy or Sell (or B/S, Bid/Ask)")
	}
	return s, ok
}

// costs is the sum of the row's cost cells, as a cost whatever its sign;
// nil when the row has none (no such column, or every cell blank).
func (r *reader) costs(line int, rec []string, roles ...string) *float64 {
	var total float64
	any := false
	for _, role := range roles {
		c := r.cell(rec, role)
		if c == "" {
			continue
		}
		v, ok := r.number(line, rec, role)
		if !ok {
			continue
		}
		total += math.Abs(v)
		any = true
	}
	if !any {
		return nil
	}
	return &total
}

// stamp notes role's cell for reading once the date order is known. A
// mapping's time is its timestamp column (whole digits: Unix time), or its
// date and time columns together.
func (r *reader) stamp(line int, rec []string, role string) stamp {
	if r.mapping != nil {
		return r.mappedStamp(line, rec)
	}
	st := stamp{text: r.cell(rec, role), line: line, column: r.file.Columns[role]}
	if i, ok := r.idx[role]; ok {
		st.zone = r.zones[i]
	}
	return st
}

// fillRow reads a row that is one fill, by role: the shared shape of the
// execution and order formats. A negative quantity is a sell, and beside a
// side that says buy an error on the side column. Its commission is the
// sum of its cost columns, or a per-contract rate x its quantity where the
// format has one.
func fillRow(r *reader, line int, rec []string) {
	f := Fill{Line: line, Account: r.name(r.cell(rec, "account")), Contract: r.contract(r.cell(rec, "contract")),
		SourceID: strings.Clone(r.cell(rec, "id"))}
	if f.Contract == "" {
		r.fail(line, "contract", r.file.Columns["contract"]+" is required")
	}
	var okSide bool
	f.Side, okSide = r.side(line, rec, "side")
	qty, okQty := r.number(line, rec, "quantity")
	switch {
	case okQty && qty == 0:
		r.fail(line, "quantity", r.file.Columns["quantity"]+" must not be 0")
	case okQty && qty < 0 && okSide && f.Side == "buy":
		r.fail(line, "side", r.file.Columns["side"]+" says buy but the quantity is negative (a sell)")
	}
	f.Quantity = math.Abs(qty)
	f.Price, _ = r.price(line, rec, "price", f.Contract)
	f.Commission = r.costs(line, rec, r.costRoles...)
	if rate := r.costs(line, rec, "rate"); rate != nil {
		c := *rate * f.Quantity
		f.Commission = &c
	}
	r.add(f, r.stamp(line, rec, "time"))
}

// orderRow reads a row that is an order: a fill when it filled, else
// skipped (a status other than filled, or nothing filled).
func orderRow(r *reader, line int, rec []string) {
	if !filledStatus(r.cell(rec, "status")) {
		r.file.Skipped++
		return
	}
	if qty, err := number(r.cell(rec, "quantity"), r.opt.Decimal); err == nil && qty == 0 {
		r.file.Skipped++
		return
	}
	fillRow(r, line, rec)
}

// contract is contract(cell), worked out once per cell text; like name,
// it holds none of the row's text, which is let go once read.
func (r *reader) contract(cell string) string { return intern(&r.contracts, cell, contract) }

// name is a cell that repeats down the file (an account number), one copy
// of it for every row.
func (r *reader) name(cell string) string {
	return intern(&r.names, cell, func(s string) string { return s })
}

// intern is conv(cell), worked out once per cell text and kept in *seen
// as copies of its own, so that none holds the row's text.
func intern(seen *map[string]string, cell string, conv func(string) string) string {
	c, ok := (*seen)[cell]
	if !ok {
		if *seen == nil {
			*seen = map[string]string{}
		}
		c = strings.Clone(conv(cell))
		(*seen)[strings.Clone(cell)] = c
	}
	return c
}

// add records a fill of the row, and reads its time: at once where the
// date is year-first (2025-10-15, 20251015) or Unix time, whatever the
// date order; a digits-only date (10/15/2025) waits for the order the
// file's dates decide. A file holds up to a million fills, so nothing of
// the row's text is kept.
func (r *reader) add(f Fill, when stamp) {
	if r.fills == nil {
		r.fills = make([]Fill, 0, max(r.opt.Lines, 16))
	}
	i := len(r.fills)
	switch {
	case when.failed:
	case when.epoch:
		f.At, _ = epochTime(when.text)
	default:
		p, err := parseStamp(when.text)
		if err != nil {
			r.stampBad.add(when.line, when.column, when.column+" "+err.Error())
			break
		}
		if !p.yearFirst {
			if r.digits == nil { // a file writes its dates one way: the rest will wait too
				n := max(r.opt.Lines-i, 16)
				r.digits, r.digitsAt, r.digitsFrom = make([]parsedStamp, 0, n), make([]int, 0, n), make([]int32, 0, n)
			}
			r.digits, r.digitsAt = append(r.digits, p), append(r.digitsAt, i)
			r.digitsFrom = append(r.digitsFrom, r.source(when.column, when.zone))
			break
		}
		if f.At, err = p.instant("", when.zone, r.opt.Location); err != nil && len(r.late) < MaxRowErrors {
			r.late = append(r.late, lateStamp{i: i, line: when.line, column: when.column, err: err})
		}
	}
	r.fills = append(r.fills, f)
}

// source is the index in sources of a time's column and zone: a file
// reads its times from a column or two.
func (r *reader) source(column string, zone *time.Location) int32 {
	src := stampSource{column, zone}
	for k, s := range r.sources {
		if s == src {
			return int32(k)
		}
	}
	r.sources = append(r.sources, src)
	return int32(len(r.sources) - 1)
}

// finish reads the times still waiting, turns round trips into their two
// fills, and returns the file, or every bad cell.
//
// Bad cells are noted in the order of reading every time first (the fill
// rows', then the round trips') and then each readable one's instant, as
// ever: the fill rows' were read as they came, their errors kept aside.
func (r *reader) finish() (*File, error) {
	for _, e := range r.stampBad.Rows {
		r.bad.add(e.Line, e.Column, e.Message)
	}
	// The times in order: the fills' (0 to nf-1), then each round trip's
	// buy and sell.
	nf := len(r.fills)
	tripAt := make([]time.Time, 2*len(r.trips))
	for j := range tripAt {
		st := r.tripStamp(j)
		if st.failed {
			continue
		}
		if st.epoch {
			tripAt[j], _ = epochTime(st.text)
			continue
		}
		p, err := parseStamp(st.text)
		if err != nil {
			r.bad.add(st.line, st.column, st.column+" "+err.Error())
			continue
		}
		if !p.yearFirst {
			r.digits, r.digitsAt = append(r.digits, p), append(r.digitsAt, nf+j)
			continue
		}
		if tripAt[j], err = p.instant("", st.zone, r.opt.Location); err != nil {
			r.late = append(r.late, lateStamp{i: nf + j, line: st.line, column: st.column, err: err})
		}
	}
	digits, digitsAt := r.digits, r.digitsAt
	order, warning, conflicts := dateOrder(digits, r.opt)
	if warning != "" {
		r.file.Warnings = append(r.file.Warnings, warning)
	}
	conflicted := make(map[int]bool, len(conflicts))
	for _, k := range conflicts {
		conflicted[k] = true
		line, column, _ := r.stampOf(digitsAt[k], k)
		r.bad.add(line, column, "the file writes some dates day-first and others month-first: choose its date order (date_order)")
	}
	// Each digits-only date's instant, and the late errors, in the order
	// of the times.
	late := r.late
	for k, i := range digitsAt {
		for len(late) > 0 && late[0].i < i {
			r.bad.add(late[0].line, late[0].column, late[0].column+" "+late[0].err.Error())
			late = late[1:]
		}
		if conflicted[k] {
			continue
		}
		line, column, zone := r.stampOf(i, k)
		at, err := digits[k].instant(order, zone, r.opt.Location)
		switch {
		case err != nil:
			r.bad.add(line, column, column+" "+err.Error())
		case i < nf:
			r.fills[i].At = at
		default:
			tripAt[i-nf] = at
		}
	}
	for _, l := range late {
		r.bad.add(l.line, l.column, l.column+" "+l.err.Error())
	}
	if len(r.bad.Rows) > 0 {
		slices.SortStableFunc(r.bad.Rows, func(a, b RowError) int { return a.Line - b.Line })
		return nil, &Error{Rows: r.bad.Rows}
	}
	fills := r.fills
	if len(r.skipped) > 0 {
		kept := fills[:0]
		for i, f := range fills {
			if !r.skipped[i] {
				kept = append(kept, f)
			}
		}
		clear(fills[len(kept):])
		fills = kept
	}
	if len(r.trips) > 0 {
		all := make([]Fill, 0, len(fills)+2*len(r.trips))
		all = append(all, fills...)
		for k, tr := range r.trips {
			all = append(all, tr.fills(tripAt[2*k], tripAt[2*k+1])...)
		}
		if len(fills) > 0 {
			slices.SortStableFunc(all, func(a, b Fill) int { return a.Line - b.Line })
		}
		fills = all
	}
	if fills != nil {
		r.file.Fills = fills
	}
	r.fills = nil
	return r.file, nil
}

// stampOf is the line, column and header zone of the i-th time, the k-th
// digits-only one.
func (r *reader) stampOf(i, k int) (line int, column string, zone *time.Location) {
	if i < len(r.fills) {
		src := r.sources[r.digitsFrom[k]]
		return r.fills[i].Line, src.column, src.zone
	}
	st := r.tripStamp(i - len(r.fills))
	return st.line, st.column, st.zone
}

// tripStamp is the j-th time of the round trips: each one's buy, then its
// sell.
func (r *reader) tripStamp(j int) stamp {
	if j%2 == 0 {
		return r.trips[j/2].bought
	}
	return r.trips[j/2].sold
}

// fills are a round trip's entry and exit: long when it bought first.
func (tr trip) fills(bought, sold time.Time) []Fill {
	long := tr.side == "long"
	if tr.side == "" {
		switch c := bought.Compare(sold); {
		case c != 0:
			long = c < 0
		default:
			long = tr.buyID == "" || tr.sellID == "" || lessID(tr.buyID, tr.sellID)
		}
	}
	var cost [2]*float64
	if tr.cost != nil {
		entry, exit := *tr.cost/2, *tr.cost/2
		cost = [2]*float64{&entry, &exit}
	}
	buy := Fill{Line: tr.line, Account: tr.account, Contract: tr.contract, Side: "buy", Quantity: tr.quantity,
		Price: tr.buyPrice, At: bought}
	sell := Fill{Line: tr.line, Account: tr.account, Contract: tr.contract, Side: "sell", Quantity: tr.quantity,
		Price: tr.sellPrice, At: sold}
	entry, exit := buy, sell
	if !long {
		entry, exit = sell, buy
	}
	entry.Commission, exit.Commission = cost[0], cost[1]
	if tr.id != "" {
		entry.SourceID, exit.SourceID = tr.id+":entry", tr.id+":exit"
	}
	if exit.At.Before(entry.At) {
		exit.At = entry.At // an entry always comes before its exit
	}
	return []Fill{entry, exit}
}

// lessID orders fill ids as numbers where both are, else as text.
func lessID(a, b string) bool {
	if len(a) != len(b) && strings.Trim(a+b, "0123456789") == "" {
		return len(a) < len(b)
	}
	return a < b
}

var (
	monthCodes = "FGHJKMNQUVXZ"
	months     = []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}
	// NinjaTrader's MNQ 12-25 and MNQ DEC25; a two-digit year after a month code.
	numericMonth = regexp.MustCompile(`^([A-Z0-9]{1,4}) +(\d{2})-(\d{2})$`)
	namedMonth   = regexp.MustCompile(`^([A-Z0-9]{1,4}) +([A-Z]{3})(\d{2})$`)
	longYear     = regexp.MustCompile(`^([A-Z0-9]{1,4})([FGHJKMNQUVXZ])\d(\d)$`)
)

// contract writes a contract as the exchange does: root, month code, the
// year's last digit (MNQZ5).
func contract(s string) string {
	c := strings.ToUpper(strings.Join(strings.Fields(s), " "))
	if m := numericMonth.FindStringSubmatch(c); m != nil {
		if mm := int(m[2][0]-'0')*10 + int(m[2][1]-'0'); mm >= 1 && mm <= 12 {
			return m[1] + string(monthCodes[mm-1]) + m[3][1:]
		}
	}
	if m := namedMonth.FindStringSubmatch(c); m != nil {
		if i := slices.Index(months, m[2]); i >= 0 {
			return m[1] + string(monthCodes[i]) + m[3][1:]
		}
	}
	if m := longYear.FindStringSubmatch(c); m != nil {
		return m[1] + m[2] + m[3]
	}
	return c
}

// rowErrs collects bad cells up to MaxRowErrors.
type rowErrs struct{ Rows []RowError }

func (e *rowErrs) add(line int, column, msg string) {
	if len(e.Rows) < MaxRowErrors {
		e.Rows = append(e.Rows, RowError{Line: line, Column: column, Message: msg})
	}
}
