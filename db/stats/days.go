package stats

// A summary over days (schema 00015): each day of closed trades is kept as
// a DayRow, and Fold composes the days in order into what the summary
// reports, giving the same figures as the trades read one by one. Money is
// in units of 1e-8, so every sum is exact whatever its order.

// DayTrade is one closed trade as a day reads it, in order.
type DayTrade struct {
	ID     string
	Exit   string // exit time, "" for none
	Status string // win, loss or breakeven
	// Gross, Commission and Net are in units of 1e-8; NetPnL is the stored
	// net, which the largest win and loss report as stored.
	Gross, Commission, Net int64
	NetPnL                 float64
	R                      *float64
	Hold                   *int64
}

// DayRow is one day's closed trades (of an account, or of all of them):
// their counts and sums, and what the figures that need their order read:
// the runs of wins and of losses the day starts with (before its first
// trade of the other outcome), ends with and holds at most, and the
// highest and lowest cumulative net P&L after each of its trades (counted
// from the day's start) with its largest fall within the day.
type DayRow struct {
	Day                                      string
	Trades, Wins, Losses, Breakeven          int
	Gross, Commissions, Net, WinSum, LossSum int64
	LargestWin, LargestLoss                  *float64
	RSum                                     float64
	RCount                                   int
	HoldSum, HoldCount                       int64
	WinFirst, WinLast, WinMax                int
	LossFirst, LossLast, LossMax             int
	High, Low, Fall                          int64
	LastExit, LastID                         string
}

// Add appends a trade after the day's last: a day is built by adding its
// trades in the statistics' order.
func (d *DayRow) Add(t DayTrade) {
	first := d.Trades == 0
	d.Trades++
	switch t.Status {
	case "win":
		d.Wins++
		d.WinSum += t.Net
		if d.LargestWin == nil || t.NetPnL > *d.LargestWin {
			d.LargestWin = &t.NetPnL
		}
		if d.Losses == 0 {
			d.WinFirst++
		}
		d.WinLast++
		d.WinMax = max(d.WinMax, d.WinLast)
		d.LossLast = 0
	case "loss":
		d.Losses++
		d.LossSum += t.Net
		if d.LargestLoss == nil || t.NetPnL < *d.LargestLoss {
			d.LargestLoss = &t.NetPnL
		}
		if d.Wins == 0 {
			d.LossFirst++
		}
		d.LossLast++
		d.LossMax = max(d.LossMax, d.LossLast)
		d.WinLast = 0
	default:
		d.Breakeven++
	}
	d.Gross += t.Gross
	d.Commissions += t.Commission
	d.Net += t.Net
	if first {
		d.High, d.Low = d.Net, d.Net
	}
	d.High, d.Low = max(d.High, d.Net), min(d.Low, d.Net)
	d.Fall = max(d.Fall, d.High-d.Net)
	if t.R != nil {
		d.RSum += *t.R
		d.RCount++
	}
	if t.Hold != nil {
		d.HoldSum += *t.Hold
		d.HoldCount++
	}
	d.LastExit, d.LastID = t.Exit, t.ID
}

// Amount is units of 1e-8 as an amount: what trading.Round8 gives of the
// same sum in floating point.
func Amount(units int64) float64 {
	return float64(units) / 1e8
}

// DaysOrder is what a selection of days gives of the figures that need
// the trades' order: the longest runs of wins and of losses, the largest
// drawdown, and the days' net P&L.
type DaysOrder struct {
	MaxWins, MaxLosses int
	Drawdown           Drawdown
	Days               []DayTotal
}

// Fold composes days, in order, as Streaks, MaxDrawdown and Days would
// over their trades. It reads each day's Day, Net, Wins, Losses, runs,
// High, Low and Fall.
func Fold(days []DayRow) DaysOrder {
	var s DaysOrder
	if len(days) == 0 {
		return s
	}
	s.Days = make([]DayTotal, 0, len(days))
	var wins, losses int // the runs going on
	// The drawdown's walk: equity, its running peak (from 0, dated the
	// first day), and the largest fall so far.
	var equity, peak, fall int64
	peakDay := days[0].Day
	for _, d := range days {
		// Streaks: a day without the other outcome extends the run going on.
		if d.Losses == 0 {
			wins += d.Wins
		} else {
			s.MaxWins = max(s.MaxWins, wins+d.WinFirst, d.WinMax)
			wins = d.WinLast
		}
		if d.Wins == 0 {
			losses += d.Losses
		} else {
			s.MaxLosses = max(s.MaxLosses, losses+d.LossFirst, d.LossMax)
			losses = d.LossLast
		}
		s.MaxWins, s.MaxLosses = max(s.MaxWins, wins), max(s.MaxLosses, losses)

		// Drawdown: the day's largest fall is from the peak before it to
		// its lowest point, while no trade of the day passes that peak, or
		// its own largest fall, whose peak is then within the day. A day's
		// lowest point past a new peak of its own falls further from that
		// peak than from the one before, so the first is the larger unless
		// its lowest point comes before any new peak: on equal falls that
		// one, the earlier, counts.
		fromBefore, within := peak-equity-d.Low, d.Fall
		switch {
		case max(fromBefore, within) <= fall:
		case fromBefore >= within:
			fall, s.Drawdown.Start, s.Drawdown.End = fromBefore, peakDay, d.Day
		default:
			fall, s.Drawdown.Start, s.Drawdown.End = within, d.Day, d.Day
		}
		if equity+d.High > peak {
			peak, peakDay = equity+d.High, d.Day
		}
		equity += d.Net

		s.Days = append(s.Days, DayTotal{Date: d.Day, NetPnL: Amount(d.Net)})
	}
	s.Drawdown.Amount = Amount(fall)
	return s
}
