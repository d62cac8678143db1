package web

import (
	"strings"
	"testing"
)

// TestMarkdown: CommonMark renders; raw HTML (a script, an onerror) shows
// as text, never as markup; a javascript: link loses its address; links
// are nofollow; an image from elsewhere is its alt text, one of this
// server's document links shows.
func TestMarkdown(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"**Waited** for the pullback", "<p><strong>Waited</strong> for the pullback</p>\n"},
		{"<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"},
		{"a <img src=x onerror=alert(1)> b", "<p>a &lt;img src=x onerror=alert(1)&gt; b</p>\n"},
		{"[click](javascript:alert(1))", `<p><a href="" rel="noopener nofollow">click</a></p>` + "\n"},
		{"[docs](https://example.com)", `<p><a href="https://example.com" rel="noopener nofollow">docs</a></p>` + "\n"},
		{"![chart](https://evil.example/x.png)", "<p>chart</p>\n"},
		{"![chart](/api/v1/files/abc/x.png?w=320)", `<p><img src="/api/v1/files/abc/x.png?w=320" alt="chart"></p>` + "\n"},
	} {
		if got := string(renderMarkdown(tt.in)); got != tt.want {
			t.Errorf("%q:\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
	if got := string(renderMarkdown("<b onclick=x>hi</b>")); strings.Contains(got, "<b") {
		t.Errorf("inline HTML passed through: %q", got)
	}
}
