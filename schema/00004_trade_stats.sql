-- Statistics (DESIGN §9). Each trade keeps its day, the date a closed trade
-- counts on (its exit date, in the user's timezone like every stored date),
-- and how long it was held, both derived on every save. A partial index over
-- the closed trades, in the order the statistics walk them, carries every
-- column summary, daily and equity read, so that they never read the table;
-- a small one over the open trades counts them.

-- +goose Up
ALTER TABLE trades ADD COLUMN day TEXT NOT NULL DEFAULT '';
ALTER TABLE trades ADD COLUMN hold_seconds INTEGER CHECK (hold_seconds >= 0);

UPDATE trades SET day = coalesce(exit_date, entry_date);

-- Held from the first fill to the last; a trade without fills from its entry
-- to its exit on the clock of the user's timezone, when both times are known.
UPDATE trades SET hold_seconds = (
    SELECT CASE WHEN held >= 0 THEN held END FROM (
        SELECT CASE
            WHEN trades.exit_date IS NULL THEN NULL
            WHEN EXISTS (SELECT 1 FROM executions e WHERE e.trade_id = trades.id)
                THEN (SELECT unixepoch(max(e.execution_timestamp)) - unixepoch(min(e.execution_timestamp))
                      FROM executions e WHERE e.trade_id = trades.id)
            ELSE unixepoch(trades.exit_date || ' ' || trades.exit_time) - unixepoch(trades.entry_date || ' ' || trades.entry_time)
        END AS held));

CREATE INDEX trades_closed ON trades (user_id, day, exit_time, id, status, net_pnl, gross_pnl,
    total_commission, r_ratio, hold_seconds, account_id) WHERE status <> 'open';
CREATE INDEX trades_open ON trades (user_id, account_id) WHERE status = 'open';

-- +goose Down
DROP INDEX trades_open;
DROP INDEX trades_closed;
ALTER TABLE trades DROP COLUMN hold_seconds;
ALTER TABLE trades DROP COLUMN day;
