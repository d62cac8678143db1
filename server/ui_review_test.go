package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"golang.org/x/net/html"
)

// reviewEnv is alice's journal for the review queue, on 6 February 2026:
// three closed trades of the last 7 days to review (3, 5 and 6 February),
// one reviewed already (4 February), one older (20 January) and one open.
type reviewEnv struct {
	*tradeEnv
	a, b, c, reviewed, old string
	alice                  *browser
}

func newReviewEnv(t *testing.T) *reviewEnv {
	e := newTradeEnv(t)
	e.pinClock(time.Date(2026, 2, 6, 18, 0, 0, 0, time.UTC))
	on := func(day, words string) string {
		tr, _ := e.create(t, strings.Replace(e.tradeBody("ESH6", "long", words), "2026-02-05", day, 1))
		return tr.ID
	}
	closed := fills(2.5, "buy 1@5000", "sell 1@5004")
	r := &reviewEnv{tradeEnv: e, a: on("2026-02-03", closed), reviewed: on("2026-02-04", closed), b: on("2026-02-05", closed),
		c: on("2026-02-06", closed), old: on("2026-01-20", closed)}
	on("2026-02-05", fills(2.5, "buy 1@5000"))               // open
	e.pinClock(time.Date(2026, 2, 6, 17, 0, 0, 0, time.UTC)) // reviewed before the walks begin
	e.put(t, r.reviewed, `{"reviewed": true}`)
	e.pinClock(time.Date(2026, 2, 6, 18, 0, 0, 0, time.UTC))
	r.alice = &browser{ts: e.testServer}
	r.alice.signIn(t, e.key)
	return r
}

// review is a trade's review as stored.
type storedReview struct {
	rating   *int
	notes    *string
	reviewed bool
}

func (r *reviewEnv) stored(t *testing.T, id string) storedReview {
	t.Helper()
	var s storedReview
	if err := r.sql(t).QueryRow(`SELECT star_rating, review_notes, reviewed_at IS NOT NULL FROM trades WHERE id = ?`, id).
		Scan(&s.rating, &s.notes, &s.reviewed); err != nil {
		t.Fatal(err)
	}
	return s
}

// queueForm is the review queue's form on a page: its action and fields.
func queueForm(t *testing.T, doc *html.Node, csrf string) (string, url.Values) {
	t.Helper()
	forms := find(doc, byAttr("id", "queue-form"))
	if len(forms) != 1 {
		t.Fatal("the review queue shows no review form")
	}
	v := url.Values{"csrf": {csrf}}
	for _, in := range find(forms[0], func(n *html.Node) bool { return n.Data == "input" && attr(n, "type") == "hidden" }) {
		if attr(in, "name") != "csrf" {
			v.Add(attr(in, "name"), attr(in, "value"))
		}
	}
	return attr(forms[0], "action"), v
}

func queueTrade(doc *html.Node) string {
	if h := find(doc, byAttr("id", "queue-trade")); len(h) == 1 {
		return attr(h[0], "data-trade")
	}
	return ""
}

func linkOf(doc *html.Node, id string) string {
	if l := find(doc, byAttr("id", id)); len(l) == 1 {
		return attr(l[0], "href")
	}
	return ""
}

