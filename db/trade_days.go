package db

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"tradejournal/db/stats"
)

// The statistics' days (schema 00015): one row per user, day and account,
// and one per user and day for all the user's accounts (account ''),
// holding what summary, daily and equity read of the day's closed trades
// (stats.DayRow). A write only marks the days of the closed trades it
// touches stale (the schema's triggers); the settler rebuilds them from
// their trades once the writer has been idle, each batch in a short write
// transaction of its own. A read never writes: it reads the settled days'
// rows, and folds the stale days of its user from their trades.

const (
	// settleIdle is how long the writer must have committed nothing before
	// the settler rebuilds stale days: a stream of writes is not slowed by
	// it.
	settleIdle = time.Second
	// settleDue is how long a stream of writes that never pauses for
	// settleIdle (a bot writing twice a second) goes before the settler
	// rebuilds one batch between its writes anyway, so that the days such
	// a stream leaves stale stay few.
	settleDue = 10 * time.Second
	// settleBatch is how many days one settle transaction rebuilds, so a
	// write arriving meanwhile waits for a few days' trades at most.
	settleBatch = 8
)

// dayTradeColumns are what a day reads of each of its closed trades t
// (scanDayTrade).
const dayTradeColumns = `t.day, t.account_id, t.id, coalesce(t.exit_time, ''), t.status, t.gross_pnl,
	t.total_commission, t.net_pnl, t.r_ratio, t.hold_seconds`

// scanDayTrade reads a row of dayTradeColumns, after the columns before
// them into before.
func scanDayTrade(rows *sql.Rows, before ...any) (day, account string, t stats.DayTrade, err error) {
	var gross, commission, net float64
	var r sql.NullFloat64
	var hold sql.NullInt64
	if err := rows.Scan(append(before, &day, &account, &t.ID, &t.Exit, &t.Status, &gross, &commission, &net, &r, &hold)...); err != nil {
		return "", "", t, err
	}
	t.Gross, t.Commission, t.Net, t.NetPnL = units(gross), units(commission), units(net), net
	if r.Valid {
		t.R = &r.Float64
	}
	if hold.Valid {
		t.Hold = &hold.Int64
	}
	return day, account, t, nil
}

