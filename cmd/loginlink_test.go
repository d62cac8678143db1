package cmd

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestLoginLink: `login-link` prints a link whose token, posted by the
// sign-in page, first shows whom it signs in as, then signs in once, with
// the scopes of the key --key names; a second use is refused.
func TestLoginLink(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, "user", "add", "alice", "--data", dir)
	mustRun(t, "key", "create", "--user", "alice", "--name", "laptop", "--data", dir)
	readOnly := lastLine(mustRun(t, "key", "create", "--user", "alice", "--name", "phone", "--scopes", "read", "--data", dir))
	keys := mustRun(t, "key", "list", "--user", "alice", "--data", dir)
	phoneID := keyRow(t, keys, readOnly[:8])[0]

	srv := startServe(t, dir)
	printed := mustRun(t, "login-link", "--user", "alice", "--key", phoneID, "--public-url", srv.base+"/", "--data", dir)
	m := regexp.MustCompile(`^` + regexp.QuoteMeta(srv.base) + `/login#token=([A-Za-z0-9_-]{43})$`).FindStringSubmatch(lastLine(printed))
	if m == nil || !strings.Contains(printed, "alice") || !strings.Contains(printed, phoneID) {
		t.Fatalf("login-link printed:\n%s", printed)
	}
	c := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(form url.Values) (*http.Response, string) {
		t.Helper()
		resp, err := c.PostForm(srv.base+"/login", form)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	resp, page := post(url.Values{"token": {m[1]}})
	if resp.StatusCode != 200 || !strings.Contains(page, "<strong>alice</strong>") || !strings.Contains(page, "“phone”") || len(resp.Cookies()) != 0 {
		t.Fatalf("the link looked at: %d, cookies %v\n%s", resp.StatusCode, resp.Cookies(), page)
	}
	resp, _ = post(url.Values{"token": {m[1]}, "confirm": {"1"}})
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/dashboard" || len(resp.Cookies()) != 1 {
		t.Fatalf("the link used: %d, cookies %v", resp.StatusCode, resp.Cookies())
	}
	req, _ := http.NewRequest("GET", srv.base+"/import", nil)
	req.AddCookie(resp.Cookies()[0])
	got, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(got.Body)
	got.Body.Close()
	if got.StatusCode != 200 || strings.Contains(string(b), `id="file"`) {
		t.Errorf("the phone key's session on /import: %d, want 200 and no upload form (read only)", got.StatusCode)
	}
	if resp, page := post(url.Values{"token": {m[1]}, "confirm": {"1"}}); resp.StatusCode != 401 || !strings.Contains(page, "expired or was used") {
		t.Errorf("the link used twice: %d\n%s", resp.StatusCode, page)
	}

	if _, err := run(t, "login-link", "--user", "nobody", "--data", dir); err == nil {
		t.Error("login-link for an unknown user succeeded")
	}
	if _, err := run(t, "login-link", "--user", "alice", "--key", "nope", "--data", dir); err == nil || !strings.Contains(err.Error(), "no live key nope") {
		t.Errorf("login-link --key nope: %v", err)
	}
}
