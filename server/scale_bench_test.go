package server_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"tradejournal/db"
	"tradejournal/internal/seed"
	"tradejournal/server"
)

// BenchmarkScale measures the pages a trader opens most and the writes a
// script sends, over HTTP on a real port against a journal of 100,000
// trades with 4 fills each, each beside its baseline in the same run: the
// same work in raw SQLite through a connection of its own, or a bare
// net/http handler. Each reports the rates (req/s) and latencies of both and
// their ratio ("x-raw"); compare ratios, not absolute numbers, since the
// clients share the CPU with the server.
//
//	go test ./server -run XXX -bench Scale -benchtime 2000x
func BenchmarkScale(b *testing.B) {
	e := newScaleEnv(b)
	for _, offset := range []int{0, 50_000} {
		b.Run(fmt.Sprintf("list/offset=%d", offset), func(b *testing.B) {
			target := fmt.Sprintf("/api/v1/trades?limit=100&offset=%d", offset)
			compare(b, 1, e.get(target), 1, e.rawPage(offset))
		})
	}
	b.Run("list/clients=16", func(b *testing.B) {
		compare(b, 16, e.get("/api/v1/trades?limit=100"), 16, e.rawPage(0))
	})
	b.Run("create/clients=1", func(b *testing.B) {
		compare(b, 1, e.create(), 1, e.rawCreate())
	})
	b.Run("create/clients=16", func(b *testing.B) {
		// The baseline is the raw transaction at one writer: group commit
		// must beat what SQLite does one transaction at a time.
		compare(b, 16, e.create(), 1, e.rawCreate())
	})
	b.Run("put/clients=1", func(b *testing.B) {
		compare(b, 1, e.put(), 1, e.rawPut())
	})
	b.Run("put/clients=16", func(b *testing.B) {
		compare(b, 16, e.put(), 1, e.rawPut())
	})
	b.Run("get/clients=16", func(b *testing.B) {
		// Ten times the requests: at b.N=3000 the bare handler's turns last
		// 20 ms each, too short for a p99 that holds from run to run.
		compareN(b, 10*b.N, 16, e.get("/api/v1/trades/"+e.tradeID), 16, e.bare())
	})
}

// scaleEnv is the server over 100,000 seeded trades, listening on a real
// port, with a raw connection pool to the same file.
type scaleEnv struct {
	*tradeEnv
	url     string
	raw     *sql.DB
	tradeID string
	bareURL string
	// clients are keep-alive clients, one per concurrent worker, so each
	// worker holds its own connection as a script would.
	clients []*http.Client
}

func newScaleEnv(b *testing.B) *scaleEnv {
	// The account is made through db, not the API: the handler tests'
	// response validator would then sit in the memory the benchmark reports.
	ts := newTestServer(b)
	b.Cleanup(server.TuneGC()) // as serve runs
	userID, key := ts.newUser(b, "alice")
	a, err := ts.db.CreateAccount(b.Context(), userID, db.AccountInput{AccountNumber: db.Some("APEX-1")})
	if err != nil {
		b.Fatal(err)
	}
	e := &tradeEnv{testServer: ts, userID: userID, key: key, accountID: a.ID}
	raw, err := sql.Open("sqlite", "file:"+e.path+"?_pragma=busy_timeout(10000)&_pragma=synchronous(FULL)&_pragma=foreign_keys(1)&_txlock=immediate")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { raw.Close() })
	seed.Trades(b, raw, e.userID, e.accountID, 100_000)
	if _, err := e.db.FillListings(b.Context()); err != nil { // as Open lists an older journal's trades
		b.Fatal(err)
	}
	if err := e.db.SettleDays(b.Context()); err != nil { // as the settler builds their days once idle
		b.Fatal(err)
	}
	s := &scaleEnv{tradeEnv: e, raw: raw}
	if err := raw.QueryRow(`SELECT id FROM trades ORDER BY id LIMIT 1 OFFSET 40000`).Scan(&s.tradeID); err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(e.srv)
	b.Cleanup(hs.Close)
	s.url = hs.URL
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"data": map[string]any{"id": s.tradeID, "symbol": "NQZ5", "net_pnl": 396.0}})
	}))
	b.Cleanup(bare.Close)
	s.bareURL = bare.URL
	for range 16 {
		s.clients = append(s.clients, &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}})
	}
	return s
}

// op is one request or query of a worker (0..clients-1).
type op func(worker int) error

