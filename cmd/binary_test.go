package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"tradejournal/internal/testkit"
)

// The real binary, built once for every test that runs it; TestMain
// removes it.
var built struct {
	once sync.Once
	dir  string
	path string
	err  error
	out  []byte
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// binary builds tradejournal (once per test binary) and returns its path.
// Tests that need it are skipped under -short.
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the real binary")
	}
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "tradejournal-bin-")
		if built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "tradejournal")
		built.out, built.err = exec.Command("go", "build", "-o", built.path, "tradejournal").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.path
}

// binProc is the real binary running `serve`.
type binProc struct {
	cmd    *exec.Cmd
	base   string
	stdout testkit.SyncBuffer
	stderr testkit.SyncBuffer
	exited chan struct{} // closed once the process has been waited for
	err    error         // Wait's result, once exited is closed
}

// startBinary runs `tradejournal serve` on dir on a free port, with its
// rate limit off and serve's extra flags, and waits until it answers HTTP.
// The test's cleanup kills it if the test did not stop it.
func startBinary(t *testing.T, dir string, extra ...string) *binProc {
	t.Helper()
	addr := freeAddr(t)
	p := &binProc{base: "http://" + addr, exited: make(chan struct{})}
	args := append([]string{"serve", "--data", dir, "--addr", addr, "--rate-limit", "0"}, extra...)
	p.cmd = exec.Command(binary(t), args...)
	p.cmd.Stdout = &p.stdout
	p.cmd.Stderr = &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() { p.kill() })
	waitReady(t, p.base, p.exited, p.stderr.String)
	return p
}

// kill ends the process with SIGKILL, as a crash or a power cut would (as
// far as the process can tell), and waits for it.
func (p *binProc) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
}

// terminate sends SIGTERM and returns the process's exit error (nil for
// status 0) once it has exited.
func (p *binProc) terminate(t *testing.T) error {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-p.exited
	return p.err
}

// runBinary runs one command of the real binary and returns its output and
// exit error.
func runBinary(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), binary(t), args...).CombinedOutput()
	return string(out), err
}

// setUpUser gives a new data directory user me with a write key, through
// the command line, and returns the key.
func setUpUser(t *testing.T, dir string) string {
	t.Helper()
	mustRun(t, "user", "add", "me", "--data", dir)
	key := lastLine(mustRun(t, "key", "create", "--user", "me", "--data", dir))
	if !strings.HasPrefix(key, "tj_") {
		t.Fatalf("key create: got %q, want a key", key)
	}
	return key
}
