package db

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
)

// TagGroup is a named, coloured group of tags.
type TagGroup struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Color     string `json:"color"`
	SortOrder int    `json:"sort_order"`
	Tags      []Tag  `json:"tags"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

// Tag is one tag of a group.
type Tag struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	TagGroupID string `json:"tag_group_id"`
	SortOrder  int    `json:"sort_order"`
	CreatedAt  string `json:"created_at"`
	UpdatedAt  string `json:"updated_at"`
}

// TagGroupUpdate holds the fields a tag group update may change.
type TagGroupUpdate struct {
	Name      Optional[string]
	Color     Optional[string]
	SortOrder Optional[int]
}

// TagUpdate holds the fields a tag update may change; a new TagGroupID
// moves the tag.
type TagUpdate struct {
	Name       Optional[string]
	TagGroupID Optional[string]
	SortOrder  Optional[int]
}

// TagOrder is one tag's new place in a bulk reorder.
type TagOrder struct {
	ID        string
	SortOrder int
}

// tagJoinTables are every taggable resource's join table, for counting the
// associations a delete removes.
var tagJoinTables = []string{"trade_tags", "account_tags", "playbook_tags", "strategy_tags",
	"write_up_tags", "trading_plan_tags", "chart_book_tags", "report_card_tags"}

const (
	tagGroupColumns = `id, name, color, sort_order, created_at, updated_at`
	tagColumns      = `id, name, tag_group_id, sort_order, created_at, updated_at`
)

func scanTagGroup(s interface{ Scan(...any) error }) (TagGroup, error) {
	g := TagGroup{Tags: []Tag{}}
	err := s.Scan(&g.ID, &g.Name, &g.Color, &g.SortOrder, &g.CreatedAt, &g.UpdatedAt)
	return g, err
}

func scanTag(s interface{ Scan(...any) error }) (Tag, error) {
	var t Tag
	err := s.Scan(&t.ID, &t.Name, &t.TagGroupID, &t.SortOrder, &t.CreatedAt, &t.UpdatedAt)
	return t, err
}

// TagGroups lists the user's groups with their tags, both by sort order,
// then name.
func (db *DB) TagGroups(ctx context.Context, userID string) ([]TagGroup, error) {
	return inTx(ctx, db.beginRead, func(tx txn) ([]TagGroup, error) {
		return tagGroups(ctx, tx, userID)
	})
}

func tagGroups(ctx context.Context, q querier, userID string) ([]TagGroup, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+tagGroupColumns+` FROM tag_groups WHERE user_id = ? ORDER BY sort_order, name, id`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	groups := []TagGroup{}
	index := map[string]int{}
	for rows.Next() {
		g, err := scanTagGroup(rows)
		if err != nil {
			return nil, err
		}
		index[g.ID] = len(groups)
		groups = append(groups, g)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	rows, err = q.QueryContext(ctx, `SELECT `+tagColumns+` FROM tags WHERE user_id = ? ORDER BY sort_order, name, id`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		t, err := scanTag(rows)
		if err != nil {
			return nil, err
		}
		if i, ok := index[t.TagGroupID]; ok {
			groups[i].Tags = append(groups[i].Tags, t)
		}
	}
	return groups, rows.Err()
}

// CreateTagGroup adds a group at the end of the user's groups.
func (db *DB) CreateTagGroup(ctx context.Context, userID, name, color string) (TagGroup, error) {
	return inTx(ctx, db.begin, func(tx txn) (TagGroup, error) {
		g, err := db.insertTagGroup(ctx, tx, userID, name, color)
		if err != nil {
			return TagGroup{}, err
		}
		return g, nil
	})
}

func (db *DB) insertTagGroup(ctx context.Context, tx txn, userID, name, color string) (TagGroup, error) {
	now := db.now()
	g := TagGroup{ID: db.NewID(), Name: name, Color: color, Tags: []Tag{}, CreatedAt: now, UpdatedAt: now}
	err := tx.QueryRowContext(ctx, `INSERT INTO tag_groups (id, user_id, name, color, sort_order, created_at, updated_at)
		VALUES (?, ?, ?, ?, (SELECT coalesce(max(sort_order) + 1, 0) FROM tag_groups WHERE user_id = ?), ?, ?)
		RETURNING sort_order`, g.ID, userID, g.Name, g.Color, userID, g.CreatedAt, g.UpdatedAt).Scan(&g.SortOrder)
	if isUniqueViolation(err) {
		return TagGroup{}, groupNameTaken(name)
	}
	return g, err
}

func groupNameTaken(name string) error {
	return &ConflictError{Message: "A tag group with this name already exists",
		Details: map[string]string{"name": "tag group " + name + " already exists"}}
}

func tagNameTaken(name string) error {
	return &ConflictError{Message: "A tag with this name already exists in the group",
		Details: map[string]string{"name": "tag " + name + " already exists in this group"}}
}

// UpdateTagGroup renames, recolours or reorders a group.
func (db *DB) UpdateTagGroup(ctx context.Context, userID, id string, upd TagGroupUpdate) (TagGroup, error) {
	return inTx(ctx, db.begin, func(tx txn) (TagGroup, error) {
		g, err := scanTagGroup(tx.QueryRowContext(ctx, `SELECT `+tagGroupColumns+` FROM tag_groups WHERE user_id = ? AND id = ?`, userID, id))
		if errors.Is(err, sql.ErrNoRows) {
			return TagGroup{}, notFound("Tag group")
		}
		if err != nil {
			return TagGroup{}, err
		}
		if upd.Name.Set {
			g.Name = upd.Name.Value
		}
		if upd.Color.Set {
			g.Color = upd.Color.Value
		}
		if upd.SortOrder.Set {
			g.SortOrder = upd.SortOrder.Value
		}
		g.UpdatedAt = db.now()
		_, err = tx.ExecContext(ctx, `UPDATE tag_groups SET name = ?, color = ?, sort_order = ?, updated_at = ? WHERE id = ?`,
			g.Name, g.Color, g.SortOrder, g.UpdatedAt, g.ID)
		if isUniqueViolation(err) {
			return TagGroup{}, groupNameTaken(g.Name)
		}
		if err != nil {
			return TagGroup{}, err
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+tagColumns+` FROM tags WHERE tag_group_id = ? ORDER BY sort_order, name, id`, id)
		if err != nil {
			return TagGroup{}, err
		}
		defer rows.Close()
		for rows.Next() {
			t, err := scanTag(rows)
			if err != nil {
				return TagGroup{}, err
			}
			g.Tags = append(g.Tags, t)
		}
		if err := rows.Err(); err != nil {
			return TagGroup{}, err
		}
		return g, nil
	})
}

// countTagLinks counts the associations of the tags matching cond (a
// condition over tags t with its arguments) across every taggable resource.
func countTagLinks(ctx context.Context, tx txn, cond string, args ...any) (int, error) {
	var parts []string
	for _, table := range tagJoinTables {
		parts = append(parts, `(SELECT count(*) FROM `+table+` WHERE tag_id IN (SELECT t.id FROM tags t WHERE `+cond+`))`)
	}
	var all []any
	for range tagJoinTables {
		all = append(all, args...)
	}
	var n int
	err := tx.QueryRowContext(ctx, `SELECT `+strings.Join(parts, " + "), all...).Scan(&n)
	return n, err
}

// DeleteTagGroup removes a group, its tags and their associations with all
// content, in one transaction.
func (db *DB) DeleteTagGroup(ctx context.Context, userID, id string) (Deleted, error) {
	return inTx(ctx, db.begin, func(tx txn) (Deleted, error) {
		var err error
		var tags int
		err = tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM tags WHERE tag_group_id = g.id)
			FROM tag_groups g WHERE g.user_id = ? AND g.id = ?`, userID, id).Scan(&tags)
		if errors.Is(err, sql.ErrNoRows) {
			return Deleted{}, notFound("Tag group")
		}
		if err != nil {
			return Deleted{}, err
		}
		links, err := countTagLinks(ctx, tx, "t.tag_group_id = ?", id)
		if err != nil {
			return Deleted{}, err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM tag_groups WHERE user_id = ? AND id = ?`, userID, id); err != nil {
			return Deleted{}, err
		}
		d := Deleted{ID: id, Warnings: []string{}}
		d.note("Deleted", tags, "tag")
		d.note("Removed", links, "tag association")
		return d, nil
	})
}

// ownGroup checks that groupID is one of the user's groups; field names the
// body field that held it.
func ownGroup(ctx context.Context, tx txn, userID, groupID, field string) error {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM tag_groups WHERE user_id = ? AND id = ?`, userID, groupID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return &NotFoundError{Kind: "Tag group", Field: field}
	}
	return err
}

