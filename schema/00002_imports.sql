-- Broker imports (DESIGN §8): each import is remembered so it can be listed
-- and undone, and every fill keeps the id its source gave it, so that a file
-- imported twice, or two files that overlap, add nothing twice.

-- +goose Up
CREATE TABLE imports (
    id             TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    format         TEXT NOT NULL,
    file_name      TEXT NOT NULL,
    timezone       TEXT NOT NULL,
    account_ids    TEXT NOT NULL DEFAULT '[]',   -- JSON array of account ids
    rows           INTEGER NOT NULL CHECK (rows >= 0),
    fills          INTEGER NOT NULL CHECK (fills >= 0),
    skipped        INTEGER NOT NULL CHECK (skipped >= 0),
    duplicates     INTEGER NOT NULL CHECK (duplicates >= 0),
    trades_created INTEGER NOT NULL CHECK (trades_created >= 0),
    trades_updated INTEGER NOT NULL CHECK (trades_updated >= 0),
    warnings       TEXT NOT NULL DEFAULT '[]',   -- JSON array of strings
    created_at     TEXT NOT NULL
) STRICT;
CREATE INDEX imports_list ON imports (user_id, created_at DESC, id DESC);

-- source_id: the execution id the broker gave the fill (or a hash of it
-- where the file has none); the fill's own id for a fill entered through
-- the API. Unique per account, which the import checks: a trade can move
-- between accounts, so no index can hold it.
ALTER TABLE executions ADD COLUMN source_id TEXT;
UPDATE executions SET source_id = id;
CREATE INDEX executions_source ON executions (source_id);

-- import_id: the import that added the fill, so the import can be undone.
ALTER TABLE executions ADD COLUMN import_id TEXT REFERENCES imports (id) ON DELETE SET NULL;
CREATE INDEX executions_import ON executions (import_id) WHERE import_id IS NOT NULL;

-- commission_schedule: dollars per contract per side for imported fills
-- whose file has no commission, by futures root or symbol, "*" for the
-- rest. JSON object; NULL when the account has none.
ALTER TABLE accounts ADD COLUMN commission_schedule TEXT;

-- +goose Down
ALTER TABLE accounts DROP COLUMN commission_schedule;
DROP INDEX executions_import;
ALTER TABLE executions DROP COLUMN import_id;
DROP INDEX executions_source;
ALTER TABLE executions DROP COLUMN source_id;
DROP TABLE imports;
