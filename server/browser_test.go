package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tradejournal/db"
)

// chromium finds a headless-capable Chromium, or skips the test: go test
// ./... on a machine without one still passes. CI installs Debian's
// chromium and sets TJ_BROWSER_TESTS=required, which makes the skip a
// failure.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	msg := "no Chromium installed (apt-get install chromium); the browser tests are skipped"
	if os.Getenv("TJ_BROWSER_TESTS") == "required" {
		t.Fatal(msg + ", but TJ_BROWSER_TESTS=required")
	}
	t.Skip(msg)
	return ""
}

// newBrowser starts headless Chromium for the test, its window width px.
func newBrowser(t *testing.T, width int) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox, // CI runs as root
		chromedp.DisableGPU,
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(t.Context(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	ctx, cancelTimeout := context.WithTimeout(ctx, time.Minute)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	if err := chromedp.Run(ctx, chromedp.EmulateViewport(int64(width), 900)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// screenshot saves the page under the test's temp dir (and under
// $TJ_SCREENSHOTS, when set, for the README).
func screenshot(t *testing.T, name string) chromedp.ActionFunc {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		var png []byte
		if err := chromedp.FullScreenshot(&png, 100).Do(ctx); err != nil {
			return err
		}
		dirs := []string{t.TempDir()}
		if d := os.Getenv("TJ_SCREENSHOTS"); d != "" {
			dirs = append(dirs, d)
		}
		for _, dir := range dirs {
			if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
				return err
			}
		}
		return nil
	})
}

// signIn opens a sign-in link of user's (as `login-link` prints it), sees
// whom it signs in as, and clicks to sign in.
func signIn(t *testing.T, ts *testServer, base, user string) chromedp.Tasks {
	token, _, err := ts.db.CreateLoginToken(t.Context(), user, "")
	if err != nil {
		t.Fatal(err)
	}
	var as, location string
	return chromedp.Tasks{
		chromedp.Navigate(base + "/login#token=" + token),
		chromedp.WaitVisible(`#sign-in-as`),
		chromedp.Text(`[data-sign-in-as]`, &as),
		// The token left the address bar before it was sent.
		chromedp.Location(&location),
		chromedp.ActionFunc(func(context.Context) error {
			if !strings.Contains(as, user) || strings.Contains(location, token) {
				t.Errorf("the sign-in link's page says %q at %s", as, location)
			}
			return nil
		}),
		chromedp.Click(`#sign-in-as`),
		chromedp.WaitVisible(`[data-figure="net_pnl"]`),
	}
}

