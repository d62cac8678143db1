package db

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"time"

	"tradejournal/db/brokers"
	"tradejournal/db/trading"
)

// grouper turns an import's new fills into trades, one contract of one
// account at a time, with what it needs loaded once per import.
type grouper struct {
	db        *DB
	tx        txn
	userID    string
	loc       *time.Location
	overrides map[string]trading.Instrument
	importID  *string
	now       string
	columns   map[string]string

	// previewOnly: a dry run, whose trades past the preview are worked
	// out (and their errors found) but not written, since nothing it
	// writes is kept and no later step reads them.
	previewOnly bool

	created, updated int
	warnings         []string
	preview          []Trade
	days             map[dayKey]bool
}

// contract groups the new fills of one contract in one account. They are
// split at the latest fill the account already holds in it: older ones (a
// backfill) are grouped among themselves and never reshape a trade; newer
// ones continue the account's latest trade while it is open, then follow it.
func (g *grouper) contract(ctx context.Context, k contractKey, fills []importedFill) error {
	slices.SortStableFunc(fills, func(a, b importedFill) int { return a.At.Compare(b.At) })

	var latestID, latestAt string
	var latestOpen bool
	err := g.tx.QueryRowContext(ctx, `SELECT t.id, e.execution_timestamp, t.exit_price IS NULL
		FROM executions e JOIN trades t ON t.id = e.trade_id
		WHERE t.user_id = ? AND t.account_id = ? AND t.symbol = ?
		ORDER BY e.execution_timestamp DESC LIMIT 1`, g.userID, k.accountID, trading.Normalise(k.contract)).
		Scan(&latestID, &latestAt, &latestOpen)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	split := 0
	if latestAt != "" {
		at, err := time.Parse(time.RFC3339Nano, latestAt)
		if err != nil {
			return err
		}
		split = len(fills)
		for i, f := range fills {
			if !f.At.Before(at) {
				split = i
				break
			}
		}
	}

	older, newer := fills[:split], fills[split:]
	if len(older) > 0 {
		flat, err := g.split(ctx, k, older, 0, nil)
		if err != nil {
			return err
		}
		if !flat {
			g.warnings = append(g.warnings, k.contract+": fills older than the journal's latest in this contract end with an open position; they were kept as an open trade of their own")
		}
	}
	if len(newer) == 0 {
		return nil
	}
	var open *Trade
	position := 0.0
	if latestOpen {
		t, err := loadTrade(ctx, g.tx, g.userID, latestID)
		if err != nil {
			return err
		}
		open = &t
		for _, e := range t.Executions {
			position += signed(e.Side, e.Quantity)
		}
		if trading.Round8(position) == 0 {
			open, position = nil, 0
		}
	}
	_, err = g.split(ctx, k, newer, position, open)
	return err
}

// splitChunk is about how many fills split hands the trading math at once.
const splitChunk = 4096

// split writes the trades of fills, in time order, from position (the
// first continuing open when it is not nil) and reports whether the last
// ends flat. The fills go to trading.Split a few thousand at a time, cut
// where the position is flat, where it would cut them itself: a file holds
// up to a million fills, each a trading.Fill and a piece of a cycle there.
func (g *grouper) split(ctx context.Context, k contractKey, fills []importedFill, position float64, open *Trade) (bool, error) {
	flat := true
	for len(fills) > 0 {
		n, pos := 0, position
		for n < len(fills) {
			pos += signed(fills[n].Side, fills[n].Quantity)
			n++
			if trading.Round8(pos) == 0 {
				pos = 0
				if n >= splitChunk {
					break
				}
			}
		}
		chunk := fills[:n]
		fills = fills[n:]
		cycles := trading.Split(rawFills(chunk), position)
		flat = cycles[len(cycles)-1].Flat
		if err := g.trades(ctx, k, chunk, cycles, open); err != nil {
			return false, err
		}
		position, open = pos, nil
	}
	return flat, nil
}