// settleDays rebuilds up to limit stale days from their trades and clears
// their marks, in the write transaction tx: a write that marks one of them
// again after tx commits marks it for the next settle, and none can come
// between the rebuild and the clearing. Each mark cleared is recorded with
// a generation, one more than its user's highest, by schema 00016's
// trigger: an account's kept walk reads which days changed since it was
// walked from the marks and these. It returns how many it rebuilt.
func settleDays(ctx context.Context, tx txn, limit int) (int, error) {
	rows, err := tx.QueryContext(ctx, `SELECT user_id, day FROM trade_days_stale ORDER BY user_id, day LIMIT ?`, limit)
	if err != nil {
		return 0, err
	}
	var stale [][2]string
	for rows.Next() {
		var k [2]string
		if err := rows.Scan(&k[0], &k[1]); err != nil {
			rows.Close()
			return 0, err
		}
		stale = append(stale, k)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	for _, k := range stale {
		if err := rebuildDay(ctx, tx, k[0], k[1]); err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM trade_days_stale WHERE user_id = ? AND day = ?`, k[0], k[1]); err != nil {
			return 0, err
		}
	}
	return len(stale), nil
}

// rebuildDay replaces the user's rows of day with ones made from its closed
// trades in order.
func rebuildDay(ctx context.Context, tx txn, userID, day string) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM trade_days WHERE user_id = ? AND day = ?
		AND account_id IN (SELECT '' UNION ALL SELECT id FROM accounts WHERE user_id = ?)`, userID, day, userID); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT `+dayTradeColumns+`
		FROM trades t WHERE t.user_id = ? AND t.day = ? AND `+closed+` ORDER BY `+statsOrder, userID, day)
	if err != nil {
		return err
	}
	all := stats.DayRow{Day: day}
	var accounts []string
	byAccount := map[string]*stats.DayRow{}
	for rows.Next() {
		_, account, t, err := scanDayTrade(rows)
		if err != nil {
			rows.Close()
			return err
		}
		all.Add(t)
		a := byAccount[account]
		if a == nil {
			a = &stats.DayRow{Day: day}
			byAccount[account] = a
			accounts = append(accounts, account)
		}
		a.Add(t)
	}
	rows.Close()
	if err := rows.Err(); err != nil || all.Trades == 0 {
		return err
	}
	insert, err := tx.stmt(ctx, `INSERT INTO trade_days (user_id, account_id, day, `+dayRowColumns+`)
		VALUES (?, ?, ?`+strings.Repeat(", ?", strings.Count(dayRowColumns, ",")+1)+`)`)
	if err != nil {
		return err
	}
	put := func(account string, d *stats.DayRow) error {
		_, err := insert.ExecContext(ctx, userID, account, day, d.Trades, d.Wins, d.Losses, d.Breakeven,
			d.Gross, d.Commissions, d.Net, d.WinSum, d.LossSum, d.LargestWin, d.LargestLoss, d.RSum, d.RCount,
			d.HoldSum, d.HoldCount, d.WinFirst, d.WinLast, d.WinMax, d.LossFirst, d.LossLast, d.LossMax,
			d.High, d.Low, d.Fall, d.LastExit, d.LastID)
		return err
	}
	if err := put("", &all); err != nil {
		return err
	}
	for _, a := range accounts {
		if err := put(a, byAccount[a]); err != nil {
			return err
		}
	}
	return nil
}

// dayRowColumns are a trade_days row's figures, in the order the insert
// in rebuildDay binds them and the check scans them.
const dayRowColumns = `trades, wins, losses, breakeven, gross, commissions, net, win_sum, loss_sum, largest_win,
	largest_loss, r_sum, r_count, hold_sum, hold_count, win_first, win_last, win_max, loss_first, loss_last, loss_max,
	high, low, fall, last_exit, last_id`

// units is an amount rounded to 8 decimals in units of 1e-8, as the days
// hold it.
func units(x float64) int64 {
	return int64(math.Round(x * 1e8))
}

// SettleDays rebuilds every stale day now, a batch a transaction, rather
// than waiting for the settler; tests and benchmarks use it to read from
// settled days.
func (db *DB) SettleDays(ctx context.Context) error {
	for {
		n, err := inTx(ctx, db.begin, func(tx txn) (int, error) { return settleDays(ctx, tx, settleBatch) })
		if err != nil || n == 0 {
			return err
		}
	}
}

// settler rebuilds the stale days of one journal once its writer has been
// idle for idle, a batch of days a transaction, giving way as soon as
// writes come again; and one batch when writes have gone on for due
// without such a pause.
type settler struct {
	db        *DB
	idle, due time.Duration
	kick      chan struct{}
	poke      chan struct{}
	stop      chan struct{}
	done      chan struct{}
	stopOnce  sync.Once
}

func newSettler(db *DB, idle, due time.Duration) *settler {
	s := &settler{db: db, idle: idle, due: due, kick: make(chan struct{}, 1), poke: make(chan struct{}, 1),
		stop: make(chan struct{}), done: make(chan struct{})}
	go s.run()
	return s
}

// committed tells the settler that a group of writes committed; it never
// waits.
func (s *settler) committed() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// staleSeen tells the settler that a read found stale days: another
// process (a CLI import beside serve) may have marked them, whose commits
// do not wake it. It settles them once idle, unless it already means to;
// the read writes nothing. It never waits.
func (s *settler) staleSeen() {
	select {
	case s.poke <- struct{}{}:
	default:
	}
}

func (s *settler) run() {
	defer close(s.done)
	// Armed from the start: a journal opened with stale days (one just
	// migrated) has them settled once it is idle.
	idle := time.NewTimer(s.idle)
	idleSet := true
	defer idle.Stop()
	// due runs from the first commit since the last settle.
	due := time.NewTimer(s.due)
	due.Stop()
	defer due.Stop()
	dueSet := false
	for {
		select {
		case <-s.kick:
			idle.Reset(s.idle)
			idleSet = true
			if !dueSet {
				due.Reset(s.due)
				dueSet = true
			}
		case <-s.poke:
			if !idleSet {
				idle.Reset(s.idle)
				idleSet = true
			}
		case <-idle.C:
			idleSet = false
			s.settle(false)
			due.Stop()
			dueSet = false
		case <-due.C:
			s.settle(true)
			dueSet = false
		case <-s.stop:
			return
		}
	}
}

// settle rebuilds stale days a batch at a time until none is left, or
// until writes come: another group committed beside its own, or a write
// waits for its turn; once, one batch whatever the writes. A failure (a
// full disk, a busy journal) is left for the next idle moment; a read
// meanwhile folds the days from their trades.
func (s *settler) settle(once bool) {
	ctx := context.Background()
	w := s.db.writer
	for {
		select {
		case <-s.stop:
			return
		default:
		}
		// Read first: with nothing stale, no write transaction is begun,
		// and no commit wakes the settler again.
		var stale bool
		if err := s.db.read.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM trade_days_stale)`).Scan(&stale); err != nil || !stale {
			return
		}
		before := w.commits.Load()
		n, err := inTx(ctx, s.db.begin, func(tx txn) (int, error) { return settleDays(ctx, tx, settleBatch) })
		if err != nil || n == 0 || once || w.waiting.Load() > 0 || w.commits.Load() > before+1 {
			return
		}
	}
}

