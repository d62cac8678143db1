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
-- A closed trade saved after the last one of its day (the common case: a
-- trade logged as it happens) is added to its rows by the trigger below;
-- any other change marks the day stale in trade_days_stale, and the write
-- that made it rebuilds the day from its trades before it commits (db's
-- settleDays). A read that finds a stale day of its user reads the trades
-- instead, so no path that writes around the writer can make a figure
-- wrong. This migration marks every day stale: the journal's first open
-- builds them.

-- +goose Up
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
    -- Before the day's last trade: the day is rebuilt.
    INSERT OR IGNORE INTO trade_days_stale (user_id, day)
        SELECT NEW.user_id, NEW.day FROM trade_days d
        WHERE d.user_id = NEW.user_id AND d.account_id IN ('', NEW.account_id) AND d.day = NEW.day
            AND (coalesce(NEW.exit_time, ''), NEW.id) <= (d.last_exit, d.last_id);
    -- After it, or the day's first: added.
    INSERT INTO trade_days (user_id, account_id, day, trades, wins, losses, breakeven, gross, commissions, net,
        win_sum, loss_sum, largest_win, largest_loss, r_sum, r_count, hold_sum, hold_count,
        win_first, win_last, win_max, loss_first, loss_last, loss_max, high, low, fall, last_exit, last_id)
    SELECT NEW.user_id, k.account_id, NEW.day, 1, t.win, t.loss, NEW.status = 'breakeven', t.gross, t.commissions, t.net,
        t.win * t.net, t.loss * t.net, iif(t.win, NEW.net_pnl, NULL), iif(t.loss, NEW.net_pnl, NULL),
        coalesce(NEW.r_ratio, 0), NEW.r_ratio IS NOT NULL, coalesce(NEW.hold_seconds, 0), NEW.hold_seconds IS NOT NULL,
        t.win, t.win, t.win, t.loss, t.loss, t.loss, t.net, t.net, 0, coalesce(NEW.exit_time, ''), NEW.id
    FROM (SELECT '' AS account_id UNION ALL SELECT NEW.account_id) k,
        (SELECT NEW.status = 'win' AS win, NEW.status = 'loss' AS loss,
            CAST(round(NEW.gross_pnl * 100000000) AS INTEGER) AS gross,
            CAST(round(NEW.total_commission * 100000000) AS INTEGER) AS commissions,
            CAST(round(NEW.net_pnl * 100000000) AS INTEGER) AS net) t
    WHERE NOT EXISTS (SELECT 1 FROM trade_days_stale s WHERE s.user_id = NEW.user_id AND s.day = NEW.day)
    ON CONFLICT (user_id, account_id, day) DO UPDATE SET
        trades = trades + 1,
        wins = wins + excluded.wins,
        losses = losses + excluded.losses,
        breakeven = breakeven + excluded.breakeven,
        gross = gross + excluded.gross,
        commissions = commissions + excluded.commissions,
        net = net + excluded.net,
        win_sum = win_sum + excluded.win_sum,
        loss_sum = loss_sum + excluded.loss_sum,
        largest_win = coalesce(max(largest_win, excluded.largest_win), largest_win, excluded.largest_win),
        largest_loss = coalesce(min(largest_loss, excluded.largest_loss), largest_loss, excluded.largest_loss),
        r_sum = r_sum + excluded.r_sum,
        r_count = r_count + excluded.r_count,
        hold_sum = hold_sum + excluded.hold_sum,
        hold_count = hold_count + excluded.hold_count,
        win_first = win_first + iif(losses = 0, excluded.wins, 0),
        win_last = CASE WHEN excluded.wins THEN win_last + 1 WHEN excluded.losses THEN 0 ELSE win_last END,
        win_max = max(win_max, iif(excluded.wins, win_last + 1, 0)),
        loss_first = loss_first + iif(wins = 0, excluded.losses, 0),
        loss_last = CASE WHEN excluded.losses THEN loss_last + 1 WHEN excluded.wins THEN 0 ELSE loss_last END,
        loss_max = max(loss_max, iif(excluded.losses, loss_last + 1, 0)),
        high = max(high, net + excluded.net),
        low = min(low, net + excluded.net),
        fall = max(fall, max(high, net + excluded.net) - (net + excluded.net)),
        last_exit = excluded.last_exit,
        last_id = excluded.last_id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER trade_days_delete AFTER DELETE ON trades WHEN OLD.status <> 'open' BEGIN
    INSERT OR IGNORE INTO trade_days_stale (user_id, day) VALUES (OLD.user_id, OLD.day);
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
    INSERT OR IGNORE INTO trade_days_stale (user_id, day)
        SELECT OLD.user_id, OLD.day WHERE OLD.status <> 'open'
        UNION ALL SELECT NEW.user_id, NEW.day WHERE NEW.status <> 'open';
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
