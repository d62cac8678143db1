-- trades_playbook finds a playbook's trades: the list's playbook filter,
-- and the ON DELETE SET NULL of a playbook's deletion. It held an entry for
-- every trade, most of them without a playbook, and every save of a new
-- trade wrote one more into its last page: a page more in each commit's
-- log and in the checkpoint that copies it. Only trades with a playbook
-- are ever looked up through it (playbook_id = ? implies NOT NULL, and
-- SQLite uses the partial index for both), so it keeps only those.

-- +goose Up
DROP INDEX trades_playbook;
CREATE INDEX trades_playbook ON trades (playbook_id) WHERE playbook_id IS NOT NULL;

-- +goose Down
DROP INDEX trades_playbook;
CREATE INDEX trades_playbook ON trades (playbook_id);