// close stops the settler, after the batch under way if any.
func (s *settler) close() {
	s.stopOnce.Do(func() { close(s.stop) })
	<-s.done
}

// byDays says whether the statistics of filter f can be read from the
// days: it names at most an account and dates. (TestByDays sets each other
// field of TradeFilter in turn, so a field added later must be named here.)
func (f TradeFilter) byDays() bool {
	return f.Symbol == "" && len(f.TagIDs) == 0 && f.Status == "" && f.Side == "" && f.AssetClass == "" &&
		f.PlaybookID == "" && f.MinPnL == nil && f.MaxPnL == nil && f.Reviewed == nil && f.MinRating == nil &&
		f.HasViolations == nil && f.ImportID == "" && f.Day == "" && !f.Closed && f.IDs == nil &&
		f.NotReviewedBefore == ""
}

// What a statistic reads of each settled day (statDays).
type dayColumns int

const (
	orderColumns dayColumns = iota // what stats.Fold reads
	dailyColumns                   // a day of /stats/daily
	netColumns                     // the day and its net
)

// settledCondition is the condition on trade_days of filter f (byDays)
// that selects its settled days, with its arguments.
func settledCondition(userID string, f TradeFilter) (string, []any) {
	return `user_id = ? AND account_id = ? AND day >= ? AND day <= ?
		AND day NOT IN (SELECT day FROM trade_days_stale WHERE user_id = ?)`,
		[]any{userID, f.AccountID, f.StartDate, cmp.Or(f.EndDate, "9999-99-99"), userID}
}

// statDays reads the days of the user's closed trades matching f, in
// order, when f allows (byDays); ok is false otherwise, and the caller
// reads the trades. The settled days come from their rows, with the given
// columns; the stale ones, also returned alone in stale, are folded from
// their trades, with every column. Stale days found wake the settler (see
// staleSeen): a CLI import's days are not read from their trades by every
// dashboard until serve next writes.
func (db *DB) statDays(ctx context.Context, tx txn, userID string, f TradeFilter, cols dayColumns) (days, stale []stats.DayRow, ok bool, err error) {
	if !f.byDays() {
		return nil, nil, false, nil
	}
	if stale, err = staleDays(ctx, tx, userID, f); err != nil {
		return nil, nil, false, err
	}
	if len(stale) > 0 {
		db.settler.staleSeen()
	}
	var d stats.DayRow
	var columns string
	var into []any
	switch cols {
	case orderColumns:
		columns = `day, net, wins, losses, win_first, win_last, win_max, loss_first, loss_last, loss_max, high, low, fall`
		into = []any{&d.Day, &d.Net, &d.Wins, &d.Losses, &d.WinFirst, &d.WinLast, &d.WinMax, &d.LossFirst, &d.LossLast,
			&d.LossMax, &d.High, &d.Low, &d.Fall}
	case dailyColumns:
		columns = `day, net, trades, wins, losses, breakeven, gross, commissions`
		into = []any{&d.Day, &d.Net, &d.Trades, &d.Wins, &d.Losses, &d.Breakeven, &d.Gross, &d.Commissions}
	default:
		columns = `day, net`
		into = []any{&d.Day, &d.Net}
	}
	where, args := settledCondition(userID, f)
	rows, err := tx.QueryContext(ctx, `SELECT `+columns+` FROM trade_days WHERE `+where+` ORDER BY day`, args...)
	if err != nil {
		return nil, nil, false, err
	}
	defer rows.Close()
	days = make([]stats.DayRow, 0, len(stale))
	next := 0 // the next stale day to place
	for rows.Next() {
		if err := rows.Scan(into...); err != nil {
			return nil, nil, false, err
		}
		for ; next < len(stale) && stale[next].Day < d.Day; next++ {
			days = append(days, stale[next])
		}
		days = append(days, d)
	}
	days = append(days, stale[next:]...)
	return days, stale, true, rows.Err()
}