// compare runs ours and base, b.N times each, from the given numbers of
// concurrent workers, and reports both rates, their p50 and p99 latencies
// and the ratio of the rates. They take turns, a third of b.N at a time, so
// that a machine whose speed drifts during the run (a shared VM does) slows
// both alike. The memory reported is the highest seen during ours.
func compare(b *testing.B, clients int, ours op, baseClients int, base op) {
	compareN(b, b.N, clients, ours, baseClients, base)
}

// compareN is compare for n operations each.
func compareN(b *testing.B, n, clients int, ours op, baseClients int, base op) {
	const turns = 3
	var our, their runs
	var peak int64
	b.ResetTimer()
	for turn := range turns {
		k := n / turns
		if turn == 0 {
			k += n % turns
		}
		b.StartTimer()
		high := watchRSS(b)
		our.add(drive(b, k, clients, ours))
		peak = max(peak, high())
		b.StopTimer()
		their.add(drive(b, k, baseClients, base))
	}
	rate, p50, p99 := our.stats()
	baseRate, baseP50, baseP99 := their.stats()
	b.ReportMetric(float64(peak)/(1<<20), "RssAnon-peak-MB")
	b.ReportMetric(rate, "req/s")
	b.ReportMetric(ms(p50), "p50-ms")
	b.ReportMetric(ms(p99), "p99-ms")
	b.ReportMetric(baseRate, "base-req/s")
	b.ReportMetric(ms(baseP50), "base-p50-ms")
	b.ReportMetric(ms(baseP99), "base-p99-ms")
	b.ReportMetric(rate/baseRate, "x-base")
}

// runs are the latencies of a side's operations and the time its turns took.
type runs struct {
	elapsed time.Duration
	lat     []time.Duration
}

func (r *runs) add(elapsed time.Duration, lat []time.Duration) {
	r.elapsed += elapsed
	r.lat = append(r.lat, lat...)
}

// stats are the rate (operations a second) and the p50 and p99 latencies.
func (r *runs) stats() (rate float64, p50, p99 time.Duration) {
	if len(r.lat) == 0 {
		return 0, 0, 0
	}
	slices.Sort(r.lat)
	return float64(len(r.lat)) / r.elapsed.Seconds(), r.lat[len(r.lat)/2], r.lat[len(r.lat)*99/100]
}

// watchRSS samples the process's anonymous memory every 10 ms until the
// returned function is called, which returns the highest sample.
func watchRSS(b *testing.B) (peak func() int64) {
	stop, done := make(chan struct{}), make(chan int64)
	go func() {
		var high int64
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			high = max(high, rssAnon(b))
			select {
			case <-t.C:
			case <-stop:
				done <- high
				return
			}
		}
	}()
	return func() int64 {
		close(stop)
		return <-done
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// drive runs n operations from clients workers, each one at a time, and
// returns the time they took and each one's latency.
func drive(b *testing.B, n, clients int, f op) (time.Duration, []time.Duration) {
	var next atomic.Int64
	lat := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	start := time.Now()
	for w := range clients {
		wg.Go(func() {
			for next.Add(1) <= int64(n) {
				t := time.Now()
				if err := f(w); err != nil {
					b.Error(err)
					return
				}
				lat[w] = append(lat[w], time.Since(t))
			}
		})
	}
	wg.Wait()
	return time.Since(start), slices.Concat(lat...)
}

// call sends one request from worker w and wants the status.
func (s *scaleEnv) call(w int, method, url, body string, want int) error {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+s.key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := s.clients[w].Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != want {
		got, _ := io.ReadAll(res.Body)
		return fmt.Errorf("%s %s: %d %s", method, url, res.StatusCode, got)
	}
	// Read to the end and dropped, as ../shared/tools/load reads an answer
	// it wanted.
	_, err = io.Copy(io.Discard, res.Body)
	return err
}

func (s *scaleEnv) get(target string) op {
	return func(w int) error { return s.call(w, "GET", s.url+target, "", http.StatusOK) }
}

func (s *scaleEnv) bare() op {
	return func(w int) error { return s.call(w, "GET", s.bareURL, "", http.StatusOK) }
}

// benchFills are the 4 fills of each created or replaced trade.
var benchFills = fills(1, "buy 1@20000", "buy 1@20001", "sell 1@20010", "sell 1@20012")

// create posts trades of 4 fills, each on the next of 500 days, as a
// trader's journal spreads them: piling thousands on one day would measure
// the re-check of that day's risk rules instead.
func (s *scaleEnv) create() op {
	next := days()
	return func(w int) error {
		day := next()
		body := fmt.Sprintf(`{"account_id": %q, "symbol": "NQZ5", "side": "long", "entry_date": %q, %s}`, s.accountID, day, benchFills)
		return s.call(w, "POST", s.url+"/api/v1/trades", body, http.StatusCreated)
	}
}

// days returns the next of 500 days at each call, from 2026-01-01.
func days() func() string {
	var n atomic.Int64
	day0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return func() string { return day0.AddDate(0, 0, int(n.Add(1)%500)).Format(time.DateOnly) }
}

// put replaces the 4 fills of a trade of each worker's own.
func (s *scaleEnv) put() op {
	ids := make([]string, len(s.clients))
	for w := range ids {
		var t struct{ Data struct{ ID string } }
		req, _ := http.NewRequest("POST", s.url+"/api/v1/trades", strings.NewReader(s.tradeBody("NQZ5", "long", benchFills)))
		req.Header.Set("Authorization", "Bearer "+s.key)
		res, err := s.clients[0].Do(req)
		if err != nil {
			panic(err)
		}
		json.NewDecoder(res.Body).Decode(&t)
		res.Body.Close()
		ids[w] = t.Data.ID
	}
	body := "{" + benchFills + "}"
	return func(w int) error {
		return s.call(w, "PUT", s.url+"/api/v1/trades/"+ids[w], body, http.StatusOK)
	}
}

// rawPage reads a page of 100 trades, every column of the trade (seed.RawPage),
// in the list's order.
func (s *scaleEnv) rawPage(offset int) op {
	stmt, err := s.raw.Prepare(seed.RawPage)
	if err != nil {
		panic(err)
	}
	return func(int) error {
		rows, err := stmt.Query(s.userID, offset)
		if err != nil {
			return err
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		n := 0
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				return err
			}
			n++
		}
		if n != 100 {
			return fmt.Errorf("raw page at %d: %d rows", offset, n)
		}
		return rows.Err()
	}
}

