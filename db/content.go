package db

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
)

// Content is the store of one kind of content: write-ups, trading plans,
// chart books or report cards. The four are the same record with other
// fields (a user's row with tags and a reference, listed newest first), so
// one mechanism serves them all, driven by each kind's description. Its
// methods own their transactions.
type Content[T, In any] struct {
	db   *DB
	kind *contentKind[T, In]
}

// contentKind describes one kind of content to the shared code. Table and
// column names are constants of this package, so they are safe in SQL.
type contentKind[T, In any] struct {
	name    string   // "Write-up", as its not-found error names it
	table   string   // "write_ups"
	columns []string // its own columns, in the order row lists their fields
	refs    []contentRef[In]
	dated   string // the column of the date-range filter; "" is created_at, by day in the user's timezone
	tags    tagJoin
	links   []contentLink // associations besides tags that a delete removes and counts
	row     func(*T) contentRow
	apply   func(*T, In) // copies the fields set in a body onto the record
	tagIDs  func(In) Optional[[]string]
	// saveParts and loadParts, when set, keep what lives outside the row
	// (a chart book's documents); loadParts fills a whole page at once.
	saveParts func(ctx context.Context, tx txn, userID, id string, in In) error
	loadParts func(ctx context.Context, q querier, items []T) error
}

// contentRow is a record as the shared code sees it: pointers into it. The
// same pointers are scanned into and bound as arguments (database/sql binds
// what a pointer points at, and a nil *string as NULL).
type contentRow struct {
	id, createdAt, updatedAt *string
	tags                     *[]TagRef
	fields                   []any // the kind's own columns
}

// contentRef is a column holding the id of another of the user's records:
// a body's reference to it must be the user's, and lists filter on it.
type contentRef[In any] struct {
	column, table, kind string // "trade_id", "trades", "Trade"
	value               func(In) Optional[string]
}

// contentLink is a join table whose rows a delete removes, counted in its
// warnings as verb + "2 " + noun + "s".
type contentLink struct {
	table, column string // "chart_book_documents", "chart_book_id"
	verb, noun    string // "Unlinked", "document"
}

// Kind names the records as their not-found error does: "Write-up".
func (c Content[T, In]) Kind() string { return c.kind.name }

// RefFilters are the reference columns a list filters on, each read from
// the query parameter of the same name.
func (c Content[T, In]) RefFilters() []string {
	var out []string
	for _, r := range c.kind.refs {
		out = append(out, r.column)
	}
	return out
}

// Get reads one of the user's records with its tags.
func (c Content[T, In]) Get(ctx context.Context, userID, id string) (T, error) {
	return inTx(ctx, c.db.beginRead, func(tx txn) (T, error) {
		return c.load(ctx, tx, userID, id)
	})
}

// Create adds a record for the user with its tags. A reference to a record
// that is not the user's is a *NotFoundError naming the field.
func (c Content[T, In]) Create(ctx context.Context, userID string, in In) (T, error) {
	var rec T
	r := c.kind.row(&rec)
	now := c.db.now()
	*r.id, *r.createdAt, *r.updatedAt = c.db.NewID(), now, now
	c.kind.apply(&rec, in)
	return inTx(ctx, c.db.begin, func(tx txn) (T, error) {
		if err := c.checkRefs(ctx, tx, userID, in); err != nil {
			return rec, err
		}
		args := append(append([]any{userID, r.id}, r.fields...), r.createdAt, r.updatedAt)
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+c.kind.table+` (user_id, `+c.selectList()+`)
			VALUES (?`+strings.Repeat(", ?", len(args)-1)+`)`, args...); err != nil {
			return rec, err
		}
		if err := c.save(ctx, tx, userID, *r.id, in); err != nil {
			return rec, err
		}
		return c.load(ctx, tx, userID, *r.id)
	})
}

// Update changes the fields set in in; tag_ids given replace the tags.
func (c Content[T, In]) Update(ctx context.Context, userID, id string, in In) (T, error) {
	return inTx(ctx, c.db.begin, func(tx txn) (T, error) {
		rec, err := c.one(ctx, tx, userID, id)
		if err != nil {
			return rec, err
		}
		c.kind.apply(&rec, in)
		if err := c.checkRefs(ctx, tx, userID, in); err != nil {
			return rec, err
		}
		r := c.kind.row(&rec)
		*r.updatedAt = c.db.now()
		args := append(append([]any{}, r.fields...), r.updatedAt, userID, id)
		if _, err := tx.ExecContext(ctx, `UPDATE `+c.kind.table+` SET `+strings.Join(c.kind.columns, ` = ?, `)+
			` = ?, updated_at = ? WHERE user_id = ? AND id = ?`, args...); err != nil {
			return rec, err
		}
		if err := c.save(ctx, tx, userID, id, in); err != nil {
			return rec, err
		}
		return c.load(ctx, tx, userID, id)
	})
}

