-- The whole relational model of the journal. Later migrations only add columns
-- and indexes; every table another one points at exists here, so no later
-- migration has to rebuild a table to add a foreign key.
--
-- Conventions: ids are lower-case UUID text; timestamps are RFC 3339 UTC text
-- with milliseconds ("2026-02-05T15:17:54.123Z"); dates are YYYY-MM-DD and
-- times HH:MM:SS in the owner's timezone; money and quantities are REAL.
-- Every owned row carries user_id, and every query filters on it.

-- +goose Up
CREATE TABLE users (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL UNIQUE CHECK (length(name) BETWEEN 1 AND 64),
    timezone     TEXT NOT NULL DEFAULT 'America/New_York',
    subscription TEXT NOT NULL DEFAULT 'active' CHECK (subscription IN ('active', 'inactive')),
    created_at   TEXT NOT NULL
) STRICT;

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT NOT NULL DEFAULT '',
    prefix       TEXT NOT NULL,          -- first 8 characters, for `key list`
    hash         BLOB NOT NULL UNIQUE,   -- SHA-256 of the whole key; the key itself is never stored
    scopes       TEXT NOT NULL,          -- space-separated, e.g. "trades:write tags:read"
    created_at   TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at   TEXT
) STRICT;
CREATE INDEX api_keys_user ON api_keys (user_id);

CREATE TABLE accounts (
    id               TEXT PRIMARY KEY,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name             TEXT NOT NULL DEFAULT '',
    account_number   TEXT NOT NULL CHECK (length(account_number) BETWEEN 1 AND 128),
    account_type     TEXT NOT NULL CHECK (account_type IN ('prop', 'retail')),
    prop_firm        TEXT,
    firms_logo       TEXT,
    broker           TEXT,
    currency         TEXT NOT NULL DEFAULT 'USD',
    starting_balance REAL,
    status           TEXT NOT NULL DEFAULT 'active'
                     CHECK (status IN ('evaluation', 'funded', 'passed', 'failed', 'active', 'closed')),
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    UNIQUE (user_id, account_number)
) STRICT;
CREATE INDEX accounts_list ON accounts (user_id, created_at DESC, id DESC);

CREATE TABLE tag_groups (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    color      TEXT NOT NULL,
    sort_order INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (user_id, name)
) STRICT;

