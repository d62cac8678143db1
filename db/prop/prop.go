// Package prop holds a prop-firm account's rules as computations that need
// no database (DESIGN §10): the trading day, the walk over an account's
// fills that gives its balance, drawdown floor and first breaches, and a
// payout's split. The db package reads the fills, in the trading math's
// FIFO, and hands them here.
package prop

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"tradejournal/db/trading"
)

// Drawdown modes.
const (
	Static      = "static"       // floor = starting balance − max drawdown
	Trailing    = "trailing"     // floor = highest balance after any fill − max drawdown
	EODTrailing = "eod_trailing" // floor = highest balance at a day's end − max drawdown
)

// DrawdownModes are the values of an account's drawdown_mode.
var DrawdownModes = []string{Static, Trailing, EODTrailing}

// Rule names, as a breach reports them.
const (
	RuleDrawdown  = "max_drawdown"
	RuleDailyLoss = "max_daily_loss"
	RuleContracts = "max_contracts"
)

// Session is an account's trading day: it runs from Start (minutes after
// local midnight) in Loc to the same time the next day.
type Session struct {
	Start int
	Loc   *time.Location
}

// noon is the start from which a day is labelled by the next date (the
// futures convention: the session that opens Sunday 18:00 is Monday's).
const noon = 12 * 60

// Day is the label of the trading day holding t: the date it starts on,
// plus one day when it starts at noon or later.
func (s Session) Day(t time.Time) string {
	day, _, _ := s.bounds(t)
	return day
}

// bounds is the trading day holding t: its label, its start and its end.
// It is read from the days' starting instants (Begins), so a start in an
// hour a DST change skips or repeats still gives every instant one day, the
// one Begins says.
func (s Session) bounds(t time.Time) (day string, begins, ends time.Time) {
	lt := t.In(s.Loc)
	d := time.Date(lt.Year(), lt.Month(), lt.Day(), 0, 0, 0, 0, time.UTC)
	if s.Start >= noon {
		d = d.AddDate(0, 0, 1)
	}
	// The local date's day, or the one before or after it.
	for {
		begins, ends = s.begins(d), s.begins(d.AddDate(0, 0, 1))
		switch {
		case t.Before(begins):
			d = d.AddDate(0, 0, -1)
		case !t.Before(ends):
			d = d.AddDate(0, 0, 1)
		default:
			return d.Format(time.DateOnly), begins, ends
		}
	}
}

// Begins is the instant the trading day labelled day (YYYY-MM-DD) starts.
// What has only a date (a payout, a trade typed without times) happens
// then.
func (s Session) Begins(day string) (time.Time, error) {
	d, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return time.Time{}, err
	}
	return s.begins(d), nil
}

// begins is the start of the day labelled by the date d (at UTC midnight).
func (s Session) begins(d time.Time) time.Time {
	if s.Start >= noon {
		d = d.AddDate(0, 0, -1)
	}
	return time.Date(d.Year(), d.Month(), d.Day(), s.Start/60, s.Start%60, 0, 0, s.Loc)
}

// ends is the instant the trading day labelled day ends: the next one's
// start.
func (s Session) ends(day string) time.Time {
	d, _ := time.Parse(time.DateOnly, day) // a label Day made
	return s.begins(d.AddDate(0, 0, 1))
}

// Rules are an account's rules. A nil rule is one the account does not
// set.
type Rules struct {
	StartingBalance float64
	ProfitTarget    *float64
	MaxDailyLoss    *float64
	MaxDrawdown     *float64
	DrawdownMode    string // "" with MaxDrawdown set is Static
	DrawdownLockAt  *float64
	MinTradingDays  *int
	ConsistencyPct  *float64
	MaxContracts    *float64
	Session         Session
}

// Fill is one execution as the walk sees it.
type Fill struct {
	At         time.Time
	TradeID    string
	Realized   float64 // gross P&L the fill realised (trading.Position.Realized)
	Commission float64
	Open       float64 // change of the account's open contracts: +quantity adding, −quantity reducing
}

