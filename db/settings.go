package db

import "context"

// RevokeUserKey revokes one of the user's keys by id, as RevokeKey does
// for the command line: its sessions end with it, and its next request
// gets 401. Another user's key, or an unknown id, is a *NotFoundError.
func (db *DB) RevokeUserKey(ctx context.Context, userID, id string) error {
	return inTxDo(ctx, db.begin, func(tx txn) error {
		res, err := tx.ExecContext(ctx,
			`UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ? AND user_id = ?`, db.now(), id, userID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return notFound("Key")
		}
		return nil
	})
}

// EndUserSessions signs the user out of every browser: each session of
// each of the user's keys ends. It returns how many ended.
func (db *DB) EndUserSessions(ctx context.Context, userID string) (int, error) {
	return inTx(ctx, db.begin, func(tx txn) (int, error) {
		res, err := tx.ExecContext(ctx,
			`DELETE FROM web_sessions WHERE key_id IN (SELECT id FROM api_keys WHERE user_id = ?)`, userID)
		if err != nil {
			return 0, err
		}
		n, err := res.RowsAffected()
		return int(n), err
	})
}
