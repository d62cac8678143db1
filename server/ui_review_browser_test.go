package server_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tradejournal/db"
)

// TestBrowserReviewQueue: in Chromium, a trader opens the review queue
// from the navigation's count and walks it with the keyboard: 4 and r
// rate the first trade and tick it reviewed, n saves it and opens the
// next; keys typed into the notes stay in the notes; k and j go back and
// forth, the trade reviewed staying behind. The API reads every change
// back.
func TestBrowserReviewQueue(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	account := ts.createAccount(t, key, `{"account_number": "APEX-1"}`)
	hs := httptest.NewServer(ts.srv)
	t.Cleanup(hs.Close)
	// Three closed trades of the last days, in the user's timezone (the
	// queue's default selection is the last 7 days).
	loc, err := time.LoadLocation(db.DefaultTimezone)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for ago := 4; ago >= 2; ago-- {
		day := time.Now().In(loc).AddDate(0, 0, -ago).Format(time.DateOnly)
		status, b := ts.do(t, "POST", "/api/v1/trades", key, fmt.Sprintf(`{"account_id": %q, "symbol": "MNQZ5", "side": "long",
			"entry_date": %q, %s}`, account.ID, day, fills(0.5, "buy 1@21000", "sell 1@21010")))
		if status != 201 {
			t.Fatalf("create: %d %s", status, b)
		}
		ids = append(ids, decode[struct{ Data createdTrade }](t, b).Data.ID)
	}
	// on waits for the trade's page, and its script, which shows the keys.
	on := func(id string) chromedp.Action {
		return chromedp.Tasks{chromedp.WaitVisible(`#queue-trade[data-trade="`+id+`"]`, chromedp.ByQuery),
			chromedp.WaitVisible(`#queue-keys`, chromedp.ByQuery)}
	}
	var badge, rating1, notes2 string
	var reviewed1 bool
	ctx := newBrowser(t, 1280)
	steps := []chromedp.Action{
		signIn(t, ts, hs.URL, "alice"),
		chromedp.Text(`#nav-review [data-unreviewed]`, &badge, chromedp.ByQuery),
		chromedp.Click(`#nav-review`, chromedp.ByQuery),
		on(ids[0]),
		chromedp.KeyEvent("4"),
		chromedp.KeyEvent("r"),
		screenshot(t, "9-review-queue"),
		chromedp.KeyEvent("n"),
		on(ids[1]),
		// Typed into the notes, keys are the notes' own.
		chromedp.Click(`#notes`, chromedp.ByQuery),
		chromedp.SendKeys(`#notes`, "Chased it; 2nd try. j k r n", chromedp.ByQuery),
		chromedp.Sleep(200 * time.Millisecond),
		on(ids[1]),
		chromedp.Blur(`#notes`, chromedp.ByQuery),
		chromedp.KeyEvent("2"),
		chromedp.KeyEvent("n"),
		on(ids[2]),
		chromedp.KeyEvent("k"),
		on(ids[1]),
		chromedp.Value(`#notes`, &notes2, chromedp.ByQuery),
		chromedp.KeyEvent("k"),
		on(ids[0]),
		chromedp.Value(`#star_rating`, &rating1, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelector("input[name=reviewed]").checked`, &reviewed1),
		chromedp.KeyEvent("j"),
		on(ids[1]),
		// Without a trade after the last, j stays.
		chromedp.KeyEvent("j"),
		on(ids[2]),
		chromedp.KeyEvent("j"),
		chromedp.Sleep(200 * time.Millisecond),
		on(ids[2]),
		chromedp.KeyEvent(kb.Escape),
	}
	// A form left unsaved would ask before leaving; none is here.
	chromedp.ListenTarget(ctx, func(ev any) {
		if d, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			t.Errorf("the page asked: %s", d.Message)
		}
	})
	for i, step := range steps {
		if err := chromedp.Run(ctx, step); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	if badge != "3" {
		t.Errorf("the navigation's count: %q, want 3", badge)
	}
	if rating1 != "4" || !reviewed1 || !strings.HasPrefix(notes2, "Chased it; 2nd try. j k r n") {
		t.Errorf("walking back: rating %q reviewed %v on the first, notes %q on the second", rating1, reviewed1, notes2)
	}
	rating := func(r *int) string {
		if r == nil {
			return "none"
		}
		return fmt.Sprint(*r)
	}
	got := func(id string) db.EnrichedTrade {
		return decode[struct{ Data db.EnrichedTrade }](t, must200(t, ts, "/api/v1/trades/"+id, key)).Data
	}
	if first := got(ids[0]); first.StarRating == nil || *first.StarRating != 4 || first.ReviewedAt == nil {
		t.Errorf("the first trade: rating %s reviewed %v, want 4 and reviewed", rating(first.StarRating), first.ReviewedAt)
	}
	second := got(ids[1])
	if second.StarRating == nil || *second.StarRating != 2 || second.ReviewedAt != nil || !strings.Contains(string(second.ReviewNotes), "Chased it; 2nd try. j k r n") {
		t.Errorf("the second trade: rating %s reviewed %v notes %s, want 2, not reviewed, the notes typed", rating(second.StarRating), second.ReviewedAt, second.ReviewNotes)
	}
	if third := got(ids[2]); third.StarRating != nil || third.ReviewedAt != nil {
		t.Errorf("the third trade, only looked at: rating %s reviewed %v", rating(third.StarRating), third.ReviewedAt)
	}
}
