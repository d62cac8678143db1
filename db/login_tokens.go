package db

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"
)

// LoginTokenTTL is how long a sign-in link works.
const LoginTokenTTL = 15 * time.Minute

// LoginToken is what a sign-in link signs in as: a user, with the scopes
// of one of their keys.
type LoginToken struct {
	UserName  string
	KeyID     string
	KeyName   string
	Scopes    []string
	ExpiresAt string
}

// CreateLoginToken makes a single-use sign-in token for the named user,
// acting with the scopes of the key keyID, or, when keyID is "", of the
// user's newest live key among those with the most scopes. It returns the
// token, of which only a hash is stored. Tokens that have expired are
// removed on the way.
func (db *DB) CreateLoginToken(ctx context.Context, userName, keyID string) (string, LoginToken, error) {
	u, err := db.UserByName(ctx, userName)
	if err != nil {
		return "", LoginToken{}, err
	}
	keys, err := db.Keys(ctx, userName)
	if err != nil {
		return "", LoginToken{}, err
	}
	var key *Key
	for i := range keys {
		k := &keys[i]
		switch {
		case k.RevokedAt != "":
		case keyID != "":
			if k.ID == keyID {
				key = k
			}
		case key == nil || len(k.Scopes) >= len(key.Scopes): // Keys lists oldest first
			key = k
		}
	}
	if key == nil {
		if keyID != "" {
			return "", LoginToken{}, &InvalidError{Field: "key", Message: "user " + u.Name + " has no live key " + keyID}
		}
		return "", LoginToken{}, &InvalidError{Field: "key", Message: "user " + u.Name + " has no live key; create one with tradejournal key create --user " + u.Name}
	}
	token, now := newToken(), db.Now().UTC()
	t := LoginToken{UserName: u.Name, KeyID: key.ID, KeyName: key.Name, Scopes: key.Scopes,
		ExpiresAt: now.Add(LoginTokenTTL).Format(TimeFormat)}
	err = inTxDo(ctx, db.begin, func(tx txn) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM login_tokens WHERE expires_at <= ?`, now.Format(TimeFormat)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO login_tokens (token_hash, key_id, created_at, expires_at) VALUES (?, ?, ?, ?)`,
			hashSecret(token), key.ID, now.Format(TimeFormat), t.ExpiresAt)
		return err
	})
	if err != nil {
		return "", LoginToken{}, err
	}
	return token, t, nil
}

// liveLoginToken matches the login_tokens row of a token's hash that has
// not expired at a time and whose key is not revoked: the one check that
// both telling whom a token signs in as and spending it make.
const liveLoginToken = `token_hash = ? AND expires_at > ?
	AND key_id IN (SELECT id FROM api_keys WHERE revoked_at IS NULL)`

// LoginTokenFor tells whom a live token signs in as, without using it: an
// unknown, used or expired token, or one whose key is revoked, is a
// *NotFoundError. It only reads.
func (db *DB) LoginTokenFor(ctx context.Context, token string) (LoginToken, error) {
	var t LoginToken
	var scopes string
	err := db.read.QueryRowContext(ctx, `
		SELECT u.name, k.id, k.name, k.scopes, t.expires_at
		FROM (SELECT key_id, expires_at FROM login_tokens WHERE `+liveLoginToken+`) t
		JOIN api_keys k ON k.id = t.key_id JOIN users u ON u.id = k.user_id`, hashSecret(token), db.now()).
		Scan(&t.UserName, &t.KeyID, &t.KeyName, &scopes, &t.ExpiresAt)
	if errors.Is(err, sql.ErrNoRows) {
		return LoginToken{}, notFound("Sign-in link")
	}
	t.Scopes = strings.Fields(scopes)
	return t, err
}

// UseLoginToken spends a live token and starts a session of its key, in
// one transaction, so that a token signs in once: it returns the session's
// id and CSRF token, as CreateSession does. A token that is unknown, used,
// expired or of a revoked key is a *NotFoundError.
func (db *DB) UseLoginToken(ctx context.Context, token string) (id, csrf string, err error) {
	id, csrf = newToken(), newToken()
	now := db.Now().UTC()
	err = inTxDo(ctx, db.begin, func(tx txn) error {
		var keyID string
		err := tx.QueryRowContext(ctx, `
			DELETE FROM login_tokens WHERE `+liveLoginToken+` RETURNING key_id`, hashSecret(token), now.Format(TimeFormat)).Scan(&keyID)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("Sign-in link")
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO web_sessions (id_hash, key_id, csrf, created_at, expires_at)
			VALUES (?, ?, ?, ?, ?)`, hashSecret(id), keyID, csrf, now.Format(TimeFormat), now.Add(SessionTTL).Format(TimeFormat))
		return err
	})
	if err != nil {
		return "", "", err
	}
	return id, csrf, nil
}