// Payout is a paid payout: it leaves the account at the start of the
// trading day Day.
type Payout struct {
	Day    string
	Amount float64
}

// Breach is a rule's first breach.
type Breach struct {
	Rule       string  `json:"rule"`
	At         string  `json:"at"` // RFC 3339 UTC
	TradingDay string  `json:"trading_day"`
	Value      float64 `json:"value"`
	Limit      float64 `json:"limit"`
	TradeID    *string `json:"trade_id"` // nil when a payout broke it
}

// Status is where an account stands against its rules.
type Status struct {
	Balance                 float64  `json:"balance"`
	RealizedPnL             float64  `json:"realized_pnl"`
	PayoutsPaid             float64  `json:"payouts_paid"`
	HighWaterMark           float64  `json:"high_water_mark"`
	DrawdownFloor           *float64 `json:"drawdown_floor"`
	DrawdownRemaining       *float64 `json:"drawdown_remaining"`
	DailyLossToday          float64  `json:"daily_loss_today"`
	DailyLossRemaining      *float64 `json:"daily_loss_remaining"`
	ProfitTargetRemaining   *float64 `json:"profit_target_remaining"`
	TradingDays             int      `json:"trading_days"`
	MinTradingDaysRemaining *int     `json:"min_trading_days_remaining"`
	BestDayPct              *float64 `json:"best_day_pct"`
	ConsistencyOK           *bool    `json:"consistency_ok"`
	MaxPosition             float64  `json:"max_position"`
	Breaches                []Breach `json:"breaches"`
	EvaluatedAt             string   `json:"evaluated_at"` // set by the caller, in its timestamp form
}

// event is a fill or a payout on the walk's timeline. It holds no pointer,
// so sorting thousands of them moves plain words.
type event struct {
	at    int64 // Unix nanoseconds
	index int   // into the fills, or -1 - the payout's index
}

// walk is the state of the walk over one account's events.
type walk struct {
	r Rules
	figures
	days     walkDays // the trading days walked, in order
	bestDay  float64  // the highest P&L of a day traded, once the events are walked
	breaches []Breach
}

// figures are where the walk stands after an event: what a day's start
// keeps, so that a walk can go on from it.
type figures struct {
	balance, hwm   float64
	eodHigh        float64 // highest balance at a day's end
	floor          float64
	locked         bool // the floor reached the lock and stays there
	paid, realized float64
	open, maxOpen  float64
	day            string // the trading day of the last event
	tradingDays    int    // days with a fill
}

// walkDay is a trading day the walk reached: where the walk stood before
// its first event (the day before not yet ended), and its P&L.
type walkDay struct {
	day      string
	begins   int64 // Unix nanoseconds: the day's start
	start    figures
	breaches int // the breaches recorded before it
	pnl      float64
	traded   bool // it holds a fill (a payout alone makes no trading day)
}

// walkDays are the days a walk reached, in blocks of dayBlock: every block
// but the last is full, and a full block is never changed, so a walk
// going on from a day shares the blocks before it with the walk it goes on
// from and copies one block at most.
type walkDays struct {
	blocks [][]walkDay
	n      int
}

const dayBlock = 64

func (d *walkDays) at(i int) *walkDay { return &d.blocks[i/dayBlock][i%dayBlock] }

func (d *walkDays) push(day walkDay) {
	if d.n%dayBlock == 0 {
		d.blocks = append(d.blocks, make([]walkDay, 0, dayBlock))
	}
	last := &d.blocks[len(d.blocks)-1]
	*last = append(*last, day)
	d.n++
}

// prefix is the first k days, sharing the full blocks they fill.
func (d *walkDays) prefix(k int) walkDays {
	full := k / dayBlock
	out := walkDays{blocks: make([][]walkDay, full, full+4), n: k}
	copy(out.blocks, d.blocks[:full])
	if rest := k % dayBlock; rest > 0 {
		out.blocks = append(out.blocks, append(make([]walkDay, 0, dayBlock), d.blocks[full][:rest]...))
	}
	return out
}

