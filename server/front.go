package server

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// hostNames is the set of names a request's Host may carry, besides an IP
// address: localhost, the listen address's host when it is a name, the
// public URL's host and every allowed host, each in the form hostName
// gives it.
type hostNames map[string]bool

func newHostNames(listenAddr, publicURL string, allowed []string) hostNames {
	names := hostNames{"localhost": true}
	if host, _, err := net.SplitHostPort(listenAddr); err == nil && host != "" {
		names[hostName(host)] = true
	}
	if u, err := url.Parse(publicURL); err == nil && u.Host != "" {
		names[hostName(u.Hostname())] = true
	}
	for _, name := range allowed {
		names[hostName(name)] = true
	}
	return names
}

// allow reports whether a request for host (a Host header, with or without
// a port) may be served. Any IP address may: DNS rebinding, which this
// check stops, needs a name the attacker controls to resolve to this
// machine, and a page whose address is an IP literal is already the
// journal's own origin. The port is not checked: a rebound name keeps the
// port the attacker's page used, and an SSH tunnel or a proxy may reach
// the journal on a port other than the one it listens on.
func (n hostNames) allow(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = hostName(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"))
	if host == "" {
		return false
	}
	if _, err := netip.ParseAddr(host); err == nil {
		return true
	}
	return n[host]
}

// hostName is a host name as compared: lower case, without the trailing
// dot of a fully qualified name.
func hostName(s string) string {
	return strings.TrimSuffix(strings.ToLower(s), ".")
}

// clientAddr is the address the request comes from, as the per-address
// limits, the upload slots and the access log count it: the peer's
// address, or, when the peer is a trusted proxy, the rightmost
// X-Forwarded-For entry that is not itself a trusted proxy. An entry that
// is not an address (malformed, "unknown") ends the walk at the last
// trusted hop: what stands left of it cannot be told from a client's own
// text. When every entry is trusted, the leftmost is the client.
func clientAddr(r *http.Request, trusted []netip.Prefix) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	addr := peer.Unmap()
	if !isTrusted(addr, trusted) {
		return addr.String()
	}
	var hops []string
	for _, v := range r.Header.Values("X-Forwarded-For") {
		hops = append(hops, strings.Split(v, ",")...)
	}
	for i := len(hops) - 1; i >= 0; i-- {
		hop, ok := forwardedAddr(hops[i])
		if !ok {
			break
		}
		addr = hop
		if !isTrusted(hop, trusted) {
			break
		}
	}
	return addr.String()
}

// forwardedAddr reads one X-Forwarded-For entry: an IP address, perhaps
// with a port ("203.0.113.7:5120", "[2001:db8::7]:5120"), as some proxies
// write it.
func forwardedAddr(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if a, err := netip.ParseAddr(s); err == nil {
		return a.Unmap(), true
	}
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	if a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")); err == nil {
		return a.Unmap(), true
	}
	return netip.Addr{}, false
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
