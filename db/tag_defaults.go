package db

import (
	"context"
	"database/sql"
	"errors"
)

// defaultTagGroups is the starter set load_defaults adds: what futures and
// stock day traders most often tag a trade with.
var defaultTagGroups = []struct {
	name, color string
	tags        []string
}{
	{"Setups", "#2563EB", []string{"Breakout", "Pullback", "Reversal", "Opening range", "VWAP reclaim", "Trend continuation", "Range fade"}},
	{"Mistakes", "#DC2626", []string{"FOMO entry", "Moved stop", "No stop", "Oversized", "Revenge trade", "Early exit", "Chased price", "Ignored plan"}},
	{"Emotions", "#D97706", []string{"Calm", "Confident", "Anxious", "Greedy", "Fearful", "Frustrated", "Bored"}},
	{"Market conditions", "#059669", []string{"Trending", "Choppy", "Range-bound", "High volatility", "Low volume", "News driven"}},
	{"Session", "#7C3AED", []string{"Pre-market", "Open", "Morning", "Lunch", "Afternoon", "Close", "Overnight"}},
}

// LoadDefaultTags adds the starter groups and tags the user lacks, merging
// into groups of the same name, and returns all the user's groups. A second
// call adds nothing.
func (db *DB) LoadDefaultTags(ctx context.Context, userID string) ([]TagGroup, error) {
	return inTx(ctx, db.begin, func(tx txn) ([]TagGroup, error) {
		for _, dg := range defaultTagGroups {
			var groupID string
			err := tx.QueryRowContext(ctx, `SELECT id FROM tag_groups WHERE user_id = ? AND name = ?`, userID, dg.name).Scan(&groupID)
			if errors.Is(err, sql.ErrNoRows) {
				g, err := db.insertTagGroup(ctx, tx, userID, dg.name, dg.color)
				if err != nil {
					return nil, err
				}
				groupID = g.ID
			} else if err != nil {
				return nil, err
			}
			for _, name := range dg.tags {
				var one int
				err := tx.QueryRowContext(ctx, `SELECT 1 FROM tags WHERE tag_group_id = ? AND name = ?`, groupID, name).Scan(&one)
				if errors.Is(err, sql.ErrNoRows) {
					if _, err := db.insertTag(ctx, tx, userID, groupID, name); err != nil {
						return nil, err
					}
				} else if err != nil {
					return nil, err
				}
			}
		}
		groups, err := tagGroups(ctx, tx, userID)
		if err != nil {
			return nil, err
		}
		return groups, nil
	})
}