// hasFloor says whether the account has a drawdown rule.
func (w *walk) hasFloor() bool { return w.r.MaxDrawdown != nil }

// Walk takes the account's fills and paid payouts in time order (a payout
// before the fills of its day; fills at the same instant by trade id, a
// trade's in the order given) and reports the account's status at now.
func Walk(r Rules, fills []Fill, payouts []Payout, now time.Time) (Status, error) {
	st, err := Replay(r, fills, payouts)
	if err != nil {
		return Status{}, err
	}
	return st.Status(now), nil
}

// State is where a walk over an account's fills and payouts ended, before
// the clock is read: Status gives the account's status from it at any
// instant after its last event. Nothing changes it once Replay returns, so
// it can be kept and read by many at once.
type State struct {
	w walk
}

// Replay walks the account's fills and paid payouts as Walk does and
// keeps where the walk ended.
func Replay(r Rules, fills []Fill, payouts []Payout) (*State, error) {
	w := walk{r: r, breaches: []Breach{}}
	w.balance, w.hwm, w.eodHigh = r.StartingBalance, r.StartingBalance, r.StartingBalance
	if w.hasFloor() {
		w.floor = r.StartingBalance - *r.MaxDrawdown
		w.raise(w.floor)
	}
	return w.replay(fills, payouts, math.MinInt64)
}

// Since is where a walk that must take again every event at or after from
// goes on from: the start of the latest day it walked that starts at or
// before from. ok is false when none does: then it walks from the first
// event (Replay).
func (st *State) Since(from time.Time) (cut time.Time, ok bool) {
	at := from.UnixNano()
	days := &st.w.days
	k := sort.Search(days.n, func(i int) bool { return days.at(i).begins > at }) - 1
	if k < 0 {
		return time.Time{}, false
	}
	return time.Unix(0, days.at(k).begins), true
}

// Resume walks on from cut, the start of a day the walk reached (Since):
// it stands where the walk stood before that day's first event, and walks
// the fills and payouts given that are at or after cut, as Replay does.
// Those before cut are left out, so a trade's fills may be given whole.
// The state is left as it was.
func (st *State) Resume(cut time.Time, fills []Fill, payouts []Payout) (*State, error) {
	at := cut.UnixNano()
	days := &st.w.days
	k := sort.Search(days.n, func(i int) bool { return days.at(i).begins >= at })
	if k == days.n || days.at(k).begins != at {
		return nil, fmt.Errorf("prop: %s is not the start of a day walked", cut.UTC().Format(time.RFC3339))
	}
	d := days.at(k)
	w := walk{r: st.w.r, figures: d.start, days: days.prefix(k), breaches: slices.Clone(st.w.breaches[:d.breaches])}
	return w.replay(fills, payouts, at)
}

