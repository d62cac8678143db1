package web

import (
	"context"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"tradejournal/db"
	"tradejournal/server/input"
)

// libraryRoutes are the pages of playbooks with their criteria, strategies with their rules, tags and their groups, and instruments.
func (s *Pages) libraryRoutes() []Route {
	// The playbooks are listed on the library page, which has no message:
	// a post goes back there.
	routes := []Route{{Pattern: "GET /playbooks", Handler: http.RedirectHandler("/library", http.StatusSeeOther)}}
	routes = append(routes, s.playbookPages().routes(s, "playbooks:write", "/api/v1/playbooks", true,
		s.describePlaybookDelete, deleteOnly(s.db.DeletePlaybook))...)
	routes = append(routes, s.strategyRoutes()...)
	routes = append(routes, s.tagRoutes()...)
	return append(routes, s.instrumentRoutes()...)
}

// criteriaHint says how a criteria box reads, and what an edit keeps.
const criteriaHint = "One a line, in order. A line you leave as it is keeps its ticks on trades' checklists; a changed line starts with none"

// playbookBaseFields are the playbook form's own fields; the strategies
// and tags to tick are the user's (Pages.playbookFields).
var playbookBaseFields = []field{
	{Name: "title", Label: "Title", Kind: "text", Required: true},
	{Name: "description", Label: "Description", Kind: "textarea"},
	{Name: "entry_criteria", Label: "Entry criteria", Kind: "textarea", Hint: criteriaHint},
	{Name: "exit_criteria", Label: "Exit criteria", Kind: "textarea", Hint: criteriaHint},
	{Name: "content_markdown", Label: "The playbook written out (Markdown)", Kind: "textarea"},
}

// playbookPages are the playbook's new, edit and delete pages.
func (s *Pages) playbookPages() livePages[db.PlaybookInput, db.Playbook] {
	return livePages[db.PlaybookInput, db.Playbook]{recordPages[db.PlaybookInput, db.Playbook]{
		kind: "Playbook", path: "/playbooks", nav: "library",
		read: readPlaybookForm, check: input.Playbook, values: playbookValues,
		get: s.db.Playbook, create: s.db.CreatePlaybook, update: s.updatePlaybook,
		describe: func(p db.Playbook) string { return p.Title },
	}, s.playbookFields}
}

// playbookFields are the form's fields with the user's strategies to
// tick, and the tags when the session may read them (without them a save
// leaves the playbook's tags as they are).
func (s *Pages) playbookFields(r *http.Request, sess *db.Session) ([]field, error) {
	strategies, err := s.strategyChoices(r.Context(), sess)
	if err != nil {
		return nil, err
	}
	fields := append(slices.Clone(playbookBaseFields), field{Name: "strategy_ids", Label: "Strategies it follows", Kind: "checks", Options: strategies})
	return s.withTagChoices(r.Context(), sess, fields)
}

// strategyChoices are all the user's strategies, by title: a strategy not
// offered would be unticked by a save.
func (s *Pages) strategyChoices(ctx context.Context, sess *db.Session) ([]option, error) {
	strategies, _, err := s.db.Strategies(ctx, sess.UserID, db.StrategyFilter{}, db.Page{Limit: math.MaxInt32})
	out := make([]option, len(strategies))
	for i, st := range strategies {
		out[i] = option{st.ID, st.Title}
	}
	return out, err
}

// readPlaybookForm reads the playbook form as the API's body would carry
// it: each box of criteria is the whole list of its kind (an emptied one
// on an edit removes them all).
func readPlaybookForm(r *formReader) db.PlaybookInput {
	return db.PlaybookInput{
		Title: r.required("title"), Description: r.text("description", true),
		ContentMarkdown: r.text("content_markdown", true),
		EntryCriteria:   r.criteria("entry_criteria"), ExitCriteria: r.criteria("exit_criteria"),
		StrategyIDs: r.ids("strategy_ids"), TagIDs: r.ids("tag_ids"),
	}
}

// required reads a text field a record cannot be without: on the form, it
// is given even emptied, so that the check refuses it rather than the old
// value staying unseen.
func (r *formReader) required(name string) db.Optional[string] {
	if !r.values.Has(name) {
		return db.Optional[string]{}
	}
	return db.Some(strings.TrimSpace(r.values.Get(name)))
}

