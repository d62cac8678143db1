-- Each trade's listing: the trade as the trade list serves it (its fields
-- and fills, as JSON), written by every save of the trade, so that a page
-- of the list reads one value per trade rather than its columns and its
-- fills' rows, and encodes nothing. Tags are the exception: a tag's name and
-- colour change without a save of the trade, so a listing's tags are empty
-- and a page puts in the tags of its trades that have any. A NULL listing
-- (a trade written before this version) is filled when the journal is
-- opened; the partial index finds those at once, and is empty once they are.

-- +goose Up
ALTER TABLE trades ADD COLUMN listing BLOB;
CREATE INDEX trades_unlisted ON trades (id) WHERE listing IS NULL;

-- +goose Down
DROP INDEX trades_unlisted;
ALTER TABLE trades DROP COLUMN listing;
