package cmd

import (
	"context"
	"net"
	"strconv"
	"strings"
	"testing"
)

// TestServeWarnsBeyondLoopback: serving on every interface warns at start
// that keys travel in clear text and points to the reverse-proxy section;
// serving on a loopback address does not.
func TestServeWarnsBeyondLoopback(t *testing.T) {
	const warning = "listening beyond this machine"
	for _, tt := range []struct {
		host string // to listen on
		dial string // to reach it
		warn bool
	}{
		{"0.0.0.0", "127.0.0.1", true},
		{"127.0.0.1", "127.0.0.1", false},
		{"::1", "::1", false},
	} {
		t.Run(tt.host, func(t *testing.T) {
			ln, err := net.Listen("tcp", net.JoinHostPort(tt.host, "0"))
			if err != nil {
				t.Skipf("cannot listen on %s here: %v", tt.host, err)
			}
			port := ln.Addr().(*net.TCPAddr).Port
			ln.Close()
			addr := net.JoinHostPort(tt.host, strconv.Itoa(port))
			ctx, cancel := context.WithCancel(context.Background())
			p := &serveProc{base: "http://" + net.JoinHostPort(tt.dial, strconv.Itoa(port)), cancel: cancel, done: make(chan struct{})}
			root := newRootCmd()
			root.SetOut(&p.stdout)
			root.SetErr(&p.stderr)
			root.SetArgs([]string{"serve", "--data", t.TempDir(), "--addr", addr})
			go func() {
				p.err = root.ExecuteContext(ctx)
				close(p.done)
			}()
			waitReady(t, p.base, p.done, p.stderr.String)
			if err := p.stop(); err != nil {
				t.Fatalf("serve: %v", err)
			}
			logs := p.stderr.String()
			if got := strings.Contains(logs, warning); got != tt.warn {
				t.Errorf("serve --addr %s: warning %v, want %v; logs:\n%s", addr, got, tt.warn, logs)
			}
			if tt.warn && !strings.Contains(logs, "Behind a reverse proxy") {
				t.Errorf("the warning does not point to the README's reverse-proxy section:\n%s", logs)
			}
		})
	}
}
