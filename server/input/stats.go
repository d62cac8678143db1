package input

import (
	"slices"
	"strings"

	"tradejournal/db"
)

// Breakdown checks the by of a statistics breakdown: one of
// db.Breakdowns, required.
func Breakdown(by string) error {
	if !slices.Contains(db.Breakdowns, by) {
		return Invalid("by", "by must be one of "+strings.Join(db.Breakdowns, ", "))
	}
	return nil
}
