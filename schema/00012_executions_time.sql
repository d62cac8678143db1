-- Duplicates across formats (DESIGN §14): an import matches its fills
-- against the account's fills from other sources by contract, side, price
-- and the second they filled in, one lookup per second the file names.
-- Fills are found by their time here; executions had no index on it.

-- +goose Up
CREATE INDEX executions_time ON executions (execution_timestamp);

-- +goose Down
DROP INDEX executions_time;
