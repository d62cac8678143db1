package input

import (
	"fmt"
	"slices"
	"strings"

	"tradejournal/db"
)

// MaxBulkTrades bounds the trades one bulk change names.
const MaxBulkTrades = 500

// TradeBulk checks a bulk change of trades (DESIGN §11), for the API's body
// and the trade list's form alike: 1 to MaxBulkTrades trade ids, every id
// a UUID (lower-cased in place), a tag added or removed but not both, at
// least one action, and a delete alone. An empty tag list is no action.
func TradeBulk(f Errors, b *db.TradeBulk) {
	if n := len(b.TradeIDs); n == 0 || n > MaxBulkTrades {
		f.Add("trade_ids", fmt.Sprintf("trade_ids must hold 1 to %d trade ids, not %d", MaxBulkTrades, n))
	}
	for _, list := range []struct {
		field string
		ids   []string
	}{{"trade_ids", b.TradeIDs}, {"add_tag_ids", b.AddTagIDs}, {"remove_tag_ids", b.RemoveTagIDs}} {
		for i, id := range list.ids {
			list.ids[i], _ = f.UUID(fmt.Sprintf("%s[%d]", list.field, i), id)
		}
	}
	for i, id := range b.RemoveTagIDs {
		if slices.Contains(b.AddTagIDs, id) {
			field := fmt.Sprintf("remove_tag_ids[%d]", i)
			f.Add(field, field+" is also in add_tag_ids: a tag is added or removed, not both")
		}
	}
	if b.PlaybookID.Set && !b.PlaybookID.Null {
		b.PlaybookID.Value = BodyUUID(f, "playbook_id", b.PlaybookID, true)
	}
	var actions []string
	for _, a := range []struct {
		field string
		given bool
	}{
		{"add_tag_ids", len(b.AddTagIDs) > 0}, {"remove_tag_ids", len(b.RemoveTagIDs) > 0},
		{"playbook_id", b.PlaybookID.Set}, {"reviewed", b.Reviewed.Set},
	} {
		if a.given {
			actions = append(actions, a.field)
		}
	}
	switch {
	case b.Delete && len(actions) > 0:
		f.Add("delete", "delete goes alone: send "+strings.Join(actions, ", ")+" in a request of their own")
	case !b.Delete && len(actions) == 0:
		f.Add("body", "name an action: add_tag_ids, remove_tag_ids, playbook_id, reviewed or delete")
	}
}