// Delete removes one of the user's records with its tag associations and
// links, in one transaction; the warnings count them.
func (c Content[T, In]) Delete(ctx context.Context, userID, id string) (Deleted, error) {
	return inTx(ctx, c.db.begin, func(tx txn) (Deleted, error) {
		links := slices.Concat(c.kind.links,
			[]contentLink{{c.kind.tags.table, c.kind.tags.column, "Removed", "tag association"}})
		counts, dest, subqueries := make([]int, len(links)), make([]any, len(links)), make([]string, len(links))
		for i, l := range links {
			dest[i] = &counts[i]
			subqueries[i] = `(SELECT count(*) FROM ` + l.table + ` WHERE ` + l.column + ` = x.id)`
		}
		err := tx.QueryRowContext(ctx, `SELECT `+strings.Join(subqueries, ", ")+` FROM `+c.kind.table+` x
			WHERE x.user_id = ? AND x.id = ?`, userID, id).Scan(dest...)
		if errors.Is(err, sql.ErrNoRows) {
			return Deleted{}, notFound(c.kind.name)
		}
		if err != nil {
			return Deleted{}, err
		}
		// The links and tag associations go by ON DELETE CASCADE.
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+c.kind.table+` WHERE user_id = ? AND id = ?`, userID, id); err != nil {
			return Deleted{}, err
		}
		d := Deleted{ID: id, Warnings: []string{}}
		for i, l := range links {
			d.note(l.verb, counts[i], l.noun)
		}
		return d, nil
	})
}

// selectList is the record's columns in the order scan reads them.
func (c Content[T, In]) selectList() string {
	return `id, ` + strings.Join(c.kind.columns, ", ") + `, created_at, updated_at`
}

func (c Content[T, In]) scan(s interface{ Scan(...any) error }) (T, error) {
	var rec T
	r := c.kind.row(&rec)
	err := s.Scan(append(append([]any{r.id}, r.fields...), r.createdAt, r.updatedAt)...)
	return rec, err
}

// one reads one of the user's records without its tags and parts.
func (c Content[T, In]) one(ctx context.Context, q querier, userID, id string) (T, error) {
	rec, err := c.scan(q.QueryRowContext(ctx, `SELECT `+c.selectList()+` FROM `+c.kind.table+`
		WHERE user_id = ? AND id = ?`, userID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return rec, notFound(c.kind.name)
	}
	return rec, err
}

// load reads one of the user's records whole.
func (c Content[T, In]) load(ctx context.Context, q querier, userID, id string) (T, error) {
	rec, err := c.one(ctx, q, userID, id)
	if err != nil {
		return rec, err
	}
	items := []T{rec}
	err = c.attach(ctx, q, items)
	return items[0], err
}

// attach loads the tags and parts of a page of records, one query each.
func (c Content[T, In]) attach(ctx context.Context, q querier, items []T) error {
	ids := make([]string, len(items))
	for i := range items {
		ids[i] = *c.kind.row(&items[i]).id
	}
	tags, err := loadTags(ctx, q, c.kind.tags, ids)
	if err != nil {
		return err
	}
	for i := range items {
		*c.kind.row(&items[i]).tags = tags[ids[i]]
	}
	if c.kind.loadParts == nil {
		return nil
	}
	return c.kind.loadParts(ctx, q, items)
}

// save writes the parts and tags a body gives.
func (c Content[T, In]) save(ctx context.Context, tx txn, userID, id string, in In) error {
	if c.kind.saveParts != nil {
		if err := c.kind.saveParts(ctx, tx, userID, id, in); err != nil {
			return err
		}
	}
	return replaceTags(ctx, tx, userID, c.kind.tags, id, c.kind.tagIDs(in))
}

// checkRefs makes sure every reference a body sets names a record of the
// user's; null clears a reference and needs no check.
func (c Content[T, In]) checkRefs(ctx context.Context, tx txn, userID string, in In) error {
	for _, r := range c.kind.refs {
		v := r.value(in)
		if !v.Set || v.Null {
			continue
		}
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM `+r.table+` WHERE user_id = ? AND id = ?`, userID, v.Value).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return &NotFoundError{Kind: r.kind, Field: r.column}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// assign copies a body field that was given onto a record's field; null
// sets the zero value ("" for a text).
func assign[V any](dst *V, v Optional[V]) {
	if v.Set {
		*dst = v.Value
	}
}

// assignPtr copies a body field that was given onto a nullable field; null
// clears it.
func assignPtr[V any](dst **V, v Optional[V]) {
	if v.Set {
		*dst = v.Ptr()
	}
}
