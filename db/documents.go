package db

import (
	"context"
	"database/sql"
	"errors"
)

// Document is a stored file (a payout confirmation, a certificate, a
// receipt) and what the user said of it. Its bytes are the blob BlobHash
// names in the file store, which rows with identical content share.
type Document struct {
	ID           string
	UserID       string
	AccountID    string
	DocumentName string
	Category     string
	FileName     string
	FileSize     int64
	MIMEType     string
	BlobHash     string // hex SHA-256 of the content
	CreatedAt    string
	UpdatedAt    string
}

// DocumentCategories are the category values SPEC.md lists.
var DocumentCategories = []string{"payout-confirmation", "evaluation-pass-certificate", "account-scale-certificate", "receipt"}

// DocumentUpload is what an upload stores: the form's fields and the facts
// of the received file.
type DocumentUpload struct {
	// AccountNumber, DocumentName and Category are required on create; on a
	// replace, "" keeps the document's own.
	AccountNumber string
	DocumentName  string
	Category      string
	// TradeID, when set, names a trade of the user's (else a *NotFoundError
	// naming trade_id) to link the document to, last among its documents,
	// in the transaction that stores it. On create, an AccountNumber left
	// "" is then the trade's account.
	TradeID string

	FileName string
	FileSize int64
	MIMEType string
	BlobHash string
}

// DocumentUpdate is the body of a metadata update; absent fields are left
// as they are.
type DocumentUpdate struct {
	DocumentName Optional[string] `json:"document_name"`
	Category     Optional[string] `json:"category"`
}

// DeletedDocument reports a document's delete: the hash of its blob,
// whether no row uses that blob any more (so it can go from the store), and
// whether another of the user's own documents still does.
type DeletedDocument struct {
	ID         string
	Blob       string
	Unused     bool
	UserShares bool
	// Warnings count what the document was unlinked from, a line per
	// kind: "Unlinked from 2 trades".
	Warnings []string
}

const documentColumns = `id, user_id, account_id, document_name, category, file_name, file_size,
	mime_type, blob_hash, created_at, updated_at`

func scanDocument(s interface{ Scan(...any) error }) (Document, error) {
	var d Document
	err := s.Scan(&d.ID, &d.UserID, &d.AccountID, &d.DocumentName, &d.Category, &d.FileName, &d.FileSize,
		&d.MIMEType, &d.BlobHash, &d.CreatedAt, &d.UpdatedAt)
	return d, err
}

