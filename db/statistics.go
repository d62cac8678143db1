package db

import (
	"context"
	"fmt"
	"strings"

	"tradejournal/db/stats"
	"tradejournal/db/trading"
)

// The statistics of DESIGN §9 read the closed trades through the partial
// index trades_closed, which holds every column summary, daily and equity
// read, in their order (day, exit time, id). SQL does the sums and counts;
// only what needs the order (streaks, drawdown, the curve) reads each trade.
// Filtered by account and dates alone, summary, daily and equity read one
// row per trading day instead (statDays, trade_days.go), folding only the
// days changed since the settler last ran from their trades.

// closed selects the closed trades; the partial index is used only when a
// query carries this very condition.
const closed = "t.status <> 'open'"

// statsOrder is the order of the statistics: by exit, then id.
const statsOrder = "t.day, t.exit_time, t.id"

// statsWhere is the filter's condition for statistics, whose dates select
// by a trade's day.
func (f TradeFilter) statsWhere(userID string) (string, []any) {
	return f.conditions(userID, "t.day")
}

// DayPnL is a day and its net P&L.
type DayPnL struct {
	Date   string  `json:"date"`
	NetPnL float64 `json:"net_pnl"`
}

// StatsSummary is GET /stats/summary.
type StatsSummary struct {
	Trades               int      `json:"trades"`
	Wins                 int      `json:"wins"`
	Losses               int      `json:"losses"`
	Breakeven            int      `json:"breakeven"`
	OpenTrades           int      `json:"open_trades"`
	WinRate              *float64 `json:"win_rate"`
	GrossPnL             float64  `json:"gross_pnl"`
	Commissions          float64  `json:"commissions"`
	NetPnL               float64  `json:"net_pnl"`
	AvgWin               *float64 `json:"avg_win"`
	AvgLoss              *float64 `json:"avg_loss"`
	LargestWin           *float64 `json:"largest_win"`
	LargestLoss          *float64 `json:"largest_loss"`
	ProfitFactor         *float64 `json:"profit_factor"`
	Expectancy           *float64 `json:"expectancy"`
	AvgR                 *float64 `json:"avg_r"`
	MaxConsecutiveWins   int      `json:"max_consecutive_wins"`
	MaxConsecutiveLosses int      `json:"max_consecutive_losses"`
	MaxDrawdown          float64  `json:"max_drawdown"`
	MaxDrawdownStart     *string  `json:"max_drawdown_start"`
	MaxDrawdownEnd       *string  `json:"max_drawdown_end"`
	TradingDays          int      `json:"trading_days"`
	WinningDays          int      `json:"winning_days"`
	LosingDays           int      `json:"losing_days"`
	BestDay              *DayPnL  `json:"best_day"`
	WorstDay             *DayPnL  `json:"worst_day"`
	AvgHoldSeconds       *int64   `json:"avg_hold_seconds"`
}

// StatsSummary computes the summary of the user's closed trades matching f.
func (db *DB) StatsSummary(ctx context.Context, userID string, f TradeFilter) (StatsSummary, error) {
	return inTx(ctx, db.beginRead, func(tx txn) (StatsSummary, error) {
		return db.statsSummary(ctx, tx, userID, f)
	})
}

func (db *DB) statsSummary(ctx context.Context, tx txn, userID string, f TradeFilter) (StatsSummary, error) {
	days, stale, ok, err := db.statDays(ctx, tx, userID, f, orderColumns)
	if err != nil {
		return StatsSummary{}, err
	}
	if ok {
		return summaryOfDays(ctx, tx, userID, f, days, stale)
	}
	return summaryOfTrades(ctx, tx, userID, f)
}

