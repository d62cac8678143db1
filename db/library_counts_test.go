package db

import (
	"errors"
	"slices"
	"strconv"
	"testing"
)

// TestLibraryCounts: what a confirm step counts for a playbook, a
// strategy, a tag and a tag group is what their deletes' warnings then
// say went; counting changes nothing; another user's record is a
// *NotFoundError. RootTrades counts the trades a point value re-prices.
func TestLibraryCounts(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	alice, bob := newTestUser(t, d, "alice").ID, newTestUser(t, d, "bob").ID
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	account, err := d.CreateAccount(ctx, alice, AccountInput{AccountNumber: Some("A-1")})
	must(err)
	group, err := d.CreateTagGroup(ctx, alice, "Setups", "#336699")
	must(err)
	var tags []string
	for _, name := range []string{"ORB", "Fade"} {
		tag, err := d.CreateTag(ctx, alice, group.ID, name)
		must(err)
		tags = append(tags, tag.ID)
	}
	strategy, err := d.CreateStrategy(ctx, alice, StrategyInput{Title: Some("One lot"), TagIDs: Some(tags[:1])})
	must(err)
	playbook, err := d.CreatePlaybook(ctx, alice, PlaybookInput{Title: Some("ORB"), StrategyIDs: Some([]string{strategy.ID}),
		EntryCriteria: Some([]CriterionInput{{Description: "Above VWAP"}, {Description: "Volume"}}), TagIDs: Some(tags)})
	must(err)
	_, err = d.UpdateAccount(ctx, alice, account.ID, AccountInput{TagIDs: Some(tags[1:])})
	must(err)
	for i := range 2 {
		tr, err := d.CreateTrade(ctx, alice, TradeInput{AccountID: Some(account.ID), Symbol: Some("ESZ5"), Side: Some("long"),
			EntryDate: Some("2025-12-01"), EntryPrice: Some(5000.0), Quantity: Some(1.0), TagIDs: Some(tags[:1])})
		must(err)
		in := TradeInput{PlaybookID: Some(playbook.ID), RiskManagementStrategyIDs: Some([]string{strategy.ID})}
		if i == 0 {
			in.CriteriaChecklist = Some([]CriterionCheck{{CriterionID: playbook.EntryCriteria[0].ID, Checked: true},
				{CriterionID: playbook.EntryCriteria[1].ID}})
		}
		_, err = d.UpdateTrade(ctx, alice, tr.ID, in)
		must(err)
	}

	pn, err := d.PlaybookDependents(ctx, alice, playbook.ID)
	must(err)
	if want := (PlaybookDependents{Strategies: 1, Trades: 2, Checks: 2, TagLinks: 2}); pn != want {
		t.Errorf("PlaybookDependents: %+v, want %+v", pn, want)
	}
	sn, err := d.StrategyDependents(ctx, alice, strategy.ID)
	must(err)
	if want := (StrategyDependents{Playbooks: 1, Trades: 2, TagLinks: 1}); sn != want {
		t.Errorf("StrategyDependents: %+v, want %+v", sn, want)
	}
	tn, err := d.TagUses(ctx, alice, tags[0])
	must(err)
	if want := (TagUses{Tags: 1, Trades: 2, Playbooks: 1, Strategies: 1}); tn != want {
		t.Errorf("TagUses: %+v, want %+v", tn, want)
	}
	gn, err := d.TagGroupUses(ctx, alice, group.ID)
	must(err)
	if want := (TagUses{Tags: 2, Trades: 2, Accounts: 1, Playbooks: 2, Strategies: 1}); gn != want {
		t.Errorf("TagGroupUses: %+v, want %+v", gn, want)
	}
	if n, err := d.RootTrades(ctx, alice, "ES"); err != nil || n != 2 {
		t.Errorf("RootTrades(ES): %d, %v, want 2", n, err)
	}
	if n, err := d.RootTrades(ctx, bob, "ES"); err != nil || n != 0 {
		t.Errorf("bob's RootTrades(ES): %d, %v, want 0", n, err)
	}

	// Another user's records are not found, as by the deletes.
	var nf *NotFoundError
	for name, err := range map[string]error{
		"playbook": second(d.PlaybookDependents(ctx, bob, playbook.ID)),
		"strategy": second(d.StrategyDependents(ctx, bob, strategy.ID)),
		"tag":      second(d.TagUses(ctx, bob, tags[0])),
		"group":    second(d.TagGroupUses(ctx, bob, group.ID)),
	} {
		if !errors.As(err, &nf) {
			t.Errorf("bob counting alice's %s: %v, want a *NotFoundError", name, err)
		}
	}

	// Counted again just before each delete, the counts are what its
	// warnings say went.
	var w []string
	say := func(n int, words ...string) { // prefix, one, many
		switch {
		case n == 1:
			w = append(w, words[0]+" 1 "+words[1])
		case n > 1:
			w = append(w, words[0]+" "+strconv.Itoa(n)+" "+words[2])
		}
	}
	for _, c := range []struct {
		name  string
		count func()
		del   func() (Deleted, error)
	}{
		{"playbook", func() {
			n, err := d.PlaybookDependents(ctx, alice, playbook.ID)
			must(err)
			say(n.Strategies, "Unlinked", "strategy", "strategies")
			say(n.Trades, "Cleared the playbook of", "trade", "trades")
			say(n.TradingPlans, "Cleared the playbook of", "trading plan", "trading plans")
			say(n.ChartBooks, "Cleared the playbook of", "chart book", "chart books")
			say(n.Checks, "Removed", "criteria checklist entry", "criteria checklist entries")
			say(n.TagLinks, "Removed", "tag association", "tag associations")
		}, func() (Deleted, error) { return d.DeletePlaybook(ctx, alice, playbook.ID) }},
		{"strategy", func() {
			n, err := d.StrategyDependents(ctx, alice, strategy.ID)
			must(err)
			say(n.Playbooks, "Removed from", "playbook", "playbooks")
			say(n.Trades, "Removed from", "trade", "trades")
			say(n.TagLinks, "Removed", "tag association", "tag associations")
		}, func() (Deleted, error) { return d.DeleteStrategy(ctx, alice, strategy.ID) }},
		{"tag", func() {
			n, err := d.TagUses(ctx, alice, tags[0])
			must(err)
			say(n.Links(), "Removed", "tag association", "tag associations")
		}, func() (Deleted, error) { return d.DeleteTag(ctx, alice, tags[0]) }},
		{"group", func() {
			n, err := d.TagGroupUses(ctx, alice, group.ID)
			must(err)
			say(n.Tags, "Deleted", "tag", "tags")
			say(n.Links(), "Removed", "tag association", "tag associations")
		}, func() (Deleted, error) { return d.DeleteTagGroup(ctx, alice, group.ID) }},
	} {
		w = nil
		c.count()
		got, err := c.del()
		must(err)
		if len(w) == 0 || !slices.Equal(got.Warnings, w) {
			t.Errorf("deleting the %s warns %q; its counts said %q", c.name, got.Warnings, w)
		}
	}
}

func second[T any](_ T, err error) error { return err }