// CreateTag adds a tag at the end of one of the user's groups.
func (db *DB) CreateTag(ctx context.Context, userID, groupID, name string) (Tag, error) {
	return inTx(ctx, db.begin, func(tx txn) (Tag, error) {
		if err := ownGroup(ctx, tx, userID, groupID, "tag_group_id"); err != nil {
			return Tag{}, err
		}
		t, err := db.insertTag(ctx, tx, userID, groupID, name)
		if err != nil {
			return Tag{}, err
		}
		return t, nil
	})
}

func (db *DB) insertTag(ctx context.Context, tx txn, userID, groupID, name string) (Tag, error) {
	now := db.now()
	t := Tag{ID: db.NewID(), Name: name, TagGroupID: groupID, CreatedAt: now, UpdatedAt: now}
	err := tx.QueryRowContext(ctx, `INSERT INTO tags (id, user_id, tag_group_id, name, sort_order, created_at, updated_at)
		VALUES (?, ?, ?, ?, (SELECT coalesce(max(sort_order) + 1, 0) FROM tags WHERE tag_group_id = ?), ?, ?)
		RETURNING sort_order`, t.ID, userID, groupID, name, groupID, now, now).Scan(&t.SortOrder)
	if isUniqueViolation(err) {
		return Tag{}, tagNameTaken(name)
	}
	return t, err
}

