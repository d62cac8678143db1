package db

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"tradejournal/db/trading"
)

// Duplicates across formats (DESIGN §14). One trade's fills often come
// twice, in two exports of one platform (Tradovate's Orders and
// Performance) whose ids differ, so source ids cannot see it. The file's
// fills are matched against the account's fills from other sources (another
// format, a mapping, fills posted by a script, fills typed in) by contract,
// side, price and the second they filled in.

// heldKey is what a fill is matched by across sources.
type heldKey struct {
	accountID, symbol, side string
	price                   float64 // to 8 decimals
	second                  int64   // Unix time, the fraction dropped
}

func heldKeyOf(accountID, contract, side string, price float64, at time.Time) heldKey {
	return heldKey{accountID: accountID, symbol: trading.Normalise(contract), side: side, price: trading.Round8(price),
		second: at.Unix()}
}

// heldGroup is the file's quantity in one heldKey and the quantity the
// account already holds there from other sources.
type heldGroup struct {
	file, held float64
	contract   string // as the file writes it, for the warning
}

// dropHeldElsewhere drops, of the file's new fills, each group whose
// quantity the account already holds from other sources: every fill of a
// group whose file quantity is at most the held quantity is a duplicate.
// Where the file has more, none is, and a warning says so. Fills of one
// file that are identical to each other stay (DESIGN §8).
//
// A file holds up to a million fills, nearly always none of them held
// elsewhere: the seconds it names are looked up a few thousand at a time,
// each by the executions' time index, and groups are made only of the
// fills in a key something is held in.
func (db *DB) dropHeldElsewhere(ctx context.Context, tx txn, userID string, in ImportInput, fills []importedFill) ([]importedFill, []string, error) {
	if len(fills) == 0 {
		return fills, nil, nil
	}
	seconds := make([]int64, len(fills))
	for i, f := range fills {
		seconds[i] = f.At.Unix()
	}
	slices.Sort(seconds)
	seconds = slices.Compact(seconds)
	held := map[heldKey]*heldGroup{}
	for len(seconds) > 0 {
		chunk := seconds[:min(secondsPerQuery, len(seconds))]
		seconds = seconds[len(chunk):]
		if err := heldIn(ctx, tx, userID, in, chunk, held); err != nil {
			return nil, nil, err
		}
	}
	if len(held) == 0 {
		return fills, nil, nil
	}

	var order []heldKey // the groups something is held in, in file order, for the warnings
	for _, f := range fills {
		k := heldKeyOf(f.accountID, f.Contract, f.Side, f.Price, f.At)
		if g := held[k]; g != nil {
			if g.contract == "" {
				g.contract = f.Contract
				order = append(order, k)
			}
			g.file += f.Quantity
		}
	}
	loc, err := db.zones.load(in.Timezone)
	if err != nil {
		return nil, nil, err
	}
	var warnings []string
	for _, k := range order {
		g := held[k]
		if trading.Round8(g.file) > trading.Round8(g.held) {
			warnings = append(warnings, fmt.Sprintf("%s at %s: %s in the file, %s already held from another source; imported",
				g.contract, time.Unix(k.second, 0).In(loc).Format("2006-01-02 15:04:05"), quantityText(g.file), quantityText(g.held)))
		}
	}
	kept := fills[:0] // in place: each fill is read before its slot is written
	for _, f := range fills {
		g := held[heldKeyOf(f.accountID, f.Contract, f.Side, f.Price, f.At)]
		if g != nil && trading.Round8(g.file) <= trading.Round8(g.held) {
			continue // held from another source
		}
		kept = append(kept, f)
	}
	return kept, warnings, nil
}

// secondsPerQuery is how many seconds heldIn looks up at once.
const secondsPerQuery = 4096

// heldIn adds to held the quantities the user's fills from other sources
// hold in the given seconds, by key.
func heldIn(ctx context.Context, tx txn, userID string, in ImportInput, seconds []int64, held map[heldKey]*heldGroup) error {
	// Each second as the range of stored timestamps it covers: they are
	// written in UTC, with any fraction after the seconds.
	ranges := make([][2]string, len(seconds))
	for i, s := range seconds {
		ranges[i] = [2]string{secondText(s), secondText(s + 1)}
	}
	probe, err := json.Marshal(ranges)
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, heldElsewhereQuery, string(probe), userID, in.File.Format, nullable(in.File.MappingID))
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var accountID, symbol, side, stamp string
		var price, quantity float64
		if err := rows.Scan(&accountID, &symbol, &side, &price, &quantity, &stamp); err != nil {
			return err
		}
		at, err := parseFillTimestamp(stamp)
		if err != nil {
			return err
		}
		k := heldKeyOf(accountID, symbol, side, price, at)
		if held[k] == nil {
			held[k] = &heldGroup{}
		}
		held[k].held += quantity
	}
	return rows.Err()
}

// heldElsewhereQuery reads the user's fills in the seconds of its first
// argument, a JSON array of [from, to) ranges of stored timestamps, that
// came from no import of the format its third argument names, read by the
// mapping its fourth names (null for a format: each mapping is a source of
// its own; a fill typed in, with no import, is from another source too).
// CROSS JOIN keeps the order (SQLite never reorders it): second by second,
// each by the time index, rather than every fill of the user's matched
// against them.
const heldElsewhereQuery = `SELECT t.account_id, t.symbol, e.side, e.price, e.quantity, e.execution_timestamp
	FROM json_each(?) s
	CROSS JOIN executions e ON e.execution_timestamp >= s.value ->> 0 AND e.execution_timestamp < s.value ->> 1
	CROSS JOIN trades t ON t.id = e.trade_id
	WHERE t.user_id = ? AND NOT EXISTS (SELECT 1 FROM imports i WHERE i.id = e.import_id AND i.format = ? AND i.mapping_id IS ?)`

// secondText is the start of the stored timestamps of the Unix second s.
func secondText(s int64) string {
	return time.Unix(s, 0).UTC().Format("2006-01-02T15:04:05")
}

// quantityText writes a quantity as a person would: 3, 2.5.
func quantityText(q float64) string {
	return strconv.FormatFloat(trading.Round8(q), 'f', -1, 64)
}
