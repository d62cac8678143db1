-- Column mappings (DESIGN §14): a user's description of a file no known
-- format reads, by the file's header names, so that the file (and the next
-- one with the same header) imports. columns and side_values are kept as
-- the API writes them (JSON); the name is unique per user. An import read
-- with a mapping names it; deleting the mapping keeps the import, without
-- the reference.
--
-- import_uploads holds a file the import page could not read while its
-- trader maps its columns, so that the file is not chosen again: the
-- user's, for a day at most (DESIGN §14; README "Mapping an unknown file").

-- +goose Up
CREATE TABLE import_mappings (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    columns     TEXT NOT NULL,             -- JSON object: role → header name (commission: a list)
    side_values TEXT,                      -- JSON object {buy, sell, skip}; NULL: the sides §8 reads
    date_order  TEXT NOT NULL DEFAULT 'auto',
    decimal     TEXT NOT NULL DEFAULT 'point',
    timezone    TEXT,                      -- NULL: the user's
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    UNIQUE (user_id, name)
) STRICT;

ALTER TABLE imports ADD COLUMN mapping_id TEXT REFERENCES import_mappings (id) ON DELETE SET NULL;

CREATE TABLE import_uploads (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    file_name  TEXT NOT NULL,
    content    BLOB NOT NULL,
    created_at TEXT NOT NULL
) STRICT;
CREATE INDEX import_uploads_user ON import_uploads (user_id, created_at);

-- +goose Down
DROP TABLE import_uploads;
ALTER TABLE imports DROP COLUMN mapping_id;
DROP TABLE import_mappings;
