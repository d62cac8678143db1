package db

// TradingPlan is a trader's plan for a day or a setup, optionally following
// one of their playbooks. Deleting the playbook keeps the plan, with
// playbook_id set to null.
type TradingPlan struct {
	ID              string   `json:"id"`
	Title           string   `json:"title"`
	PlanDate        *string  `json:"plan_date"`
	PlaybookID      *string  `json:"playbook_id"`
	ContentMarkdown string   `json:"content_markdown"`
	Tags            []TagRef `json:"tags"`
	CreatedAt       string   `json:"created_at"`
	UpdatedAt       string   `json:"updated_at"`
}

// TradingPlanInput is the body of a trading plan create or partial update.
// On create, absent fields are empty; on update they are untouched.
type TradingPlanInput struct {
	Title           Optional[string]   `json:"title"`
	PlanDate        Optional[string]   `json:"plan_date"`
	PlaybookID      Optional[string]   `json:"playbook_id"`
	ContentMarkdown Optional[string]   `json:"content_markdown"`
	TagIDs          Optional[[]string] `json:"tag_ids"`
}

// TradingPlans is the store of trading plans; lists filter on playbook_id
// and on plan_date.
func (db *DB) TradingPlans() Content[TradingPlan, TradingPlanInput] {
	return Content[TradingPlan, TradingPlanInput]{db, &tradingPlanKind}
}

var tradingPlanKind = contentKind[TradingPlan, TradingPlanInput]{
	name:    "Trading plan",
	table:   "trading_plans",
	columns: []string{"title", "plan_date", "playbook_id", "content_markdown"},
	refs: []contentRef[TradingPlanInput]{
		{"playbook_id", "playbooks", "Playbook", func(in TradingPlanInput) Optional[string] { return in.PlaybookID }},
	},
	dated: "plan_date",
	tags:  planTags,
	row: func(p *TradingPlan) contentRow {
		return contentRow{&p.ID, &p.CreatedAt, &p.UpdatedAt, &p.Tags, []any{&p.Title, &p.PlanDate, &p.PlaybookID, &p.ContentMarkdown}}
	},
	apply: func(p *TradingPlan, in TradingPlanInput) {
		assign(&p.Title, in.Title)
		assignPtr(&p.PlanDate, in.PlanDate)
		assignPtr(&p.PlaybookID, in.PlaybookID)
		assign(&p.ContentMarkdown, in.ContentMarkdown)
	},
	tagIDs: func(in TradingPlanInput) Optional[[]string] { return in.TagIDs },
}