// UpdateTag renames, reorders or moves a tag. A tag moved without a
// sort_order goes last in its new group.
func (db *DB) UpdateTag(ctx context.Context, userID, id string, upd TagUpdate) (Tag, error) {
	return inTx(ctx, db.begin, func(tx txn) (Tag, error) {
		t, err := scanTag(tx.QueryRowContext(ctx, `SELECT `+tagColumns+` FROM tags WHERE user_id = ? AND id = ?`, userID, id))
		if errors.Is(err, sql.ErrNoRows) {
			return Tag{}, notFound("Tag")
		}
		if err != nil {
			return Tag{}, err
		}
		if upd.TagGroupID.Set && upd.TagGroupID.Value != t.TagGroupID {
			if err := ownGroup(ctx, tx, userID, upd.TagGroupID.Value, "tag_group_id"); err != nil {
				return Tag{}, err
			}
			t.TagGroupID = upd.TagGroupID.Value
			if !upd.SortOrder.Set {
				if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(sort_order) + 1, 0) FROM tags WHERE tag_group_id = ?`,
					t.TagGroupID).Scan(&t.SortOrder); err != nil {
					return Tag{}, err
				}
			}
		}
		if upd.Name.Set {
			t.Name = upd.Name.Value
		}
		if upd.SortOrder.Set {
			t.SortOrder = upd.SortOrder.Value
		}
		t.UpdatedAt = db.now()
		_, err = tx.ExecContext(ctx, `UPDATE tags SET name = ?, tag_group_id = ?, sort_order = ?, updated_at = ? WHERE id = ?`,
			t.Name, t.TagGroupID, t.SortOrder, t.UpdatedAt, t.ID)
		if isUniqueViolation(err) {
			return Tag{}, tagNameTaken(t.Name)
		}
		if err != nil {
			return Tag{}, err
		}
		return t, nil
	})
}

// ReorderTags sets the sort order of several tags of one group at once and
// returns the group's tags in their new order. Every tag must be the
// user's (else *NotFoundError) and in the group (else *InvalidError naming
// its index).
func (db *DB) ReorderTags(ctx context.Context, userID, groupID string, orders []TagOrder) ([]Tag, error) {
	return inTx(ctx, db.begin, func(tx txn) ([]Tag, error) {
		if err := ownGroup(ctx, tx, userID, groupID, "tagGroupId"); err != nil {
			return nil, err
		}
		now := db.now()
		for i, o := range orders {
			var group string
			err := tx.QueryRowContext(ctx, `SELECT tag_group_id FROM tags WHERE user_id = ? AND id = ?`, userID, o.ID).Scan(&group)
			if errors.Is(err, sql.ErrNoRows) {
				return nil, &NotFoundError{Kind: "Tag", Field: "tags[" + strconv.Itoa(i) + "].id"}
			}
			if err != nil {
				return nil, err
			}
			if group != groupID {
				return nil, &InvalidError{Field: "tags[" + strconv.Itoa(i) + "].id", Message: "tag " + o.ID + " is not in group " + groupID}
			}
			if _, err := tx.ExecContext(ctx, `UPDATE tags SET sort_order = ?, updated_at = ? WHERE id = ?`, o.SortOrder, now, o.ID); err != nil {
				return nil, err
			}
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+tagColumns+` FROM tags WHERE tag_group_id = ? ORDER BY sort_order, name, id`, groupID)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		tags := []Tag{}
		for rows.Next() {
			t, err := scanTag(rows)
			if err != nil {
				return nil, err
			}
			tags = append(tags, t)
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
		return tags, nil
	})
}

// DeleteTag removes a tag from all content it was applied to, and the tag.
func (db *DB) DeleteTag(ctx context.Context, userID, id string) (Deleted, error) {
	return inTx(ctx, db.begin, func(tx txn) (Deleted, error) {
		links, err := countTagLinks(ctx, tx, "t.user_id = ? AND t.id = ?", userID, id)
		if err != nil {
			return Deleted{}, err
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM tags WHERE user_id = ? AND id = ?`, userID, id)
		if err != nil {
			return Deleted{}, err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return Deleted{}, notFound("Tag")
		}
		d := Deleted{ID: id, Warnings: []string{}}
		d.note("Removed", links, "tag association")
		return d, nil
	})
}
