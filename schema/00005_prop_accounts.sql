-- Prop-firm accounts (DESIGN §10): an account's rules, its payouts and the
-- expenses of trading at a firm (evaluations, resets, data), each with the
-- caller's documents (payout confirmations, receipts) linked in order. An
-- account's existing rows get no rules (every rule null) and the defaults:
-- days start at 18:00 New York, the trader keeps 100%.

-- +goose Up
ALTER TABLE accounts ADD COLUMN profit_target REAL CHECK (profit_target >= 0);
ALTER TABLE accounts ADD COLUMN max_daily_loss REAL CHECK (max_daily_loss >= 0);
ALTER TABLE accounts ADD COLUMN max_drawdown REAL CHECK (max_drawdown >= 0);
ALTER TABLE accounts ADD COLUMN drawdown_mode TEXT CHECK (drawdown_mode IN ('static', 'trailing', 'eod_trailing'));
ALTER TABLE accounts ADD COLUMN drawdown_lock_at REAL;
ALTER TABLE accounts ADD COLUMN min_trading_days INTEGER CHECK (min_trading_days >= 0);
ALTER TABLE accounts ADD COLUMN consistency_pct REAL CHECK (consistency_pct BETWEEN 0 AND 100);
ALTER TABLE accounts ADD COLUMN max_contracts INTEGER CHECK (max_contracts >= 0);
ALTER TABLE accounts ADD COLUMN day_starts_at TEXT NOT NULL DEFAULT '18:00';
ALTER TABLE accounts ADD COLUMN day_timezone TEXT NOT NULL DEFAULT 'America/New_York';
ALTER TABLE accounts ADD COLUMN profit_split REAL NOT NULL DEFAULT 100 CHECK (profit_split BETWEEN 0 AND 100);

CREATE TABLE payouts (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    account_id    TEXT NOT NULL REFERENCES accounts (id),
    date          TEXT NOT NULL,
    total_amount  REAL NOT NULL CHECK (total_amount > 0),
    profit_split  REAL NOT NULL CHECK (profit_split BETWEEN 0 AND 100),
    traders_share REAL NOT NULL,
    firms_share   REAL NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('requested', 'approved', 'paid', 'rejected', 'cancelled')),
    reference     TEXT NOT NULL DEFAULT '',
    notes         TEXT NOT NULL DEFAULT '',
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
) STRICT;
CREATE INDEX payouts_list ON payouts (user_id, created_at DESC, id DESC);
CREATE INDEX payouts_account ON payouts (account_id, status);

CREATE TABLE payout_documents (
    payout_id   TEXT NOT NULL REFERENCES payouts (id) ON DELETE CASCADE,
    document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    PRIMARY KEY (payout_id, document_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX payout_documents_document ON payout_documents (document_id);

CREATE TABLE expenses (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    account_id  TEXT REFERENCES accounts (id),
    prop_firm   TEXT,
    date        TEXT NOT NULL,
    amount      REAL NOT NULL CHECK (amount > 0),
    currency    TEXT NOT NULL,
    category    TEXT NOT NULL CHECK (category IN
                ('evaluation', 'reset', 'activation', 'subscription', 'data', 'platform', 'other')),
    description TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
) STRICT;
CREATE INDEX expenses_list ON expenses (user_id, created_at DESC, id DESC);
CREATE INDEX expenses_account ON expenses (account_id);

CREATE TABLE expense_documents (
    expense_id  TEXT NOT NULL REFERENCES expenses (id) ON DELETE CASCADE,
    document_id TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    PRIMARY KEY (expense_id, document_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX expense_documents_document ON expense_documents (document_id);

-- +goose Down
DROP TABLE expense_documents;
DROP TABLE expenses;
DROP TABLE payout_documents;
DROP TABLE payouts;
ALTER TABLE accounts DROP COLUMN profit_split;
ALTER TABLE accounts DROP COLUMN day_timezone;
ALTER TABLE accounts DROP COLUMN day_starts_at;
ALTER TABLE accounts DROP COLUMN max_contracts;
ALTER TABLE accounts DROP COLUMN consistency_pct;
ALTER TABLE accounts DROP COLUMN min_trading_days;
ALTER TABLE accounts DROP COLUMN drawdown_lock_at;
ALTER TABLE accounts DROP COLUMN drawdown_mode;
ALTER TABLE accounts DROP COLUMN max_drawdown;
ALTER TABLE accounts DROP COLUMN max_daily_loss;
ALTER TABLE accounts DROP COLUMN profit_target;
