package db

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tradejournal/db/brokers"
	"tradejournal/db/prop"
	"tradejournal/db/trading"
)

// fullWalk is the account's status as it was read before the memo: every
// fill and paid payout of the account walked at now, in a read transaction
// of its own. It is the reference the memo's answers are held to.
func fullWalk(t *testing.T, d *DB, userID, accountID string, now time.Time) prop.Status {
	t.Helper()
	ctx := t.Context()
	s, err := inTx(ctx, d.beginRead, func(tx txn) (prop.Status, error) {
		a, err := oneAccount(ctx, tx, userID, accountID)
		if err != nil {
			return prop.Status{}, err
		}
		loc, err := d.userLocation(ctx, tx, userID)
		if err != nil {
			return prop.Status{}, err
		}
		rules, err := d.accountRules(a)
		if err != nil {
			return prop.Status{}, err
		}
		fills, err := accountFills(ctx, tx, userID, accountID, rules.Session, loc, fillScope{})
		if err != nil {
			return prop.Status{}, err
		}
		payouts, err := paidPayouts(ctx, tx, accountID)
		if err != nil {
			return prop.Status{}, err
		}
		return prop.Walk(rules, fills, payouts, now)
	})
	if err != nil {
		t.Fatalf("full walk of %s: %v", accountID, err)
	}
	s.EvaluatedAt = now.UTC().Format(TimeFormat)
	return s
}

// oneLot is a trade of 1 ES contract (50 a point) in the account, bought
// at 5000 at at and sold points higher an hour later, each fill paying
// commission.
func oneLot(accountID string, at time.Time, points, commission float64) TradeInput {
	return TradeInput{AccountID: Some(accountID), Symbol: Some("ESH6"), Side: Some("long"),
		Executions: Some([]ExecutionInput{
			{Side: Some("buy"), Quantity: Some(1.0), Price: Some(5000.0), Commission: Some(commission),
				ExecutionTimestamp: Some(at.UTC().Format(time.RFC3339))},
			{Side: Some("sell"), Quantity: Some(1.0), Price: Some(5000 + points), Commission: Some(commission),
				ExecutionTimestamp: Some(at.Add(time.Hour).UTC().Format(time.RFC3339))},
		})}
}

// journalAndAnother opens a journal in a temp dir, and a connection of
// its own to the same file, as another process (a CLI command beside
// serve) writes it.
func journalAndAnother(t *testing.T) (*DB, *sql.DB) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "journal.db")
	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	other, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	return d, other
}

// sameStatus fails the test when got is not want, figure for figure and
// breach for breach.
func sameStatus(t *testing.T, what string, got, want prop.Status) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %s\nwant %s", what, statusText(got), statusText(want))
	}
}

// statusIsFullWalk reads the account's status and fails the test unless
// it is the full walk's, figure for figure (what says when); it returns
// the status read.
func statusIsFullWalk(t *testing.T, d *DB, userID, accountID, what string) prop.Status {
	t.Helper()
	got, err := d.AccountStatus(t.Context(), userID, accountID)
	if err != nil {
		t.Fatal(err)
	}
	want := fullWalk(t, d, userID, accountID, d.Now())
	want.EvaluatedAt = got.EvaluatedAt
	sameStatus(t, what, got, want)
	return got
}

func statusText(s prop.Status) string {
	opt := func(p *float64) string {
		if p == nil {
			return "null"
		}
		return fmt.Sprint(*p)
	}
	out := fmt.Sprintf("balance %v realized %v paid %v hwm %v floor %s remaining %s today %v daily-remaining %s target %s days %d best %s max-pos %v",
		s.Balance, s.RealizedPnL, s.PayoutsPaid, s.HighWaterMark, opt(s.DrawdownFloor), opt(s.DrawdownRemaining),
		s.DailyLossToday, opt(s.DailyLossRemaining), opt(s.ProfitTargetRemaining), s.TradingDays, opt(s.BestDayPct), s.MaxPosition)
	for _, b := range s.Breaches {
		id := "payout"
		if b.TradeID != nil {
			id = *b.TradeID
		}
		out += fmt.Sprintf(" [%s at %s day %s value %v limit %v %s]", b.Rule, b.At, b.TradingDay, b.Value, b.Limit, id)
	}
	return out + " at " + s.EvaluatedAt
}

// genAccount is a generated account and the days its trades fall on.
type genAccount struct {
	id       string
	firstDay time.Time // UTC midnight of its first trading date
	days     int
	trades   []string
}

var (
	genZones  = []string{"UTC", "America/New_York", "America/Chicago", "Europe/London", "Asia/Tokyo", "Australia/Sydney"}
	genStarts = []string{"18:00", "17:00", "00:00", "09:30", "12:00", "23:59"}
	// Roots whose point value the journal knows (ES 50, NQ 20, MES 5).
	genSymbols = []string{"ESH6", "NQH6", "MESH6"}
)

// genRules are random rules: each set or not, drawdown of every mode,
// amounts small enough that the generated losing streaks breach them and
// large enough that others come near and do not.
func genRules(r *rand.Rand, number string) AccountInput {
	in := AccountInput{StartingBalance: Some(float64(25_000 * (1 + r.IntN(4))))}
	if number != "" {
		in.AccountNumber = Some(number)
	}
	pick := func() bool { return r.IntN(3) > 0 }
	if pick() {
		in.MaxDrawdown = Some(float64(500 * (1 + r.IntN(10))))
		switch m := r.IntN(4); m {
		case 3: // unset: static
		default:
			in.DrawdownMode = Some(prop.DrawdownModes[m])
		}
		if r.IntN(3) == 0 {
			in.DrawdownLockAt = Some(in.StartingBalance.Value + float64(50*r.IntN(12)))
		}
	}
	if pick() {
		in.MaxDailyLoss = Some(float64(500 * (1 + r.IntN(8))))
	}
	if pick() {
		in.ProfitTarget = Some(float64(500 * (1 + r.IntN(6))))
	}
	if pick() {
		in.MinTradingDays = Some(1 + r.IntN(8))
	}
	if pick() {
		in.ConsistencyPct = Some(float64(20 + 10*r.IntN(6)))
	}
	if pick() {
		in.MaxContracts = Some(2 + r.IntN(8))
	}
	if r.IntN(4) > 0 {
		in.DayStartsAt = Some(genStarts[r.IntN(len(genStarts))])
		in.DayTimezone = Some(genZones[r.IntN(len(genZones))])
	}
	return in
}

