package db

import (
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"tradejournal/db/prop"
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
		fills, err := accountFills(ctx, tx, userID, accountID, rules.Session, loc)
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

// sameStatus fails the test when got is not want, figure for figure and
// breach for breach.
func sameStatus(t *testing.T, what string, got, want prop.Status) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %s\nwant %s", what, statusText(got), statusText(want))
	}
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
	if r.IntN(8) > 0 { // else left open
		for held > 0 {
			qty := min(held, float64(1+r.IntN(2)))
			at = at.Add(time.Duration(r.IntN(300)) * time.Minute) // may cross into the next day
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
	path := filepath.Join(t.TempDir(), "journal.db")
	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
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
	other, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	writes := []struct {
		name  string
		write func(a *genAccount, ar *rand.Rand) error
	}{
		{"a trade on an early day", func(a *genAccount, ar *rand.Rand) error {
			tr, err := d.CreateTrade(ctx, u.ID, genTrade(ar, &genAccount{id: a.id, firstDay: a.firstDay, days: 1}, -3))
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
	for round := range 2 {
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
	got, err := d.AccountStatus(ctx, userID, accountID)
	if err != nil {
		t.Fatal(err)
	}
	want := fullWalk(t, d, userID, accountID, d.Now())
	want.EvaluatedAt = got.EvaluatedAt
	sameStatus(t, "status after the page read stale rules", got, want)
}

// TestStatusMemoVersions pins the memo's bookkeeping: a walk is read only
// at the version it was kept at, with its rules; a view whose version is
// not known neither reads nor keeps one; a walk kept at another version
// drops the others; the days kept stay bounded.
func TestStatusMemoVersions(t *testing.T) {
	m := newStatusMemo()
	k := memoKey{"u", "a"}
	st, err := prop.Replay(prop.Rules{Session: prop.Session{Loc: time.UTC}}, []prop.Fill{{At: time.Unix(0, 0), Realized: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v1, v2 := version{1, 7}, version{1, 8}
	at1 := bracket(v1, v1, true)
	m.put(at1, k, "r", st)
	if m.get(at1, k, "r") != st || m.get(at1, k, "other rules") != nil || m.get(at1, memoKey{"u", "b"}, "r") != nil {
		t.Fatal("a kept walk is read with its own key and rules only")
	}
	if m.get(bracket(v2, v2, true), k, "r") != nil || m.get(bracket(version{2, 7}, version{2, 7}, true), k, "r") != nil {
		t.Fatal("a walk was read at another version")
	}
	// A commit between the two reads of the version: the snapshot's
	// version is not known.
	moved := bracket(v1, v2, true)
	if moved.known || bracket(v1, v1, false).known {
		t.Fatal("a snapshot between two different versions, or unread ones, is known")
	}
	if m.get(moved, k, "r") != nil {
		t.Fatal("an unknown version read a walk")
	}
	m.put(bracket(v2, v1, true), memoKey{"u", "b"}, "r", st)
	if len(m.walks) != 1 {
		t.Fatal("an unknown version kept a walk")
	}
	// A walk kept at a new version drops the old ones.
	at2 := bracket(v2, v2, true)
	m.put(at2, memoKey{"u", "b"}, "r", st)
	if m.get(at1, k, "r") != nil || len(m.walks) != 1 || m.days != 1 {
		t.Fatalf("%d walks, %d days kept after a new version, want 1 and 1", len(m.walks), m.days)
	}

	// The days kept are bounded: past maxMemoDays the memo starts over.
	var big *prop.State
	for i := range maxMemoDays / 1000 * 2 {
		fills := make([]prop.Fill, 1000)
		for j := range fills {
			fills[j] = prop.Fill{At: time.Unix(int64(j)*86400, 0)}
		}
		if big, err = prop.Replay(prop.Rules{Session: prop.Session{Loc: time.UTC}}, fills, nil); err != nil {
			t.Fatal(err)
		}
		m.put(at2, memoKey{"u", fmt.Sprint(i)}, "r", big)
		if m.days > maxMemoDays {
			t.Fatalf("%d days kept, over %d", m.days, maxMemoDays)
		}
	}
	if len(m.walks) == 0 || big.Days() != 1000 {
		t.Fatalf("%d walks kept of %d days", len(m.walks), big.Days())
	}
}

// TestStatusProbe pins what the memo relies on: the probe's version moves
// after a commit by this process's writer or by another process, and
// stays while nothing is committed; a status transaction takes its
// snapshot when it reads data_version, so a commit after that read is not
// in what it reads; a snapshot taken after a commit that came after the
// first read of the version is not known.
func TestStatusProbe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.db")
	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	read := func() version {
		v, ok := d.probe.read(ctx)
		if !ok {
			t.Fatal("the probe cannot read the version")
		}
		return v
	}
	trade := func() {
		if _, err := d.CreateTrade(ctx, userID, TradeInput{AccountID: Some(accountID), Symbol: Some("ESH6"),
			Side: Some("long"), Quantity: Some(1.0), EntryPrice: Some(5000.0), EntryDate: Some("2026-01-05")}); err != nil {
			t.Fatal(err)
		}
	}
	count := func(tx txn) int {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM trades WHERE account_id = ?`, accountID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}

	v0 := read()
	if again := read(); again != v0 {
		t.Fatalf("version %v then %v with nothing committed", v0, again)
	}
	trade()
	v1 := read()
	if v1 == v0 {
		t.Fatal("the version did not move after the writer's commit")
	}
	other, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if _, err := other.Exec(`UPDATE accounts SET name = 'moved' WHERE id = ?`, accountID); err != nil {
		t.Fatal(err)
	}
	v2 := read()
	if v2 == v1 {
		t.Fatal("the version did not move after another process's commit")
	}

	// A commit after the transaction's data_version is not in it.
	if err := d.inStatusTx(ctx, func(tx txn, v memoView) error {
		if !v.known || v.at != v2 {
			t.Fatalf("view %+v with nothing committed, want known at %v", v, v2)
		}
		trade()
		if n := count(tx); n != 1 {
			t.Fatalf("the transaction read %d trades, one committed after its data_version: want 1", n)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// A commit between the first read of the version and the snapshot.
	before := read()
	trade()
	if err := inTxDo(ctx, d.beginRead, func(tx txn) error {
		if n := count(tx); n != 3 {
			t.Fatalf("read %d trades, want 3", n)
		}
		after, ok := d.probe.read(ctx)
		if v := bracket(before, after, ok); v.known {
			t.Fatalf("view %+v of a snapshot after a commit the first version did not see, want unknown", v)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
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
	got, err := d.AccountStatus(ctx, userID, accountID)
	if err != nil {
		t.Fatal(err)
	}
	want := fullWalk(t, d, userID, accountID, d.Now())
	want.EvaluatedAt = got.EvaluatedAt
	sameStatus(t, "after the writes", got, want)
	if got.RealizedPnL != writers*trades*10 {
		t.Fatalf("realized %v, want %v", got.RealizedPnL, writers*trades*10)
	}
}

// TestAccountStatusKeptAcrossConnections: after a commit, the walk made by
// the first read is the one every later read uses, whichever of the pool's
// connections it runs on (reads running at once take different ones),
// until the next commit.
func TestAccountStatusKeptAcrossConnections(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	seedTrades(t, d, userID, accountID, 50)
	kept := func() *prop.State {
		d.statuses.mu.Lock()
		defer d.statuses.mu.Unlock()
		return d.statuses.walks[memoKey{userID, accountID}].state
	}
	if _, err := d.AccountStatus(ctx, userID, accountID); err != nil {
		t.Fatal(err)
	}
	first := kept()
	if first == nil {
		t.Fatal("no walk kept")
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
	if got := kept(); got != first {
		t.Fatal("reads on other connections walked again with nothing committed")
	}
	if _, err := d.UpdateAccount(ctx, userID, accountID, AccountInput{Name: Some("renamed")}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.AccountStatus(ctx, userID, accountID); err != nil {
		t.Fatal(err)
	}
	if got := kept(); got == first || got == nil {
		t.Fatal("the read after a commit did not walk again")
	}
}
