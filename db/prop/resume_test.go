package prop

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
)

// genEvents is a random stretch of an account's trading: trades of a few
// fills within and across days around March's DST change (some left
// open), and paid payouts, from first for days days.
func genEvents(r *rand.Rand, first time.Time, days int, prefix string) ([]Fill, []Payout) {
	var fills []Fill
	for i := range 5 + r.IntN(40) {
		id := fmt.Sprintf("%s%03d", prefix, i)
		at := first.Add(time.Duration(r.IntN(days*24*60)) * time.Minute)
		qty := float64(1 + r.IntN(4))
		fills = append(fills, Fill{At: at, TradeID: id, Commission: float64(r.IntN(3)), Open: qty})
		if r.IntN(6) == 0 {
			continue // left open
		}
		// Closed in one or two fills, the same day or days later.
		held := time.Duration(r.IntN(600)) * time.Minute
		if r.IntN(5) == 0 {
			held = time.Duration(r.IntN(4*24*60)) * time.Minute
		}
		part := float64(r.IntN(int(qty)))
		if part > 0 {
			fills = append(fills, Fill{At: at.Add(held / 2), TradeID: id, Realized: float64(r.IntN(801) - 450),
				Commission: 1, Open: -part})
		}
		fills = append(fills, Fill{At: at.Add(held), TradeID: id, Realized: float64(r.IntN(1601) - 900),
			Commission: 1, Open: -(qty - part)})
	}
	var payouts []Payout
	for range r.IntN(3) {
		payouts = append(payouts, Payout{Day: first.AddDate(0, 0, r.IntN(days)).Format(time.DateOnly),
			Amount: float64(100 * (1 + r.IntN(5)))})
	}
	return fills, payouts
}

func genResumeRules(r *rand.Rand) Rules {
	rules := Rules{StartingBalance: 50000, Session: futures}
	if r.IntN(2) == 0 {
		rules.Session = Session{Start: 9*60 + 30, Loc: mustLoad("Europe/London")}
	}
	if r.IntN(4) > 0 {
		rules.MaxDrawdown = f64(float64(500 * (1 + r.IntN(6))))
		rules.DrawdownMode = DrawdownModes[r.IntN(len(DrawdownModes))]
		if r.IntN(3) == 0 {
			rules.DrawdownLockAt = f64(50000 + float64(100*r.IntN(10)))
		}
	}
	if r.IntN(2) == 0 {
		rules.MaxDailyLoss = f64(float64(400 * (1 + r.IntN(4))))
	}
	if r.IntN(2) == 0 {
		rules.MaxContracts = f64(float64(2 + r.IntN(6)))
	}
	if r.IntN(2) == 0 {
		rules.ProfitTarget, rules.ConsistencyPct, rules.MinTradingDays = f64(3000), f64(40), num(5)
	}
	return rules
}

// before is what of fills and payouts happens before cut.
func before(cut time.Time, s Session, fills []Fill, payouts []Payout) ([]Fill, []Payout) {
	var f []Fill
	for _, x := range fills {
		if x.At.Before(cut) {
			f = append(f, x)
		}
	}
	var p []Payout
	for _, x := range payouts {
		if at, _ := s.Begins(x.Day); at.Before(cut) {
			p = append(p, x)
		}
	}
	return f, p
}

// TestResumeIsReplay: a walk kept from one history, resumed at the start
// of any of its days with another history that agrees with it before that
// day, is the walk of the other history, figure for figure and breach for
// breach, at any instant; and the kept walk is left as it was.
func TestResumeIsReplay(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 15))
	first := time.Date(2026, time.March, 2, 0, 0, 0, 0, time.UTC)
	resumed := 0
	for range 300 {
		rules := genResumeRules(r)
		days := 12
		if r.IntN(3) == 0 {
			days = 100 + r.IntN(200) // days in several blocks
		}
		fills, payouts := genEvents(r, first, days, "a")
		kept, err := Replay(rules, fills, payouts)
		if err != nil {
			t.Fatal(err)
		}
		keptStatus, keptDays := kept.Status(first.AddDate(1, 0, 0)), flatDays(kept)
		// A moment to take again from: any, the walk goes on from the day
		// holding it.
		from := first.Add(time.Duration(r.IntN((days+2)*24)) * time.Hour)
		cut, ok := kept.Since(from)
		if !ok {
			if kept.Days() > 0 && time.Unix(0, kept.w.days.at(0).begins).Before(from) {
				t.Fatalf("no day to go on from at %v, the first starting %v", from, time.Unix(0, kept.w.days.at(0).begins))
			}
			continue
		}
		if cut.After(from) {
			t.Fatalf("goes on from %v, after %v", cut, from)
		}
		// The other history: the same before cut, anything after.
		oldFills, oldPayouts := before(cut, rules.Session, fills, payouts)
		moreFills, morePayouts := genEvents(r, cut, 6, "b")
		newFills := append(slices.Clone(oldFills), moreFills...)
		newPayouts := slices.Clone(oldPayouts)
		for _, p := range morePayouts {
			if at, _ := rules.Session.Begins(p.Day); !at.Before(cut) {
				newPayouts = append(newPayouts, p)
			}
		}
		// Given whole: Resume leaves out what is before cut.
		got, err := kept.Resume(cut, newFills, newPayouts)
		if err != nil {
			t.Fatal(err)
		}
		want, err := Replay(rules, newFills, newPayouts)
		if err != nil {
			t.Fatal(err)
		}
		resumed++
		if got.Days() != want.Days() {
			t.Fatalf("resumed at %v: %d days, want %d", cut, got.Days(), want.Days())
		}
		for _, now := range []time.Time{first.AddDate(1, 0, 0), cut.Add(time.Duration(r.IntN(8*24)) * time.Hour), cut} {
			if g, w := got.Status(now), want.Status(now); !reflect.DeepEqual(g, w) {
				t.Fatalf("resumed at %v, read at %v:\n got %+v\nwant %+v", cut, now, g, w)
			}
		}
		if !reflect.DeepEqual(kept.Status(first.AddDate(1, 0, 0)), keptStatus) || !reflect.DeepEqual(flatDays(kept), keptDays) {
			t.Fatal("resuming changed the kept walk")
		}
	}
	if resumed < 200 {
		t.Fatalf("only %d of 300 walks resumed", resumed)
	}
}

// flatDays is a copy of the days the walk kept.
func flatDays(st *State) []walkDay {
	var out []walkDay
	for _, b := range st.w.days.blocks {
		out = append(out, b...)
	}
	return out
}

// TestResumeAtADayStartOnly: a walk goes on only from the start of a day
// it reached.
func TestResumeAtADayStartOnly(t *testing.T) {
	st, err := Replay(Rules{Session: futures}, peakGivenBack, nil)
	if err != nil {
		t.Fatal(err)
	}
	cut, ok := st.Since(ny(11, 12, 0))
	if !ok || !cut.Equal(ny(10, 18, 0)) {
		t.Fatalf("Since the 11th's noon: %v %v, want the 11th's start, 18:00 on the 10th", cut, ok)
	}
	if _, ok := st.Since(ny(9, 17, 59)); ok {
		t.Fatal("a day to go on from before the first")
	}
	if _, err := st.Resume(ny(11, 12, 0), peakGivenBack, nil); err == nil {
		t.Fatal("resumed from the middle of a day")
	}
}
