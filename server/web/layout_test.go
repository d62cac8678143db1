package web

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"tradejournal/db"
)

// templateLayout is layout.html's "layout" before writeLayout wrote the
// navigation bar in Go, over the error page's title and main.
var templateLayout = template.Must(template.Must(templates["error"].Clone()).New("layout").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{template "title" .Page}} · tradejournal</title>
<link rel="stylesheet" href="/ui/app.css">
</head>
<body>
{{if .Session}}
<header class="bar">
  <nav aria-label="Main">
    <a href="/dashboard"{{if eq .Nav "dashboard"}} aria-current="page"{{end}}>Dashboard</a>
    <a href="/trades"{{if eq .Nav "trades"}} aria-current="page"{{end}}>Trades</a>
    {{if ge .Unreviewed 0}}<a href="/review" id="nav-review"{{if eq .Nav "review"}} aria-current="page"{{end}}>Review{{if .Unreviewed}} <span class="badge" data-unreviewed="{{.Unreviewed}}" title="Closed trades of the last 7 days not reviewed">{{.Unreviewed}}</span>{{end}}</a>{{end}}
    <a href="/journal"{{if eq .Nav "journal"}} aria-current="page"{{end}}>Journal</a>
    <a href="/import"{{if eq .Nav "import"}} aria-current="page"{{end}}>Import</a>
    <a href="/accounts"{{if eq .Nav "accounts"}} aria-current="page"{{end}}>Accounts</a>
    <a href="/payouts"{{if eq .Nav "payouts"}} aria-current="page"{{end}}>Payouts</a>
    <a href="/library"{{if eq .Nav "library"}} aria-current="page"{{end}}>Playbooks</a>
    <a href="/documents"{{if eq .Nav "documents"}} aria-current="page"{{end}}>Documents</a>
    <a href="/settings"{{if eq .Nav "settings"}} aria-current="page"{{end}}>Settings</a>
  </nav>
  <form method="post" action="/logout" class="signout">
    <input type="hidden" name="csrf" value="{{.CSRF}}">
    <button type="submit">Sign out</button>
  </form>
</header>
{{end}}
<main>
{{template "main" .Page}}
</main>
</body>
</html>
`))

// TestLayoutAsTheTemplate: writeLayout writes, byte for byte, the page the
// layout template wrote: without a session (no bar), under each
// navigation link and none, with the count hidden (-1), zero and some,
// and with a title, page and token holding markup (the title escaped as
// the text of a <title>, the token as an attribute's value). A token with
// a + (never one of ours, which are base64url) reads the same to a
// browser: the template wrote the + as &#43;.
func TestLayoutAsTheTemplate(t *testing.T) {
	type page struct {
		pageData
		Title, Message string
	}
	sess := &db.Session{CSRF: "Zm9v_YmFy-0123456789abcdefABCDEF"}
	hostile := &db.Session{CSRF: `"><script>alert('x')</script>&amp;`}
	plus := &db.Session{CSRF: "a+b/c="}
	var cases []layoutData
	add := func(s *db.Session, nav string, unreviewed int, title string) {
		p := page{pageData{Session: s, Nav: nav}, title, `<img src=x onerror=alert(1)> & "quotes"`}
		cases = append(cases, layoutData{Page: p, Session: s, Nav: nav, Unreviewed: unreviewed})
	}
	add(nil, "", -1, "Sign in")
	for _, nav := range []string{"", "dashboard", "trades", "review", "journal", "import", "accounts", "payouts", "library", "documents", "settings", "unknown"} {
		for _, n := range []int{-1, 0, 7} {
			add(sess, nav, n, "Trades")
		}
	}
	add(sess, "trades", 12345, `</title><script>alert("t")</script> & 'x'`)
	add(hostile, "review", 3, "Review")
	add(plus, "dashboard", 1, "Dashboard")
	for i, l := range cases {
		var want, got bytes.Buffer
		if err := templateLayout.ExecuteTemplate(&want, "layout", l); err != nil {
			t.Fatal(err)
		}
		if err := writeLayout(&got, templates["error"], l); err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("case %d (nav %q, unreviewed %d, session %v)", i, l.Nav, l.Unreviewed, l.Session != nil)
		if l.Session == plus {
			if g, w := parsedPage(t, got.String()), parsedPage(t, want.String()); g != w {
				t.Errorf("%s reads as\n%s\nthe template's as\n%s", name, g, w)
			}
			continue
		}
		if got.String() != want.String() {
			t.Errorf("%s: writeLayout wrote\n%s\nthe template\n%s", name, got.String(), want.String())
		}
	}
}

// parsedPage is a page as a browser reads it, written back out.
func parsedPage(t *testing.T, page string) string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := html.Render(&out, doc); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