// genTrade is a random trade of the account on one of its days: with 2 to
// 5 fills, scaling in and out, or typed without fills (with or without
// times, closed or open), or open with its opening fills only. bias < 0
// makes the account's losing streaks.
func genTrade(r *rand.Rand, a *genAccount, bias float64) TradeInput {
	day := a.firstDay.AddDate(0, 0, r.IntN(a.days))
	at := day.Add(time.Duration(r.IntN(24*60)) * time.Minute)
	symbol := genSymbols[r.IntN(len(genSymbols))]
	side, open, closing := "long", "buy", "sell"
	if r.IntN(2) == 0 {
		side, open, closing = "short", "sell", "buy"
	}
	sign := 1.0
	if side == "short" {
		sign = -1
	}
	price := 5000 + float64(r.IntN(200))
	// Points the trade makes, by the bias: a losing streak loses most.
	move := func() float64 { return float64(r.IntN(41)-20)/4 + bias }
	in := TradeInput{AccountID: Some(a.id), Symbol: Some(symbol), Side: Some(side),
		EntryDate: Some(at.Format(DateLayout))}
	switch r.IntN(8) {
	case 0: // typed without fills
		qty := float64(1 + r.IntN(3))
		in.Quantity, in.EntryPrice = Some(qty), Some(price)
		if r.IntN(2) == 0 {
			in.EntryTime = Some(at.Format(TimeLayout))
		}
		if r.IntN(5) > 0 {
			exit := at.Add(time.Duration(r.IntN(600)) * time.Minute)
			in.ExitPrice, in.ExitDate = Some(price+sign*move()), Some(exit.Format(DateLayout))
			if r.IntN(2) == 0 {
				in.ExitTime = Some(exit.Format(TimeLayout))
			}
		}
		return in
	}
	var fills []ExecutionInput
	fill := func(side string, qty, price float64, at time.Time) {
		fills = append(fills, ExecutionInput{Side: Some(side), Quantity: Some(qty), Price: Some(price),
			Commission: Some(float64(r.IntN(5)) / 2), ExecutionTimestamp: Some(at.UTC().Format(time.RFC3339))})
	}
	held := 0.0
	for range 1 + r.IntN(2) {
		qty := float64(1 + r.IntN(2))
		fill(open, qty, price+float64(r.IntN(5)-2), at)
		held += qty
		if r.IntN(4) > 0 { // else: at the same instant
			at = at.Add(time.Duration(r.IntN(30)) * time.Minute)
		}
	}
	hold := 300 // minutes between closing fills: may cross into the next day
	if r.IntN(6) == 0 {
		hold = 5 * 24 * 60 // held for days
	}
	if r.IntN(8) > 0 { // else left open
		for held > 0 {
			qty := min(held, float64(1+r.IntN(2)))
			at = at.Add(time.Duration(r.IntN(hold)) * time.Minute)
			fill(closing, qty, price+sign*move(), at)
			held -= qty
		}
	}
	in.Executions = Some(fills)
	return in
}

