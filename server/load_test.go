package server_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// TestLoadMixed drives the real handler over real connections with 64
// concurrent clients mixing reads and writes: every request must get its
// kind's one right answer (a 201 for a create, a 200 for the rest; a 409
// or a 503 fails the test as a 500 does), every write must have been made,
// and every trade whose create was acknowledged must be there, whole,
// afterwards.
func TestLoadMixed(t *testing.T) {
	if testing.Short() {
		t.Skip("load test skipped in -short mode")
	}
	e := newTradeEnv(t)
	hs := httptest.NewServer(e.srv)
	defer hs.Close()
	client := hs.Client()
	client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64

	const clients, perClient = 64, 50
	// The kinds of request, each with its one right answer.
	const (
		create = iota
		update
		read
		list
		accounts
		kinds
	)
	names := [kinds]string{"POST trade", "PUT trade", "GET trade", "GET trades", "GET accounts"}
	want := [kinds]int{http.StatusCreated, http.StatusOK, http.StatusOK, http.StatusOK, http.StatusOK}
	var (
		mu       sync.Mutex
		created  []string
		right    [kinds]int // right answers by kind
		failures []string
		wg       sync.WaitGroup
	)
	send := func(method, path, body string) (int, string) {
		req, _ := http.NewRequest(method, hs.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+e.key)
		res, err := client.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []string
			var ok [kinds]int
			for i := range perClient {
				var status int
				var body string
				k := i % 5
				if len(mine) == 0 {
					k = create
				}
				switch k {
				case create:
					status, body = send("POST", "/api/v1/trades", e.tradeBody("NQZ5", "long",
						fills(1, fmt.Sprintf("buy 1@%d", 20000+c), fmt.Sprintf("sell 1@%d", 20010+i))))
					if status == http.StatusCreated {
						mine = append(mine, decode[struct{ Data createdTrade }](t, []byte(body)).Data.ID)
					}
				case update:
					status, body = send("PUT", "/api/v1/trades/"+mine[len(mine)-1], `{"status": "loss"}`)
				case read:
					status, body = send("GET", "/api/v1/trades/"+mine[i%len(mine)], "")
				case list:
					status, body = send("GET", fmt.Sprintf("/api/v1/trades?limit=10&offset=%d", i), "")
				default:
					status, body = send("GET", "/api/v1/accounts", "")
				}
				if status == want[k] {
					ok[k]++
					continue
				}
				mu.Lock()
				failures = append(failures, fmt.Sprintf("%s: got %d %s, want %d", names[k], status, strings.TrimSpace(body), want[k]))
				mu.Unlock()
			}
			mu.Lock()
			created = append(created, mine...)
			for k, n := range ok {
				right[k] += n
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(failures) > 0 {
		t.Fatalf("%d requests failed, first: %s", len(failures), failures[0])
	}
	// Every fifth request of a client is each kind: the writes were all made.
	for k, n := range right {
		if n != clients*perClient/5 {
			t.Errorf("%s: %d answered %d, want %d", names[k], n, want[k], clients*perClient/5)
		}
	}
	raw := e.sql(t)
	if n := count(t, raw, `SELECT count(*) FROM trades`); n != len(created) {
		t.Errorf("%d trades stored, %d creates acknowledged", n, len(created))
	}
	if n := count(t, raw, `SELECT count(*) FROM trades t WHERE (SELECT count(*) FROM executions WHERE trade_id = t.id) != 2`); n != 0 {
		t.Errorf("%d trades without both their fills", n)
	}
	for _, id := range created {
		if n := count(t, raw, `SELECT count(*) FROM trades WHERE id = ?`, id); n != 1 {
			t.Fatalf("acknowledged trade %s missing", id)
		}
	}
}
