package db

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"errors"
	"hash/crc32"
	"slices"
	"strings"
	"time"
)

// Key formats. A current key is "tj_" + 43 base62 characters (256 bits) +
// the CRC32 of those 43 characters in 6 base62 characters, so a scanner can
// recognise a leaked key and a mistyped one is refused without a database
// read. Keys of earlier releases are "tjk_" + 43 base62 characters.
const (
	KeyPrefix       = "tj_"
	LegacyKeyPrefix = "tjk_"
	keySecretLen    = 43
	keyCheckLen     = 6
	keyLen          = len(KeyPrefix) + keySecretLen + keyCheckLen
	legacyKeyLen    = len(LegacyKeyPrefix) + keySecretLen
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Resources that scopes grant access to; each comes as ":read" and ":write",
// and ":write" implies ":read".
var scopeResources = []string{"trades", "playbooks", "tags", "documents", "accounts", "content"}

// NewKey returns a fresh random API key, in the legacy format if asked.
func NewKey(legacy bool) string {
	secret := randomBase62(keySecretLen)
	if legacy {
		return LegacyKeyPrefix + secret
	}
	return KeyPrefix + secret + keyChecksum(secret)
}

// randomBase62 draws n characters uniformly: bytes of 248 and over are
// rejected so that every character is equally likely (248 = 4 × 62).
func randomBase62(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, 64)
	for len(out) < n {
		rand.Read(buf) // never fails (crypto/rand panics rather than return short)
		for _, b := range buf {
			if b < 248 && len(out) < n {
				out = append(out, base62[b%62])
			}
		}
	}
	return string(out)
}

func keyChecksum(secret string) string {
	c := uint64(crc32.ChecksumIEEE([]byte(secret)))
	out := make([]byte, keyCheckLen)
	for i := keyCheckLen - 1; i >= 0; i-- {
		out[i] = base62[c%62]
		c /= 62
	}
	return string(out)
}

func isBase62(s string) bool {
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(base62, s[i]) < 0 {
			return false
		}
	}
	return true
}

// WellFormedKey reports whether key has the shape of a current key (with a
// valid checksum) or a legacy key. It reads nothing.
func WellFormedKey(key string) bool {
	switch {
	case len(key) == keyLen && strings.HasPrefix(key, KeyPrefix):
		secret, check := key[len(KeyPrefix):len(KeyPrefix)+keySecretLen], key[len(KeyPrefix)+keySecretLen:]
		return isBase62(secret) && keyChecksum(secret) == check
	case len(key) == legacyKeyLen && strings.HasPrefix(key, LegacyKeyPrefix):
		return isBase62(key[len(LegacyKeyPrefix):])
	}
	return false
}