// CreateDocument adds a document for an upload, linked to the trade
// in.TradeID names, if any. place puts the file's blob into the store: it
// runs inside the transaction, after every check and before the commit, so
// a refused upload places nothing and a committed row always has its blob.
// A trade_id or account_number that names none of the user's trades or
// accounts is a *NotFoundError naming the field, trade_id first.
func (db *DB) CreateDocument(ctx context.Context, userID string, in DocumentUpload, place func() error) (Document, error) {
	ctx = placingContext(ctx)
	now := db.now()
	d := Document{ID: db.NewID(), UserID: userID, DocumentName: in.DocumentName, Category: in.Category,
		FileName: in.FileName, FileSize: in.FileSize, MIMEType: in.MIMEType, BlobHash: in.BlobHash,
		CreatedAt: now, UpdatedAt: now}
	return inTx(ctx, db.begin, func(tx txn) (Document, error) {
		var err error
		if in.TradeID != "" {
			if d.AccountID, err = tradeAccount(ctx, tx, userID, in.TradeID); err != nil {
				return Document{}, err
			}
		}
		if in.AccountNumber != "" || in.TradeID == "" {
			if d.AccountID, err = accountByNumber(ctx, tx, userID, in.AccountNumber); err != nil {
				return Document{}, err
			}
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO documents (`+documentColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			d.ID, d.UserID, d.AccountID, d.DocumentName, d.Category, d.FileName, d.FileSize,
			d.MIMEType, d.BlobHash, d.CreatedAt, d.UpdatedAt)
		if err != nil {
			return Document{}, err
		}
		if in.TradeID != "" {
			if err := appendTradeDocument(ctx, tx, in.TradeID, d.ID); err != nil {
				return Document{}, err
			}
		}
		if err := place(); err != nil {
			return Document{}, err
		}
		return d, nil
	})
}

// ReplaceDocument gives one of the user's documents a new file, keeping its
// id and created_at; the form's metadata, when given, replaces the old.
// place runs as in CreateDocument; in.TradeID, when set, links the
// document to that trade too (last, unless it is linked already). It
// returns, besides the document, the old blob's hash when no row uses that
// blob any more (else ""), for the caller to remove after the commit. An
// unknown document_id, trade_id or account_number is a *NotFoundError
// naming the field.
func (db *DB) ReplaceDocument(ctx context.Context, userID, id string, in DocumentUpload, place func() error) (Document, string, error) {
	ctx = placingContext(ctx)
	var gone string
	doc, err := inTx(ctx, db.begin, func(tx txn) (Document, error) {
		d, err := scanDocument(tx.QueryRowContext(ctx,
			`SELECT `+documentColumns+` FROM documents WHERE user_id = ? AND id = ?`, userID, id))
		if errors.Is(err, sql.ErrNoRows) {
			return Document{}, &NotFoundError{Kind: "Document", Field: "document_id"}
		}
		if err != nil {
			return Document{}, err
		}
		if in.TradeID != "" {
			if _, err := tradeAccount(ctx, tx, userID, in.TradeID); err != nil {
				return Document{}, err
			}
		}
		if in.AccountNumber != "" {
			if d.AccountID, err = accountByNumber(ctx, tx, userID, in.AccountNumber); err != nil {
				return Document{}, err
			}
		}
		if in.DocumentName != "" {
			d.DocumentName = in.DocumentName
		}
		if in.Category != "" {
			d.Category = in.Category
		}
		old := d.BlobHash
		d.FileName, d.FileSize, d.MIMEType, d.BlobHash = in.FileName, in.FileSize, in.MIMEType, in.BlobHash
		d.UpdatedAt = db.now()
		_, err = tx.ExecContext(ctx, `UPDATE documents SET account_id = ?, document_name = ?, category = ?,
			file_name = ?, file_size = ?, mime_type = ?, blob_hash = ?, updated_at = ?
			WHERE user_id = ? AND id = ?`,
			d.AccountID, d.DocumentName, d.Category, d.FileName, d.FileSize, d.MIMEType, d.BlobHash, d.UpdatedAt,
			userID, id)
		if err != nil {
			return Document{}, err
		}
		if in.TradeID != "" {
			if err := appendTradeDocument(ctx, tx, in.TradeID, d.ID); err != nil {
				return Document{}, err
			}
		}
		if err := place(); err != nil {
			return Document{}, err
		}
		unused, err := unusedBlobs(ctx, tx, []string{old})
		if err != nil {
			return Document{}, err
		}
		if len(unused) > 0 {
			gone = old
		}
		return d, nil
	})
	if err != nil {
		return Document{}, "", err
	}
	return doc, gone, nil
}

// placingContext is the context of a transaction that places a blob. Once
// place has put the blob in the store, only the commit makes a row use it:
// were the request's context to end then (its client gone), database/sql
// would roll the transaction back and leave a blob no row uses. The
// transaction is short, so it runs to its end whatever the client does.
func placingContext(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// accountByNumber finds the id of the user's account with number.
func accountByNumber(ctx context.Context, tx txn, userID, number string) (string, error) {
	var id string
	err := tx.QueryRowContext(ctx, `SELECT id FROM accounts WHERE user_id = ? AND account_number = ?`,
		userID, number).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", &NotFoundError{Kind: "Account", Field: "account_number"}
	}
	return id, err
}

// unusedBlobs returns those of hashes that no document, of any user, uses.
func unusedBlobs(ctx context.Context, tx txn, hashes []string) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT DISTINCT value FROM json_each(?)
		WHERE NOT EXISTS (SELECT 1 FROM documents WHERE blob_hash = value)`, jsonList(hashes))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// Document reads one of the user's documents.
func (db *DB) Document(ctx context.Context, userID, id string) (Document, error) {
	d, err := scanDocument(db.read.QueryRowContext(ctx,
		`SELECT `+documentColumns+` FROM documents WHERE user_id = ? AND id = ?`, userID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Document{}, notFound("Document")
	}
	return d, err
}

// DocumentFile reads the document a signed download link names. It is the
// one read not scoped to a user: the link's signature, checked before, is
// what authorizes it.
func (db *DB) DocumentFile(ctx context.Context, id string) (Document, error) {
	d, err := scanDocument(db.read.QueryRowContext(ctx,
		`SELECT `+documentColumns+` FROM documents WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Document{}, notFound("Document")
	}
	return d, err
}

// UpdateDocument changes the metadata set in upd; the file stays.
func (db *DB) UpdateDocument(ctx context.Context, userID, id string, upd DocumentUpdate) (Document, error) {
	return inTx(ctx, db.begin, func(tx txn) (Document, error) {
		d, err := scanDocument(tx.QueryRowContext(ctx,
			`SELECT `+documentColumns+` FROM documents WHERE user_id = ? AND id = ?`, userID, id))
		if errors.Is(err, sql.ErrNoRows) {
			return Document{}, notFound("Document")
		}
		if err != nil {
			return Document{}, err
		}
		if upd.DocumentName.Set {
			d.DocumentName = upd.DocumentName.Value
		}
		if upd.Category.Set {
			d.Category = upd.Category.Value
		}
		d.UpdatedAt = db.now()
		_, err = tx.ExecContext(ctx, `UPDATE documents SET document_name = ?, category = ?, updated_at = ?
			WHERE user_id = ? AND id = ?`, d.DocumentName, d.Category, d.UpdatedAt, userID, id)
		if err != nil {
			return Document{}, err
		}
		return d, nil
	})
}

// DeleteDocument removes one of the user's documents, unlinking it from the
// trades, chart books, payouts and expenses that held it. Its blob stays in
// the store: the caller removes it after the commit when Unused says no row
// uses it any more.
func (db *DB) DeleteDocument(ctx context.Context, userID, id string) (DeletedDocument, error) {
	return inTx(ctx, db.begin, func(tx txn) (DeletedDocument, error) {
		// The links go with the document by ON DELETE CASCADE: count them
		// first.
		n, err := documentLinks(ctx, tx, userID, id)
		if err != nil {
			return DeletedDocument{}, err
		}
		unlinked := Deleted{Warnings: []string{}}
		unlinked.note("Unlinked from", n.Trades, "trade")
		unlinked.note("Unlinked from", n.ChartBooks, "chart book")
		unlinked.note("Unlinked from", n.Payouts, "payout")
		unlinked.note("Unlinked from", n.Expenses, "expense")
		d := DeletedDocument{ID: id, Warnings: unlinked.Warnings}
		err = tx.QueryRowContext(ctx, `DELETE FROM documents WHERE user_id = ? AND id = ? RETURNING blob_hash`,
			userID, id).Scan(&d.Blob)
		if errors.Is(err, sql.ErrNoRows) {
			return DeletedDocument{}, notFound("Document")
		}
		if err != nil {
			return DeletedDocument{}, err
		}
		unused, err := unusedBlobs(ctx, tx, []string{d.Blob})
		if err != nil {
			return DeletedDocument{}, err
		}
		d.Unused = len(unused) > 0
		err = tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM documents WHERE user_id = ? AND blob_hash = ?)`,
			userID, d.Blob).Scan(&d.UserShares)
		if err != nil {
			return DeletedDocument{}, err
		}
		return d, nil
	})
}

// deleteAccountDocuments removes the documents of an account and returns
// the blobs no row uses any more.
func deleteAccountDocuments(ctx context.Context, tx txn, userID, accountID string) ([]string, error) {
	rows, err := tx.QueryContext(ctx, `DELETE FROM documents WHERE user_id = ? AND account_id = ?
		RETURNING blob_hash`, userID, accountID)
	if err != nil {
		return nil, err
	}
	var hashes []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			rows.Close()
			return nil, err
		}
		hashes = append(hashes, h)
	}
	if err := rows.Close(); err != nil {
		return nil, err
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return unusedBlobs(ctx, tx, hashes)
}
