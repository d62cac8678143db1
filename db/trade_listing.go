package db

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
)

// A trade's listing is its JSON as the trade list serves it, which every
// save of the trade (insertTrade, saveTrade) stores beside it (schema 7): a
// page of the list then reads one value per trade, not its columns and its
// fills' rows, and encodes nothing. Its tags are empty: a tag's name and
// colour change without a save of the trade, so a page puts in the tags of
// the trades that have any.

// listingTags is where a listing's empty tags are: the last fields of a
// trade's JSON are its tags and its two timestamps.
var listingTags = []byte(`,"tags":[],"created_at":`)

// encodeListing is t's listing: t as Trades serves it, with no tags. Like
// every answer of the API, it does not escape <, > and &.
func encodeListing(t *Trade) ([]byte, error) {
	listed := *t
	listed.Tags = []TagRef{}
	if listed.Executions == nil {
		listed.Executions = []Execution{}
	}
	return EncodeJSON(listed)
}

// withTags is a listing with the trade's tags put in.
func withTags(listing []byte, tags []TagRef) ([]byte, error) {
	if len(tags) == 0 {
		return listing, nil
	}
	i := bytes.LastIndex(listing, listingTags)
	if i < 0 {
		return nil, fmt.Errorf("listing without its tags: %.60s…", listing)
	}
	encoded, err := EncodeJSON(tags)
	if err != nil {
		return nil, err
	}
	at := i + len(`,"tags":`)
	out := make([]byte, 0, len(listing)+len(encoded))
	out = append(out, listing[:at]...)
	out = append(out, encoded...)
	return append(out, listing[at+len(`[]`):]...), nil
}

// EncodeJSON encodes v as every answer of the API is encoded, <, > and &
// as they are, without a newline. The server's answers and the stored
// listings both use it, so a listed trade is the trade as answered.
func EncodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// TradeListing is the page of Trades as the API lists it: each trade's JSON
// (its listing with its tags), in the same order, and the same total.
func (db *DB) TradeListing(ctx context.Context, userID string, f TradeFilter, page Page) ([]json.RawMessage, int, error) {
	var total int
	out, err := inTx(ctx, db.beginRead, func(tx txn) ([]json.RawMessage, error) {
		where, args := f.where(userID)
		var err error
		if total, err = countTrades(ctx, tx, where, args); err != nil {
			return nil, err
		}
		rows, err := tx.QueryContext(ctx, pageQuery(`t.id, t.listing, EXISTS (SELECT 1 FROM trade_tags WHERE trade_id = t.id)`,
			where, page), append(args, page.Limit, page.Offset)...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := []json.RawMessage{}
		var ids, tagged, unlisted []string
		for rows.Next() {
			var id string
			var listing []byte
			var hasTags bool
			if err := rows.Scan(&id, &listing, &hasTags); err != nil {
				return nil, err
			}
			out = append(out, listing)
			ids = append(ids, id)
			if hasTags {
				tagged = append(tagged, id)
			}
			if listing == nil {
				unlisted = append(unlisted, id)
			}
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		// A trade not listed yet (written by an older version, or straight
		// through SQL) is listed from its rows.
		listings := map[string][]byte{}
		if len(unlisted) > 0 {
			trades, err := loadTrades(ctx, tx, unlisted)
			if err != nil {
				return nil, err
			}
			for _, t := range trades {
				if listings[t.ID], err = encodeListing(&t); err != nil {
					return nil, err
				}
			}
		}
		tags, err := loadTags(ctx, tx, tradeTags, tagged)
		if err != nil {
			return nil, err
		}
		for i, id := range ids {
			if out[i] == nil {
				out[i] = listings[id]
			}
			if out[i], err = withTags(out[i], tags[id]); err != nil {
				return nil, err
			}
		}
		return out, nil
	})
	if err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// FillListings writes the listing of every trade that has none: the trades
// of a journal made before schema 7, or written straight through SQL. Open
// calls it; each batch is a transaction of its own, so a fill cut short is
// taken up where it stopped at the next Open.
func (db *DB) FillListings(ctx context.Context) (int, error) {
	filled := 0
	for {
		n, err := inTx(ctx, db.beginAlone, func(tx txn) (int, error) {
			ids, err := queryIDs(ctx, tx, `SELECT id FROM trades WHERE listing IS NULL LIMIT 1000`)
			if err != nil || len(ids) == 0 {
				return 0, err
			}
			trades, err := loadTrades(ctx, tx, ids)
			if err != nil {
				return 0, err
			}
			update, err := tx.stmt(ctx, `UPDATE trades SET listing = ? WHERE id = ?`)
			if err != nil {
				return 0, err
			}
			for _, t := range trades {
				listing, err := encodeListing(&t)
				if err != nil {
					return 0, err
				}
				if _, err := update.ExecContext(ctx, listing, t.ID); err != nil {
					return 0, err
				}
			}
			return len(trades), nil
		})
		filled += n
		if err != nil || n == 0 {
			return filled, err
		}
	}
}
