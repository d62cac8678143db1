package db

import (
	"context"
	"slices"
)

// TagRef is a tag as it appears on tagged content.
type TagRef struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	TagGroupID string `json:"tag_group_id"`
	GroupColor string `json:"groupColor"`
}

// tagJoin names a taggable resource's join table and its key column. Only
// the constants below exist, so their names are safe to put into SQL.
type tagJoin struct{ table, column string }

var (
	accountTags  = tagJoin{"account_tags", "account_id"}
	tradeTags    = tagJoin{"trade_tags", "trade_id"}
	playbookTags = tagJoin{"playbook_tags", "playbook_id"}
	strategyTags = tagJoin{"strategy_tags", "strategy_id"}

	writeUpTags    = tagJoin{"write_up_tags", "write_up_id"}
	planTags       = tagJoin{"trading_plan_tags", "trading_plan_id"}
	chartBookTags  = tagJoin{"chart_book_tags", "chart_book_id"}
	reportCardTags = tagJoin{"report_card_tags", "report_card_id"}
)

// loadTags reads the tags of many records in one query, keyed by record id.
// Every id gets a non-nil slice, so records without tags serve `[]`.
func loadTags(ctx context.Context, q querier, j tagJoin, ids []string) (map[string][]TagRef, error) {
	out := make(map[string][]TagRef, len(ids))
	for _, id := range ids {
		out[id] = []TagRef{}
	}
	if len(ids) == 0 {
		return out, nil
	}
	// One record (a single read) is looked up plainly: cheaper than json_each.
	where, arg := `= ?`, any(ids[0])
	if len(ids) > 1 {
		where, arg = `IN (SELECT value FROM json_each(?))`, jsonList(ids)
	}
	rows, err := q.QueryContext(ctx, `
		SELECT x.`+j.column+`, t.id, t.name, t.tag_group_id, g.color
		FROM `+j.table+` x
		JOIN tags t ON t.id = x.tag_id
		JOIN tag_groups g ON g.id = t.tag_group_id
		WHERE x.`+j.column+` `+where+`
		ORDER BY g.sort_order, g.name, t.sort_order, t.name`, arg)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var owner string
		var t TagRef
		if err := rows.Scan(&owner, &t.ID, &t.Name, &t.TagGroupID, &t.GroupColor); err != nil {
			return nil, err
		}
		out[owner] = append(out[owner], t)
	}
	return out, rows.Err()
}

// setTags replaces a record's tags with tagIDs when they were given
// (replaceTags), and returns the record's tags either way.
func setTags(ctx context.Context, tx txn, userID string, j tagJoin, id string, tagIDs Optional[[]string]) ([]TagRef, error) {
	if err := replaceTags(ctx, tx, userID, j, id, tagIDs); err != nil {
		return nil, err
	}
	tags, err := loadTags(ctx, tx, j, []string{id})
	return tags[id], err
}

// replaceTags replaces a record's tags with tagIDs when they were given.
// Every id must be one of the user's tags, else it is a *NotFoundError
// naming tag_ids; duplicates are ignored.
func replaceTags(ctx context.Context, tx txn, userID string, j tagJoin, id string, tagIDs Optional[[]string]) error {
	if !tagIDs.Set {
		return nil
	}
	ids := slices.Clone(tagIDs.Value)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var owned int
	err := tx.QueryRowContext(ctx, `SELECT count(*) FROM tags
		WHERE user_id = ? AND id IN (SELECT value FROM json_each(?))`, userID, jsonList(ids)).Scan(&owned)
	if err != nil {
		return err
	}
	if owned != len(ids) {
		return &NotFoundError{Kind: "Tag", Field: "tag_ids"}
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM `+j.table+` WHERE `+j.column+` = ?`, id); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO `+j.table+` (`+j.column+`, tag_id)
		SELECT ?, value FROM json_each(?)`, id, jsonList(ids))
	return err
}
