package cmd

import (
	"bytes"
	"context"
	"net/http"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestServeRefusesBadProxyAndHostFlags: an --trusted-proxy that is not a
// CIDR or an address, given alone, repeated or in a list, and an
// --allowed-host that is not a host name stop serve before it touches the
// data directory, with an error naming the flag and the value.
func TestServeRefusesBadProxyAndHostFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--trusted-proxy", "10.0.0.0/33"},
		{"--trusted-proxy", "127.0.0.1/32,proxy.lan"},
		{"--trusted-proxy", "127.0.0.1/32", "--trusted-proxy", "proxy.lan"},
		{"--allowed-host", "https://journal.example.com"},
		{"--allowed-host", "journal.example.com:443"},
		{"--allowed-host", ""},
	} {
		dir := filepath.Join(t.TempDir(), "data")
		// A serve that wrongly starts stops at the timeout, failing below.
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		root := newRootCmd()
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetErr(&out)
		root.SetArgs(append([]string{"--data", dir, "serve", "--addr", "127.0.0.1:0"}, args...))
		err := root.ExecuteContext(ctx)
		cancel()
		flag, value := args[len(args)-2], args[len(args)-1]
		if i := strings.LastIndex(value, ","); i >= 0 {
			value = value[i+1:]
		}
		if err == nil || !strings.Contains(err.Error(), flag) || !strings.Contains(err.Error(), `"`+value+`"`) {
			t.Errorf("serve %s: %v %s; want an error naming %s and %q", strings.Join(args, " "), err, out.String(), flag, value)
		}
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("serve %s made the data directory (%v)", strings.Join(args, " "), err)
		}
	}
}

// TestParseTrustedProxies: CIDRs, single addresses (IPv4 and IPv6) and
// IPv4-mapped forms all read as the networks they name.
func TestParseTrustedProxies(t *testing.T) {
	got, err := parseTrustedProxies([]string{"127.0.0.1/32", " 10.1.2.3/8", "192.168.1.10", "fd00::/8", "::1", "::ffff:172.16.0.0/108"})
	if err != nil {
		t.Fatal(err)
	}
	want := []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("10.0.0.0/8"),
		netip.MustParsePrefix("192.168.1.10/32"), netip.MustParsePrefix("fd00::/8"), netip.MustParsePrefix("::1/128"),
		netip.MustParsePrefix("172.16.0.0/12")}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestServeBehindProxy: serve with --trusted-proxy (a list) and
// --allowed-host: each client the proxy names has its own failed sign-in
// budget; a Host that is none of the server's names is a 421, and
// localhost, 127.0.0.1 with the port, the public URL's host and the
// allowed host are served; the log names the refused host.
func TestServeBehindProxy(t *testing.T) {
	srv := startServe(t, t.TempDir(), "--trusted-proxy", "10.0.0.0/8,127.0.0.1/32", "--allowed-host", "notes.lan",
		"--public-url", "https://journal.example.com")
	key := firstRunKey(t, srv)
	port := strings.TrimPrefix(srv.base, "http://127.0.0.1:")
	send := func(host, key, xff string) int {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), "GET", srv.base+"/api/v1/accounts", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		req.Header.Set("Authorization", "Bearer "+key)
		if xff != "" {
			req.Header.Set("X-Forwarded-For", xff)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, host := range []string{"localhost:" + port, "127.0.0.1:" + port, "journal.example.com", "notes.lan:" + port} {
		if got := send(host, key, ""); got != http.StatusOK {
			t.Errorf("Host %s: %d, want 200", host, got)
		}
	}
	if got := send("evil.example:"+port, key, ""); got != http.StatusMisdirectedRequest {
		t.Errorf("Host evil.example: %d, want 421", got)
	}
	const bad = "tj_nope"
	for i := range 10 { // the default budget
		if got := send("journal.example.com", bad, "203.0.113.1, 10.0.0.2"); got != http.StatusUnauthorized {
			t.Fatalf("client 1, failure %d: %d, want 401", i+1, got)
		}
	}
	if got := send("journal.example.com", bad, "203.0.113.1"); got != http.StatusTooManyRequests {
		t.Errorf("client 1 past its budget: %d, want 429", got)
	}
	if got := send("journal.example.com", bad, "203.0.113.2"); got != http.StatusUnauthorized {
		t.Errorf("client 2: %d, want 401", got)
	}
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	logs := srv.stderr.String()
	if !strings.Contains(logs, "client=203.0.113.1") {
		t.Errorf("the access log does not name the proxied client:\n%s", logs)
	}
	if !strings.Contains(logs, "host=evil.example:"+port) || !strings.Contains(logs, "--allowed-host") {
		t.Errorf("the log does not say which host was refused, nor how to allow it:\n%s", logs)
	}
}
