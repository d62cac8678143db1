-- Unknown accounts (DESIGN §14): an import with create_accounts makes an
-- account for each account number its rows name that the user has none
-- for. import_accounts records which accounts an import created, so that
-- undoing it removes those that hold nothing else; deleting the account, or
-- the import, removes the record. unknown_accounts keeps the numbers the
-- import found no account for, as its answer gave them: the accounts it
-- created, by the number the file wrote, whatever they are renamed to later.
-- Imports made before this schema created none.

-- +goose Up
ALTER TABLE imports ADD COLUMN unknown_accounts TEXT NOT NULL DEFAULT '[]'; -- JSON array of account numbers

CREATE TABLE import_accounts (
    import_id  TEXT NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    PRIMARY KEY (import_id, account_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX import_accounts_account ON import_accounts (account_id);

-- +goose Down
DROP TABLE import_accounts;
ALTER TABLE imports DROP COLUMN unknown_accounts;