// TestReviewQueue: the navigation counts the closed trades of the last 7
// days not reviewed and leads to the queue, which walks them oldest
// first with the trade page's review form; "Save and next" saves the
// review (read back from the database) and goes on; the trade reviewed
// stays in the walk behind; a refused field shows in place with nothing
// lost and nothing saved; the walk's end and an empty queue say so.
func TestReviewQueue(t *testing.T) {
	r := newReviewEnv(t)
	dash := r.alice.page(t, "/dashboard")
	badge := find(dash, func(n *html.Node) bool { return hasAttr(n, "data-unreviewed") })
	if len(badge) != 1 || nodeText(badge[0]) != "3" || attr(badge[0].Parent, "href") != "/review" {
		t.Fatalf("the navigation's count: %v, want 3 linking to /review", texts(badge))
	}
	csrf := attr(find(dash, byAttr("name", "csrf"))[0], "value")

	page := r.alice.page(t, "/review")
	if got := queueTrade(page); got != r.a {
		t.Fatalf("the queue opens on %s, want the oldest, 3 February's %s", got, r.a)
	}
	if place := nodeText(find(page, byAttr("id", "queue-place"))[0]); place != "Trade 1 of 3 · 3 not reviewed" {
		t.Errorf("place: %q", place)
	}
	if linkOf(page, "queue-prev") != "" || !strings.Contains(linkOf(page, "queue-next"), "trade_id="+r.b) {
		t.Errorf("the first trade's links: prev %q next %q", linkOf(page, "queue-prev"), linkOf(page, "queue-next"))
	}
	// The tag box comes back to this trade of the walk.
	if back := returnTo(t, linkOf(page, "new-tag")); !strings.HasPrefix(back, "/review?") || !strings.Contains(back, "trade_id="+r.a) {
		t.Errorf("the tag box's way back: %q", back)
	}
	action, form := queueForm(t, page, csrf)
	if !strings.HasPrefix(action, "/review/"+r.a+"?") || !strings.Contains(action, "start_date=2026-01-31") || !strings.Contains(action, "began=") {
		t.Errorf("the form posts to %q, want the trade's save with the walk", action)
	}
	form.Set("star_rating", "4")
	form.Set("notes", "Late entry; waited for the retest.")
	form.Set("stop_loss_levels", "4995")
	form.Set("reviewed", "true")
	w := r.alice.send(t, "POST", action, form, "")
	next := w.Header().Get("Location")
	if w.Code != http.StatusSeeOther || !strings.HasPrefix(next, "/review?") || !strings.Contains(next, "after="+r.a) {
		t.Fatalf("save and next: %d to %q", w.Code, next)
	}
	if s := r.stored(t, r.a); s.rating == nil || *s.rating != 4 || !s.reviewed || s.notes == nil || !strings.Contains(*s.notes, "waited for the retest") {
		t.Errorf("the saved review: %+v", s)
	}
	if got := r.get(t, r.a); len(got.StopLossLevels) != 1 || got.StopLossLevels[0].Price != 4995 {
		t.Errorf("the saved stops: %+v", got.StopLossLevels)
	}

	page = r.alice.page(t, next)
	if got := queueTrade(page); got != r.b {
		t.Fatalf("after saving: on %s, want the next, %s", got, r.b)
	}
	if place := nodeText(find(page, byAttr("id", "queue-place"))[0]); place != "Trade 2 of 3 · 2 not reviewed" {
		t.Errorf("place after a save: %q", place)
	}
	if !strings.Contains(linkOf(page, "queue-prev"), "trade_id="+r.a) {
		t.Errorf("the trade just reviewed is not behind: prev %q", linkOf(page, "queue-prev"))
	}
	if b := find(r.alice.page(t, "/trades"), func(n *html.Node) bool { return hasAttr(n, "data-unreviewed") }); len(b) != 1 || nodeText(b[0]) != "2" {
		t.Errorf("the navigation's count after a review: %v, want 2", texts(b))
	}

	// A refused field: the form again, in place, with what was typed.
	action, form = queueForm(t, page, csrf)
	form.Set("star_rating", "2")
	form.Set("notes", "Keep me")
	form.Set("stop_loss_levels", "abc")
	form.Set("reviewed", "true")
	w = r.alice.send(t, "POST", action, form, "")
	if w.Code != http.StatusBadRequest {
		t.Fatalf("a bad stop: %d, want 400", w.Code)
	}
	doc, _ := html.Parse(w.Body)
	if queueTrade(doc) != r.b || len(find(doc, func(n *html.Node) bool { return attr(n, "role") == "alert" && strings.Contains(nodeText(n), "Stops") })) != 1 {
		t.Error("the refusal is not shown in place on the trade's form")
	}
	if n := find(doc, byAttr("id", "notes")); len(n) != 1 || nodeText(n[0]) != "Keep me" {
		t.Error("the refusal lost the notes typed")
	}
	if n := find(doc, func(n *html.Node) bool {
		return n.Data == "option" && hasAttr(n, "selected") && attr(n, "value") == "2"
	}); len(n) != 1 {
		t.Error("the refusal lost the rating chosen")
	}
	if again, _ := queueForm(t, doc, csrf); again != action {
		t.Errorf("the refused form posts to %q, want %q", again, action)
	}
	if s := r.stored(t, r.b); s.rating != nil || s.notes != nil || s.reviewed {
		t.Errorf("a refused review saved something: %+v", s)
	}

	// Saved without ticking Reviewed, the trade stays unreviewed and the
	// walk goes on.
	form.Set("stop_loss_levels", "")
	form.Del("reviewed")
	w = r.alice.send(t, "POST", action, form, "")
	if s := r.stored(t, r.b); w.Code != http.StatusSeeOther || s.rating == nil || *s.rating != 2 || s.reviewed {
		t.Fatalf("a save without reviewed: %d, %+v", w.Code, s)
	}
	page = r.alice.page(t, w.Header().Get("Location"))
	if queueTrade(page) != r.c || linkOf(page, "queue-next") != "" {
		t.Fatalf("after the second: on %s, want the last, %s", queueTrade(page), r.c)
	}
	action, form = queueForm(t, page, csrf)
	form.Set("reviewed", "true")
	w = r.alice.send(t, "POST", action, form, "")
	end := r.alice.page(t, w.Header().Get("Location"))
	if e := find(end, byAttr("id", "queue-empty")); len(e) != 1 || !strings.Contains(nodeText(e[0]), "1 of its trades is still not reviewed") ||
		strings.Contains(linkOf(end, "queue-restart"), "began=") {
		t.Errorf("the walk's end: %v", texts(e))
	}
	// Start again, a while later: a new walk, of the one left.
	r.pinClock(time.Date(2026, 2, 6, 18, 5, 0, 0, time.UTC))
	if again := r.alice.page(t, linkOf(end, "queue-restart")); queueTrade(again) != r.b {
		t.Errorf("starting again opens %s, want the one not reviewed, %s", queueTrade(again), r.b)
	}

	// The trade list leads to the queue of its selection.
	if link := linkOf(r.alice.page(t, "/trades?symbol=ESH6&offset=50"), "review-these"); link != "/review?symbol=ESH6" {
		t.Errorf("the trade list's review link: %q", link)
	}
	// A filter of the trade list narrows the queue; its dates are days.
	if p := r.alice.page(t, "/review?start_date=2026-02-05&end_date=2026-02-05"); queueTrade(p) != r.b || linkOf(p, "queue-next") != "" {
		t.Errorf("5 February's queue opens on %s", queueTrade(p))
	}
	if p := r.alice.page(t, "/review?start_date=2026-01-01&symbol=NQ"); len(find(p, byAttr("id", "queue-empty"))) != 1 {
		t.Error("a queue of no trades does not say so")
	}
	if p := r.alice.page(t, "/review?start_date=2026-01-01&symbol=ESH6"); queueTrade(p) != r.old {
		t.Errorf("from January: opens on %s, want 20 January's %s", queueTrade(p), r.old)
	}
	for target, want := range map[string]int{
		"/review?account_id=nope":                           http.StatusBadRequest,
		"/review?began=yesterday":                           http.StatusBadRequest,
		"/review?trade_id=x":                                http.StatusBadRequest,
		"/review?after=x":                                   http.StatusBadRequest,
		"/review?trade_id=" + uuid.NewString():              http.StatusNotFound,
		"/review?start_date=2026-02-07&end_date=2026-02-01": http.StatusBadRequest,
	} {
		if w := r.alice.send(t, "GET", target, nil, ""); w.Code != want {
			t.Errorf("GET %s: %d, want %d", target, w.Code, want)
		}
	}
}