// replay walks the fills and payouts at or after from (Unix nanoseconds)
// in time order (a payout before the fills of its day; fills at the same
// instant by trade id, a trade's in the order given).
func (w walk) replay(fills []Fill, payouts []Payout, from int64) (*State, error) {
	r := w.r
	events := make([]event, 0, len(fills)+len(payouts))
	starts := make([]time.Time, len(payouts))
	for i, p := range payouts {
		at, err := r.Session.Begins(p.Day)
		if err != nil {
			return nil, err
		}
		starts[i] = at
		if ns := at.UnixNano(); ns >= from {
			events = append(events, event{at: ns, index: -1 - i})
		}
	}
	for i := range fills {
		if ns := fills[i].At.UnixNano(); ns >= from {
			events = append(events, event{at: ns, index: i})
		}
	}
	// At the same instant: payouts first, then fills by trade id (so the
	// order a query read the trades in does not matter), each trade's in
	// the order given.
	slices.SortFunc(events, func(a, b event) int {
		if c := cmp.Compare(a.at, b.at); c != 0 {
			return c
		}
		if a.index < 0 || b.index < 0 {
			return cmp.Compare(a.index, b.index)
		}
		return cmp.Or(strings.Compare(fills[a.index].TradeID, fills[b.index].TradeID), cmp.Compare(a.index, b.index))
	})

	// In time order, a fill is most often in the day of the one before:
	// the day's bounds answer without converting its time.
	var fillDay string // the day of the last fill, from begins to ends
	var begins, ends time.Time
	for _, e := range events {
		var day string
		var f *Fill
		var dayBegins time.Time
		if e.index < 0 {
			day, dayBegins = payouts[-1-e.index].Day, starts[-1-e.index]
		} else {
			f = &fills[e.index]
			if fillDay == "" || f.At.Before(begins) || !f.At.Before(ends) {
				fillDay, begins, ends = r.Session.bounds(f.At)
			}
			day, dayBegins = fillDay, begins
		}
		if day != w.day {
			w.days.push(walkDay{day: day, begins: dayBegins.UnixNano(), start: w.figures, breaches: len(w.breaches)})
			if w.day != "" {
				w.endDay()
			}
			w.day = day
		}
		if f != nil {
			w.fill(day, f)
		} else {
			w.pay(starts[-1-e.index], day, payouts[-1-e.index].Amount)
		}
	}
	// The best day, once: a status read from the state is then as quick
	// at 3,000 days as at 300.
	w.bestDay = math.Inf(-1)
	for _, b := range w.days.blocks {
		for _, d := range b {
			if d.traded {
				w.bestDay = max(w.bestDay, d.pnl)
			}
		}
	}
	return &State{w: w}, nil
}

// Days is how many days the walk reached: what keeping the state costs.
func (st *State) Days() int { return st.w.days.n }

// Status is the account's status at now: the walk's last day ends if it
// has ended by now. The state is left as it was.
func (st *State) Status(now time.Time) Status {
	w := st.w // the figures a day's end moves; the days are only read
	w.breaches = slices.Clone(w.breaches)
	if w.day != "" && !w.r.Session.ends(w.day).After(now) {
		w.endDay()
	}
	return w.status(now)
}

// fill moves the balance by what the fill realised net of its commission.
func (w *walk) fill(day string, f *Fill) {
	net := trading.Round8(f.Realized - f.Commission)
	w.balance = trading.Round8(w.balance + net)
	w.realized = trading.Round8(w.realized + net)
	d := w.days.at(w.days.n - 1) // the fill's day
	if !d.traded {
		d.traded = true
		w.tradingDays++
	}
	d.pnl = trading.Round8(d.pnl + net)
	w.open = trading.Round8(w.open + f.Open)
	w.maxOpen = max(w.maxOpen, w.open)
	w.hwm = max(w.hwm, w.balance)
	if w.hasFloor() && w.r.DrawdownMode == Trailing {
		w.raise(w.hwm - *w.r.MaxDrawdown)
	}

	id := f.TradeID
	if w.hasFloor() && w.balance <= w.floor {
		w.breach(RuleDrawdown, f.At, day, w.balance, w.floor, &id)
	}
	if m := w.r.MaxDailyLoss; m != nil && d.pnl <= -*m {
		w.breach(RuleDailyLoss, f.At, day, d.pnl, -*m, &id)
	}
	if m := w.r.MaxContracts; m != nil && w.open > *m {
		w.breach(RuleContracts, f.At, day, w.open, *m, &id)
	}
}

// pay takes a paid payout out of the balance, the high-water marks and the
// floor (unless the floor is held at the lock: the firm's threshold does
// not move). It can put the balance at the floor.
func (w *walk) pay(at time.Time, day string, amount float64) {
	w.balance = trading.Round8(w.balance - amount)
	w.paid = trading.Round8(w.paid + amount)
	w.hwm = trading.Round8(w.hwm - amount)
	w.eodHigh = trading.Round8(w.eodHigh - amount)
	if !w.hasFloor() {
		return
	}
	if !w.locked {
		w.floor = trading.Round8(w.floor - amount)
	}
	if w.balance <= w.floor {
		w.breach(RuleDrawdown, at, day, w.balance, w.floor, nil)
	}
}

