package db

import (
	"context"
	"slices"
)

// maxDayTrades bounds the trades GET /days/{date} lists: a day of a bot's
// thousands shows its first this many by entry time; the summary counts
// them all.
const maxDayTrades = 2000

// Day is one trading day (DESIGN §13): the closed trades whose exit falls
// on it in the user's timezone, as the daily statistics bucket them, their
// figures, and the day's journal. The journal's lists are nil (null) for a
// caller who may not read content.
type Day struct {
	Date         string         `json:"date"`
	Summary      DaySummary     `json:"summary"`
	Trades       []Trade        `json:"trades"`
	TradingPlans *[]TradingPlan `json:"trading_plans"`
	ReportCards  *[]ReportCard  `json:"report_cards"`
	WriteUps     *[]WriteUp     `json:"write_ups"`
}

// DaySummary are a day's figures.
type DaySummary struct {
	Trades      int     `json:"trades"`
	Wins        int     `json:"wins"`
	Losses      int     `json:"losses"`
	Breakeven   int     `json:"breakeven"`
	GrossPnL    float64 `json:"gross_pnl"`
	Commissions float64 `json:"commissions"`
	NetPnL      float64 `json:"net_pnl"`
}

// Day reads one of the user's days; accountID, when set, narrows the
// trades, the figures and the report cards (trading plans have no account;
// write-ups follow their trades). content says whether the caller may read
// the journal's content. A day without trades has zero figures and no
// trades, and whatever plans and report cards carry its date.
func (db *DB) Day(ctx context.Context, userID, date, accountID string, content bool) (Day, error) {
	d := Day{Date: date, Trades: []Trade{}}
	f := TradeFilter{AccountID: accountID, StartDate: date, EndDate: date}
	s, err := db.StatsSummary(ctx, userID, f)
	if err != nil {
		return Day{}, err
	}
	d.Summary = DaySummary{Trades: s.Trades, Wins: s.Wins, Losses: s.Losses, Breakeven: s.Breakeven,
		GrossPnL: s.GrossPnL, Commissions: s.Commissions, NetPnL: s.NetPnL}
	trades, _, err := db.Trades(ctx, userID, TradeFilter{AccountID: accountID, Day: date, Closed: true}, Page{Limit: maxDayTrades})
	if err != nil {
		return Day{}, err
	}
	slices.Reverse(trades) // the list is newest first; a day reads from its first trade
	if trades != nil {
		d.Trades = trades
	}
	if !content {
		return d, nil
	}
	all := Page{Limit: 100}
	dated := ContentFilter{StartDate: date, EndDate: date}
	plans, _, err := db.TradingPlans().List(ctx, userID, dated, all)
	if err != nil {
		return Day{}, err
	}
	if accountID != "" {
		dated.Refs = map[string]string{"account_id": accountID}
	}
	cards, _, err := db.ReportCards().List(ctx, userID, dated, all)
	if err != nil {
		return Day{}, err
	}
	ids := make([]string, len(d.Trades))
	for i, t := range d.Trades {
		ids[i] = t.ID
	}
	writeUps, _, err := db.WriteUps().List(ctx, userID, ContentFilter{RefsIn: map[string][]string{"trade_id": ids}}, Page{Limit: maxDayTrades})
	if err != nil {
		return Day{}, err
	}
	d.TradingPlans, d.ReportCards, d.WriteUps = &plans, &cards, &writeUps
	return d, nil
}

// AdjacentTradingDays are the trading days (days with closed trades)
// before and after date, "" where there is none; accountID, when set,
// counts that account's trades only. It only reads.
func (db *DB) AdjacentTradingDays(ctx context.Context, userID, date, accountID string) (prev, next string, err error) {
	f := TradeFilter{AccountID: accountID, Closed: true}
	where, args := f.statsWhere(userID)
	err = db.read.QueryRowContext(ctx, `SELECT
		coalesce((SELECT max(t.day) FROM trades t WHERE `+where+` AND t.day < ?), ''),
		coalesce((SELECT min(t.day) FROM trades t WHERE `+where+` AND t.day > ?), '')`,
		append(append(append(append([]any{}, args...), date), args...), date)...).Scan(&prev, &next)
	return prev, next, err
}
