package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
	"tradejournal/internal/testkit"
)

// run executes the command line with args, as main would, and returns what
// it printed on stdout and stderr.
func run(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(args)
	err := root.ExecuteContext(t.Context())
	return out.String(), err
}

// mustRun is run for commands that must succeed.
func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	out, err := run(t, args...)
	if err != nil {
		t.Fatalf("tradejournal %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// lastLine is the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// freeAddr finds a port nobody listens on. Another process could take it
// before serve does; on a test machine that is rare enough.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// serveProc is `tradejournal serve` running in a goroutine.
type serveProc struct {
	base   string // http://127.0.0.1:PORT
	stdout testkit.SyncBuffer
	stderr testkit.SyncBuffer
	cancel context.CancelFunc
	done   chan struct{}
	err    error // serve's result, once done is closed
}

// startServe runs serve on dir through the cobra command, with serve's extra
// flags, and waits until it answers HTTP. The test's cleanup stops it if the
// test did not.
func startServe(t *testing.T, dir string, extra ...string) *serveProc {
	t.Helper()
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	p := &serveProc{base: "http://" + addr, cancel: cancel, done: make(chan struct{})}
	root := newRootCmd()
	root.SetOut(&p.stdout)
	root.SetErr(&p.stderr)
	root.SetArgs(append([]string{"serve", "--data", dir, "--addr", addr}, extra...))
	go func() {
		p.err = root.ExecuteContext(ctx)
		close(p.done)
	}()
	t.Cleanup(func() { p.stop() })
	waitReady(t, p.base, p.done, func() string { return p.stderr.String() })
	return p
}

// stop cancels serve's context, as SIGTERM would, and returns its result.
func (p *serveProc) stop() error {
	p.cancel()
	<-p.done
	return p.err
}

// waitReady polls base until it answers HTTP at all, failing the test if
// exited closes first. The bound only keeps a broken build from hanging.
func waitReady(t *testing.T, base string, exited <-chan struct{}, logs func() string) {
	t.Helper()
	c := &http.Client{Timeout: time.Second}
	for range 1000 {
		select {
		case <-exited:
			t.Fatalf("serve exited before answering:\n%s", logs())
		default:
		}
		if resp, err := c.Get(base + "/"); err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("serve never answered on %s:\n%s", base, logs())
}

// call sends one API request to a running server.
func call(t *testing.T, method, url, key, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	c := &http.Client{Timeout: 30 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// errorCode reads the code of an error body.
func errorCode(t *testing.T, body []byte) string {
	t.Helper()
	var e struct{ Code string }
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("decode error body %s: %v", body, err)
	}
	return e.Code
}
