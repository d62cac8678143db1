-- Web sessions (DESIGN §11): a browser signed in with an API key acts with
-- that key's scopes. Only a SHA-256 of the session's id is stored, as for
-- keys; each session has its own CSRF token. A session ends when it
-- expires, when it signs out, or with its key (revoked: checked on every
-- request; deleted: the rows go with it).

-- +goose Up
CREATE TABLE web_sessions (
    id_hash    BLOB PRIMARY KEY,   -- SHA-256 of the cookie's id
    key_id     TEXT NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
    csrf       TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX web_sessions_key ON web_sessions (key_id);

-- +goose Down
DROP TABLE web_sessions;