// trades writes one trade per cycle; the first continues open when open is
// not nil.
func (g *grouper) trades(ctx context.Context, k contractKey, fills []importedFill, cycles []trading.Cycle, open *Trade) error {
	for i, c := range cycles {
		execs := make([]Execution, len(c.Pieces))
		for j, p := range c.Pieces {
			execs[j] = g.execution(fills[p.Index], p)
		}
		if i > 0 && c.Pieces[0].Index == cycles[i-1].Pieces[len(cycles[i-1].Pieces)-1].Index {
			// The part of a crossing fill that opens this trade: its own
			// source id, so that the journal's export, which lists the two
			// parts, imports back as the same two trades.
			execs[0].sourceID += openingPart
		}
		first := fills[c.Pieces[0].Index]
		if i == 0 && open != nil {
			if err := g.continueTrade(ctx, open, execs, first); err != nil {
				return err
			}
			continue
		}
		t := Trade{ID: g.db.NewID(), AccountID: k.accountID, Symbol: trading.Normalise(k.contract), Side: c.Side,
			Executions: execs, Tags: []TagRef{}, CreatedAt: g.now, UpdatedAt: g.now,
			review: tradeReview{stops: levels{}, targets: levels{}}}
		if err := priceTrade(&t, g.overrides, g.loc); err != nil {
			return g.rowError(err, first)
		}
		g.created++
		if g.previewOnly && len(g.preview) >= maxPreview {
			continue
		}
		if err := insertTrade(ctx, g.tx, g.userID, &t); err != nil {
			return err
		}
		g.done(t)
	}
	return nil
}

// continueTrade adds fills to the account's open trade and derives it again.
func (g *grouper) continueTrade(ctx context.Context, t *Trade, execs []Execution, first importedFill) error {
	t.Executions = append(t.Executions, execs...)
	t.UpdatedAt = g.now
	if err := priceTrade(t, g.overrides, g.loc); err != nil {
		return g.rowError(err, first)
	}
	// The new fills as derived: with their types.
	fresh := make(map[string]bool, len(execs))
	for _, e := range execs {
		fresh[e.ID] = true
	}
	added := make([]Execution, 0, len(execs))
	for _, e := range t.Executions {
		if fresh[e.ID] {
			added = append(added, e)
		}
	}
	if err := insertExecutions(ctx, g.tx, t.ID, added); err != nil {
		return err
	}
	// The fills added change the accounts' walks from the trade's entry
	// day on. No trigger marks a fill inserted (schema 00016); renumbering
	// the fills below marks the day too, but that is how saveTrade works
	// today, not a promise. A new entry day is marked by the trade's update.
	if _, err := g.tx.ExecContext(ctx, `INSERT INTO trade_days_stale (user_id, day) VALUES (?, ?) ON CONFLICT DO NOTHING`,
		g.userID, t.EntryDate); err != nil {
		return err
	}
	// Positions and derived types of every fill, old and new.
	if err := saveTrade(ctx, g.tx, g.userID, t, false); err != nil {
		return err
	}
	if err := g.db.evaluateRules(ctx, g.tx, g.userID, t, false); err != nil {
		return err
	}
	g.updated++
	g.done(*t)
	return nil
}

func (g *grouper) done(t Trade) {
	g.days[dayKey{t.AccountID, t.EntryDate}] = true
	if len(g.preview) < maxPreview {
		g.preview = append(g.preview, t)
	}
}

// execution is the part p of the read fill f, as stored.
func (g *grouper) execution(f importedFill, p trading.Piece) Execution {
	local := f.At.In(g.loc)
	return Execution{ID: g.db.NewID(), Side: f.Side, Price: f.Price, Quantity: p.Quantity, Commission: p.Commission,
		ExecutionDate: local.Format(DateLayout), ExecutionTime: local.Format(TimeLayout),
		ExecutionTimestamp: formatFillTimestamp(f.At), sourceID: f.sourceID(), importID: g.importID}
}

// rowError turns a trade the rules refuse (a root without a point value)
// into an error on the row of its first fill.
func (g *grouper) rowError(err error, f importedFill) error {
	var inv *InvalidError
	if !errors.As(err, &inv) {
		return err
	}
	return &brokers.Error{Rows: []brokers.RowError{{Line: f.Line, Column: g.columns["contract"], Message: inv.Message}}}
}

// openingPart marks the source id of the part of a crossing fill that opens
// the next trade; the part that closes keeps the fill's own.
const openingPart = ":open"

// rawFills is what the trading math sees of read fills.
func rawFills(fills []importedFill) []trading.Fill {
	out := make([]trading.Fill, len(fills))
	for i, f := range fills {
		out[i] = trading.Fill{Side: f.Side, Price: f.Price, Quantity: f.Quantity, Commission: f.commission, At: f.At}
	}
	return out
}

// signed is a fill's change of the position: a buy adds, a sell takes away.
func signed(side string, q float64) float64 {
	if side == "sell" {
		return -q
	}
	return q
}
