package server_test

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserTradeForms: in headless Chromium at 360 px, the trade forms,
// the bulk form and the confirm steps fit the phone (the fill rows scroll
// in their own box); with no script, a box ticked on the list belongs to
// the bulk form below the table, whose button opens the bulk form for
// that trade; and "More fill rows" adds six rows.
func TestBrowserTradeForms(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	hs := httptest.NewServer(e.srv)
	t.Cleanup(hs.Close)
	ctx := newBrowser(t, 360)
	if err := chromedp.Run(ctx, signIn(t, e.testServer, hs.URL, "alice")); err != nil {
		t.Fatal(err)
	}
	ids := url.Values{"trade_ids": {tr.ID}}.Encode()
	for _, page := range []string{"/trades/new", "/trades/" + tr.ID + "/edit", "/trades/" + tr.ID + "/delete",
		"/trades/bulk?" + ids, "/trades/bulk/delete?" + ids} {
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

	var location string
	var rows int
	err := chromedp.Run(ctx,
		chromedp.Navigate(hs.URL+"/trades"),
		chromedp.WaitVisible(`#select-`+tr.ID, chromedp.ByQuery),
		chromedp.Click(`#select-`+tr.ID, chromedp.ByQuery),
		chromedp.Click(`#bulk button[type=submit]`, chromedp.ByQuery),
		chromedp.WaitVisible(`[data-selected]`, chromedp.ByQuery),
		chromedp.Location(&location),
		chromedp.Navigate(hs.URL+"/trades/new"),
		chromedp.WaitVisible(`button[name=more]`, chromedp.ByQuery),
		chromedp.Click(`button[name=more]`, chromedp.ByQuery),
		chromedp.WaitVisible(`#fill-11-price`, chromedp.ByQuery),
		chromedp.Evaluate(`document.querySelectorAll("[data-fill]").length`, &rows),
	)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(location, "/trades/bulk?"+ids) {
		t.Errorf("the ticked trade opened %s", location)
	}
	if rows != 12 {
		t.Errorf("More fill rows shows %d rows, want 12", rows)
	}
}