// TestAccountStatusMatchesFullWalk generates many accounts (random rules of
// every kind, days starting at different hours in different zones, trades
// with and without fills across days and DST changes, open trades, paid
// and other payouts, losing streaks that breach and that nearly do) and
// holds the status the memo gives, cold and warm, at several instants and
// after every kind of write, to the full walk of every fill, figure for
// figure and breach for breach.
func TestAccountStatusMatchesFullWalk(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 31))
	d, other := journalAndAnother(t)
	ctx := t.Context()
	u, err := d.CreateUser(ctx, "walker", genZones[r.IntN(len(genZones))])
	if err != nil {
		t.Fatal(err)
	}
	var accounts []*genAccount
	for i := range 24 {
		a, err := d.CreateAccount(ctx, u.ID, genRules(r, fmt.Sprint("G-", i)))
		if err != nil {
			t.Fatal(err)
		}
		// Around the spring's DST changes (US 8 March, Europe 29 March,
		// Sydney 5 April) or in winter.
		first := time.Date(2026, time.March, 1+r.IntN(35), 0, 0, 0, 0, time.UTC)
		if r.IntN(3) == 0 {
			first = time.Date(2026, time.January, 5+r.IntN(20), 0, 0, 0, 0, time.UTC)
		}
		accounts = append(accounts, &genAccount{id: a.ID, firstDay: first, days: 2 + r.IntN(9)})
	}
	// The accounts' trades, written concurrently (in groups, as the
	// server writes them).
	var wg sync.WaitGroup
	errs := make(chan error, len(accounts))
	for i, a := range accounts {
		bias := 0.0
		if i%3 == 0 {
			bias = -2 - float64(i%4) // a losing streak
		}
		ar := rand.New(rand.NewPCG(seed, uint64(i)))
		wg.Go(func() {
			for range 5 + ar.IntN(25) {
				tr, err := d.CreateTrade(ctx, u.ID, genTrade(ar, a, bias))
				if err != nil {
					errs <- fmt.Errorf("account %d: %w", i, err)
					return
				}
				a.trades = append(a.trades, tr.ID)
			}
			for range ar.IntN(4) {
				status := "paid"
				if ar.IntN(3) == 0 {
					status = "requested"
				}
				day := a.firstDay.AddDate(0, 0, ar.IntN(a.days+1))
				if _, err := d.CreatePayout(ctx, u.ID, PayoutInput{AccountID: Some(a.id), Status: Some(status),
					TotalAmount: Some(float64(50 * (1 + ar.IntN(10)))), Date: Some(day.Format(DateLayout))}); err != nil {
					errs <- fmt.Errorf("account %d payout: %w", i, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	// Instants to read at: long after the account's days (its last day
	// has ended), then inside them and on its last day (it may not have),
	// so that a kept walk read at a later instant first must be left as it
	// was.
	instants := func(a *genAccount) []time.Time {
		last := a.firstDay.AddDate(0, 0, a.days)
		return []time.Time{
			last.AddDate(1, 0, 0),
			a.firstDay.Add(time.Duration(r.IntN(a.days*24)) * time.Hour),
			last.Add(time.Duration(r.IntN(36)) * time.Hour),
		}
	}
	check := func(when string) {
		t.Helper()
		// The days settled at random moments: a kept walk learns what
		// changed from stale marks, or from days settled since.
		if r.IntN(2) == 0 {
			if err := d.SettleDays(ctx); err != nil {
				t.Fatal(err)
			}
		}
		for i, a := range accounts {
			for k, now := range instants(a) {
				d.Now = func() time.Time { return now }
				want := fullWalk(t, d, u.ID, a.id, now)
				for _, read := range []string{"first", "again"} {
					got, err := d.AccountStatus(ctx, u.ID, a.id)
					if err != nil {
						t.Fatal(err)
					}
					sameStatus(t, fmt.Sprintf("%s: account %d at instant %d, %s read", when, i, k, read), got, want)
				}
			}
		}
		// The Accounts page's read of them all.
		now := time.Date(2026, time.May, 1, 12, 0, 0, 0, time.UTC)
		d.Now = func() time.Time { return now }
		list, _, err := d.Accounts(ctx, u.ID, Page{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			statuses, err := d.AccountStatuses(ctx, u.ID, list)
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range list {
				sameStatus(t, fmt.Sprintf("%s: accounts page, %s", when, a.AccountNumber), statuses[i], fullWalk(t, d, u.ID, a.ID, now))
			}
		}
	}
	check("generated")
	breached := 0
	for _, a := range accounts {
		if len(fullWalk(t, d, u.ID, a.id, time.Now()).Breaches) > 0 {
			breached++
		}
	}
	t.Logf("%d of %d accounts breach a rule", breached, len(accounts))
	if breached == 0 || breached == len(accounts) {
		t.Fatalf("%d of %d accounts breach: the generator should make some breach and some not", breached, len(accounts))
	}

	// Every kind of write the walk reads, each followed by the check.
	writes := []struct {
		name  string
		write func(a *genAccount, ar *rand.Rand) error
	}{
		{"a trade on an early day", func(a *genAccount, ar *rand.Rand) error {
			tr, err := d.CreateTrade(ctx, u.ID, genTrade(ar, &genAccount{id: a.id, firstDay: a.firstDay, days: 1}, -3))
			a.trades = append(a.trades, tr.ID)
			return err
		}},
		{"a trade held for days, entered on an early day", func(a *genAccount, ar *rand.Rand) error {
			in := genTrade(ar, &genAccount{id: a.id, firstDay: a.firstDay, days: 1}, -1)
			if fills := in.Executions.Value; len(fills) > 1 {
				last := &fills[len(fills)-1]
				at, err := time.Parse(time.RFC3339, last.ExecutionTimestamp.Value)
				if err != nil {
					return err
				}
				last.ExecutionTimestamp = Some(at.Add(time.Duration(24+ar.IntN(120)) * time.Hour).UTC().Format(time.RFC3339))
			}
			tr, err := d.CreateTrade(ctx, u.ID, in)
			a.trades = append(a.trades, tr.ID)
			return err
		}},
		{"a trade on the last day", func(a *genAccount, ar *rand.Rand) error {
			tr, err := d.CreateTrade(ctx, u.ID, genTrade(ar, &genAccount{id: a.id, firstDay: a.firstDay.AddDate(0, 0, a.days-1), days: 1}, 0))
			a.trades = append(a.trades, tr.ID)
			return err
		}},
		{"a trade deleted", func(a *genAccount, ar *rand.Rand) error {
			if len(a.trades) == 0 {
				return nil
			}
			i := ar.IntN(len(a.trades))
			_, err := d.DeleteTrade(ctx, u.ID, a.trades[i])
			a.trades = append(a.trades[:i], a.trades[i+1:]...)
			return err
		}},
		{"a trade's fills replaced", func(a *genAccount, ar *rand.Rand) error {
			if len(a.trades) == 0 {
				return nil
			}
			in := genTrade(ar, a, 0)
			_, err := d.UpdateTrade(ctx, u.ID, a.trades[ar.IntN(len(a.trades))], TradeInput{Side: in.Side,
				EntryDate: in.EntryDate, Executions: in.Executions, Quantity: in.Quantity, EntryPrice: in.EntryPrice})
			if err != nil && len(in.Executions.Value) == 0 {
				return nil // a trade typed without fills cannot always replace fills
			}
			return err
		}},
		{"the rules changed", func(a *genAccount, ar *rand.Rand) error {
			_, err := d.UpdateAccount(ctx, u.ID, a.id, genRules(ar, ""))
			return err
		}},
		{"a payout paid", func(a *genAccount, ar *rand.Rand) error {
			_, err := d.CreatePayout(ctx, u.ID, PayoutInput{AccountID: Some(a.id), Status: Some("paid"),
				TotalAmount: Some(float64(100 + ar.IntN(400))), Date: Some(a.firstDay.AddDate(0, 0, ar.IntN(a.days)).Format(DateLayout))})
			return err
		}},
		{"the user's timezone", func(a *genAccount, ar *rand.Rand) error {
			_, err := d.UpdateUser(ctx, u.Name, UserUpdate{Timezone: Some(genZones[ar.IntN(len(genZones))])})
			return err
		}},
		{"another process moves a fill's price", func(a *genAccount, ar *rand.Rand) error {
			_, err := other.Exec(`UPDATE executions SET price = price - 7 WHERE id = (
				SELECT e.id FROM executions e JOIN trades t ON t.id = e.trade_id WHERE t.account_id = ?
				ORDER BY e.execution_timestamp LIMIT 1)`, a.id)
			return err
		}},
	}
	defer func() {
		m := d.statuses
		t.Logf("reads: %d walked every fill, %d went on from a kept walk, %d took one as it was",
			m.walked.Load(), m.resumed.Load(), m.taken.Load())
		if !t.Failed() && (m.resumed.Load() == 0 || m.taken.Load() == 0) {
			t.Error("no read went on from a kept walk, or took one: the test shows nothing of them")
		}
	}()
	for round := range 3 {
		for _, w := range writes {
			a := accounts[r.IntN(len(accounts))]
			if err := w.write(a, rand.New(rand.NewPCG(seed, uint64(round*100+len(w.name))))); err != nil {
				t.Fatalf("%s: %v", w.name, err)
			}
			check(w.name)
		}
	}
}

// TestAccountStatusesStaleRules: the Accounts page reads the accounts in one
// transaction and their statuses in the next; rules changed between the
// two are walked with the rules it read, and the walk kept under them is
// not the account's walk under its own rules for the next read in the
// same epoch.
func TestAccountStatusesStaleRules(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	if _, err := d.UpdateAccount(ctx, userID, accountID, AccountInput{StartingBalance: Some(50000.0),
		MaxDrawdown: Some(1000.0), DrawdownMode: Some("trailing")}); err != nil {
		t.Fatal(err)
	}
	seedTrades(t, d, userID, accountID, 50)
	list, _, err := d.Accounts(ctx, userID, Page{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.UpdateAccount(ctx, userID, accountID, AccountInput{MaxDrawdown: Some(500.0)}); err != nil {
		t.Fatal(err)
	}
	stale, err := d.AccountStatuses(ctx, userID, list)
	if err != nil {
		t.Fatal(err)
	}
	if *stale[0].DrawdownFloor == *fullWalk(t, d, userID, accountID, d.Now()).DrawdownFloor {
		t.Fatal("the stale rules give the same floor: the test shows nothing")
	}
	statusIsFullWalk(t, d, userID, accountID, "status after the page read stale rules")
}

// TestStatusMemoGenerations pins the memo's bookkeeping: a walk is kept by
// account; one of an earlier generation does not replace one of a later;
// the days kept stay bounded.
func TestStatusMemoGenerations(t *testing.T) {
	m := newStatusMemo()
	k := memoKey{"u", "a"}
	walk := func(days int) *prop.State {
		fills := make([]prop.Fill, days)
		for j := range fills {
			fills[j] = prop.Fill{At: time.Unix(int64(j)*86400, 0), Realized: 1}
		}
		st, err := prop.Replay(prop.Rules{Session: prop.Session{Loc: time.UTC}}, fills, nil)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	st2, st1 := walk(1), walk(1)
	m.put(k, memoWalk{state: st2, marks: walkMarks{gen: 2}})
	m.put(k, memoWalk{state: st1, marks: walkMarks{gen: 1}})
	if w, ok := m.get(k); !ok || w.state != st2 {
		t.Fatal("a walk of an earlier generation replaced a later one")
	}
	if _, ok := m.get(memoKey{"u", "b"}); ok {
		t.Fatal("another account's walk was read")
	}
	st3 := walk(1)
	m.put(k, memoWalk{state: st3, marks: walkMarks{gen: 2, stale: "2026-01-05"}})
	if w, _ := m.get(k); w.state != st3 || len(m.walks) != 1 || m.days != 1 {
		t.Fatalf("%d walks, %d days kept after one of the same generation, want it, 1 and 1", len(m.walks), m.days)
	}

	// The days kept are bounded: past maxMemoDays the memo starts over.
	big := walk(1000)
	for i := range maxMemoDays / 1000 * 2 {
		m.put(memoKey{"u", fmt.Sprint(i)}, memoWalk{state: big})
		if m.days > maxMemoDays {
			t.Fatalf("%d days kept, over %d", m.days, maxMemoDays)
		}
	}
	if len(m.walks) == 0 || big.Days() != 1000 {
		t.Fatalf("%d walks kept of %d days", len(m.walks), big.Days())
	}
}

// TestWalkMarks pins what a kept walk relies on (schema 00016): every
// write that changes what the walk reads of a trade or its fills marks the
// user's day of the trade's entry date stale, before and after the change,
// whichever process commits it; a write the walk does not read marks
// nothing; settling a day records it in a later generation than any
// before.
func TestWalkMarks(t *testing.T) {
	d, other := journalAndAnother(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	stale := func() []string {
		t.Helper()
		rows, err := other.Query(`SELECT day FROM trade_days_stale WHERE user_id = ? ORDER BY day`, userID)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var days []string
		for rows.Next() {
			var day string
			if err := rows.Scan(&day); err != nil {
				t.Fatal(err)
			}
			days = append(days, day)
		}
		return days
	}
	settle := func() {
		t.Helper()
		if err := d.SettleDays(ctx); err != nil {
			t.Fatal(err)
		}
		if s := stale(); len(s) != 0 {
			t.Fatalf("stale after settling: %v", s)
		}
	}
	gens := func() map[string]int64 {
		t.Helper()
		rows, err := other.Query(`SELECT day, gen FROM trade_days_settled WHERE user_id = ?`, userID)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		out := map[string]int64{}
		for rows.Next() {
			var day string
			var gen int64
			if err := rows.Scan(&day, &gen); err != nil {
				t.Fatal(err)
			}
			out[day] = gen
		}
		return out
	}
	fill := func(side string, price float64, at string) ExecutionInput {
		return ExecutionInput{Side: Some(side), Quantity: Some(1.0), Price: Some(price), ExecutionTimestamp: Some(at)}
	}
	// An open trade, entered on the 5th (New York, the fixture's zone).
	open, err := d.CreateTrade(ctx, userID, TradeInput{AccountID: Some(accountID), Symbol: Some("ESH6"), Side: Some("long"),
		Executions: Some([]ExecutionInput{fill("buy", 5000, "2026-01-05T15:00:00Z")})})
	if err != nil {
		t.Fatal(err)
	}
	if got := stale(); !slices.Equal(got, []string{"2026-01-05"}) {
		t.Fatalf("an open trade marked %v, want its entry day", got)
	}
	settle()
	first := gens()["2026-01-05"]

	// Closed days later: its entry day (and its exit day, the statistics').
	if _, err := d.UpdateTrade(ctx, userID, open.ID, TradeInput{Executions: Some([]ExecutionInput{
		fill("buy", 5000, "2026-01-05T15:00:00Z"), fill("sell", 5010, "2026-01-09T15:00:00Z")})}); err != nil {
		t.Fatal(err)
	}
	if got := stale(); !slices.Equal(got, []string{"2026-01-05", "2026-01-09"}) {
		t.Fatalf("closing it marked %v, want its entry and exit days", got)
	}
	settle()
	if g := gens(); g["2026-01-05"] <= first || g["2026-01-09"] <= first {
		t.Fatalf("generations %v after the second settle, the first %d", g, first)
	}
	second := max(gens()["2026-01-05"], gens()["2026-01-09"])

	// A rating: the walk reads nothing of it.
	if _, err := d.UpdateTrade(ctx, userID, open.ID, TradeInput{StarRating: Some(4)}); err != nil {
		t.Fatal(err)
	}
	if got := stale(); len(got) != 0 {
		t.Fatalf("a rating marked %v", got)
	}
	// Another process moves a fill's price, then its time.
	if _, err := other.Exec(`UPDATE executions SET price = price + 1 WHERE trade_id = ? AND side = 'sell'`, open.ID); err != nil {
		t.Fatal(err)
	}
	if got := stale(); !slices.Equal(got, []string{"2026-01-05"}) {
		t.Fatalf("another process's fill price marked %v, want the entry day", got)
	}
	settle()
	if g := gens()["2026-01-05"]; g <= second {
		t.Fatalf("generation %d after another settle, was %d", g, second)
	}
	if _, err := other.Exec(`UPDATE executions SET position = 1 - position WHERE trade_id = ?`, open.ID); err != nil {
		t.Fatal(err)
	}
	if got := stale(); !slices.Equal(got, []string{"2026-01-05"}) {
		t.Fatalf("reordered fills marked %v, want the entry day", got)
	}
	settle()
	// Moved to the 2nd, to another account, then deleted: each marks its
	// entry days.
	if _, err := d.UpdateTrade(ctx, userID, open.ID, TradeInput{Executions: Some([]ExecutionInput{
		fill("buy", 5000, "2026-01-02T15:00:00Z"), fill("sell", 5010, "2026-01-09T15:00:00Z")})}); err != nil {
		t.Fatal(err)
	}
	if got := stale(); !slices.Equal(got, []string{"2026-01-02", "2026-01-05", "2026-01-09"}) {
		t.Fatalf("a new entry marked %v, want the old and new entry days and the exit day", got)
	}
	settle()
	b, err := d.CreateAccount(ctx, userID, AccountInput{AccountNumber: Some("WALK-B")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.UpdateTrade(ctx, userID, open.ID, TradeInput{AccountID: Some(b.ID)}); err != nil {
		t.Fatal(err)
	}
	if got := stale(); !slices.Contains(got, "2026-01-02") {
		t.Fatalf("a move to another account marked %v, want its entry day", got)
	}
	settle()
	if _, err := d.DeleteTrade(ctx, userID, open.ID); err != nil {
		t.Fatal(err)
	}
	if got := stale(); !slices.Contains(got, "2026-01-02") {
		t.Fatalf("a delete marked %v, want its entry day", got)
	}
}

// TestAccountStatusConcurrentWrites: writers add trades of +10 each to an
// account while readers read its status; every trade a write has
// acknowledged is in every status read after it, so each reader's
// realised P&L never falls back (a walk kept from an older snapshot would
// give an older total), and once the writes end the status is the full
// walk's.
func TestAccountStatusConcurrentWrites(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	const writers, trades, readers = 3, 40, 3
	var written sync.WaitGroup
	var acked sync.Mutex
	total := 0.0 // the P&L of the trades acknowledged so far
	for w := range writers {
		written.Go(func() {
			for i := range trades {
				date := fmt.Sprintf("2026-03-%02d", 1+(w*trades+i)%28)
				// ES at 50 a point: 0.2 points on 1 contract is +10.
				if _, err := d.CreateTrade(ctx, userID, TradeInput{AccountID: Some(accountID), Symbol: Some("ESH6"),
					Side: Some("long"), Quantity: Some(1.0), EntryPrice: Some(5000.0), ExitPrice: Some(5000.2),
					EntryDate: Some(date), ExitDate: Some(date)}); err != nil {
					t.Error(err)
					return
				}
				acked.Lock()
				total += 10
				acked.Unlock()
			}
		})
	}
	done := make(chan struct{})
	var read sync.WaitGroup
	for range readers {
		read.Go(func() {
			last := -1.0
			for {
				select {
				case <-done:
					return
				default:
				}
				acked.Lock()
				before := total
				acked.Unlock()
				s, err := d.AccountStatus(ctx, userID, accountID)
				if err != nil {
					t.Error(err)
					return
				}
				if s.RealizedPnL < last || s.RealizedPnL < before {
					t.Errorf("realized %v after %v read and %v acknowledged: an older walk", s.RealizedPnL, last, before)
					return
				}
				last = s.RealizedPnL
			}
		})
	}
	written.Wait()
	close(done)
	read.Wait()
	got := statusIsFullWalk(t, d, userID, accountID, "after the writes")
	if got.RealizedPnL != writers*trades*10 {
		t.Fatalf("realized %v, want %v", got.RealizedPnL, writers*trades*10)
	}
}

// TestAccountStatusKeptAcrossConnections: once the journal's days are
// settled, the walk made by the first read is the one every later read
// takes, whichever of the pool's connections it runs on (reads running at
// once take different ones), while nothing it reads changes: a rename of
// the account changes nothing it reads. A new trade makes the next read go
// on from the kept walk, not walk every fill.
func TestAccountStatusKeptAcrossConnections(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	seedTrades(t, d, userID, accountID, 50) // settled
	kept := func() *prop.State {
		w, _ := d.statuses.get(memoKey{userID, accountID})
		return w.state
	}
	if _, err := d.AccountStatus(ctx, userID, accountID); err != nil {
		t.Fatal(err)
	}
	first := kept()
	if first == nil || d.statuses.walked.Load() != 1 {
		t.Fatalf("%d walks, none kept", d.statuses.walked.Load())
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 5 {
				if _, err := d.AccountStatus(ctx, userID, accountID); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if got := kept(); got != first || d.statuses.taken.Load() != 40 {
		t.Fatalf("%d of 40 reads on other connections took the kept walk, with nothing changed", d.statuses.taken.Load())
	}
	if _, err := d.UpdateAccount(ctx, userID, accountID, AccountInput{Name: Some("renamed")}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.AccountStatus(ctx, userID, accountID); err != nil {
		t.Fatal(err)
	}
	if got := kept(); got != first {
		t.Fatal("the read after a rename walked again")
	}
	before, err := d.AccountStatus(ctx, userID, accountID)
	if err != nil {
		t.Fatal(err)
	}
	// ES at 50 a point: 2 points on 1 contract is +100, less 4.
	if _, err := d.CreateTrade(ctx, userID, oneLot(accountID, time.Date(2026, time.June, 1, 14, 0, 0, 0, time.UTC), 2, 2)); err != nil {
		t.Fatal(err)
	}
	got, err := d.AccountStatus(ctx, userID, accountID)
	if err != nil {
		t.Fatal(err)
	}
	if kept() == first || d.statuses.walked.Load() != 1 || d.statuses.resumed.Load() != 1 {
		t.Fatalf("after a new trade: %d walks of every fill, %d gone on, want 1 and 1", d.statuses.walked.Load(), d.statuses.resumed.Load())
	}
	if got.RealizedPnL != trading.Round8(before.RealizedPnL+96) || got.TradingDays != before.TradingDays+1 {
		t.Fatalf("realised %v over %d days after a +96 trade on a new day, was %v over %d", got.RealizedPnL, got.TradingDays,
			before.RealizedPnL, before.TradingDays)
	}
	want := fullWalk(t, d, userID, accountID, d.Now())
	want.EvaluatedAt = got.EvaluatedAt
	sameStatus(t, "gone on after a new trade", got, want)
}

// TestAccountStatusOlderSnapshot: a read whose snapshot is older than the
// kept walk's does not take a change it cannot see from the kept walk: of
// the same generation, it goes on from the kept walk's own stale days with
// what it reads; of an earlier one (the days were settled between), it
// walks every fill.
func TestAccountStatusOlderSnapshot(t *testing.T) {
	for _, settle := range []bool{false, true} {
		t.Run(fmt.Sprint("settled between ", settle), func(t *testing.T) { olderSnapshot(t, settle) })
	}
}

func olderSnapshot(t *testing.T, settle bool) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	seedTrades(t, d, userID, accountID, 50) // settled
	want, err := d.AccountStatus(ctx, userID, accountID)
	if err != nil {
		t.Fatal(err)
	}
	err = inTxDo(ctx, d.beginRead, func(tx txn) error {
		a, err := oneAccount(ctx, tx, userID, accountID) // the snapshot: before the trade
		if err != nil {
			return err
		}
		// A trade of +96 committed, and read (and kept) by a newer read.
		if _, err := d.CreateTrade(ctx, userID, oneLot(accountID, time.Date(2026, time.June, 1, 14, 0, 0, 0, time.UTC), 2, 2)); err != nil {
			return err
		}
		if settle {
			if err := d.SettleDays(ctx); err != nil {
				return err
			}
		}
		newer, err := d.AccountStatus(ctx, userID, accountID)
		if err != nil {
			return err
		}
		if newer.RealizedPnL != trading.Round8(want.RealizedPnL+96) {
			t.Fatalf("the newer read: realised %v, want %v + 96", newer.RealizedPnL, want.RealizedPnL)
		}
		loc, err := d.userLocation(ctx, tx, userID)
		if err != nil {
			return err
		}
		got, err := d.accountStatus(ctx, tx, userID, a, loc)
		if err != nil {
			return err
		}
		got.EvaluatedAt = want.EvaluatedAt
		sameStatus(t, "the older snapshot's read", got, want)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestAccountStatusFarZone: a trader at UTC+14 whose account's days start
// at UTC midnight. A trade filled at 11:00 UTC on the 10th is entered on
// the 11th in the trader's zone, and is the 10th's in the account's: a
// walk going on after it is written starts from the 10th, the day before
// its entry date (walkMargin).
func TestAccountStatusFarZone(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	u, err := d.CreateUser(ctx, "kiritimati", "Pacific/Kiritimati")
	if err != nil {
		t.Fatal(err)
	}
	a, err := d.CreateAccount(ctx, u.ID, AccountInput{AccountNumber: Some("K-1"), StartingBalance: Some(50000.0),
		DayStartsAt: Some("00:00"), DayTimezone: Some("UTC")})
	if err != nil {
		t.Fatal(err)
	}
	// ES at 50 a point: each trade 1 contract, 2 points, +100.
	trade := func(at time.Time) {
		t.Helper()
		if _, err := d.CreateTrade(ctx, u.ID, oneLot(a.ID, at, 2, 0)); err != nil {
			t.Fatal(err)
		}
	}
	for day := 8; day <= 12; day++ {
		trade(time.Date(2026, time.March, day, 20, 0, 0, 0, time.UTC))
	}
	if err := d.SettleDays(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := d.AccountStatus(ctx, u.ID, a.ID); err != nil {
		t.Fatal(err)
	}
	trade(time.Date(2026, time.March, 10, 11, 0, 0, 0, time.UTC))
	got, err := d.AccountStatus(ctx, u.ID, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.RealizedPnL != 600 || d.statuses.resumed.Load() != 1 {
		t.Fatalf("realised %v after 6 trades of +100 (%d reads went on from the kept walk, want 1)", got.RealizedPnL,
			d.statuses.resumed.Load())
	}
}

// TestWalkQueryPlans: a walk going on from a day reads the trades entered
// since from the account's index and the trades held across it by id,
// never a scan of the trades before; what changed is read from indexes.
func TestWalkQueryPlans(t *testing.T) {
	d := newTestDB(t)
	userID, accountID := newTradeFixture(t, d)
	seedTrades(t, d, userID, accountID, 200)
	if _, err := d.write.Exec(`ANALYZE`); err != nil {
		t.Fatal(err)
	}
	plan := func(query string, args ...any) string {
		t.Helper()
		rows, err := d.read.Query(`EXPLAIN QUERY PLAN `+query, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var steps []string
		for rows.Next() {
			var id, parent, unused int
			var step string
			if err := rows.Scan(&id, &parent, &unused, &step); err != nil {
				t.Fatal(err)
			}
			steps = append(steps, step)
		}
		return strings.Join(steps, "; ")
	}
	fills := plan(accountFillsQuery, userID, accountID, "2016-03-01", `["x"]`)
	for _, want := range []string{"SEARCH t USING INDEX trades_account (user_id=? AND account_id=? AND entry_date>?)",
		"SCAN held VIRTUAL TABLE", "SEARCH t USING INDEX sqlite_autoindex_trades_1 (id=?)"} {
		if !strings.Contains(fills, want) {
			t.Errorf("the fills' plan %q lacks %q", fills, want)
		}
	}
	if strings.Contains(fills, "entry_date<?") || strings.Contains(fills, "SCAN t") {
		t.Errorf("the fills' plan %q reads the trades before the day", fills)
	}
	marks := plan(walkMarksQuery, userID, 3)
	if strings.Contains(marks, "SCAN trade_days") || strings.Count(marks, "SEARCH") != 3 {
		t.Errorf("the marks' plan %q does not search three indexes", marks)
	}
}

// TestSettlerWokenByStatusReads: a day marked stale by another process's
// commit does not wake the settler, whose writer committed nothing; the
// first status read that finds it does, and the settler clears it once
// idle, so later reads take the kept walk again instead of going on from
// that day each time.
// staleCount is how many days of the journal are stale.
func staleCount(t *testing.T, d *DB) int {
	t.Helper()
	var n int
	if err := d.read.QueryRow(`SELECT count(*) FROM trade_days_stale`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// waitSettled waits up to 10 s for the settler to settle every stale day.
func waitSettled(t *testing.T, d *DB, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); staleCount(t, d) > 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d days still stale after 10 s", what, staleCount(t, d))
		}
	}
}

func TestSettlerWokenByStatusReads(t *testing.T) {
	d, other := journalAndAnother(t)
	d.settler.close()
	d.settler = newSettler(d, 50*time.Millisecond, time.Hour)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	if _, err := d.CreateTrade(ctx, userID, oneLot(accountID, time.Date(2026, time.March, 2, 15, 0, 0, 0, time.UTC), 2, 0)); err != nil {
		t.Fatal(err)
	}
	waitSettled(t, d, "after this process's write")
	if _, err := d.AccountStatus(ctx, userID, accountID); err != nil {
		t.Fatal(err)
	}
	// The settle's own commit woke the settler once more; it finds nothing
	// stale, begins no write, and sleeps.
	time.Sleep(200 * time.Millisecond)

	if _, err := other.Exec(`UPDATE executions SET price = price + 1 WHERE side = 'sell'`); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // six of the settler's idle times
	if n := staleCount(t, d); n != 1 {
		t.Fatalf("%d days stale after another process's commit, want 1 (the settler was not woken)", n)
	}
	s, err := d.AccountStatus(ctx, userID, accountID)
	if err != nil {
		t.Fatal(err)
	}
	if s.RealizedPnL != 150 { // ES at 50 a point: 3 points
		t.Fatalf("realised %v after the exit moved a point, want 150", s.RealizedPnL)
	}
	waitSettled(t, d, "after a status read found the day")
	taken := d.statuses.taken.Load()
	if _, err := d.AccountStatus(ctx, userID, accountID); err != nil {
		t.Fatal(err)
	}
	// The first read after the settle goes on from the settled day; the
	// next takes the walk as it is.
	if _, err := d.AccountStatus(ctx, userID, accountID); err != nil {
		t.Fatal(err)
	}
	if d.statuses.taken.Load() != taken+1 {
		t.Fatalf("%d reads took the kept walk after the day was settled, want 1", d.statuses.taken.Load()-taken)
	}
}

// TestAccountStatusMarkClearedElsewhere: a mark cleared by another
// connection (an older build's settler, which knows nothing of
// trade_days_settled) is recorded in a new generation all the same, by
// schema 16's trigger, so the kept walk goes on from that day.
func TestAccountStatusMarkClearedElsewhere(t *testing.T) {
	d, other := journalAndAnother(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	// ES at 50 a point: each trade 2 points, +100.
	trade := func(at time.Time) {
		t.Helper()
		if _, err := d.CreateTrade(ctx, userID, oneLot(accountID, at, 2, 0)); err != nil {
			t.Fatal(err)
		}
	}
	trade(time.Date(2026, 3, 2, 15, 0, 0, 0, time.UTC))
	if err := d.SettleDays(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := d.AccountStatus(ctx, userID, accountID); err != nil {
		t.Fatal(err)
	}
	trade(time.Date(2026, 3, 3, 15, 0, 0, 0, time.UTC))
	if _, err := other.Exec(`DELETE FROM trade_days_stale`); err != nil {
		t.Fatal(err)
	}
	got, err := d.AccountStatus(ctx, userID, accountID)
	if err != nil {
		t.Fatal(err)
	}
	if got.RealizedPnL != 200 || got.TradingDays != 2 {
		t.Fatalf("realised %v over %d days after two trades of +100 on two days", got.RealizedPnL, got.TradingDays)
	}
}

// TestWalkMarksContinuedTrade: an import that adds fills to an open trade
// marks the trade's entry day, even when nothing the trade's row holds
// changes (a fill opening again at the same price, without commission,
// not past the trade's largest position); and the status after it is the
// full walk's. Red with neither the import's own mark nor the fills'
// renumbering marking it.
func TestWalkMarksContinuedTrade(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d) // account B-1
	importRows := func(rows string) Import {
		t.Helper()
		file, err := brokers.Read(strings.NewReader("account_number,symbol,side,quantity,price,commission,timestamp,exec_id\n"+rows),
			brokers.Options{Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		imp, err := d.Import(ctx, userID, ImportInput{File: file, FileName: "fills.csv", Timezone: "UTC"})
		if err != nil {
			t.Fatal(err)
		}
		return imp
	}
	importRows("B-1,ESH6,buy,2,5000,0,2026-03-02T15:00:00Z,C1\nB-1,ESH6,sell,1,5000,0,2026-03-02T15:10:00Z,C2\n")
	if err := d.SettleDays(ctx); err != nil {
		t.Fatal(err)
	}
	var before string
	if err := d.read.QueryRow(`SELECT quantity || ' ' || entry_price || ' ' || gross_pnl || ' ' || total_commission || ' ' || status
		FROM trades`).Scan(&before); err != nil {
		t.Fatal(err)
	}
	if _, err := d.AccountStatus(ctx, userID, accountID); err != nil {
		t.Fatal(err)
	}
	imp := importRows("B-1,ESH6,buy,1,5000,0,2026-03-03T15:00:00Z,C3\n")
	if imp.TradesUpdated != 1 {
		t.Fatalf("import %+v, want the open trade continued", imp)
	}
	var after string
	if err := d.read.QueryRow(`SELECT quantity || ' ' || entry_price || ' ' || gross_pnl || ' ' || total_commission || ' ' || status
		FROM trades`).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if after != before {
		t.Logf("the trade's row moved (%s -> %s): the test shows less than it means to", before, after)
	}
	var stale []string
	rows, err := d.read.Query(`SELECT day FROM trade_days_stale`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var day string
		if err := rows.Scan(&day); err != nil {
			t.Fatal(err)
		}
		stale = append(stale, day)
	}
	rows.Close()
	if !slices.Contains(stale, "2026-03-02") {
		t.Fatalf("stale %v after a fill added to the trade entered on 2026-03-02", stale)
	}
	statusIsFullWalk(t, d, userID, accountID, "after the trade was continued")
}

// TestSettlerWokenByStatsReads: a dashboard statistic that folds a stale
// day from its trades wakes the settler too, so a CLI import's days are
// not folded by every dashboard until serve next writes.
func TestSettlerWokenByStatsReads(t *testing.T) {
	for name, read := range map[string]func(d *DB, userID string) (float64, error){
		"summary": func(d *DB, userID string) (float64, error) {
			s, err := d.StatsSummary(t.Context(), userID, TradeFilter{})
			return s.NetPnL, err
		},
		"daily": func(d *DB, userID string) (float64, error) {
			days, err := d.StatsDaily(t.Context(), userID, TradeFilter{})
			if err != nil || len(days) != 1 {
				return 0, fmt.Errorf("%d days, %v", len(days), err)
			}
			return days[0].NetPnL, nil
		},
		"equity": func(d *DB, userID string) (float64, error) {
			points, err := d.StatsEquity(t.Context(), userID, TradeFilter{}, false)
			if err != nil || len(points) != 1 {
				return 0, fmt.Errorf("%d points, %v", len(points), err)
			}
			return points[0].NetPnL, nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "journal.db")
			d, err := Open(t.Context(), path)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			d.settler.close()
			d.settler = newSettler(d, 50*time.Millisecond, time.Hour)
			userID, accountID := newTradeFixture(t, d)
			if _, err := d.CreateTrade(t.Context(), userID, oneLot(accountID, time.Date(2026, time.March, 2, 15, 0, 0, 0, time.UTC), 2, 0)); err != nil {
				t.Fatal(err)
			}
			waitSettled(t, d, "after this process's write")
			// The settle's own commit woke the settler once more; it finds
			// nothing stale and sleeps.
			time.Sleep(200 * time.Millisecond)
			// A CLI command adds a trade to the day and exits, before its
			// own settler's idle time.
			cli, err := Open(t.Context(), path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := cli.CreateTrade(t.Context(), userID, oneLot(accountID, time.Date(2026, time.March, 2, 17, 0, 0, 0, time.UTC), 1, 0)); err != nil {
				t.Fatal(err)
			}
			if err := cli.Close(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond) // six of the settler's idle times
			if n := staleCount(t, d); n != 1 {
				t.Fatalf("%d days stale after another process's commit, want 1", n)
			}
			net, err := read(d, userID)
			if err != nil {
				t.Fatal(err)
			}
			if net != 150 { // ES at 50 a point: 2 points and 1, no commission
				t.Fatalf("net %v with the CLI's trade, want 150", net)
			}
			waitSettled(t, d, "after the "+name+" read found the day")
			if net, err := read(d, userID); err != nil || net != 150 {
				t.Fatalf("net %v, %v from the settled day, want 150", net, err)
			}
		})
	}
}