// TestReviewQueueEmpty: a journal with nothing to review says so, and its
// navigation shows no count; a key that may not read trades has neither.
func TestReviewQueueEmpty(t *testing.T) {
	e := newTradeEnv(t)
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	page := b.page(t, "/review")
	if e := find(page, byAttr("id", "queue-empty")); len(e) != 1 || !strings.Contains(nodeText(e[0]), "No closed trades to review") {
		t.Errorf("an empty queue: %v", texts(e))
	}
	if n := find(page, byAttr("id", "nav-review")); len(n) != 1 || nodeText(n[0]) != "Review" {
		t.Errorf("the navigation's review link: %v", texts(n))
	}
	// A key that may not read trades neither counts nor links them.
	e.create(t, e.tradeBody("ESH6", "long", fills(1, "buy 1@5000", "sell 1@5001")))
	_, docsKey := e.newKey(t, "alice", "documents:read", false)
	docs := &browser{ts: e.testServer}
	docs.signIn(t, docsKey)
	if n := find(docs.page(t, "/documents"), byAttr("id", "nav-review")); len(n) != 0 {
		t.Errorf("a key without trades:read sees the review count: %v", texts(n))
	}
}

// TestReviewQueueStrangersAndReaders: bob's walk at alice's trade, and
// his save of it, are 404s that write nothing; a key that may only read
// trades walks the queue without a form, and its save is refused.
func TestReviewQueueStrangersAndReaders(t *testing.T) {
	r := newReviewEnv(t)
	_, bobKey := r.newUser(t, "bob")
	bob := &browser{ts: r.testServer}
	bob.signIn(t, bobKey)
	csrf := attr(find(bob.page(t, "/dashboard"), byAttr("name", "csrf"))[0], "value")
	before := r.stored(t, r.a)
	for _, target := range []string{"/review?trade_id=" + r.a, "/review?after=" + r.a} {
		if w := bob.send(t, "GET", target, nil, ""); w.Code != http.StatusNotFound {
			t.Errorf("bob's GET %s: %d, want 404", target, w.Code)
		}
	}
	w := bob.send(t, "POST", "/review/"+r.a, url.Values{"csrf": {csrf}, "star_rating": {"1"}, "notes": {"bob"}, "reviewed": {"true"}}, "")
	if w.Code != http.StatusNotFound {
		t.Errorf("bob's save of alice's trade: %d, want 404", w.Code)
	}
	if after := r.stored(t, r.a); after != before {
		t.Errorf("bob's save changed alice's trade: %+v", after)
	}
	if p := bob.page(t, "/review"); len(find(p, byAttr("id", "queue-empty"))) != 1 || strings.Contains(nodeText(p), "ESH6") {
		t.Error("bob's queue is not empty")
	}

	_, readKey := r.newKey(t, "alice", "trades:read", false)
	reader := &browser{ts: r.testServer}
	reader.signIn(t, readKey)
	page := reader.page(t, "/review")
	if queueTrade(page) != r.a || len(find(page, byAttr("id", "queue-form"))) != 0 || !strings.Contains(linkOf(page, "queue-next"), r.b) {
		t.Error("a reader's queue: want the trades, their links and no form")
	}
	readerCSRF := attr(find(page, byAttr("name", "csrf"))[0], "value")
	if w := reader.send(t, "POST", "/review/"+r.a, url.Values{"csrf": {readerCSRF}, "star_rating": {"1"}}, ""); w.Code != http.StatusForbidden {
		t.Errorf("a reader's save: %d, want 403", w.Code)
	}
	if after := r.stored(t, r.a); after != before {
		t.Errorf("a reader's save changed the trade: %+v", after)
	}
}

