package db

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"strings"
	"time"
)

// SessionTTL is how long a web session lasts from sign-in.
const SessionTTL = 30 * 24 * time.Hour

// Session is a signed-in browser (DESIGN §11): it acts as the key it
// signed in with, and carries its own CSRF token.
type Session struct {
	Principal
	CSRF string
}

// newToken is 256 bits of crypto/rand, base64url without padding.
func newToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// CreateSession starts a session for a key: it returns the session's id,
// for the cookie (only its hash is stored), and its CSRF token.
func (db *DB) CreateSession(ctx context.Context, keyID string) (id, csrf string, err error) {
	id, csrf = newToken(), newToken()
	now := db.Now().UTC()
	err = inTxDo(ctx, db.begin, func(tx txn) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO web_sessions (id_hash, key_id, csrf, created_at, expires_at)
			VALUES (?, ?, ?, ?, ?)`, hashSecret(id), keyID, csrf, now.Format(TimeFormat), now.Add(SessionTTL).Format(TimeFormat))
		return err
	})
	return id, csrf, err
}

// Session finds the live session of id: an unknown or expired one is a
// *NotFoundError; one whose key is revoked comes back with Revoked set,
// for the caller to refuse. It only reads.
func (db *DB) Session(ctx context.Context, id string) (Session, error) {
	var s Session
	var scopes string
	var revokedAt sql.NullString
	stmt, err := db.lookupStmts.prepared(ctx, `
		SELECT k.id, k.user_id, u.timezone, u.subscription, k.scopes, k.revoked_at, s.csrf
		FROM web_sessions s JOIN api_keys k ON k.id = s.key_id JOIN users u ON u.id = k.user_id
		WHERE s.id_hash = ? AND s.expires_at > ?`)
	if err != nil {
		return Session{}, err
	}
	err = stmt.QueryRowContext(ctx, hashSecret(id), db.now()).
		Scan(&s.KeyID, &s.UserID, &s.Timezone, &s.Subscription, &scopes, &revokedAt, &s.CSRF)
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, notFound("Session")
	}
	if err != nil {
		return Session{}, err
	}
	s.Revoked = revokedAt.Valid
	s.Scopes = strings.Fields(scopes)
	return s, nil
}

// EndSession ends the session of id (signing out); an unknown one is not
// an error.
func (db *DB) EndSession(ctx context.Context, id string) error {
	return inTxDo(ctx, db.begin, func(tx txn) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM web_sessions WHERE id_hash = ?`, hashSecret(id))
		return err
	})
}
