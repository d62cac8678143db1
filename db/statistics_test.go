package db

import (
	"fmt"
	"strings"
	"testing"
)

// TestStatsBreakdownOrder: buckets by net P&L, best first, the bucket of
// trades without a key (null) among them where its net P&L puts it
// (DESIGN §9); of equal net P&L, a key before null. Six NQ trades, long 1
// from 20000 at $20 a point, no commissions:
//
//	t1 tag A, exit 20010:   +200
//	t2 tag B, exit 19990:   -200, playbook ORB
//	t3 no tag, exit 20025:  +500
//	t4 no tag, exit 19992.5: -150, playbook ORB
//	t5 tag C, exit 20050:  +1000
//	t6 tag D, exit 20017.5: +350
//
// by tag: C 1000, D 350, null 350 (t3 + t4), A 200, B -200;
// by playbook: null 2050 (t1 + t3 + t5 + t6), ORB -350 (t2 + t4).
func TestStatsBreakdownOrder(t *testing.T) {
	d := newTestDB(t)
	ctx := t.Context()
	userID, accountID := newTradeFixture(t, d)
	group, err := d.CreateTagGroup(ctx, userID, "Setups", "#3366ff")
	if err != nil {
		t.Fatal(err)
	}
	tags := map[string]string{}
	for _, name := range []string{"A", "B", "C", "D"} {
		tag, err := d.CreateTag(ctx, userID, group.ID, name)
		if err != nil {
			t.Fatal(err)
		}
		tags[name] = tag.ID
	}
	orb, err := d.CreatePlaybook(ctx, userID, PlaybookInput{Title: Some("ORB")})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []struct {
		tag      string
		exit     float64
		playbook bool
	}{
		{"A", 20010, false}, {"B", 19990, true}, {"", 20025, false}, {"", 19992.5, true}, {"C", 20050, false}, {"D", 20017.5, false},
	} {
		in := TradeInput{AccountID: Some(accountID), Symbol: Some("NQZ5"), Side: Some("long"), EntryDate: Some("2026-02-05"),
			EntryTime: Some("09:30:00"), Quantity: Some(1.0), EntryPrice: Some(20000.0), ExitPrice: Some(tr.exit)}
		if tr.tag != "" {
			in.TagIDs = Some([]string{tags[tr.tag]})
		}
		if tr.playbook {
			in.PlaybookID = Some(orb.ID)
		}
		if _, err := d.CreateTrade(ctx, userID, in); err != nil {
			t.Fatal(err)
		}
	}

	for _, tt := range []struct{ by, want string }{
		{"tag", "C 1 1000; D 1 350; No tag 2 350; A 1 200; B 1 -200"},
		{"playbook", "No playbook 4 2050; ORB 2 -350"},
	} {
		rows, err := d.StatsBreakdown(ctx, userID, TradeFilter{}, tt.by)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rows {
			got = append(got, fmt.Sprintf("%s %d %v", *r.Label, r.Trades, r.NetPnL))
		}
		if g := strings.Join(got, "; "); g != tt.want {
			t.Errorf("by %s:\n got %s\nwant %s", tt.by, g, tt.want)
		}
	}
}
