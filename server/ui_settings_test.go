package server_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"tradejournal/db"
)

// TestSettings: with a full key's session the trader sets the timezone
// (a bad one is refused with what was typed), makes an API key with the
// scopes ticked, shown once in the answer to the post and working at once,
// revokes it, and signs out every browser of theirs and no one else's; a
// narrower key's session may look but not change anything.
func TestSettings(t *testing.T) {
	ts := newTestServer(t)
	_, key := ts.newUser(t, "alice")
	_, bobKey := ts.newUser(t, "bob")
	b := &browser{ts: ts}
	b.signIn(t, key)
	csrf := csrfOf(t, b, "/settings")

	w := b.send(t, "POST", "/settings/timezone", url.Values{"csrf": {csrf}, "timezone": {"Mars/Olympus"}}, "")
	if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "Mars/Olympus is not one") ||
		attr(find(parseHTML(t, w.Body.String()), byAttr("id", "timezone"))[0], "value") != "Mars/Olympus" {
		t.Errorf("a bad timezone: %d", w.Code)
	}
	if w := b.send(t, "POST", "/settings/timezone", url.Values{"csrf": {csrf}, "timezone": {"Europe/London"}}, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("timezone: %d %s", w.Code, w.Body)
	}
	if u, err := ts.db.UserByName(t.Context(), "alice"); err != nil || u.Timezone != "Europe/London" {
		t.Errorf("alice's timezone: %q %v", u.Timezone, err)
	}

	w = b.send(t, "POST", "/settings/keys", url.Values{"csrf": {csrf}, "name": {"phone"}, "scopes": {"trades:read", "accounts:read"}}, "")
	if w.Code != http.StatusOK || w.Header().Get("Location") != "" || w.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("new key: %d %v", w.Code, w.Header())
	}
	shown := find(parseHTML(t, w.Body.String()), byAttr("id", "new-key"))
	if len(shown) != 1 || !db.WellFormedKey(nodeText(shown[0])) {
		t.Fatalf("the new key is not shown: %v", texts(shown))
	}
	phone := nodeText(shown[0])
	if status, _ := ts.do(t, "GET", "/api/v1/trades", phone, ""); status != 200 {
		t.Errorf("the new key reading trades: %d", status)
	}
	if status, _ := ts.do(t, "POST", "/api/v1/accounts", phone, `{"account_number": "X"}`); status != 403 {
		t.Errorf("the new read key writing: %d, want 403", status)
	}
	if strings.Contains(b.send(t, "GET", "/settings", nil, "").Body.String(), phone) {
		t.Error("the settings page shows the key again")
	}
	for _, bad := range []url.Values{{"name": {"none"}}, {"name": {"x"}, "scopes": {"trades:admin"}}} {
		bad.Set("csrf", csrf)
		if w := b.send(t, "POST", "/settings/keys", bad, ""); w.Code != http.StatusBadRequest {
			t.Errorf("key form %v: %d, want 400", bad, w.Code)
		}
	}

	// The read-only key's session looks but cannot change settings.
	reader := &browser{ts: ts}
	reader.signIn(t, phone)
	page := reader.page(t, "/settings")
	if len(find(page, byAttr("id", "key-name"))) != 0 || len(find(page, byAttr("id", "timezone"))) != 0 {
		t.Error("a read-only session sees the settings forms")
	}
	readCSRF := csrfOf(t, reader, "/settings")
	for _, target := range []string{"/settings/timezone", "/settings/keys", "/settings/sign-out-everywhere"} {
		if w := reader.send(t, "POST", target, url.Values{"csrf": {readCSRF}, "timezone": {"UTC"}, "scopes": {"trades:read"}}, ""); w.Code != http.StatusForbidden {
			t.Errorf("a read-only POST %s: %d, want 403", target, w.Code)
		}
	}

	// Revoke: the key's API calls and its session end.
	keys, _ := ts.db.Keys(t.Context(), "alice")
	var phoneID string
	for _, k := range keys {
		if k.Name == "phone" {
			phoneID = k.ID
		}
	}
	if w := b.send(t, "POST", "/settings/keys/"+phoneID+"/revoke", url.Values{"csrf": {csrf}}, ""); w.Code != http.StatusSeeOther {
		t.Fatalf("revoke: %d %s", w.Code, w.Body)
	}
	if status, _ := ts.do(t, "GET", "/api/v1/trades", phone, ""); status != 401 {
		t.Errorf("the revoked key: %d, want 401", status)
	}
	if w := reader.send(t, "GET", "/settings", nil, ""); w.Code != http.StatusSeeOther {
		t.Errorf("the revoked key's session: %d, want the sign-in page", w.Code)
	}

	// Sign out everywhere: alice's other browser too; bob's stays.
	other := &browser{ts: ts}
	other.signIn(t, key)
	bob := &browser{ts: ts}
	bob.signIn(t, bobKey)
	if w := bob.send(t, "POST", "/settings/keys/"+keys[0].ID+"/revoke", url.Values{"csrf": {csrfOf(t, bob, "/settings")}}, ""); w.Code != http.StatusNotFound {
		t.Errorf("bob revoking alice's key: %d, want 404", w.Code)
	}
	w = b.send(t, "POST", "/settings/sign-out-everywhere", url.Values{"csrf": {csrf}}, "")
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/login" {
		t.Fatalf("sign out everywhere: %d", w.Code)
	}
	clearsSession(t, w)
	for name, br := range map[string]*browser{"this": b, "the other": other} {
		if w := br.send(t, "GET", "/dashboard", nil, ""); w.Code != http.StatusSeeOther {
			t.Errorf("alice's %s browser after signing out everywhere: %d", name, w.Code)
		}
	}
	bob.page(t, "/dashboard")
	if status, _ := ts.do(t, "GET", "/api/v1/trades", key, ""); status != 200 {
		t.Errorf("alice's key after signing out everywhere: %d, want 200 (keys keep working)", status)
	}
}
