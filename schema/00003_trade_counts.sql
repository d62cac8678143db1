-- Each account's number of trades, kept by triggers on every insert, delete
-- and move, so that the trade list's total without filters, or filtered by
-- account alone, is a few rows read rather than a count over every index
-- entry of the user's trades. And the root index carries the two columns
-- the root filter also reads, so that its count never reads the table.

-- +goose Up
CREATE TABLE trade_counts (
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    trades     INTEGER NOT NULL CHECK (trades >= 0),
    PRIMARY KEY (user_id, account_id)
) STRICT, WITHOUT ROWID;

INSERT INTO trade_counts (user_id, account_id, trades)
    SELECT user_id, account_id, count(*) FROM trades GROUP BY user_id, account_id;

-- +goose StatementBegin
CREATE TRIGGER trade_counts_insert AFTER INSERT ON trades BEGIN
    INSERT INTO trade_counts (user_id, account_id, trades) VALUES (NEW.user_id, NEW.account_id, 1)
        ON CONFLICT (user_id, account_id) DO UPDATE SET trades = trades + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER trade_counts_delete AFTER DELETE ON trades BEGIN
    UPDATE trade_counts SET trades = trades - 1 WHERE user_id = OLD.user_id AND account_id = OLD.account_id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER trade_counts_move AFTER UPDATE OF user_id, account_id ON trades
    WHEN OLD.user_id <> NEW.user_id OR OLD.account_id <> NEW.account_id BEGIN
    UPDATE trade_counts SET trades = trades - 1 WHERE user_id = OLD.user_id AND account_id = OLD.account_id;
    INSERT INTO trade_counts (user_id, account_id, trades) VALUES (NEW.user_id, NEW.account_id, 1)
        ON CONFLICT (user_id, account_id) DO UPDATE SET trades = trades + 1;
END;
-- +goose StatementEnd

DROP INDEX trades_root;
CREATE INDEX trades_root ON trades (user_id, root, entry_date DESC, entry_time DESC, id DESC, asset_class, symbol);

-- +goose Down
DROP INDEX trades_root;
CREATE INDEX trades_root ON trades (user_id, root, entry_date DESC, entry_time DESC, id DESC);
DROP TRIGGER trade_counts_move;
DROP TRIGGER trade_counts_delete;
DROP TRIGGER trade_counts_insert;
DROP TABLE trade_counts;
