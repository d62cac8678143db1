package server

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

// TestClientAddr: the client address is the peer's, unless the peer is a
// trusted proxy; then it is the rightmost X-Forwarded-For entry that is not
// itself trusted, so that a client cannot choose its address by sending the
// header, nor by putting addresses left of the one its proxy adds.
func TestClientAddr(t *testing.T) {
	proxies := []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("10.0.0.0/8"),
		netip.MustParsePrefix("fd00::/8")}
	tests := []struct {
		name    string
		peer    string
		xff     []string // one X-Forwarded-For header each
		trusted []netip.Prefix
		want    string
	}{
		{"no proxies, no header", "198.51.100.7:5000", nil, nil, "198.51.100.7"},
		{"no proxies: the header changes nothing", "198.51.100.7:5000", []string{"203.0.113.1"}, nil, "198.51.100.7"},
		{"an untrusted peer: the header changes nothing", "198.51.100.7:5000", []string{"203.0.113.1"}, proxies, "198.51.100.7"},
		{"a trusted proxy without the header", "127.0.0.1:5000", nil, proxies, "127.0.0.1"},
		{"a trusted proxy names the client", "127.0.0.1:5000", []string{"203.0.113.1"}, proxies, "203.0.113.1"},
		{"the rightmost entry, not what the client put left of it", "127.0.0.1:5000", []string{"1.1.1.1, 203.0.113.1"}, proxies, "203.0.113.1"},
		{"trusted hops are skipped", "127.0.0.1:5000", []string{"1.1.1.1, 203.0.113.1, 10.1.2.3"}, proxies, "203.0.113.1"},
		{"headers are read in order", "127.0.0.1:5000", []string{"1.1.1.1", "203.0.113.1,10.1.2.3"}, proxies, "203.0.113.1"},
		{"spaces around entries", "127.0.0.1:5000", []string{" 203.0.113.1 ,  10.1.2.3 "}, proxies, "203.0.113.1"},
		{"every entry trusted: the leftmost", "127.0.0.1:5000", []string{"10.0.0.9, 10.1.2.3"}, proxies, "10.0.0.9"},
		{"an entry with a port", "127.0.0.1:5000", []string{"203.0.113.1:4711"}, proxies, "203.0.113.1"},
		{"an IPv6 entry", "127.0.0.1:5000", []string{"2001:db8::7"}, proxies, "2001:db8::7"},
		{"an IPv6 entry with a port", "127.0.0.1:5000", []string{"[2001:db8::7]:4711"}, proxies, "2001:db8::7"},
		{"an IPv4-mapped entry", "127.0.0.1:5000", []string{"::ffff:203.0.113.1"}, proxies, "203.0.113.1"},
		{"a mapped peer is the IPv4 proxy", "[::ffff:127.0.0.1]:5000", []string{"203.0.113.1"}, proxies, "203.0.113.1"},
		{"an IPv6 proxy", "[fd00::1]:5000", []string{"203.0.113.1"}, proxies, "203.0.113.1"},
		{"a malformed entry: the proxy's address", "127.0.0.1:5000", []string{"garbage"}, proxies, "127.0.0.1"},
		{"unknown: the proxy's address", "127.0.0.1:5000", []string{"unknown"}, proxies, "127.0.0.1"},
		{"an empty header: the proxy's address", "127.0.0.1:5000", []string{""}, proxies, "127.0.0.1"},
		{"a malformed entry right of the client's", "127.0.0.1:5000", []string{"203.0.113.1, garbage"}, proxies, "127.0.0.1"},
		{"a malformed entry behind a trusted hop: that hop", "127.0.0.1:5000", []string{"garbage, 10.1.2.3"}, proxies, "10.1.2.3"},
		{"a malformed entry left of the client's is never read", "127.0.0.1:5000", []string{"garbage, 203.0.113.1"}, proxies, "203.0.113.1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tt.peer
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := clientAddr(r, tt.trusted); got != tt.want {
				t.Errorf("clientAddr: got %s, want %s", got, tt.want)
			}
		})
	}
}

// TestHostNames: a Host is allowed when its name (any case, with or without
// the trailing dot and the port) is localhost, the listen address's name,
// the public URL's host or an allowed host, or when it is an IP address.
func TestHostNames(t *testing.T) {
	tests := []struct {
		listen, public string
		allowed        []string
		host           string
		want           bool
	}{
		{"127.0.0.1:8080", "", nil, "localhost:8080", true},
		{"127.0.0.1:8080", "", nil, "localhost", true},
		{"127.0.0.1:8080", "", nil, "LocalHost.:8080", true},
		{"127.0.0.1:8080", "", nil, "127.0.0.1:8080", true},
		{"127.0.0.1:8080", "", nil, "[::1]:8080", true},
		{"127.0.0.1:8080", "", nil, "[::1]", true},
		{"127.0.0.1:8080", "", nil, "localhost:9000", true}, // an SSH tunnel's port
		{"127.0.0.1:8080", "", nil, "evil.example", false},
		{"127.0.0.1:8080", "", nil, "evil.example:8080", false},
		{"127.0.0.1:8080", "", nil, "localhost.evil.example:8080", false},
		{"127.0.0.1:8080", "", nil, "app.localhost:8080", false},
		{"127.0.0.1:8080", "", nil, "127.0.0.1.nip.io:8080", false},
		{"127.0.0.1:8080", "", nil, "", false},
		{"127.0.0.1:8080", "", nil, ":8080", false},
		{"127.0.0.1:8080", "https://journal.example.com", nil, "journal.example.com", true},
		{"127.0.0.1:8080", "https://journal.example.com", nil, "journal.example.com:443", true},
		{"127.0.0.1:8080", "https://journal.example.com", nil, "Journal.Example.COM.", true},
		{"127.0.0.1:8080", "https://journal.example.com:8443/base", nil, "journal.example.com:8443", true},
		{"127.0.0.1:8080", "https://journal.example.com", nil, "example.com", false},
		{"127.0.0.1:8080", "https://journal.example.com", nil, "journal.example.com.evil.example", false},
		{"127.0.0.1:8080", "", []string{"notes.lan", "Journal.Home."}, "notes.lan:8080", true},
		{"127.0.0.1:8080", "", []string{"notes.lan", "Journal.Home."}, "journal.home", true},
		{"127.0.0.1:8080", "", []string{"notes.lan"}, "other.lan", false},
		{"nas.lan:8080", "", nil, "NAS.lan:8080", true},
		{"nas.lan:8080", "", nil, "evil.example:8080", false},
		{"0.0.0.0:8080", "", nil, "192.168.1.20:8080", true},
		{":8080", "", nil, "[fe80::1]:8080", true},
		{":8080", "", nil, "[2001:db8::7]", true},
		{":8080", "", nil, "evil.example:8080", false},
		{"[::]:8080", "", nil, "nas.lan:8080", false},
	}
	for _, tt := range tests {
		if got := newHostNames(tt.listen, tt.public, tt.allowed).allow(tt.host); got != tt.want {
			t.Errorf("listen %s, public URL %q, allowed %q: Host %q allowed %v, want %v", tt.listen, tt.public, tt.allowed, tt.host, got, tt.want)
		}
	}
}
