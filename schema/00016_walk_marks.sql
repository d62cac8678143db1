-- An account's status (DESIGN §10) keeps its walk over the account's fills
-- and goes on from the first day a change can touch, rather than walking
-- every fill after each commit (issue 31). It learns which days changed
-- from the stale marks of schema 00015, in its own read's snapshot, so a
-- change another process commits is seen as well as one of this process:
--
--  * A write that changes what the walk reads of a trade (any trade, open
--    or closed) or of its fills marks the user's day of the trade's entry
--    date stale too, before and after the change; the triggers below. A
--    trade's fills all come at or after its entry, so nothing before that
--    day's start (less the widest zones) can have moved. A closed day
--    trade's entry date is the day schema 00015 already marks, so this
--    mostly costs no write. A fill inserted marks nothing by itself: a new
--    trade's insert marks its day, a fill replaced deletes the old ones,
--    and the one write that adds fills to a trade already there (an
--    import continuing an open trade) marks it in its transaction. A
--    trigger on each fill inserted cost an import 13% of its time.
--  * A day's mark cleared (by the settler, of this build or an older one)
--    is recorded in trade_days_settled with a generation: a number that
--    only grows for each user, one more than its highest. A kept walk
--    remembers the highest generation its snapshot held, and the days
--    recorded after it are the ones marked and cleared since.
--
-- A day marked only for the walk has no closed trades of its own, or the
-- same ones: rebuilding it gives the same rows.

-- +goose Up
CREATE TABLE trade_days_settled (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    day     TEXT NOT NULL,
    gen     INTEGER NOT NULL,
    PRIMARY KEY (user_id, day)
) STRICT, WITHOUT ROWID;

CREATE INDEX trade_days_settled_gen ON trade_days_settled (user_id, gen);

-- +goose StatementBegin
CREATE TRIGGER walk_day_settled AFTER DELETE ON trade_days_stale BEGIN
    INSERT INTO trade_days_settled (user_id, day, gen)
        SELECT OLD.user_id, OLD.day, coalesce(max(gen), 0) + 1 FROM trade_days_settled WHERE user_id = OLD.user_id
        ON CONFLICT (user_id, day) DO UPDATE SET gen = excluded.gen;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER walk_trade_insert AFTER INSERT ON trades BEGIN
    INSERT INTO trade_days_stale (user_id, day) VALUES (NEW.user_id, NEW.entry_date) ON CONFLICT DO NOTHING;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER walk_trade_delete AFTER DELETE ON trades BEGIN
    INSERT INTO trade_days_stale (user_id, day) VALUES (OLD.user_id, OLD.entry_date) ON CONFLICT DO NOTHING;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER walk_trade_update AFTER UPDATE OF user_id, account_id, side, point_value, status, entry_date,
    entry_time, exit_date, exit_time, exit_price, quantity, gross_pnl, total_commission ON trades
    WHEN OLD.user_id IS NOT NEW.user_id OR OLD.account_id IS NOT NEW.account_id OR OLD.side IS NOT NEW.side
        OR OLD.point_value IS NOT NEW.point_value OR OLD.status IS NOT NEW.status
        OR OLD.entry_date IS NOT NEW.entry_date OR OLD.entry_time IS NOT NEW.entry_time
        OR OLD.exit_date IS NOT NEW.exit_date OR OLD.exit_time IS NOT NEW.exit_time
        OR OLD.exit_price IS NOT NEW.exit_price OR OLD.quantity IS NOT NEW.quantity
        OR OLD.gross_pnl IS NOT NEW.gross_pnl OR OLD.total_commission IS NOT NEW.total_commission BEGIN
    INSERT INTO trade_days_stale (user_id, day)
        SELECT OLD.user_id, OLD.entry_date WHERE true
        UNION ALL SELECT NEW.user_id, NEW.entry_date WHERE true
        ON CONFLICT DO NOTHING;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER walk_fill_delete AFTER DELETE ON executions BEGIN
    INSERT INTO trade_days_stale (user_id, day)
        SELECT user_id, entry_date FROM trades WHERE id = OLD.trade_id
        ON CONFLICT DO NOTHING;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER walk_fill_update AFTER UPDATE OF trade_id, position, side, price, quantity, commission,
    execution_timestamp ON executions
    WHEN OLD.trade_id IS NOT NEW.trade_id OR OLD.position IS NOT NEW.position OR OLD.side IS NOT NEW.side
        OR OLD.price IS NOT NEW.price OR OLD.quantity IS NOT NEW.quantity OR OLD.commission IS NOT NEW.commission
        OR OLD.execution_timestamp IS NOT NEW.execution_timestamp BEGIN
    INSERT INTO trade_days_stale (user_id, day)
        SELECT user_id, entry_date FROM trades WHERE id IN (OLD.trade_id, NEW.trade_id)
        ON CONFLICT DO NOTHING;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER walk_fill_update;
DROP TRIGGER walk_fill_delete;
DROP TRIGGER walk_trade_update;
DROP TRIGGER walk_trade_delete;
DROP TRIGGER walk_trade_insert;
DROP TRIGGER walk_day_settled;
DROP TABLE trade_days_settled;