// TestBrowserJourney drives headless Chromium through a trader's evening:
// sign in by the first run's link → import a broker file (preview,
// confirm) → the dashboard shows the imported P&L → open a trade, rate it
// and write a note, save → the API reads the rating back → sign out.
func TestBrowserJourney(t *testing.T) {
	e := newTradeEnv(t)
	hs := httptest.NewServer(e.srv)
	t.Cleanup(hs.Close)
	file := filepath.Join(t.TempDir(), "fills.csv")
	if err := os.WriteFile(file, []byte(morning), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := newBrowser(t, 1280)

	var preview, net, saved, url string
	err := chromedp.Run(ctx,
		// The first run's sign-in link: a token in the fragment, which
		// login.js posts; the page names the user, the click signs in.
		signIn(t, e.testServer, hs.URL, "alice"),
		screenshot(t, "1-dashboard-empty"),

		chromedp.Navigate(hs.URL+"/import"),
		chromedp.WaitVisible(`#file`),
		chromedp.SetUploadFiles(`#file`, []string{file}),
		chromedp.Click(`#preview-button`),
		chromedp.WaitVisible(`[data-preview]`),
		chromedp.Text(`[data-preview]`, &preview),
		screenshot(t, "2-import-preview"),
		chromedp.Click(`#import-button`),
		chromedp.WaitVisible(`[data-import]`),
		screenshot(t, "3-import-done"),

		chromedp.Navigate(hs.URL+"/dashboard"),
		chromedp.WaitVisible(`[data-figure="net_pnl"]`),
		chromedp.Text(`[data-figure="net_pnl"]`, &net),
		screenshot(t, "4-dashboard"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(preview, "3 trades to create") {
		t.Errorf("preview: %q", preview)
	}
	summary := decode[struct{ Data db.StatsSummary }](t, must200(t, e.testServer, "/api/v1/stats/summary", e.key)).Data
	if summary.Trades != 3 || net != formatMoneyLike(summary.NetPnL) {
		t.Errorf("dashboard net P&L %q; the API's %v over %d trades", net, summary.NetPnL, summary.Trades)
	}

	err = chromedp.Run(ctx,
		chromedp.Navigate(hs.URL+"/trades"),
		chromedp.WaitVisible(`tr[data-trade] a`),
		chromedp.Click(`tr[data-trade] a`),
		chromedp.WaitVisible(`#star_rating`),
		chromedp.SetValue(`#star_rating`, "5"),
		chromedp.SendKeys(`#notes`, "Followed the plan."),
		chromedp.Click(`form.review button[type=submit]`),
		chromedp.WaitVisible(`[role=status]`),
		chromedp.Text(`[role=status]`, &saved),
		chromedp.Location(&url),
		screenshot(t, "5-trade"),
	)
	if err != nil {
		t.Fatal(err)
	}
	id := strings.TrimPrefix(strings.SplitN(url, "?", 2)[0], hs.URL+"/trades/")
	tr := decode[struct{ Data db.EnrichedTrade }](t, must200(t, e.testServer, "/api/v1/trades/"+id, e.key)).Data
	if saved != "Saved." || tr.StarRating == nil || *tr.StarRating != 5 || !strings.Contains(string(tr.ReviewNotes), "Followed the plan.") {
		t.Errorf("after saving (%q) the API reads rating %v, notes %s", saved, tr.StarRating, tr.ReviewNotes)
	}

	var after string
	err = chromedp.Run(ctx,
		chromedp.Click(`.signout button`),
		chromedp.WaitVisible(`#key`),
		chromedp.Navigate(hs.URL+"/dashboard"),
		chromedp.WaitVisible(`#key`),
		chromedp.Location(&after),
	)
	if err != nil {
		t.Fatal(err)
	}
	if after != hs.URL+"/login" {
		t.Errorf("after sign-out the dashboard leads to %s, want the login page", after)
	}
}

// TestBrowserPhoneWidth: at 360 px the dashboard and the trade list fit
// the screen (no sideways scrolling of the page; wide tables scroll in
// their own box).
func TestBrowserPhoneWidth(t *testing.T) {
	e := newTradeEnv(t)
	e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	hs := httptest.NewServer(e.srv)
	t.Cleanup(hs.Close)
	ctx := newBrowser(t, 360)
	if err := chromedp.Run(ctx, signIn(t, e.testServer, hs.URL, "alice")); err != nil {
		t.Fatal(err)
	}
	for _, page := range []string{"/dashboard", "/trades", "/import", "/accounts", "/payouts", "/library", "/documents", "/settings", "/journal", "/tags", "/instruments", "/days/2026-02-05", "/accounts/new", "/trades/new", "/review?start_date=2026-02-01"} {
		var width int
		err := chromedp.Run(ctx,
			chromedp.Navigate(hs.URL+page),
			chromedp.WaitReady(`main`),
			chromedp.Evaluate(`document.documentElement.scrollWidth`, &width),
			screenshot(t, "phone"+strings.NewReplacer("/", "-", "?", "-", "=", "-").Replace(page)),
		)
		if err != nil {
			t.Fatal(err)
		}
		if width > 360 {
			t.Errorf("%s at 360 px is %d px wide", page, width)
		}
	}
	// On the trade list the P&L is on the screen, not behind a sideways
	// scroll, and its link has the P&L's colour, not a link's blue.
	var pnl struct {
		Right, Width          float64
		LinkColour, WinColour string
	}
	err := chromedp.Run(ctx,
		chromedp.Navigate(hs.URL+"/trades"),
		chromedp.WaitVisible(`[data-pnl] a`),
		chromedp.Evaluate(`(() => { const c = document.querySelector("[data-pnl]");
			return {Right: c.getBoundingClientRect().right, Width: window.innerWidth,
				LinkColour: getComputedStyle(c.querySelector("a")).color, WinColour: getComputedStyle(c).color}; })()`, &pnl),
	)
	if err != nil {
		t.Fatal(err)
	}
	if pnl.Right > pnl.Width || pnl.LinkColour != pnl.WinColour {
		t.Errorf("the trade list at 360 px: P&L ends at %v of %v px; its link %s, the win colour %s", pnl.Right, pnl.Width, pnl.LinkColour, pnl.WinColour)
	}
}

// TestBrowserNothingSpills: on a desktop screen the equity curve's date
// labels stay inside the chart (the last one ends at the curve's end, not
// halfway past the edge), and an account's profit-target bar stays inside
// its figure.
func TestBrowserNothingSpills(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	a := ts.createAccount(t, key, `{"account_number": "APEX-50K", "starting_balance": 50000, "profit_target": 3000, "max_drawdown": 2500, "drawdown_mode": "trailing", "max_daily_loss": 1000}`)
	for _, day := range []string{"2026-02-02", "2026-02-03", "2026-02-04", "2026-02-05"} {
		body := fmt.Sprintf(`{"account_id": %q, "symbol": "MNQH6", "side": "long", "entry_date": %q, %s}`, a.ID, day, fills(1.24, "buy 2@21000", "sell 2@21010"))
		if status, b := ts.do(t, "POST", "/api/v1/trades", key, body); status != http.StatusCreated {
			t.Fatalf("POST /api/v1/trades: %d %s", status, b)
		}
	}
	hs := httptest.NewServer(ts.srv)
	t.Cleanup(hs.Close)
	ctx := newBrowser(t, 1300)
	if err := chromedp.Run(ctx, signIn(t, ts, hs.URL, "alice")); err != nil {
		t.Fatal(err)
	}
	// Each element matched by inner, with the right edges of it and of
	// its closest outer.
	spills := func(page, inner, outer string) {
		t.Helper()
		var edges []struct {
			Text         string
			Right, Outer float64
		}
		err := chromedp.Run(ctx,
			chromedp.Navigate(hs.URL+page),
			chromedp.WaitReady(inner),
			chromedp.Evaluate(`[...document.querySelectorAll(`+strconv.Quote(inner)+`)].map(e => ({Text: e.textContent,
				Right: e.getBoundingClientRect().right, Outer: e.closest(`+strconv.Quote(outer)+`).getBoundingClientRect().right}))`, &edges),
		)
		if err != nil {
			t.Fatal(err)
		}
		if len(edges) == 0 {
			t.Fatalf("%s: no %s", page, inner)
		}
		for _, e := range edges {
			if e.Right > e.Outer+0.5 {
				t.Errorf("%s: %s %q ends at %.1f px, past its %s at %.1f px", page, inner, e.Text, e.Right, outer, e.Outer)
			}
		}
	}
	spills("/dashboard", "[data-x-tick]", "svg")
	spills("/dashboard?start_date=2026-02-05&end_date=2026-02-05", "[data-x-tick]", "svg") // one point, at the edge
	spills("/accounts", ".figure progress", ".figure")
}
