package server_test

import (
	"net/url"

	"golang.org/x/net/html"

	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"tradejournal/db"

	"github.com/chromedp/chromedp"
)

// TestAttachToTrade: the trade page's attach form stores a file as the
// trade's, back on the trade page (or, for the page's script, answers the
// screenshots alone); a trade_id other than the page's, another user's
// trade, and a read-only session are refused, storing nothing.
func TestAttachToTrade(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	other, _ := e.create(t, e.tradeBody("NQH6", "long", fills(2.5, "buy 1@21000", "sell 1@21010")))
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	csrf := csrfOf(t, b, "/trades/"+tr.ID)
	png := string(widePNG(t, 640, 320))

	w := b.postMultipart(t, "/trades/"+tr.ID+"/documents", [][2]string{{"csrf", csrf}, {"trade_id", tr.ID}, {"category", "receipt"}}, "chart.png", png, nil)
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/trades/"+tr.ID+"?attached=1#screenshots" {
		t.Fatalf("attach: %d %s", w.Code, w.Body)
	}
	ids, docs := tradeDocs(t, must200(t, e.testServer, "/api/v1/trades/"+tr.ID, e.key))
	if len(ids) != 1 || docs[0].FileName != "chart.png" || !strings.HasPrefix(docs[0].DocumentName, "Chart 20") {
		t.Fatalf("the trade's documents after attaching: %v %+v", ids, docs)
	}
	w = b.postMultipart(t, "/trades/"+tr.ID+"/documents", [][2]string{{"csrf", csrf}, {"trade_id", tr.ID}, {"category", "receipt"}},
		"second.png", png, map[string]string{"X-Fragment": "documents"})
	if w.Code != http.StatusOK || strings.Contains(w.Body.String(), "<html") || strings.Count(w.Body.String(), "data-document=") != 2 {
		t.Errorf("the script's attach: %d %s, want the two screenshots alone", w.Code, w.Body)
	}
	w = b.postMultipart(t, "/trades/"+tr.ID+"/documents", [][2]string{{"csrf", csrf}, {"trade_id", other.ID}, {"category", "receipt"}}, "x.png", png, nil)
	if w.Code != http.StatusBadRequest {
		t.Errorf("another trade's id in the form: %d, want 400", w.Code)
	}
	_, readKey := e.newKey(t, "alice", "read", false)
	reader := &browser{ts: e.testServer}
	reader.signIn(t, readKey)
	if len(find(reader.page(t, "/trades/"+tr.ID), byAttr("id", "attach"))) != 0 {
		t.Error("a read-only session sees the attach form")
	}
	_, bobKey := e.newUser(t, "bob")
	bob := &browser{ts: e.testServer}
	bob.signIn(t, bobKey)
	w = bob.postMultipart(t, "/trades/"+tr.ID+"/documents", [][2]string{{"csrf", csrfOf(t, bob, "/dashboard")}, {"trade_id", tr.ID}, {"category", "receipt"}}, "x.png", png, nil)
	if w.Code != http.StatusNotFound {
		t.Errorf("bob attaching to alice's trade: %d, want 404", w.Code)
	}
	if n := count(t, e.sql(t), `SELECT count(*) FROM documents`); n != 2 {
		t.Errorf("%d documents stored, want the 2 attached", n)
	}
}

// TestBrowserPasteScreenshot: in Chromium, an image pasted on a trade's
// page (a paste event carrying a PNG, as the clipboard gives it) is
// attached to the trade and its thumbnail shows at once; the API reads it
// back as the trade's document.
func TestBrowserPasteScreenshot(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	hs := httptest.NewServer(e.srv)
	t.Cleanup(hs.Close)
	ctx := newBrowser(t, 1280)
	png := base64.StdEncoding.EncodeToString(widePNG(t, 800, 400))
	var src string
	err := chromedp.Run(ctx,
		signIn(t, e.testServer, hs.URL, "alice"),
		chromedp.Navigate(hs.URL+"/trades/"+tr.ID),
		chromedp.WaitVisible(`#paste-hint`),
		chromedp.Evaluate(`(() => {
			const bytes = Uint8Array.from(atob("`+png+`"), c => c.charCodeAt(0));
			const data = new DataTransfer();
			data.items.add(new File([bytes], "clip.png", {type: "image/png"}));
			document.dispatchEvent(new ClipboardEvent("paste", {clipboardData: data, bubbles: true}));
		})()`, nil),
		chromedp.WaitVisible(`#screenshots img`),
		chromedp.AttributeValue(`#screenshots img`, "src", &src, nil),
		chromedp.Poll(`document.querySelector("#screenshots img").naturalWidth === 320`, nil),
		screenshot(t, "6-trade-screenshot"),
	)
	if err != nil {
		t.Fatal(err)
	}
	ids, docs := tradeDocs(t, must200(t, e.testServer, "/api/v1/trades/"+tr.ID, e.key))
	if len(ids) != 1 || docs[0].FileName != "clip.png" || !strings.HasSuffix(src, "&w=320") {
		t.Errorf("after the paste the API reads %v %+v; the page's thumbnail %s", ids, docs, src)
	}
}

// TestNewTagFromTheTradePage: the trade page's tag box leads to the tags
// page, whose new tag comes back to the trade ticked, for the review's
// save to put on it.
func TestNewTagFromTheTradePage(t *testing.T) {
	e := newTradeEnv(t)
	tr, _ := e.create(t, e.tradeBody("ESH6", "long", fills(2.5, "buy 2@5000", "sell 2@5010")))
	group := decode[struct{ TagGroup db.TagGroup }](t, must201(t, e.testServer, "/api/v1/tags", e.key, `{"type": "tag_group", "name": "Setup"}`)).TagGroup
	b := &browser{ts: e.testServer}
	b.signIn(t, e.key)
	link := find(b.page(t, "/trades/"+tr.ID), byAttr("id", "new-tag"))
	if len(link) != 1 || returnTo(t, attr(link[0], "href")) != "/trades/"+tr.ID {
		t.Fatalf("the tag box's link: %v", texts(link))
	}
	w := b.send(t, "POST", "/tags", url.Values{"csrf": {csrfOf(t, b, "/tags")}, "name": {"A+"}, "tag_group_id": {group.ID},
		"return_to": {"/trades/" + tr.ID}}, "")
	back := w.Header().Get("Location")
	if w.Code != http.StatusSeeOther || !strings.HasPrefix(back, "/trades/"+tr.ID+"?new_tag=") {
		t.Fatalf("the new tag: %d to %q", w.Code, back)
	}
	page := b.page(t, back)
	box := find(page, func(n *html.Node) bool { return attr(n, "name") == "tag_ids" && hasAttr(n, "checked") })
	if len(box) != 1 || attr(box[0], "value") != strings.TrimPrefix(back, "/trades/"+tr.ID+"?new_tag=") {
		t.Errorf("the new tag is not ticked on the trade page: %v", box)
	}
}

// returnTo is the way back a link to the tags page carries (return_to,
// query-escaped), "" for a link elsewhere.
func returnTo(t *testing.T, href string) string {
	t.Helper()
	u, err := url.Parse(href)
	if err != nil || u.Path != "/tags" {
		return ""
	}
	return u.Query().Get("return_to")
}