// staleDaysQuery reads the closed trades of the user's stale days in a
// span of dates, of one account or all (”) (staleDaysArgs).
const staleDaysQuery = `SELECT ` + dayTradeColumns + ` FROM trades t
	WHERE t.user_id = ? AND t.day IN (SELECT day FROM trade_days_stale WHERE user_id = ? AND day >= ? AND day <= ?)
	AND ` + closed + ` AND (? = '' OR t.account_id = ?) ORDER BY ` + statsOrder

func staleDaysArgs(userID string, f TradeFilter) []any {
	return []any{userID, userID, f.StartDate, cmp.Or(f.EndDate, "9999-99-99"), f.AccountID, f.AccountID}
}

// staleDays folds the user's stale days in f's dates from their closed
// trades (of f's account when it names one), in order: only those days'
// trades are read, through the statistics' index.
func staleDays(ctx context.Context, tx txn, userID string, f TradeFilter) ([]stats.DayRow, error) {
	rows, err := tx.QueryContext(ctx, staleDaysQuery, staleDaysArgs(userID, f)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []stats.DayRow
	for rows.Next() {
		day, _, t, err := scanDayTrade(rows)
		if err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].Day != day {
			out = append(out, stats.DayRow{Day: day})
		}
		out[len(out)-1].Add(t)
	}
	return out, rows.Err()
}

// tradeDayProblems names each settled day of the statistics whose row (of
// an account, or of all the user's accounts) is not what its closed trades
// give, each such day without its row, and each row of a day without
// closed trades. Stale days are left out: their rows wait for the settler,
// and no read uses them. One snapshot, every closed trade read once.
func (db *DB) tradeDayProblems(ctx context.Context) ([]string, error) {
	return inTx(ctx, db.beginRead, func(tx txn) ([]string, error) {
		type key struct{ user, account, day string }
		want := map[key]*stats.DayRow{}
		rows, err := tx.QueryContext(ctx, `SELECT t.user_id, `+dayTradeColumns+` FROM trades t
			WHERE `+closed+` AND (t.user_id, t.day) NOT IN (SELECT user_id, day FROM trade_days_stale)
			ORDER BY t.user_id, `+statsOrder)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var user string
			day, account, t, err := scanDayTrade(rows, &user)
			if err != nil {
				rows.Close()
				return nil, err
			}
			for _, k := range []key{{user, "", day}, {user, account, day}} {
				if want[k] == nil {
					want[k] = &stats.DayRow{Day: day}
				}
				want[k].Add(t)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		rows, err = tx.QueryContext(ctx, `SELECT user_id, account_id, day, `+dayRowColumns+`
			FROM trade_days WHERE (user_id, day) NOT IN (SELECT user_id, day FROM trade_days_stale)
			ORDER BY user_id, day, account_id`)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var problems []string
		name := func(k key) string {
			if k.account == "" {
				return fmt.Sprintf("user %s's day %s (all accounts)", k.user, k.day)
			}
			return fmt.Sprintf("user %s's day %s in account %s", k.user, k.day, k.account)
		}
		for rows.Next() {
			var k key
			var g stats.DayRow
			if err := rows.Scan(&k.user, &k.account, &k.day, &g.Trades, &g.Wins, &g.Losses, &g.Breakeven, &g.Gross,
				&g.Commissions, &g.Net, &g.WinSum, &g.LossSum, &g.LargestWin, &g.LargestLoss, &g.RSum, &g.RCount,
				&g.HoldSum, &g.HoldCount, &g.WinFirst, &g.WinLast, &g.WinMax, &g.LossFirst, &g.LossLast, &g.LossMax,
				&g.High, &g.Low, &g.Fall, &g.LastExit, &g.LastID); err != nil {
				return nil, err
			}
			g.Day = k.day
			w := want[k]
			delete(want, k)
			switch {
			case w == nil:
				problems = append(problems, "trade_days: "+name(k)+" has a row but no closed trades")
			case !sameDay(&g, w):
				problems = append(problems, "trade_days: "+name(k)+"'s row differs from its trades")
			}
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		var missing []string
		for k := range want {
			missing = append(missing, "trade_days: "+name(k)+" has closed trades but no row")
		}
		slices.Sort(missing)
		return append(problems, missing...), nil
	})
}

// sameDay says whether two rows of a day hold the same figures.
func sameDay(a, b *stats.DayRow) bool {
	sameAmount := func(x, y *float64) bool { return x == nil && y == nil || x != nil && y != nil && *x == *y }
	x, y := *a, *b
	x.LargestWin, x.LargestLoss, y.LargestWin, y.LargestLoss = nil, nil, nil, nil
	return x == y && sameAmount(a.LargestWin, b.LargestWin) && sameAmount(a.LargestLoss, b.LargestLoss)
}
