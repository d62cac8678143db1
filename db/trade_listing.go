package db

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// A trade's listing is its JSON as the trade list serves it, which every
// save of the trade (insertTrade, saveTrade) stores beside it (schema 7): a
// page of the list then reads one value per trade, not its columns and its
// fills' rows, and encodes nothing. Two things in it change without a save
// of the trade, so a listing holds neither and a page puts them in: its
// tags (a tag's name and colour change on their own) and its document
// count (schema 9: a document deleted elsewhere unlinks itself). A page
// reads, beside each listing, whether the trade has tags and how many
// documents it links to, both on the join tables' primary keys, and
// rewrites only the listings where either is not empty.

// listingLinks is where a listing's document count and tags are: the last
// fields of a trade's JSON are its document count, its tags and its two
// timestamps.
var listingLinks = []byte(`,"document_count":0,"tags":[],"created_at":`)

// encodeListing is t's listing: t as Trades serves it, with no tags and a
// document count of 0. Like every answer of the API, it does not escape <,
// > and &.
func encodeListing(t *Trade) ([]byte, error) {
	listed := *t
	listed.Tags = []TagRef{}
	listed.DocumentCount = 0
	if listed.Executions == nil {
		listed.Executions = []Execution{}
	}
	return EncodeJSON(listed)
}

// withLinks is a listing with the trade's document count and tags put in.
func withLinks(listing []byte, documents int, tags []TagRef) ([]byte, error) {
	if documents == 0 && len(tags) == 0 {
		return listing, nil
	}
	i := bytes.LastIndex(listing, listingLinks)
	if i < 0 {
		return nil, fmt.Errorf("listing without its document count and tags: %.60s…", listing)
	}
	encoded := []byte(`[]`)
	if len(tags) > 0 {
		var err error
		if encoded, err = EncodeJSON(tags); err != nil {
			return nil, err
		}
	}
	out := make([]byte, 0, len(listing)+len(encoded)+20)
	out = append(out, listing[:i]...)
	out = append(out, `,"document_count":`...)
	out = strconv.AppendInt(out, int64(documents), 10)
	out = append(out, `,"tags":`...)
	out = append(out, encoded...)
	return append(out, listing[i+len(listingLinks)-len(`,"created_at":`):]...), nil
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
// (its listing with its document count and tags), in the same order, and
// the same total.
func (db *DB) TradeListing(ctx context.Context, userID string, f TradeFilter, page Page) ([]json.RawMessage, int, error) {
	var total int
	out, err := inTx(ctx, db.beginRead, func(tx txn) ([]json.RawMessage, error) {
		where, args := f.where(userID)
		var err error
		if total, err = countTrades(ctx, tx, where, args); err != nil {
			return nil, err
		}
		rows, err := tx.QueryContext(ctx, pageQuery(`t.id, t.listing, EXISTS (SELECT 1 FROM trade_tags WHERE trade_id = t.id), `+documentCount,
			f.source(), where, page), append(args, page.Limit, page.Offset)...)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := []json.RawMessage{}
		var ids, tagged, unlisted []string
		var documents []int
		for rows.Next() {
			var id string
			var listing []byte
			var hasTags bool
			var n int
			if err := rows.Scan(&id, &listing, &hasTags, &n); err != nil {
				return nil, err
			}
			out = append(out, listing)
			ids = append(ids, id)
			documents = append(documents, n)
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
			if out[i], err = withLinks(out[i], documents[i], tags[id]); err != nil {
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
