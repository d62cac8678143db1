package db

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"tradejournal/db/brokers"
)

// ImportMapping is a user's description of a file no format of §8 reads
// (DESIGN §14): its columns by role as the header writes them, its side
// values, date order, decimal mark and zone.
type ImportMapping struct {
	ID         string                 `json:"id"`
	Name       string                 `json:"name"`
	Columns    brokers.MappingColumns `json:"columns"`
	SideValues *brokers.SideValues    `json:"side_values"` // null: the sides §8 reads
	DateOrder  string                 `json:"date_order"`
	Decimal    string                 `json:"decimal"`
	Timezone   *string                `json:"timezone"` // null: the user's (or the import's)
	CreatedAt  string                 `json:"created_at"`
	UpdatedAt  string                 `json:"updated_at"`
}

// ImportMappingInput is the body of a mapping create or partial update:
// absent fields take their defaults on create and stay on update; columns
// given replace them all; null side_values or timezone clears them.
type ImportMappingInput struct {
	Name       Optional[string]                 `json:"name"`
	Columns    Optional[brokers.MappingColumns] `json:"columns"`
	SideValues Optional[brokers.SideValues]     `json:"side_values"`
	DateOrder  Optional[string]                 `json:"date_order"`
	Decimal    Optional[string]                 `json:"decimal"`
	Timezone   Optional[string]                 `json:"timezone"`
}

// Enumerations of mappings.
var (
	MappingDateOrders = []string{"auto", "mdy", "dmy", "ymd"}
	MappingDecimals   = []string{"point", "comma"}
)

const mappingColumns = `id, name, columns, side_values, date_order, decimal, timezone, created_at, updated_at`