// hashSecret is the SHA-256 of a secret the journal stores only as its
// hash: an API key, a web session's id.
func hashSecret(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// ParseScopes turns "read", "write" or a comma-separated list such as
// "trades:write,tags:read" into the canonical, sorted scope list.
func ParseScopes(s string) ([]string, error) {
	var out []string
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		switch part {
		case "write":
			for _, r := range scopeResources {
				out = append(out, r+":write")
			}
			continue
		case "read":
			for _, r := range scopeResources {
				out = append(out, r+":read")
			}
			continue
		}
		res, mode, ok := strings.Cut(part, ":")
		if !ok || !slices.Contains(scopeResources, res) || (mode != "read" && mode != "write") {
			return nil, &InvalidError{Field: "scopes", Message: "unknown scope " + part +
				"; use read, write or RESOURCE:read|write with RESOURCE one of " + strings.Join(scopeResources, ", ")}
		}
		out = append(out, part)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// Key describes an API key; the key itself is shown only once, at creation.
type Key struct {
	ID         string
	UserID     string
	UserName   string
	Name       string
	Prefix     string
	Scopes     []string
	CreatedAt  string
	LastUsedAt string // "" when never used
	RevokedAt  string // "" when live
}

// CreateKey issues a key for the named user and returns its record and the
// key, which is stored only as a SHA-256.
func (db *DB) CreateKey(ctx context.Context, userName, label string, scopes []string, legacy bool) (Key, string, error) {
	u, err := db.UserByName(ctx, userName)
	if err != nil {
		return Key{}, "", err
	}
	var secret string
	k, err := inTx(ctx, db.begin, func(tx txn) (k Key, err error) {
		k, secret, err = db.insertKey(ctx, tx, u, label, scopes, legacy)
		return k, err
	})
	if err != nil {
		return Key{}, "", err
	}
	return k, secret, nil
}

// CreateUserWithKey adds a user and a key of theirs in one transaction, so
// that a crash cannot leave a first-run user without the key it printed.
func (db *DB) CreateUserWithKey(ctx context.Context, name, timezone, label string, scopes []string) (User, Key, string, error) {
	var (
		u      User
		k      Key
		secret string
	)
	err := inTxDo(ctx, db.begin, func(tx txn) (err error) {
		if u, err = db.insertUser(ctx, tx, name, timezone); err != nil {
			return err
		}
		k, secret, err = db.insertKey(ctx, tx, u, label, scopes, false)
		return err
	})
	if err != nil {
		return User{}, Key{}, "", err
	}
	return u, k, secret, nil
}

func (db *DB) insertKey(ctx context.Context, tx txn, u User, label string, scopes []string, legacy bool) (Key, string, error) {
	secret := NewKey(legacy)
	k := Key{
		ID: db.NewID(), UserID: u.ID, UserName: u.Name, Name: label,
		Prefix: secret[:8], Scopes: scopes, CreatedAt: db.now(),
	}
	_, err := tx.ExecContext(ctx,
		`INSERT INTO api_keys (id, user_id, name, prefix, hash, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		k.ID, k.UserID, k.Name, k.Prefix, hashSecret(secret), strings.Join(scopes, " "), k.CreatedAt)
	return k, secret, err
}

// Keys lists the keys of the named user, or of everyone when userName is "".
func (db *DB) Keys(ctx context.Context, userName string) ([]Key, error) {
	rows, err := db.read.QueryContext(ctx, `
		SELECT k.id, k.user_id, u.name, k.name, k.prefix, k.scopes, k.created_at,
		       coalesce(k.last_used_at, ''), coalesce(k.revoked_at, '')
		FROM api_keys k JOIN users u ON u.id = k.user_id
		WHERE ? = '' OR u.name = ?
		ORDER BY k.created_at, k.id`, userName, userName)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Key
	for rows.Next() {
		var k Key
		var scopes string
		if err := rows.Scan(&k.ID, &k.UserID, &k.UserName, &k.Name, &k.Prefix, &scopes,
			&k.CreatedAt, &k.LastUsedAt, &k.RevokedAt); err != nil {
			return nil, err
		}
		k.Scopes = strings.Fields(scopes)
		out = append(out, k)
	}
	return out, rows.Err()
}

// RevokeKey revokes a key by id; its next request gets 401. Revoking twice
// keeps the first revocation time.
func (db *DB) RevokeKey(ctx context.Context, id string) error {
	return inTxDo(ctx, db.begin, func(tx txn) error {
		res, err := tx.ExecContext(ctx,
			`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?`, db.now(), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound("Key")
		}
		return nil
	})
}

// Principal is who a request acts for: the owner of a live key.
type Principal struct {
	KeyID        string
	UserID       string
	Timezone     string
	Subscription string
	Revoked      bool
	Scopes       []string
}

// Can reports whether the key grants scope ("trades:read"); a ":write"
// scope implies the ":read" of the same resource.
func (p *Principal) Can(scope string) bool {
	if slices.Contains(p.Scopes, scope) {
		return true
	}
	res, mode, _ := strings.Cut(scope, ":")
	return mode == "read" && slices.Contains(p.Scopes, res+":write")
}

// Authenticate finds the key's owner. An unknown key is a *NotFoundError;
// a revoked key is returned with Revoked set, for the caller to refuse.
func (db *DB) Authenticate(ctx context.Context, key string) (Principal, error) {
	hash := hashSecret(key)
	header, known := db.keys.now()
	if known {
		if p, ok := db.keys.get(header, hash); ok {
			return p, nil
		}
	}
	var p Principal
	var scopes string
	var revokedAt sql.NullString
	stmt, err := db.lookupStmts.prepared(ctx, `
		SELECT k.id, k.user_id, u.timezone, u.subscription, k.scopes, k.revoked_at
		FROM api_keys k JOIN users u ON u.id = k.user_id
		WHERE k.hash = ?`)
	if err != nil {
		return Principal{}, err
	}
	err = stmt.QueryRowContext(ctx, hash).Scan(&p.KeyID, &p.UserID, &p.Timezone, &p.Subscription, &scopes, &revokedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return Principal{}, notFound("Key")
	}
	if err != nil {
		return Principal{}, err
	}
	p.Revoked = revokedAt.Valid
	p.Scopes = strings.Fields(scopes)
	if known {
		db.keys.put(header, hash, p)
	}
	return p, nil
}

// TouchKeys records when keys were last used, in one transaction. The
// server batches these in memory so that a request that only reads never
// writes.
func (db *DB) TouchKeys(ctx context.Context, used map[string]time.Time) error {
	if len(used) == 0 {
		return nil
	}
	return inTxDo(ctx, db.begin, func(tx txn) error {
		stmt, err := tx.stmt(ctx,
			`UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)`)
		if err != nil {
			return err
		}
		for id, at := range used {
			ts := at.UTC().Format(TimeFormat)
			if _, err := stmt.ExecContext(ctx, ts, id, ts); err != nil {
				return err
			}
		}
		return nil
	})
}