CREATE TABLE tags (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    tag_group_id TEXT NOT NULL REFERENCES tag_groups (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    sort_order   INTEGER NOT NULL DEFAULT 0,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    UNIQUE (tag_group_id, name)
) STRICT;
CREATE INDEX tags_user ON tags (user_id);

CREATE TABLE playbooks (
    id               TEXT PRIMARY KEY,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title            TEXT NOT NULL,
    description      TEXT NOT NULL DEFAULT '',
    content_markdown TEXT NOT NULL DEFAULT '',
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
) STRICT;
CREATE INDEX playbooks_list ON playbooks (user_id, created_at DESC, id DESC);

CREATE TABLE playbook_criteria (
    id          TEXT PRIMARY KEY,
    playbook_id TEXT NOT NULL REFERENCES playbooks (id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('entry', 'exit')),
    description TEXT NOT NULL,
    position    INTEGER NOT NULL CHECK (position >= 1),
    UNIQUE (playbook_id, kind, position)
) STRICT;

CREATE TABLE strategies (
    id               TEXT PRIMARY KEY,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title            TEXT NOT NULL,
    description      TEXT NOT NULL DEFAULT '',
    type             TEXT NOT NULL DEFAULT 'risk_management'
                     CHECK (type IN ('entry', 'exit', 'trade_management', 'risk_management')),
    content_markdown TEXT NOT NULL DEFAULT '',
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
) STRICT;
CREATE INDEX strategies_list ON strategies (user_id, created_at DESC, id DESC);

CREATE TABLE strategy_rules (
    id          TEXT PRIMARY KEY,
    strategy_id TEXT NOT NULL REFERENCES strategies (id) ON DELETE CASCADE,
    description TEXT NOT NULL DEFAULT '',
    category    TEXT NOT NULL DEFAULT '',
    sort_order  INTEGER NOT NULL DEFAULT 0,
    severity    TEXT NOT NULL DEFAULT 'warning' CHECK (severity IN ('warning', 'critical')),
    check_json  TEXT,                    -- machine-checkable rule, {"kind": …}
    position    INTEGER NOT NULL
) STRICT;
CREATE INDEX strategy_rules_strategy ON strategy_rules (strategy_id, position);

CREATE TABLE playbook_strategies (
    playbook_id TEXT NOT NULL REFERENCES playbooks (id) ON DELETE CASCADE,
    strategy_id TEXT NOT NULL REFERENCES strategies (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    PRIMARY KEY (playbook_id, strategy_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX playbook_strategies_strategy ON playbook_strategies (strategy_id);

-- A user's point value for a futures root, overriding or extending the built-in table.
CREATE TABLE instruments (
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    root        TEXT NOT NULL,
    point_value REAL NOT NULL CHECK (point_value > 0),
    asset_class TEXT NOT NULL CHECK (asset_class IN ('futures', 'options', 'forex', 'crypto', 'stocks')),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    PRIMARY KEY (user_id, root)
) STRICT, WITHOUT ROWID;

CREATE TABLE trades (
    id                 TEXT PRIMARY KEY,
    user_id            TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    account_id         TEXT NOT NULL REFERENCES accounts (id),
    symbol             TEXT NOT NULL,
    root               TEXT NOT NULL,      -- futures root or option underlying; the symbol otherwise
    side               TEXT NOT NULL CHECK (side IN ('long', 'short')),
    quantity           REAL NOT NULL CHECK (quantity > 0),
    entry_price        REAL NOT NULL CHECK (entry_price > 0),
    exit_price         REAL CHECK (exit_price > 0),
    entry_date         TEXT NOT NULL,
    entry_time         TEXT,
    exit_date          TEXT,
    exit_time          TEXT,
    exit_date_set      INTEGER NOT NULL DEFAULT 0 CHECK (exit_date_set IN (0, 1)), -- the client's, not defaulted
    gross_pnl          REAL NOT NULL DEFAULT 0,
    net_pnl            REAL NOT NULL DEFAULT 0,
    total_commission   REAL NOT NULL DEFAULT 0 CHECK (total_commission >= 0),
    status             TEXT NOT NULL CHECK (status IN ('open', 'win', 'loss', 'breakeven')),
    status_override    TEXT CHECK (status_override IN ('open', 'win', 'loss', 'breakeven')),
    asset_class        TEXT NOT NULL CHECK (asset_class IN ('futures', 'options', 'forex', 'crypto', 'stocks')),
    asset_class_set    INTEGER NOT NULL DEFAULT 0 CHECK (asset_class_set IN (0, 1)),
    point_value        REAL NOT NULL CHECK (point_value > 0),
    star_rating        INTEGER CHECK (star_rating BETWEEN 1 AND 5),
    review_notes       TEXT,
    stop_loss_levels   TEXT NOT NULL DEFAULT '[]',
    take_profit_levels TEXT NOT NULL DEFAULT '[]',
    playbook_id        TEXT REFERENCES playbooks (id) ON DELETE SET NULL,
    reviewed_at        TEXT,
    r_ratio            REAL,
    has_violations     INTEGER NOT NULL DEFAULT 0 CHECK (has_violations IN (0, 1)),
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
) STRICT;
CREATE INDEX trades_list ON trades (user_id, entry_date DESC, entry_time DESC, id DESC);
CREATE INDEX trades_account ON trades (user_id, account_id, entry_date DESC, entry_time DESC, id DESC);
CREATE INDEX trades_root ON trades (user_id, root, entry_date DESC, entry_time DESC, id DESC);
CREATE INDEX trades_symbol ON trades (user_id, symbol, entry_date DESC, entry_time DESC, id DESC);
CREATE INDEX trades_playbook ON trades (playbook_id);

CREATE TABLE executions (
    id                  TEXT PRIMARY KEY,
    trade_id            TEXT NOT NULL REFERENCES trades (id) ON DELETE CASCADE,
    position            INTEGER NOT NULL,   -- order of the fill within its trade
    side                TEXT NOT NULL CHECK (side IN ('buy', 'sell')),
    price               REAL NOT NULL CHECK (price > 0),
    quantity            REAL NOT NULL CHECK (quantity > 0),
    commission          REAL NOT NULL DEFAULT 0 CHECK (commission >= 0),
    execution_date      TEXT NOT NULL,
    execution_time      TEXT NOT NULL,
    execution_type      TEXT NOT NULL CHECK (execution_type IN ('scale_in', 'scale_out', 'full')),
    execution_timestamp TEXT NOT NULL
) STRICT;
CREATE INDEX executions_trade ON executions (trade_id, position);

-- The risk-management strategies a trade is checked against.
CREATE TABLE trade_strategies (
    trade_id    TEXT NOT NULL REFERENCES trades (id) ON DELETE CASCADE,
    strategy_id TEXT NOT NULL REFERENCES strategies (id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    PRIMARY KEY (trade_id, strategy_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX trade_strategies_strategy ON trade_strategies (strategy_id);

CREATE TABLE trade_criteria_checks (
    trade_id     TEXT NOT NULL REFERENCES trades (id) ON DELETE CASCADE,
    criterion_id TEXT NOT NULL REFERENCES playbook_criteria (id) ON DELETE CASCADE,
    checked      INTEGER NOT NULL CHECK (checked IN (0, 1)),
    PRIMARY KEY (trade_id, criterion_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX trade_criteria_checks_criterion ON trade_criteria_checks (criterion_id);

-- Evaluations keep a snapshot of the rule, so editing or deleting a strategy
-- never rewrites a trade's history.
CREATE TABLE trade_rule_evaluations (
    id             TEXT PRIMARY KEY,
    trade_id       TEXT NOT NULL REFERENCES trades (id) ON DELETE CASCADE,
    strategy_id    TEXT REFERENCES strategies (id) ON DELETE SET NULL,
    rule_id        TEXT,
    result         TEXT NOT NULL CHECK (result IN ('pass', 'fail')),
    severity       TEXT CHECK (severity IN ('warning', 'critical')),
    violation_data TEXT,
    rule_snapshot  TEXT NOT NULL,
    evaluated_at   TEXT NOT NULL,
    position       INTEGER NOT NULL
) STRICT;
CREATE INDEX trade_rule_evaluations_trade ON trade_rule_evaluations (trade_id, position);
CREATE INDEX trade_rule_evaluations_strategy ON trade_rule_evaluations (strategy_id);

CREATE TABLE documents (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    account_id    TEXT NOT NULL REFERENCES accounts (id),
    document_name TEXT NOT NULL,
    category      TEXT NOT NULL CHECK (category IN
                  ('payout-confirmation', 'evaluation-pass-certificate', 'account-scale-certificate', 'receipt')),
    file_name     TEXT NOT NULL,
    file_size     INTEGER NOT NULL CHECK (file_size >= 0),
    mime_type     TEXT NOT NULL,
    blob_hash     TEXT NOT NULL,           -- hex SHA-256; the file is files/sha256/<2>/<hash>
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
) STRICT;
CREATE INDEX documents_list ON documents (user_id, created_at DESC, id DESC);
CREATE INDEX documents_account ON documents (account_id);
CREATE INDEX documents_blob ON documents (blob_hash);

CREATE TABLE write_ups (
    id               TEXT PRIMARY KEY,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    trade_id         TEXT NOT NULL REFERENCES trades (id) ON DELETE CASCADE,
    title            TEXT NOT NULL DEFAULT '',
    content_markdown TEXT NOT NULL DEFAULT '',
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
) STRICT;
CREATE INDEX write_ups_list ON write_ups (user_id, created_at DESC, id DESC);
CREATE INDEX write_ups_trade ON write_ups (trade_id);

CREATE TABLE trading_plans (
    id               TEXT PRIMARY KEY,
    user_id          TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title            TEXT NOT NULL,
    plan_date        TEXT,
    playbook_id      TEXT REFERENCES playbooks (id) ON DELETE SET NULL,
    content_markdown TEXT NOT NULL DEFAULT '',
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
) STRICT;
CREATE INDEX trading_plans_list ON trading_plans (user_id, created_at DESC, id DESC);
CREATE INDEX trading_plans_playbook ON trading_plans (playbook_id);

CREATE TABLE chart_books (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title       TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    playbook_id TEXT REFERENCES playbooks (id) ON DELETE SET NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
) STRICT;
CREATE INDEX chart_books_list ON chart_books (user_id, created_at DESC, id DESC);
CREATE INDEX chart_books_playbook ON chart_books (playbook_id);

CREATE TABLE chart_book_documents (
    chart_book_id TEXT NOT NULL REFERENCES chart_books (id) ON DELETE CASCADE,
    document_id   TEXT NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    PRIMARY KEY (chart_book_id, document_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX chart_book_documents_document ON chart_book_documents (document_id);

CREATE TABLE report_cards (
    id             TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    report_date    TEXT NOT NULL,
    account_id     TEXT REFERENCES accounts (id) ON DELETE SET NULL,
    grade          INTEGER CHECK (grade BETWEEN 1 AND 5),
    notes_markdown TEXT NOT NULL DEFAULT '',
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
) STRICT;
CREATE INDEX report_cards_list ON report_cards (user_id, created_at DESC, id DESC);
CREATE INDEX report_cards_account ON report_cards (account_id);

-- Tags attach through one join table per taggable resource; deleting either
-- side removes the association.
CREATE TABLE trade_tags (
    trade_id TEXT NOT NULL REFERENCES trades (id) ON DELETE CASCADE,
    tag_id   TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (trade_id, tag_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX trade_tags_tag ON trade_tags (tag_id, trade_id);

CREATE TABLE account_tags (
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    tag_id     TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (account_id, tag_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX account_tags_tag ON account_tags (tag_id);

CREATE TABLE playbook_tags (
    playbook_id TEXT NOT NULL REFERENCES playbooks (id) ON DELETE CASCADE,
    tag_id      TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (playbook_id, tag_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX playbook_tags_tag ON playbook_tags (tag_id);

CREATE TABLE strategy_tags (
    strategy_id TEXT NOT NULL REFERENCES strategies (id) ON DELETE CASCADE,
    tag_id      TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (strategy_id, tag_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX strategy_tags_tag ON strategy_tags (tag_id);

CREATE TABLE write_up_tags (
    write_up_id TEXT NOT NULL REFERENCES write_ups (id) ON DELETE CASCADE,
    tag_id      TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (write_up_id, tag_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX write_up_tags_tag ON write_up_tags (tag_id);

CREATE TABLE trading_plan_tags (
    trading_plan_id TEXT NOT NULL REFERENCES trading_plans (id) ON DELETE CASCADE,
    tag_id          TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (trading_plan_id, tag_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX trading_plan_tags_tag ON trading_plan_tags (tag_id);

CREATE TABLE chart_book_tags (
    chart_book_id TEXT NOT NULL REFERENCES chart_books (id) ON DELETE CASCADE,
    tag_id        TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (chart_book_id, tag_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX chart_book_tags_tag ON chart_book_tags (tag_id);

CREATE TABLE report_card_tags (
    report_card_id TEXT NOT NULL REFERENCES report_cards (id) ON DELETE CASCADE,
    tag_id         TEXT NOT NULL REFERENCES tags (id) ON DELETE CASCADE,
    PRIMARY KEY (report_card_id, tag_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX report_card_tags_tag ON report_card_tags (tag_id);

-- +goose Down
DROP TABLE report_card_tags;
DROP TABLE chart_book_tags;
DROP TABLE trading_plan_tags;
DROP TABLE write_up_tags;
DROP TABLE strategy_tags;
DROP TABLE playbook_tags;
DROP TABLE account_tags;
DROP TABLE trade_tags;
DROP TABLE report_cards;
DROP TABLE chart_book_documents;
DROP TABLE chart_books;
DROP TABLE trading_plans;
DROP TABLE write_ups;
DROP TABLE documents;
DROP TABLE trade_rule_evaluations;
DROP TABLE trade_criteria_checks;
DROP TABLE trade_strategies;
DROP TABLE executions;
DROP TABLE trades;
DROP TABLE instruments;
DROP TABLE playbook_strategies;
DROP TABLE strategy_rules;
DROP TABLE strategies;
DROP TABLE playbook_criteria;
DROP TABLE playbooks;
DROP TABLE tags;
DROP TABLE tag_groups;
DROP TABLE accounts;
DROP TABLE api_keys;
DROP TABLE users;
