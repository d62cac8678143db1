-- Sign-in links (DESIGN §11): a one-click link carries a random token, not
-- an API key. A token is single-use, valid 15 minutes, and signs in with
-- the scopes of one key of its user; only its SHA-256 is stored, as for
-- keys and sessions. It goes with its key (deleted: the rows go with it;
-- revoked: refused when used).

-- +goose Up
CREATE TABLE login_tokens (
    token_hash BLOB PRIMARY KEY,   -- SHA-256 of the link's token
    key_id     TEXT NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX login_tokens_key ON login_tokens (key_id);

-- +goose Down
DROP TABLE login_tokens;
