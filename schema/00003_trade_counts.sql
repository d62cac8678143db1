-- Each user's number of trades, kept by triggers on every insert and
-- delete, so that the trade list's total without filters is one row read
-- rather than a count over every index entry of the user's trades.

-- +goose Up
CREATE TABLE trade_counts (
    user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    trades  INTEGER NOT NULL CHECK (trades >= 0)
) STRICT, WITHOUT ROWID;

INSERT INTO trade_counts (user_id, trades) SELECT user_id, count(*) FROM trades GROUP BY user_id;

-- +goose StatementBegin
CREATE TRIGGER trade_counts_insert AFTER INSERT ON trades BEGIN
    INSERT INTO trade_counts (user_id, trades) VALUES (NEW.user_id, 1)
        ON CONFLICT (user_id) DO UPDATE SET trades = trades + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER trade_counts_delete AFTER DELETE ON trades BEGIN
    UPDATE trade_counts SET trades = trades - 1 WHERE user_id = OLD.user_id;
END;
-- +goose StatementEnd

-- A trade never changes hands, but if it did the counts would follow it.
-- +goose StatementBegin
CREATE TRIGGER trade_counts_move AFTER UPDATE OF user_id ON trades WHEN OLD.user_id <> NEW.user_id BEGIN
    UPDATE trade_counts SET trades = trades - 1 WHERE user_id = OLD.user_id;
    INSERT INTO trade_counts (user_id, trades) VALUES (NEW.user_id, 1)
        ON CONFLICT (user_id) DO UPDATE SET trades = trades + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER trade_counts_move;
DROP TRIGGER trade_counts_delete;
DROP TRIGGER trade_counts_insert;
DROP TABLE trade_counts;
