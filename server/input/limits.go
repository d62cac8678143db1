package input

// Length caps of the text fields of playbooks, strategies and the other
// records, in characters, and of their lists.
const (
	MaxTitle       = 200
	MaxDescription = 10_000
	MaxMarkdown    = 200_000
	MaxRuleText    = 1000
	MaxCategory    = 100
	MaxRules       = 200
	MaxSortOrder   = 1_000_000
	MaxSearch      = 200
)
