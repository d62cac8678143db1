package cmd

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"tradejournal/internal/testkit"
)

// TestStorageFullConcurrentWriters: 16 clients write trades while the disk
// under the data directory fills for real, so that the disk refuses writes
// that share a commit group with others. Every refused write is a 507
// STORAGE_FULL (none a 500, even when SQLite rolls back the whole group
// for one member's sake), and nothing acknowledged is lost: after the
// server stops and a new one opens the directory, every acknowledged trade
// reads back, and no refused one is there.
func TestStorageFullConcurrentWriters(t *testing.T) {
	const writers = 16
	mnt := testkit.MountTmpfs(t, "16m")
	dir := filepath.Join(mnt, "data")
	srv := startServe(t, dir)
	key := firstRunKey(t, srv)
	if status, body := call(t, "POST", srv.base+"/api/v1/accounts", key, `{"account_number": "A-1"}`); status != 201 {
		t.Fatalf("create account: %d %s", status, body)
	}
	account := accountID(t, srv, key)
	note := strings.Repeat("full disk ", 300) // a few pages a trade, so a group spills

	var (
		mu      sync.Mutex
		acked   []string
		refused int
		filling = make(chan struct{}) // closed as the filling starts
		wg      sync.WaitGroup
	)
	c := newAPIClient(srv.base, key)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seen507 := 0
			for n := 0; seen507 < 5; n++ {
				if n == 2000 {
					t.Errorf("writer %d: the disk never refused 5 of its writes", i)
					return
				}
				status, body, err := c.json(t.Context(), "POST", "/api/v1/trades", fmt.Sprintf(`{"account_id": %q, "symbol": "ES",
					"side": "long", "entry_date": "2026-02-05", "entry_price": 5000, "quantity": 1, "exit_price": 5010,
					"review_notes": {"type": "doc", "content": [{"type": "text", "text": "writer %d write %d %s"}]}}`, account, i, n, note))
				if err != nil {
					t.Errorf("writer %d: %v", i, err)
					return
				}
				switch status {
				case http.StatusCreated:
					var tr struct{ Data struct{ ID string } }
					if err := json.Unmarshal(body, &tr); err != nil || tr.Data.ID == "" {
						t.Errorf("writer %d: 201 without an id: %s", i, body)
						return
					}
					mu.Lock()
					acked = append(acked, tr.Data.ID)
					mu.Unlock()
				case http.StatusInsufficientStorage:
					select {
					case <-filling:
					default:
						t.Errorf("writer %d: 507 before the disk was being filled: %s", i, body)
					}
					if code := errorCode(t, body); code != "STORAGE_FULL" {
						t.Errorf("writer %d: 507 with code %s: %s", i, code, body)
					}
					seen507++
					mu.Lock()
					refused++
					mu.Unlock()
				default:
					t.Errorf("writer %d: a write got %d %s; want 201 or 507", i, status, body)
					return
				}
			}
		}()
	}
	// Let the writers get going, then take the disk's last bytes from under
	// them.
	stopped := make(chan struct{}) // every writer has ended, perhaps early on a failure
	go func() { wg.Wait(); close(stopped) }()
	for started := false; !started; {
		select {
		case <-stopped:
			t.Fatal("the writers ended before the disk was filled")
		default:
		}
		time.Sleep(10 * time.Millisecond)
		mu.Lock()
		started = len(acked) >= 4*writers
		mu.Unlock()
	}
	close(filling)
	filler := testkit.FillDisk(t, mnt)
	<-stopped
	t.Logf("%d writes acknowledged, %d refused", len(acked), refused)

	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	srv = startServe(t, dir)
	for _, id := range acked {
		if status, body := call(t, "GET", srv.base+"/api/v1/trades/"+id, key, ""); status != 200 {
			t.Errorf("acknowledged trade %s after a restart: %d %s", id, status, body)
		}
	}
	var list struct{ Pagination struct{ Total int } }
	_, body := call(t, "GET", srv.base+"/api/v1/trades?limit=1", key, "")
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	if list.Pagination.Total != len(acked) {
		t.Errorf("%d trades after a restart, want the %d acknowledged", list.Pagination.Total, len(acked))
	}
	if err := srv.stop(); err != nil {
		t.Fatal(err)
	}
	if out, err := run(t, "--data", dir, "check"); err != nil {
		t.Errorf("check after the full disk: %v\n%s", err, out)
	}
}