// summaryOfTrades is the summary read from the trades themselves.
func summaryOfTrades(ctx context.Context, tx txn, userID string, f TradeFilter) (StatsSummary, error) {
	where, args := f.statsWhere(userID)
	// SQL sums the money; the walk in order below, which reads each
	// trade's net P&L and status anyway, counts the outcomes.
	var s StatsSummary
	var avgR, avgHold *float64
	err := tx.QueryRowContext(ctx, `SELECT count(*), total(t.gross_pnl), total(t.total_commission), total(t.net_pnl),
		avg(t.r_ratio), avg(t.hold_seconds) FROM trades t WHERE `+where+` AND `+closed, args...).
		Scan(&s.Trades, &s.GrossPnL, &s.Commissions, &s.NetPnL, &avgR, &avgHold)
	if err != nil {
		return StatsSummary{}, err
	}
	s.GrossPnL, s.Commissions, s.NetPnL = trading.Round8(s.GrossPnL), trading.Round8(s.Commissions), trading.Round8(s.NetPnL)
	s.Expectancy = stats.Ratio(s.NetPnL, float64(s.Trades))
	s.AvgR = round8(avgR)
	if avgHold != nil {
		whole := int64(*avgHold)
		s.AvgHoldSeconds = &whole
	}

	if s.OpenTrades, err = openTrades(ctx, tx, userID, f); err != nil {
		return StatsSummary{}, err
	}

	trades, err := closedTrades(ctx, tx, where, args, false, s.Trades)
	if err != nil {
		return StatsSummary{}, err
	}
	o := stats.Tally(trades)
	s.Wins, s.Losses, s.Breakeven = o.Wins, o.Losses, o.Breakeven
	s.LargestWin, s.LargestLoss = round8(o.LargestWin), round8(o.LargestLoss)
	s.setOutcomes(o.WinSum, o.LossSum)
	wins, losses := stats.Streaks(trades)
	s.setOrder(wins, losses, stats.MaxDrawdown(trades), stats.Days(trades))
	return s, nil
}

// setOutcomes sets the summary's win rate, average win and loss and profit
// factor from its wins and losses, whose sums are winSum and lossSum.
func (s *StatsSummary) setOutcomes(winSum, lossSum float64) {
	s.WinRate = stats.WinRate(s.Wins, s.Losses)
	s.AvgWin = stats.Ratio(winSum, float64(s.Wins))
	s.AvgLoss = stats.Ratio(lossSum, float64(s.Losses))
	s.ProfitFactor = stats.ProfitFactor(winSum, lossSum, s.Losses)
}

// setOrder sets what the trades' order gives the summary: the longest
// runs of wins and losses, the largest drawdown, and the days.
func (s *StatsSummary) setOrder(maxWins, maxLosses int, dd stats.Drawdown, days []stats.DayTotal) {
	s.MaxConsecutiveWins, s.MaxConsecutiveLosses = maxWins, maxLosses
	if dd.Amount > 0 {
		s.MaxDrawdown, s.MaxDrawdownStart, s.MaxDrawdownEnd = dd.Amount, &dd.Start, &dd.End
	}
	c := stats.CountDays(days)
	s.TradingDays, s.WinningDays, s.LosingDays = c.Trading, c.Winning, c.Losing
	if c.Best != nil {
		s.BestDay = &DayPnL{c.Best.Date, c.Best.NetPnL}
		s.WorstDay = &DayPnL{c.Worst.Date, c.Worst.NetPnL}
	}
}