// rawCreate is a trade and its 4 fills in one transaction, fsync'd, on
// days spread as create's.
func (s *scaleEnv) rawCreate() op {
	next := days()
	return func(int) error {
		id := uuid.Must(uuid.NewV7()).String()
		day := next()
		tx, err := s.raw.Begin()
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.Exec(`INSERT INTO trades (id, user_id, account_id, symbol, root, side, quantity, entry_price,
			exit_price, entry_date, entry_time, exit_date, exit_time, gross_pnl, net_pnl, total_commission, status,
			asset_class, point_value, created_at, updated_at)
			VALUES (?, ?, ?, 'NQZ5', 'NQ', 'long', 2, 20000.5, 20011, ?, '09:30:00', ?, '09:33:00',
			420, 416, 4, 'win', 'futures', 20, 'x', 'x')`, id, s.userID, s.accountID, day, day); err != nil {
			return err
		}
		if err := rawFills(tx, id); err != nil {
			return err
		}
		return tx.Commit()
	}
}

// rawPut replaces a trade's 4 fills and updates its row, in one
// transaction.
func (s *scaleEnv) rawPut() op {
	return func(w int) error {
		tx, err := s.raw.Begin()
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if _, err := tx.Exec(`DELETE FROM executions WHERE trade_id = ?`, s.tradeID); err != nil {
			return err
		}
		if err := rawFills(tx, s.tradeID); err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE trades SET gross_pnl = 420, net_pnl = 416, updated_at = ? WHERE id = ?`,
			strconv.Itoa(w), s.tradeID); err != nil {
			return err
		}
		return tx.Commit()
	}
}

func rawFills(tx *sql.Tx, tradeID string) error {
	for k, side := range []string{"buy", "buy", "sell", "sell"} {
		if _, err := tx.Exec(`INSERT INTO executions (id, trade_id, position, side, price, quantity, commission,
			execution_date, execution_time, execution_type, execution_timestamp)
			VALUES (?, ?, ?, ?, ?, 1, 1, '2026-02-05', '09:30:00', 'scale_in', '2026-02-05T14:30:00.000Z')`,
			uuid.Must(uuid.NewV7()).String(), tradeID, k, side, 20000+k); err != nil {
			return err
		}
	}
	return nil
}

// rssAnon is the process's anonymous resident memory (heap, SQLite's page
// caches), from /proc; 0 where there is no /proc. The clients and the raw
// baseline's connections share the process, so it is the server's and a
// little more.
func rssAnon(b *testing.B) int64 {
	status, err := os.ReadFile(filepath.Join("/proc", "self", "status"))
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				b.Error(err)
			}
			return kb << 10
		}
	}
	return 0
}