// TestReviewPagesNeverWrite: the queue and the navigation's count read
// only: SQLite's data_version, seen from one connection, moves only when
// another commits.
func TestReviewPagesNeverWrite(t *testing.T) {
	r := newReviewEnv(t)
	// The statistics' days the env's trades marked are settled now, so the
	// settler, which would otherwise settle them a second after the last
	// write, has nothing to commit while the pages are read.
	if err := r.db.SettleDays(t.Context()); err != nil {
		t.Fatal(err)
	}
	conn, err := r.sql(t).Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	version := func() int {
		var v int
		if err := conn.QueryRowContext(t.Context(), `PRAGMA data_version`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := version()
	page := r.alice.page(t, "/review")
	r.alice.page(t, "/review?after="+r.a)
	r.alice.page(t, "/dashboard")
	if after := version(); after != before {
		t.Errorf("data_version moved from %d to %d: a read wrote", before, after)
	}
	action, form := queueForm(t, page, attr(find(page, byAttr("name", "csrf"))[0], "value"))
	form.Set("reviewed", "true")
	r.alice.send(t, "POST", action, form, "")
	if after := version(); after == before {
		t.Error("data_version did not move after a save; the check proves nothing")
	}
}

// TestNavigationCountsTheUsersWeek: the navigation's count starts 7 days
// back in the user's timezone (New York by default), not UTC's: at 03:00
// UTC on 7 February it is still the 6th in New York, so a trade of 31
// January counts, which from UTC's 7th it would not.
func TestNavigationCountsTheUsersWeek(t *testing.T) {
	e := newTradeEnv(t)
	closed := fills(2.5, "buy 1@5000", "sell 1@5004")
	for _, day := range []string{"2026-01-30", "2026-01-31", "2026-02-05"} {
		e.create(t, strings.Replace(e.tradeBody("ESH6", "long", closed), "2026-02-05", day, 1))
	}
	e.pinClock(time.Date(2026, 2, 7, 3, 0, 0, 0, time.UTC))
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	if got := find(b.page(t, "/trades"), func(n *html.Node) bool { return hasAttr(n, "data-unreviewed") }); len(got) != 1 || nodeText(got[0]) != "2" {
		t.Errorf("the navigation's count: %v, want 2 (31 January and 5 February)", texts(got))
	}
}
