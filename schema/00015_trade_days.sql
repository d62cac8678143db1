-- Each day's statistics (DESIGN §9), so that the dashboard's summary, daily
-- and equity read one row per trading day rather than every trade. A row
-- holds the closed trades of one user's day in one account, or in all of
-- the user's accounts together (account_id ''), in the statistics' order
-- (exit time, then id): their counts and sums, and what the figures that
-- need the order read: the runs of wins and of losses the day starts with,
-- ends with and holds at most (a breakeven trade neither extends nor breaks
-- a run), and the highest and lowest of the day's cumulative net P&L after
-- each trade and its largest fall within the day. Money is in units of
-- 1e-8 (every stored amount is rounded to 8 decimals), so the sums are
-- exact whatever their order.
--
-- A write pays one row for it at most: the triggers below only mark the
-- (user, day) of each closed trade saved, changed, moved or deleted stale
-- in trade_days_stale (nothing when the day is already marked). The rows
-- of a stale day are rebuilt from its trades outside any request's write:
-- by db's settler, once the writer has been idle, in short write
-- transactions of their own. A read never writes: it folds the stale days
-- of its user from their trades, and reads the rest from the rows. This
-- migration marks every day stale; the settler builds them after Open.
-- (Schema 00013 held an earlier form that rebuilt a day inside each write;
-- it was never shipped, and its number is not used again.)

-- +goose Up
-- A journal opened by the build that briefly held schema 00013 has its
-- tables and triggers, of the same names: they go, and are made anew.
DROP TRIGGER IF EXISTS trade_days_account_delete;
DROP TRIGGER IF EXISTS trade_days_update;
DROP TRIGGER IF EXISTS trade_days_delete;
DROP TRIGGER IF EXISTS trade_days_insert;
DROP TABLE IF EXISTS trade_days_stale;
DROP TABLE IF EXISTS trade_days;

CREATE TABLE trade_days (
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    account_id   TEXT NOT NULL, -- '' for all the user's accounts
    day          TEXT NOT NULL,
    trades       INTEGER NOT NULL,
    wins         INTEGER NOT NULL,
    losses       INTEGER NOT NULL,
    breakeven    INTEGER NOT NULL,
    gross        INTEGER NOT NULL, -- 1e-8 units
    commissions  INTEGER NOT NULL,
    net          INTEGER NOT NULL,
    win_sum      INTEGER NOT NULL,
    loss_sum     INTEGER NOT NULL,
    largest_win  REAL,
    largest_loss REAL,
    r_sum        REAL NOT NULL,
    r_count      INTEGER NOT NULL,
    hold_sum     INTEGER NOT NULL,
    hold_count   INTEGER NOT NULL,
    win_first    INTEGER NOT NULL,
    win_last     INTEGER NOT NULL,
    win_max      INTEGER NOT NULL,
    loss_first   INTEGER NOT NULL,
    loss_last    INTEGER NOT NULL,
    loss_max     INTEGER NOT NULL,
    high         INTEGER NOT NULL, -- of the cumulative net after each trade
    low          INTEGER NOT NULL,
    fall         INTEGER NOT NULL,
    last_exit    TEXT NOT NULL,    -- the last trade's exit time ('' for none) and id
    last_id      TEXT NOT NULL,
    PRIMARY KEY (user_id, account_id, day)
) STRICT, WITHOUT ROWID;

CREATE TABLE trade_days_stale (
    user_id TEXT NOT NULL,
    day     TEXT NOT NULL,
    PRIMARY KEY (user_id, day)
) STRICT, WITHOUT ROWID;

INSERT INTO trade_days_stale (user_id, day)
    SELECT DISTINCT user_id, day FROM trades WHERE status <> 'open';

-- +goose StatementBegin
CREATE TRIGGER trade_days_insert AFTER INSERT ON trades WHEN NEW.status <> 'open' BEGIN
    INSERT INTO trade_days_stale (user_id, day) VALUES (NEW.user_id, NEW.day) ON CONFLICT DO NOTHING;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER trade_days_delete AFTER DELETE ON trades WHEN OLD.status <> 'open' BEGIN
    INSERT INTO trade_days_stale (user_id, day) VALUES (OLD.user_id, OLD.day) ON CONFLICT DO NOTHING;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER trade_days_update AFTER UPDATE OF user_id, account_id, day, status, exit_time, gross_pnl,
    total_commission, net_pnl, r_ratio, hold_seconds ON trades
    WHEN (OLD.status <> 'open' OR NEW.status <> 'open') AND (OLD.user_id IS NOT NEW.user_id
        OR OLD.account_id IS NOT NEW.account_id OR OLD.day IS NOT NEW.day OR OLD.status IS NOT NEW.status
        OR OLD.exit_time IS NOT NEW.exit_time OR OLD.gross_pnl IS NOT NEW.gross_pnl
        OR OLD.total_commission IS NOT NEW.total_commission OR OLD.net_pnl IS NOT NEW.net_pnl
        OR OLD.r_ratio IS NOT NEW.r_ratio OR OLD.hold_seconds IS NOT NEW.hold_seconds) BEGIN
    INSERT INTO trade_days_stale (user_id, day)
        SELECT OLD.user_id, OLD.day WHERE OLD.status <> 'open'
        UNION ALL SELECT NEW.user_id, NEW.day WHERE NEW.status <> 'open'
        ON CONFLICT DO NOTHING;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER trade_days_account_delete AFTER DELETE ON accounts BEGIN
    DELETE FROM trade_days WHERE user_id = OLD.user_id AND account_id = OLD.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER trade_days_account_delete;
DROP TRIGGER trade_days_update;
DROP TRIGGER trade_days_delete;
DROP TRIGGER trade_days_insert;
DROP TABLE trade_days_stale;
DROP TABLE trade_days;