// endDay closes the current trading day: its balance may lift the
// end-of-day trailing floor.
func (w *walk) endDay() {
	w.eodHigh = max(w.eodHigh, w.balance)
	if w.hasFloor() && w.r.DrawdownMode == EODTrailing {
		w.raise(w.eodHigh - *w.r.MaxDrawdown)
	}
}

// raise lifts the floor to candidate when that is higher, and holds it at
// the lock once it reaches it. The lock never lowers a floor: one that
// starts above the lock stays where it starts.
func (w *walk) raise(candidate float64) {
	if w.locked {
		return
	}
	candidate = trading.Round8(candidate)
	if lock := w.r.DrawdownLockAt; lock != nil && candidate >= *lock {
		w.floor, w.locked = max(w.floor, *lock), true
		return
	}
	w.floor = max(w.floor, candidate)
}

// breach records a rule's first breach; later ones are not reported.
func (w *walk) breach(rule string, at time.Time, day string, value, limit float64, tradeID *string) {
	if slices.ContainsFunc(w.breaches, func(b Breach) bool { return b.Rule == rule }) {
		return
	}
	w.breaches = append(w.breaches, Breach{Rule: rule, At: at.UTC().Format(time.RFC3339), TradingDay: day,
		Value: trading.Round8(value), Limit: trading.Round8(limit), TradeID: tradeID}) // Round8: never -0
}

// status reports the walk's end at now.
func (w *walk) status(now time.Time) Status {
	r := w.r
	s := Status{
		Balance:        w.balance,
		RealizedPnL:    w.realized,
		PayoutsPaid:    w.paid,
		HighWaterMark:  w.hwm,
		DailyLossToday: max(0, -w.dayPnL(r.Session.Day(now))),
		TradingDays:    w.tradingDays,
		MaxPosition:    w.maxOpen,
		Breaches:       w.breaches,
	}
	if w.hasFloor() {
		s.DrawdownFloor = ptr(w.floor)
		s.DrawdownRemaining = ptr(trading.Round8(w.balance - w.floor))
	}
	if r.MaxDailyLoss != nil {
		s.DailyLossRemaining = ptr(trading.Round8(*r.MaxDailyLoss - s.DailyLossToday))
	}
	if r.ProfitTarget != nil {
		s.ProfitTargetRemaining = ptr(trading.Round8(r.StartingBalance + *r.ProfitTarget - w.balance))
	}
	if r.MinTradingDays != nil {
		s.MinTradingDaysRemaining = ptr(*r.MinTradingDays - s.TradingDays)
	}
	if w.realized > 0 {
		s.BestDayPct = ptr(trading.Round8(w.bestDay / w.realized * 100))
		if r.ConsistencyPct != nil {
			s.ConsistencyOK = ptr(*s.BestDayPct <= *r.ConsistencyPct)
		}
	}
	return s
}

// dayPnL is the P&L of the day walked labelled day, or 0.
func (w *walk) dayPnL(day string) float64 {
	k := sort.Search(w.days.n, func(i int) bool { return w.days.at(i).day >= day })
	if k < w.days.n && w.days.at(k).day == day {
		return w.days.at(k).pnl
	}
	return 0
}

func ptr[T any](v T) *T { return &v }

// Split divides a payout's total between the trader (percent, 0 to 100)
// and the firm. Like all derived money it is exact to the arithmetic, not
// rounded to cents (DESIGN §5), to 8 decimals; the firm's share is the
// rest, so the two always add up to the total. 5000 at 80 is 4000 and 1000.
func Split(total, percent float64) (traders, firms float64) {
	traders = trading.Round8(total * percent / 100)
	return traders, trading.Round8(total - traders)
}