// criteria reads a box of criteria, a line each; blank lines are none.
func (r *formReader) criteria(name string) db.Optional[[]db.CriterionInput] {
	if !r.values.Has(name) || (r.create && strings.TrimSpace(r.values.Get(name)) == "") {
		return db.Optional[[]db.CriterionInput]{}
	}
	out := []db.CriterionInput{}
	for _, line := range strings.Split(r.values.Get(name), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, db.CriterionInput{Description: line})
		}
	}
	return db.Some(out)
}

// updatePlaybook saves an edit as the API's PUT does, sending back the id
// of each criterion whose line is unchanged, as a client sends back what it
// read: so trades' checklist answers about it survive the edit. A line
// changed is a new criterion, and the answers about the old one go.
func (s *Pages) updatePlaybook(ctx context.Context, userID, id string, in db.PlaybookInput) (db.Playbook, error) {
	old, err := s.db.Playbook(ctx, userID, id)
	if err != nil {
		return db.Playbook{}, err
	}
	keepCriterionIDs(in.EntryCriteria.Value, old.EntryCriteria)
	keepCriterionIDs(in.ExitCriteria.Value, old.ExitCriteria)
	return s.db.UpdatePlaybook(ctx, userID, id, in)
}

// keepCriterionIDs gives each criterion the id of the first of the
// playbook's criteria of its kind with the same text not already given.
func keepCriterionIDs(criteria []db.CriterionInput, old []db.Criterion) {
	given := map[string]bool{}
	for i := range criteria {
		for _, c := range old {
			if !given[c.ID] && c.Description == criteria[i].Description {
				criteria[i].ID, given[c.ID] = c.ID, true
				break
			}
		}
	}
}

// playbookValues fills the form with a playbook.
func playbookValues(p db.Playbook) url.Values {
	lines := func(cs []db.Criterion) string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = c.Description
		}
		return strings.Join(out, "\n")
	}
	strategyIDs := make([]string, len(p.Strategies))
	for i, st := range p.Strategies {
		strategyIDs[i] = st.ID
	}
	return url.Values{
		"title": {p.Title}, "description": {p.Description}, "content_markdown": {p.ContentMarkdown},
		"entry_criteria": {lines(p.EntryCriteria)}, "exit_criteria": {lines(p.ExitCriteria)},
		"strategy_ids": strategyIDs, "tag_ids": tagIDsOf(p.Tags),
	}
}

// describePlaybookDelete names what deleting a playbook takes with it or
// unlinks, from the counts DeletePlaybook's warnings give.
func (s *Pages) describePlaybookDelete(ctx context.Context, userID, id string) (string, []string, error) {
	p, err := s.db.Playbook(ctx, userID, id)
	if err != nil {
		return "", nil, err
	}
	n, err := s.db.PlaybookDependents(ctx, userID, id)
	if err != nil {
		return "", nil, err
	}
	var out []string
	if c := len(p.EntryCriteria) + len(p.ExitCriteria); c > 0 {
		out = append(out, "deletes its "+count(c, "criterion", "criteria"))
	}
	if n.Trades > 0 {
		out = append(out, "takes it off "+count(n.Trades, "trade", "trades")+", which "+
			agree(n.Trades, "keeps the rest of its review", "keep the rest of their review"))
	}
	if n.Checks > 0 {
		out = append(out, "removes "+count(n.Checks, "checklist answer", "checklist answers")+" about its criteria from trades")
	}
	for _, c := range []struct {
		n         int
		one, many string
	}{{n.TradingPlans, "trading plan", "trading plans"}, {n.ChartBooks, "chart book", "chart books"}} {
		if c.n > 0 {
			out = append(out, "takes it off "+count(c.n, c.one, c.many)+", which "+agree(c.n, "stays", "stay"))
		}
	}
	if n.Strategies > 0 {
		out = append(out, "unlinks "+count(n.Strategies, "strategy", "strategies")+", which "+agree(n.Strategies, "stays", "stay"))
	}
	if n.TagLinks > 0 {
		out = append(out, "removes its "+count(n.TagLinks, "tag", "tags"))
	}
	return "the playbook " + p.Title, out, nil
}

// agree is the words of a confirm step's line that agree with its count n.
func agree(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
