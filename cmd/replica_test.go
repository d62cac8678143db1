package cmd

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
)

// replicaSync is --replica-sync in these tests: short, so they wait little
// for a write to reach the replica.
const replicaSync = 200 * time.Millisecond

// TestReplicaRestore runs DESIGN §15 over each kind of replica: trades and
// documents written by concurrent clients to a serve with --replica, the
// server killed with SIGKILL, then restore into a new directory: every
// acknowledged write and every document is there byte for byte, signed
// links handed out before the kill open, check passes; and a restore at a
// --timestamp between two rounds of writes holds exactly the first round.
func TestReplicaRestore(t *testing.T) {
	for _, kind := range []struct {
		name  string
		start func(t *testing.T) (url string, extra []string)
	}{
		{"file", func(t *testing.T) (string, []string) {
			return "file://" + filepath.Join(t.TempDir(), "replica"), nil
		}},
		{"sftp", startSFTP},
		{"s3", startS3},
	} {
		t.Run(kind.name, func(t *testing.T) {
			url, extra := kind.start(t)
			testReplicaRestore(t, url, extra)
		})
	}
}

func testReplicaRestore(t *testing.T, url string, extra []string) {
	dir := filepath.Join(t.TempDir(), "data")
	key := setUpUser(t, dir)
	srv := startBinary(t, dir, append([]string{"--replica", url, "--replica-sync", replicaSync.String()}, extra...)...)
	w := &workload{t: t, c: newAPIClient(srv.base, key), account: "A-1", samples: readSamples(t)}
	w.accountID = mustCreateAccount(t, w.c, w.account)

	// Round 0, then a point in time, then round 1.
	// A round's writers finish the request they are in, so that none is
	// in flight (written, unacknowledged) when it ends.
	round := func(n int64) {
		until := w.acked.Load() + n
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				for j := 0; w.acked.Load() < until && !t.Failed(); j++ {
					if err := w.writeOne(t.Context(), i, j); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		time.Sleep(5 * replicaSync) // every acknowledged write is at the replica
	}
	round(30)
	t.Log("round 0 written")
	at := time.Now().UTC().Truncate(time.Second)
	time.Sleep(time.Until(at.Add(2 * time.Second))) // round 1 starts after the end of at's second
	w.phase.Store(1)
	round(20)
	srv.kill()
	trades, docs := w.snapshot()
	t.Logf("%d trades and %d documents acknowledged; killed", len(trades), len(docs))

	// The latest point: everything.
	latest := filepath.Join(t.TempDir(), "latest")
	if out, err := runBinary(t, append([]string{"restore", url, latest}, extra...)...); err != nil {
		t.Fatalf("restore: %v\n%s", err, out)
	}
	for _, name := range []string{"journal.db", "secret"} { // as serve keeps them: the owner's alone
		fi, err := os.Stat(filepath.Join(latest, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("restored %s is %v, want -rw-------", name, fi.Mode())
		}
	}
	if out, err := runBinary(t, "check", "--data", latest); err != nil {
		t.Fatalf("check on the restored directory: %v\n%s", err, out)
	}
	t.Log("restored the latest point")
	rs := startBinary(t, latest)
	rc := newAPIClient(rs.base, key)
	for _, tr := range trades {
		checkTradeWhole(t, rc, tr)
	}
	for _, d := range docs {
		checkDocWhole(t, rs.base, d) // the link signed before the kill
	}
	checkNoPartialTrades(t, latest)
	if t.Failed() {
		t.Fatalf("acknowledged writes missing from the restore\n%s", srv.stderr.String())
	}
	rs.terminate(t)

	// The point between the rounds: round 0 exactly.
	past := filepath.Join(t.TempDir(), "past")
	if out, err := runBinary(t, append([]string{"restore", url, past, "--timestamp", at.Format(time.RFC3339)}, extra...)...); err != nil {
		t.Fatalf("restore --timestamp: %v\n%s", err, out)
	}
	if out, err := runBinary(t, "check", "--data", past); err != nil {
		t.Fatalf("check on the directory restored at a timestamp: %v\n%s", err, out)
	}
	t.Log("restored the point between the rounds")
	ps := startBinary(t, past)
	pc := newAPIClient(ps.base, key)
	want := 0
	for _, tr := range trades {
		if tr.phase == 0 {
			want++
			checkTradeWhole(t, pc, tr)
		} else if status, _, _ := pc.json(t.Context(), "GET", "/api/v1/trades/"+tr.id, ""); status != http.StatusNotFound {
			t.Errorf("trade %s of the round after %s: got %d, want 404", tr.id, at.Format(time.RFC3339), status)
		}
	}
	for _, d := range docs {
		if d.phase == 0 {
			checkDocWhole(t, ps.base, d)
		}
	}
	if got := count(t, openSQL(t, past), `SELECT count(*) FROM trades`); got != want {
		t.Errorf("restore at %s: %d trades, want the %d acknowledged before it", at.Format(time.RFC3339), got, want)
	}
	ps.terminate(t)

	// Into a directory that is not empty: refused, nothing changed.
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "notes.txt"), []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := runBinary(t, append([]string{"restore", url, full}, extra...)...)
	if err == nil || !strings.Contains(out, "not empty") {
		t.Errorf("restore into a directory that is not empty: %v\n%s\nwant refused as not empty", err, out)
	}
	entries, _ := os.ReadDir(full)
	if b, _ := os.ReadFile(filepath.Join(full, "notes.txt")); len(entries) != 1 || string(b) != "mine" {
		t.Errorf("restore refused, yet the directory now holds %d entries", len(entries))
	}
}

// startSFTP serves SFTP on a free port of this machine for the test, with
// its host key in a known_hosts under a HOME of the test's own, and returns
// the replica URL and the --replica-key flag of a key it accepts.
func startSFTP(t *testing.T) (string, []string) {
	_, hostPriv, _ := ed25519.GenerateKey(rand.Reader)
	hostSigner, err := ssh.NewSignerFromKey(hostPriv)
	if err != nil {
		t.Fatal(err)
	}
	clientPub, clientPriv, _ := ed25519.GenerateKey(rand.Reader)
	clientKey, err := ssh.NewPublicKey(clientPub)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(clientPriv, "")
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	config := &ssh.ServerConfig{PublicKeyCallback: func(_ ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
		if string(key.Marshal()) == string(clientKey.Marshal()) {
			return nil, nil
		}
		return nil, fmt.Errorf("unknown key")
	}}
	config.AddHostKey(hostSigner)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go serveSFTPConn(conn, config)
		}
	}()

	// The server reads known_hosts from its HOME; the binary is built
	// first, while HOME still holds the Go build cache.
	binary(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	line := fmt.Sprintf("[127.0.0.1]:%d %s", port, ssh.MarshalAuthorizedKey(hostSigner.PublicKey()))
	if err := os.WriteFile(filepath.Join(home, ".ssh", "known_hosts"), []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(t.TempDir(), "nas", "journal")
	return fmt.Sprintf("sftp://backup@127.0.0.1:%d%s", port, root), []string{"--replica-key", keyFile}
}

// serveSFTPConn serves one SSH connection's sftp subsystem requests.
func serveSFTPConn(conn net.Conn, config *ssh.ServerConfig) {
	defer conn.Close()
	_, chans, reqs, err := ssh.NewServerConn(conn, config)
	if err != nil {
		return
	}
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			nc.Reject(ssh.UnknownChannelType, "session only")
			continue
		}
		ch, requests, err := nc.Accept()
		if err != nil {
			return
		}
		go func() {
			for req := range requests {
				ok := req.Type == "subsystem" && len(req.Payload) >= 4 && string(req.Payload[4:]) == "sftp"
				req.Reply(ok, nil)
				if ok {
					go func() {
						defer ch.Close()
						if server, err := sftp.NewServer(ch); err == nil {
							if err := server.Serve(); err != nil && err != io.EOF {
								return
							}
						}
					}()
				}
			}
		}()
	}
}

// startS3 serves an S3-compatible store in memory for the test (gofakes3),
// with credentials in the environment the server reads them from, and
// returns the replica URL.
func startS3(t *testing.T) (string, []string) {
	backend := s3mem.New()
	if err := backend.CreateBucket("journal"); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(ts.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test-secret")
	t.Setenv("AWS_REGION", "us-east-1")
	// Litestream's S3 client cannot take a CA bundle from the environment
	// (this machine sets one) with its own HTTP client; the test's store
	// is plain HTTP.
	t.Setenv("AWS_CA_BUNDLE", "")
	return "s3://journal/laptop?endpoint=" + ts.URL + "&region=us-east-1", nil
}