func scanMapping(s interface{ Scan(...any) error }) (ImportMapping, error) {
	var m ImportMapping
	var columns string
	var sides sql.NullString
	err := s.Scan(&m.ID, &m.Name, &columns, &sides, &m.DateOrder, &m.Decimal, &m.Timezone, &m.CreatedAt, &m.UpdatedAt)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal([]byte(columns), &m.Columns); err != nil {
		return m, err
	}
	m.Columns.Commission = nonNil(m.Columns.Commission)
	if sides.Valid {
		m.SideValues = &brokers.SideValues{}
		if err := json.Unmarshal([]byte(sides.String), m.SideValues); err != nil {
			return m, err
		}
	}
	return m, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// apply copies the fields set in in onto m.
func (in ImportMappingInput) apply(m *ImportMapping) {
	assign(&m.Name, in.Name)
	if in.Columns.Set && !in.Columns.Null {
		m.Columns = in.Columns.Value
		m.Columns.Commission = nonNil(m.Columns.Commission)
	}
	if in.SideValues.Set {
		m.SideValues = nil
		if v := in.SideValues.Ptr(); v != nil {
			m.SideValues = &brokers.SideValues{Buy: nonNil(v.Buy), Sell: nonNil(v.Sell), Skip: nonNil(v.Skip)}
		}
	}
	if in.DateOrder.Set && !in.DateOrder.Null {
		m.DateOrder = in.DateOrder.Value
	}
	if in.Decimal.Set && !in.Decimal.Null {
		m.Decimal = in.Decimal.Value
	}
	assignPtr(&m.Timezone, in.Timezone)
}

// write stores m, new or changed; a name the user has for another mapping
// is a conflict.
func (m *ImportMapping) write(ctx context.Context, tx txn, userID string, create bool) error {
	columns, err := json.Marshal(m.Columns)
	if err != nil {
		return err
	}
	var sides *string
	if m.SideValues != nil {
		b, err := json.Marshal(m.SideValues)
		if err != nil {
			return err
		}
		s := string(b)
		sides = &s
	}
	if create {
		_, err = tx.ExecContext(ctx, `INSERT INTO import_mappings (user_id, `+mappingColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			userID, m.ID, m.Name, string(columns), sides, m.DateOrder, m.Decimal, m.Timezone, m.CreatedAt, m.UpdatedAt)
	} else {
		_, err = tx.ExecContext(ctx, `UPDATE import_mappings SET name = ?, columns = ?, side_values = ?, date_order = ?,
			decimal = ?, timezone = ?, updated_at = ? WHERE user_id = ? AND id = ?`,
			m.Name, string(columns), sides, m.DateOrder, m.Decimal, m.Timezone, m.UpdatedAt, userID, m.ID)
	}
	if isUniqueViolation(err) {
		return &ConflictError{Message: "An import mapping with this name already exists",
			Details: map[string]string{"name": "import mapping " + m.Name + " already exists"}}
	}
	return err
}

// CreateImportMapping adds a mapping for the user.
func (db *DB) CreateImportMapping(ctx context.Context, userID string, in ImportMappingInput) (ImportMapping, error) {
	now := db.now()
	m := ImportMapping{ID: db.NewID(), DateOrder: "auto", Decimal: "point", CreatedAt: now, UpdatedAt: now}
	in.apply(&m)
	return inTx(ctx, db.begin, func(tx txn) (ImportMapping, error) {
		return m, m.write(ctx, tx, userID, true)
	})
}

// ImportMappingRecord reads one of the user's mappings.
func (db *DB) ImportMappingRecord(ctx context.Context, userID, id string) (ImportMapping, error) {
	return loadMapping(ctx, db.read, userID, id)
}

func loadMapping(ctx context.Context, q querier, userID, id string) (ImportMapping, error) {
	m, err := scanMapping(q.QueryRowContext(ctx, `SELECT `+mappingColumns+` FROM import_mappings WHERE user_id = ? AND id = ?`,
		userID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return ImportMapping{}, notFound("Import mapping")
	}
	return m, err
}

// UpdateImportMapping changes the fields set in in.
func (db *DB) UpdateImportMapping(ctx context.Context, userID, id string, in ImportMappingInput) (ImportMapping, error) {
	return inTx(ctx, db.begin, func(tx txn) (ImportMapping, error) {
		m, err := loadMapping(ctx, tx, userID, id)
		if err != nil {
			return ImportMapping{}, err
		}
		in.apply(&m)
		m.UpdatedAt = db.now()
		return m, m.write(ctx, tx, userID, false)
	})
}

// DeleteImportMapping removes one of the user's mappings; the imports read
// with it stay, their mapping_id null.
func (db *DB) DeleteImportMapping(ctx context.Context, userID, id string) (Deleted, error) {
	return inTx(ctx, db.begin, func(tx txn) (Deleted, error) {
		res, err := tx.ExecContext(ctx, `DELETE FROM import_mappings WHERE user_id = ? AND id = ?`, userID, id)
		if err != nil {
			return Deleted{}, err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return Deleted{}, notFound("Import mapping")
		}
		return Deleted{ID: id, Warnings: []string{}}, nil
	})
}

// ImportMappings lists a page of the user's mappings by name, and the total.
func (db *DB) ImportMappings(ctx context.Context, userID string, page Page) ([]ImportMapping, int, error) {
	type listed struct {
		items []ImportMapping
		total int
	}
	l, err := inTx(ctx, db.beginRead, func(tx txn) (listed, error) {
		var l listed
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM import_mappings WHERE user_id = ?`, userID).Scan(&l.total); err != nil {
			return l, err
		}
		var err error
		l.items, err = mappingRows(ctx, tx, userID, page.Limit, page.Offset)
		return l, err
	})
	return l.items, l.total, err
}

// BrokerMappings are all the user's mappings by name, as the file reader
// takes them: format=auto tries them in this order.
func (db *DB) BrokerMappings(ctx context.Context, userID string) ([]brokers.Mapping, error) {
	ms, err := mappingRows(ctx, db.read, userID, -1, 0)
	out := make([]brokers.Mapping, len(ms))
	for i, m := range ms {
		out[i] = m.Broker()
	}
	return out, err
}

func mappingRows(ctx context.Context, q querier, userID string, limit, offset int) ([]ImportMapping, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+mappingColumns+` FROM import_mappings WHERE user_id = ?
		ORDER BY name, id LIMIT ? OFFSET ?`, userID, limit, offset)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []ImportMapping{}
	for rows.Next() {
		m, err := scanMapping(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// Broker is the mapping as the file reader takes it.
func (m ImportMapping) Broker() brokers.Mapping {
	return brokers.Mapping{ID: m.ID, Name: m.Name, Columns: m.Columns, SideValues: m.SideValues, DateOrder: m.DateOrder,
		Decimal: m.Decimal, Timezone: deref(m.Timezone)}
}

// ImportUpload is a file the import page could not read, kept while its
// trader maps its columns (README: "Mapping an unknown file").
type ImportUpload struct {
	ID, FileName string
	Content      []byte
	CreatedAt    string
}

// uploadLife is how long an upload is kept.
const uploadLife = 24 * time.Hour

// CreateImportUpload keeps a file for the user, and drops every upload
// older than a day.
func (db *DB) CreateImportUpload(ctx context.Context, userID, fileName string, content []byte) (string, error) {
	id, now := db.NewID(), db.now()
	return id, inTxDo(ctx, db.begin, func(tx txn) error {
		old := db.Now().Add(-uploadLife).UTC().Format(TimeFormat)
		if _, err := tx.ExecContext(ctx, `DELETE FROM import_uploads WHERE created_at < ?`, old); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO import_uploads (id, user_id, file_name, content, created_at)
			VALUES (?, ?, ?, ?, ?)`, id, userID, fileName, content, now)
		return err
	})
}

// ImportUploadRecord reads one of the user's kept files; one older than a
// day is gone.
func (db *DB) ImportUploadRecord(ctx context.Context, userID, id string) (ImportUpload, error) {
	u := ImportUpload{ID: id}
	old := db.Now().Add(-uploadLife).UTC().Format(TimeFormat)
	err := db.read.QueryRowContext(ctx, `SELECT file_name, content, created_at FROM import_uploads
		WHERE user_id = ? AND id = ? AND created_at >= ?`, userID, id, old).Scan(&u.FileName, &u.Content, &u.CreatedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return ImportUpload{}, notFound("Upload")
	}
	return u, err
}

// DeleteImportUpload drops one of the user's kept files.
func (db *DB) DeleteImportUpload(ctx context.Context, userID, id string) error {
	return inTxDo(ctx, db.begin, func(tx txn) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM import_uploads WHERE user_id = ? AND id = ?`, userID, id)
		return err
	})
}

// nullable is s, or nil when it is empty.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Draft is the mapping in would create, unsaved: what a preview reads a
// file by.
func (in ImportMappingInput) Draft() ImportMapping {
	m := ImportMapping{DateOrder: "auto", Decimal: "point"}
	in.apply(&m)
	return m
}
