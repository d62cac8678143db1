package server_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLibraryPagesPhoneWidth: at 360 px the pages of playbooks,
// strategies, tags and instruments fit the screen (no sideways scrolling
// of the page; the instruments' table scrolls in its own box), with the
// defaults' tags loaded and long rules typed.
func TestLibraryPagesPhoneWidth(t *testing.T) {
	e := newTradeEnv(t)
	if status, body := e.do(t, "POST", "/api/v1/tags", e.key, `{"type": "load_defaults"}`); status != 200 {
		t.Fatalf("load_defaults: %d %s", status, body)
	}
	st := e.createStrategy(t, e.key, `{"title": "One lot", "strategy_rules": [{"description": "At most two contracts at any time, whatever the setup", "severity": "critical",
		"check": {"kind": "allowed_symbols", "symbols": ["ES", "NQ", "MES", "MNQ", "RTY", "M2K", "YM", "MYM", "CL", "MCL", "GC", "MGC"]}}]}`)
	p := e.createPlaybook(t, e.key, `{"title": "Opening drive", "entry_criteria": ["Above VWAP"], "strategy_ids": ["`+st.ID+`"]}`)
	must200put(t, e, "/api/v1/instruments/ZZQ", `{"point_value": 12.5}`)
	tag := e.groups(t, e.key)[0].Tags[0]
	hs := httptest.NewServer(e.srv)
	t.Cleanup(hs.Close)
	ctx := newBrowser(t, 360)
	if err := chromedp.Run(ctx, signIn(t, e.testServer, hs.URL, "alice")); err != nil {
		t.Fatal(err)
	}
	for _, page := range []string{"/library", "/playbooks/new", "/playbooks/" + p.ID + "/edit", "/playbooks/" + p.ID + "/delete",
		"/strategies/" + st.ID + "/edit", "/tags", "/tags/" + tag.ID + "/edit", "/tag-groups/" + tag.TagGroupID + "/delete",
		"/instruments", "/instruments/ZZQ/delete"} {
		var width int
		err := chromedp.Run(ctx,
			chromedp.Navigate(hs.URL+page),
			chromedp.WaitReady(`main`),
			chromedp.Evaluate(`document.documentElement.scrollWidth`, &width),
			screenshot(t, "phone"+strings.ReplaceAll(page, "/", "-")),
		)
		if err != nil {
			t.Fatal(err)
		}
		if width > 360 {
			t.Errorf("%s at 360 px is %d px wide", page, width)
		}
	}
}