// openTrades counts the open trades under every filter but the dates.
func openTrades(ctx context.Context, tx txn, userID string, f TradeFilter) (int, error) {
	undated := f
	undated.StartDate, undated.EndDate = "", ""
	where, args := undated.statsWhere(userID)
	var n int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM trades t WHERE `+where+` AND t.status = 'open'`, args...).Scan(&n)
	return n, err
}

// summaryOfDays is the summary of the days of the closed trades matching
// f (statDays), as summaryOfTrades computes it from the trades: SQL sums
// the settled days' counts and sums (exact, in units), to which the stale
// days folded from their trades add theirs, and stats.Fold walks all the
// days in order.
func summaryOfDays(ctx context.Context, tx txn, userID string, f TradeFilter, days, stale []stats.DayRow) (StatsSummary, error) {
	var s StatsSummary
	var gross, commissions, net, winSum, lossSum, holdSum, holdCount int64
	var rSum float64
	var rCount int
	where, args := settledCondition(userID, f)
	err := tx.QueryRowContext(ctx, `SELECT coalesce(sum(trades), 0), coalesce(sum(wins), 0), coalesce(sum(losses), 0),
		coalesce(sum(breakeven), 0), coalesce(sum(gross), 0), coalesce(sum(commissions), 0), coalesce(sum(net), 0),
		coalesce(sum(win_sum), 0), coalesce(sum(loss_sum), 0), max(largest_win), min(largest_loss), total(r_sum),
		coalesce(sum(r_count), 0), coalesce(sum(hold_sum), 0), coalesce(sum(hold_count), 0)
		FROM trade_days WHERE `+where, args...).Scan(&s.Trades, &s.Wins, &s.Losses, &s.Breakeven, &gross, &commissions,
		&net, &winSum, &lossSum, &s.LargestWin, &s.LargestLoss, &rSum, &rCount, &holdSum, &holdCount)
	if err != nil {
		return StatsSummary{}, err
	}
	for _, d := range stale {
		s.Trades, s.Wins, s.Losses, s.Breakeven = s.Trades+d.Trades, s.Wins+d.Wins, s.Losses+d.Losses, s.Breakeven+d.Breakeven
		gross, commissions, net = gross+d.Gross, commissions+d.Commissions, net+d.Net
		winSum, lossSum = winSum+d.WinSum, lossSum+d.LossSum
		if d.LargestWin != nil && (s.LargestWin == nil || *d.LargestWin > *s.LargestWin) {
			s.LargestWin = d.LargestWin
		}
		if d.LargestLoss != nil && (s.LargestLoss == nil || *d.LargestLoss < *s.LargestLoss) {
			s.LargestLoss = d.LargestLoss
		}
		rSum, rCount = rSum+d.RSum, rCount+d.RCount
		holdSum, holdCount = holdSum+d.HoldSum, holdCount+d.HoldCount
	}
	if s.OpenTrades, err = openTrades(ctx, tx, userID, f); err != nil {
		return StatsSummary{}, err
	}
	s.GrossPnL, s.Commissions, s.NetPnL = stats.Amount(gross), stats.Amount(commissions), stats.Amount(net)
	s.Expectancy = stats.Ratio(s.NetPnL, float64(s.Trades))
	if rCount > 0 {
		s.AvgR = round8(ptrTo(rSum / float64(rCount)))
	}
	if holdCount > 0 {
		s.AvgHoldSeconds = ptrTo(int64(float64(holdSum) / float64(holdCount)))
	}
	s.setOutcomes(stats.Amount(winSum), stats.Amount(lossSum))
	d := stats.Fold(days)
	s.setOrder(d.MaxWins, d.MaxLosses, d.Drawdown, d.Days)
	return s, nil
}

func round8(p *float64) *float64 {
	if p == nil {
		return nil
	}
	r := trading.Round8(*p)
	return &r
}

// closedTrades reads the closed trades matching where in order, with their
// ids when withIDs; n is how many there are likely to be.
func closedTrades(ctx context.Context, q querier, where string, args []any, withIDs bool, n int) ([]stats.Point, error) {
	id := "''"
	if withIDs {
		id = "t.id"
	}
	rows, err := q.QueryContext(ctx, `SELECT `+id+`, t.day, t.net_pnl, t.status FROM trades t
		WHERE `+where+` AND `+closed+` ORDER BY `+statsOrder, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]stats.Point, 0, n)
	for rows.Next() {
		var t stats.Point
		if err := rows.Scan(&t.TradeID, &t.Day, &t.NetPnL, &t.Status); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// closedDays reads the net P&L of each day of the closed trades matching
// where, in order.
func closedDays(ctx context.Context, q querier, where string, args []any) ([]stats.Point, error) {
	rows, err := q.QueryContext(ctx, `SELECT t.day, total(t.net_pnl) FROM trades t
		WHERE `+where+` AND `+closed+` GROUP BY t.day ORDER BY t.day`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []stats.Point
	for rows.Next() {
		var p stats.Point
		if err := rows.Scan(&p.Day, &p.NetPnL); err != nil {
			return nil, err
		}
		p.NetPnL = trading.Round8(p.NetPnL)
		out = append(out, p)
	}
	return out, rows.Err()
}

// DailyStats is one day of GET /stats/daily.
type DailyStats struct {
	Date        string  `json:"date"`
	Trades      int     `json:"trades"`
	Wins        int     `json:"wins"`
	Losses      int     `json:"losses"`
	Breakeven   int     `json:"breakeven"`
	GrossPnL    float64 `json:"gross_pnl"`
	Commissions float64 `json:"commissions"`
	NetPnL      float64 `json:"net_pnl"`
}

// StatsDaily lists the days with closed trades matching f, ascending.
func (db *DB) StatsDaily(ctx context.Context, userID string, f TradeFilter) ([]DailyStats, error) {
	return inTx(ctx, db.beginRead, func(tx txn) ([]DailyStats, error) {
		return db.statsDaily(ctx, tx, userID, f)
	})
}

func (db *DB) statsDaily(ctx context.Context, tx txn, userID string, f TradeFilter) ([]DailyStats, error) {
	days, _, ok, err := db.statDays(ctx, tx, userID, f, dailyColumns)
	if err != nil {
		return nil, err
	}
	if ok {
		out := make([]DailyStats, len(days))
		for i, d := range days {
			out[i] = DailyStats{Date: d.Day, Trades: d.Trades, Wins: d.Wins, Losses: d.Losses, Breakeven: d.Breakeven,
				GrossPnL: stats.Amount(d.Gross), Commissions: stats.Amount(d.Commissions), NetPnL: stats.Amount(d.Net)}
		}
		return out, nil
	}
	return dailyOfTrades(ctx, tx, userID, f)
}

// dailyOfTrades is the daily statistics read from the trades themselves.
func dailyOfTrades(ctx context.Context, tx txn, userID string, f TradeFilter) ([]DailyStats, error) {
	where, args := f.statsWhere(userID)
	rows, err := tx.QueryContext(ctx, `SELECT t.day, count(*), coalesce(sum(t.status = 'win'), 0),
		coalesce(sum(t.status = 'loss'), 0), coalesce(sum(t.status = 'breakeven'), 0),
		total(t.gross_pnl), total(t.total_commission), total(t.net_pnl)
		FROM trades t WHERE `+where+` AND `+closed+` GROUP BY t.day ORDER BY t.day`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []DailyStats{}
	for rows.Next() {
		var d DailyStats
		if err := rows.Scan(&d.Date, &d.Trades, &d.Wins, &d.Losses, &d.Breakeven, &d.GrossPnL, &d.Commissions, &d.NetPnL); err != nil {
			return nil, err
		}
		d.GrossPnL, d.Commissions, d.NetPnL = trading.Round8(d.GrossPnL), trading.Round8(d.Commissions), trading.Round8(d.NetPnL)
		out = append(out, d)
	}
	return out, rows.Err()
}

// EquityPoint is one point of GET /stats/equity: a day's or a trade's net
// P&L, the cumulative net P&L after it and its distance below the running
// peak (0 or negative).
type EquityPoint struct {
	Date     string  `json:"date"`
	TradeID  string  `json:"trade_id,omitempty"`
	NetPnL   float64 `json:"net_pnl"`
	Equity   float64 `json:"equity"`
	Drawdown float64 `json:"drawdown"`
}

// StatsEquity is the equity curve of the closed trades matching f, over
// day closes, or trade by trade when byTrade.
func (db *DB) StatsEquity(ctx context.Context, userID string, f TradeFilter, byTrade bool) ([]EquityPoint, error) {
	where, args := f.statsWhere(userID)
	points, err := inTx(ctx, db.beginRead, func(tx txn) ([]stats.Point, error) {
		if byTrade {
			return closedTrades(ctx, tx, where, args, true, 0)
		}
		days, _, ok, err := db.statDays(ctx, tx, userID, f, netColumns)
		if err != nil {
			return nil, err
		}
		if !ok {
			return closedDays(ctx, tx, where, args)
		}
		out := make([]stats.Point, len(days))
		for i, d := range days {
			out[i] = stats.Point{Day: d.Day, NetPnL: stats.Amount(d.Net)}
		}
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]EquityPoint, 0, len(points))
	for _, p := range stats.Curve(points) {
		out = append(out, EquityPoint{Date: p.Day, TradeID: p.TradeID, NetPnL: p.NetPnL, Equity: p.Equity, Drawdown: p.Drawdown})
	}
	return out, nil
}

// BreakdownRow is one bucket of GET /stats/breakdown.
type BreakdownRow struct {
	Key          any      `json:"key"` // a string, a number (weekday, hour, rating) or null
	Label        *string  `json:"label"`
	Trades       int      `json:"trades"`
	Wins         int      `json:"wins"`
	Losses       int      `json:"losses"`
	WinRate      *float64 `json:"win_rate"`
	NetPnL       float64  `json:"net_pnl"`
	AvgNetPnL    *float64 `json:"avg_net_pnl"`
	ProfitFactor *float64 `json:"profit_factor"`
	AvgR         *float64 `json:"avg_r"`
}

// breakdown is how one key of a breakdown is read: its key and label
// expressions over trades t, the joins they need, the label of trades
// without a key, and the order of its buckets when not by net P&L.
type breakdown struct {
	key, label, join, none string
	natural                string // an ORDER BY over the grouped rows; "" for best net P&L first
}

var weekdays = []string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}

// Breakdowns are the keys GET /stats/breakdown?by= accepts.
var Breakdowns = []string{"symbol", "root", "tag", "playbook", "strategy", "side", "weekday", "hour", "account",
	"asset_class", "rating", "month", "duration"}

func breakdownOf(by string) breakdown {
	switch by {
	case "symbol", "side", "asset_class":
		return breakdown{key: "t." + by, label: "t." + by}
	case "root":
		root := "CASE WHEN t.asset_class = 'futures' THEN t.root ELSE t.symbol END"
		return breakdown{key: root, label: root}
	case "tag":
		return breakdown{key: "x.tag_id", label: "g.name", none: "No tag",
			join: "LEFT JOIN trade_tags x ON x.trade_id = t.id LEFT JOIN tags g ON g.id = x.tag_id"}
	case "playbook":
		return breakdown{key: "t.playbook_id", label: "p.title", none: "No playbook",
			join: "LEFT JOIN playbooks p ON p.id = t.playbook_id"}
	case "strategy":
		return breakdown{key: "x.strategy_id", label: "s.title", none: "No strategy",
			join: "LEFT JOIN trade_strategies x ON x.trade_id = t.id LEFT JOIN strategies s ON s.id = x.strategy_id"}
	case "account":
		return breakdown{key: "t.account_id", label: "coalesce(nullif(a.name, ''), a.account_number)",
			join: "JOIN accounts a ON a.id = t.account_id"}
	case "weekday":
		// ISO: Monday 1 … Sunday 7, of the entry date.
		day := "(CAST(strftime('%w', t.entry_date) AS INTEGER) + 6) % 7 + 1"
		var names strings.Builder
		for i, w := range weekdays {
			fmt.Fprintf(&names, " WHEN %d THEN '%s'", i+1, w)
		}
		return breakdown{key: day, label: "CASE " + day + names.String() + " END", natural: "k"}
	case "hour":
		return breakdown{key: "CAST(substr(t.entry_time, 1, 2) AS INTEGER)", label: "substr(t.entry_time, 1, 2) || ':00'",
			none: "No entry time", natural: "k"}
	case "rating":
		return breakdown{key: "t.star_rating", label: "t.star_rating || ' stars'", none: "No rating"}
	case "month":
		return breakdown{key: "substr(t.day, 1, 7)", label: "substr(t.day, 1, 7)", natural: "k"}
	case "duration":
		var c strings.Builder
		c.WriteString("CASE")
		for _, d := range stats.Durations {
			if d.Below > 0 {
				fmt.Fprintf(&c, " WHEN t.hold_seconds < %d THEN '%s'", d.Below, d.Key)
			} else {
				fmt.Fprintf(&c, " WHEN t.hold_seconds IS NOT NULL THEN '%s'", d.Key)
			}
		}
		c.WriteString(" END")
		// The buckets' shortest holds are in the buckets' order.
		return breakdown{key: c.String(), label: c.String(), none: "Unknown", natural: "min(t.hold_seconds)"}
	}
	return breakdown{}
}

// StatsBreakdown groups the closed trades matching f by one of Breakdowns:
// by net P&L, best first, or in their natural order (weekday, hour, month,
// duration). Trades without a key form one bucket: by net P&L it stands
// where its net P&L puts it (after a key of the same net P&L); in a
// natural order, which it has no place in, it is last.
func (db *DB) StatsBreakdown(ctx context.Context, userID string, f TradeFilter, by string) ([]BreakdownRow, error) {
	b := breakdownOf(by)
	if b.key == "" {
		// The caller checks by against Breakdowns, as input.Breakdown does.
		return nil, fmt.Errorf("stats breakdown: unknown by %q", by)
	}
	order := "k IS NULL, " + b.natural
	if b.natural == "" {
		order = "round(total(t.net_pnl), 8) DESC, k IS NULL, k"
	}
	where, args := f.statsWhere(userID)
	rows, err := db.read.QueryContext(ctx, `SELECT `+b.key+` AS k, `+b.label+`, count(*),
		coalesce(sum(t.status = 'win'), 0), coalesce(sum(t.status = 'loss'), 0), total(t.net_pnl),
		total(t.net_pnl) FILTER (WHERE t.status = 'win'), total(t.net_pnl) FILTER (WHERE t.status = 'loss'), avg(t.r_ratio)
		FROM trades t `+b.join+` WHERE `+where+` AND `+closed+` GROUP BY k ORDER BY `+order, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []BreakdownRow{}
	for rows.Next() {
		var r BreakdownRow
		var winSum, lossSum float64
		if err := rows.Scan(&r.Key, &r.Label, &r.Trades, &r.Wins, &r.Losses, &r.NetPnL, &winSum, &lossSum, &r.AvgR); err != nil {
			return nil, err
		}
		if r.Key == nil && b.none != "" {
			r.Label = &b.none
		}
		r.NetPnL = trading.Round8(r.NetPnL)
		r.WinRate = stats.WinRate(r.Wins, r.Losses)
		r.AvgNetPnL = stats.Ratio(r.NetPnL, float64(r.Trades))
		r.ProfitFactor = stats.ProfitFactor(winSum, lossSum, r.Losses)
		r.AvgR = round8(r.AvgR)
		out = append(out, r)
	}
	return out, rows.Err()
}
