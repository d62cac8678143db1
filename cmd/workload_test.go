package cmd

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// apiClient talks to a running server from any goroutine: unlike call, it
// returns its errors rather than failing the test.
type apiClient struct {
	base, key string
	hc        *http.Client
}

func newAPIClient(base, key string) *apiClient {
	// The timeout only keeps a hung server from hanging the test.
	return &apiClient{base: base, key: key, hc: &http.Client{Timeout: 30 * time.Second}}
}

// do sends one request to path (or to a full URL) and reads the whole answer.
func (c *apiClient) do(ctx context.Context, method, path string, body io.Reader, contentType string) (int, []byte, error) {
	u := path
	if strings.HasPrefix(path, "/") {
		u = c.base + path
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return 0, nil, err
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

func (c *apiClient) json(ctx context.Context, method, path, body string) (int, []byte, error) {
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	return c.do(ctx, method, path, r, "application/json")
}

// upload posts content as a new document of the account.
func (c *apiClient) upload(ctx context.Context, account, fileName string, content []byte) (int, []byte, error) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("document_name", "Doc "+fileName)
	mw.WriteField("category", "receipt")
	mw.WriteField("account_number", account)
	fw, err := mw.CreateFormFile("file", fileName)
	if err != nil {
		return 0, nil, err
	}
	fw.Write(content)
	mw.Close()
	return c.do(ctx, "POST", "/api/v1/documents", &body, mw.FormDataContentType())
}

// mustCreateAccount creates an account with number and returns its id.
func mustCreateAccount(t *testing.T, c *apiClient, number string) string {
	t.Helper()
	status, b, err := c.json(t.Context(), "POST", "/api/v1/accounts", fmt.Sprintf(`{"account_number": %q}`, number))
	if err != nil || status != http.StatusCreated {
		t.Fatalf("create account: got %d %s (%v), want 201", status, b, err)
	}
	var a struct{ Data struct{ ID string } }
	if err := json.Unmarshal(b, &a); err != nil || a.Data.ID == "" {
		t.Fatalf("create account: %s (%v)", b, err)
	}
	return a.Data.ID
}

// sample is a real file of testdata.
type sample struct {
	name    string
	content []byte
}

func readSamples(t *testing.T) []sample {
	t.Helper()
	var out []sample
	for _, name := range []string{"payout.pdf", "receipt.jpg", "certificate.png", "pixel.webp"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sample{name, b})
	}
	return out
}

// fillSymbols gives each number of fills its own symbol, so SQL over the
// database can tell how many executions any trade was created with, even
// one whose answer never arrived.
var fillSymbols = map[int]string{2: "AAPL", 3: "MSFT", 4: "NVDA"}

// tradeBody is a long trade of n fills (2 to 4), flat at the end.
func tradeBody(accountID string, n int) string {
	sides := map[int][]string{2: {"buy", "sell"}, 3: {"buy", "buy", "sell"}, 4: {"buy", "buy", "sell", "sell"}}[n]
	qty := map[int][]int{2: {2, 2}, 3: {1, 1, 2}, 4: {1, 1, 1, 1}}[n]
	var fills []string
	for i, side := range sides {
		fills = append(fills, fmt.Sprintf(`{"side": %q, "quantity": %d, "price": %d.25, "commission": 0.5, "execution_time": "09:%02d:00"}`,
			side, qty[i], 100+i, 30+i))
	}
	return fmt.Sprintf(`{"account_id": %q, "symbol": %q, "side": "long", "entry_date": "2026-02-05", "executions": [%s]}`,
		accountID, fillSymbols[n], strings.Join(fills, ", "))
}

// ackedTrade is a trade the server answered 201 for.
type ackedTrade struct {
	id         string
	executions json.RawMessage // as the 201 answered them
	fills      int
	phase      int32 // the workload's phase when the answer arrived
}

// ackedDoc is a document the server answered 201 for.
type ackedDoc struct {
	id, url string // url as the 201 answered it, on the base of that server
	base    string
	content []byte
	phase   int32
}

// workload creates trades (with executions) and uploads documents from
// several goroutines and records every write the server acknowledged.
type workload struct {
	t         *testing.T
	c         *apiClient
	accountID string
	account   string // its account_number
	samples   []sample
	// expectGone says transport errors are expected (the server is being
	// killed): a worker that meets one stops quietly.
	expectGone bool

	phase atomic.Int32 // stamped on each acknowledged write
	acked atomic.Int64

	mu     sync.Mutex
	trades []ackedTrade
	docs   []ackedDoc
}

// start runs n writers until ctx ends (or, with expectGone, the server is
// gone); the returned function waits for them.
func (w *workload) start(ctx context.Context, n int) (wait func()) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { w.writer(ctx, i) })
	}
	return wg.Wait
}

func (w *workload) writer(ctx context.Context, i int) {
	for j := 0; ctx.Err() == nil; j++ {
		if err := w.writeOne(ctx, i, j); err != nil {
			if ctx.Err() == nil && !w.expectGone {
				w.t.Errorf("writer %d: %v", i, err)
			}
			return
		}
	}
}

// writeOne is the j-th write of writer i: an upload or a trade.
func (w *workload) writeOne(ctx context.Context, i, j int) error {
	if (i+j)%2 == 0 {
		return w.uploadOne(ctx, i, j)
	}
	return w.tradeOne(ctx, 2+(i+j/2)%3)
}

// tradeOne creates a trade of n fills; only a failure to talk to the
// server is an error, an unexpected status is reported to the test.
func (w *workload) tradeOne(ctx context.Context, n int) error {
	body := tradeBody(w.accountID, n)
	status, b, err := w.c.json(ctx, "POST", "/api/v1/trades", body)
	if err != nil {
		return err
	}
	if status != http.StatusCreated {
		w.t.Errorf("create trade: got %d %s, want 201", status, b)
		return nil
	}
	phase := w.phase.Load()
	var tr struct {
		Data struct {
			ID         string
			Executions json.RawMessage
		}
	}
	if err := json.Unmarshal(b, &tr); err != nil || tr.Data.ID == "" {
		w.t.Errorf("create trade: answer %s (%v)", b, err)
		return nil
	}
	w.mu.Lock()
	w.trades = append(w.trades, ackedTrade{id: tr.Data.ID, executions: tr.Data.Executions, fills: n, phase: phase})
	w.mu.Unlock()
	w.acked.Add(1)
	return nil
}

// uploadOne uploads a sample. Most get trailing bytes of their own (a
// comment in a PDF; readers ignore what follows an image's end), so they
// make new blobs; the rest share one blob per sample.
func (w *workload) uploadOne(ctx context.Context, i, j int) error {
	s := w.samples[(i+j/2)%len(w.samples)]
	content := s.content
	if j%3 != 0 {
		content = append(bytes.Clone(content), fmt.Sprintf("\n%% writer %d upload %d %d\n", i, j, time.Now().UnixNano())...)
	}
	status, b, err := w.c.upload(ctx, w.account, s.name, content)
	if err != nil {
		return err
	}
	if status == http.StatusServiceUnavailable {
		return nil // too many uploads at once: not acknowledged, nothing stored
	}
	if status != http.StatusCreated {
		w.t.Errorf("upload %s: got %d %s, want 201", s.name, status, b)
		return nil
	}
	phase := w.phase.Load()
	var d struct {
		Data struct {
			ID          string
			DocumentURL string `json:"document_url"`
		}
	}
	if err := json.Unmarshal(b, &d); err != nil || d.Data.ID == "" {
		w.t.Errorf("upload: answer %s (%v)", b, err)
		return nil
	}
	w.mu.Lock()
	w.docs = append(w.docs, ackedDoc{id: d.Data.ID, url: d.Data.DocumentURL, base: w.c.base, content: content, phase: phase})
	w.mu.Unlock()
	w.acked.Add(1)
	return nil
}

// waitAcked waits until the workload has n acknowledged writes, failing
// the test if its writers all stopped first.
func (w *workload) waitAcked(t *testing.T, n int64) {
	t.Helper()
	for range 3000 { // a safety net only
		if w.acked.Load() >= n {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("the workload made %d acknowledged writes, want %d", w.acked.Load(), n)
}

// snapshot copies the acknowledged writes.
func (w *workload) snapshot() ([]ackedTrade, []ackedDoc) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]ackedTrade(nil), w.trades...), append([]ackedDoc(nil), w.docs...)
}

// rebase moves a document_url from the server at from to the one at to.
func rebase(t *testing.T, link, from, to string) string {
	t.Helper()
	rest, ok := strings.CutPrefix(link, from+"/")
	if !ok {
		t.Fatalf("document_url %s is not on %s", link, from)
	}
	return to + "/" + rest
}

// checkTradeWhole reads an acknowledged trade from c and fails unless it is
// there with exactly the executions its 201 answered.
func checkTradeWhole(t *testing.T, c *apiClient, tr ackedTrade) []byte {
	t.Helper()
	status, b, err := c.json(t.Context(), "GET", "/api/v1/trades/"+tr.id, "")
	if err != nil || status != http.StatusOK {
		t.Errorf("acknowledged trade %s: got %d %s (%v), want 200", tr.id, status, b, err)
		return nil
	}
	var got struct {
		Data struct{ Executions json.RawMessage }
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	var fills []json.RawMessage
	json.Unmarshal(got.Data.Executions, &fills)
	if len(fills) != tr.fills || !jsonEqual(got.Data.Executions, tr.executions) {
		t.Errorf("acknowledged trade %s: executions %s, want the %d answered: %s", tr.id, got.Data.Executions, tr.fills, tr.executions)
	}
	return b
}

// checkDocWhole downloads an acknowledged document through its signed link,
// rebased onto the server at base, and fails unless it is byte-identical.
func checkDocWhole(t *testing.T, base string, d ackedDoc) {
	t.Helper()
	link := rebase(t, d.url, d.base, base)
	status, b, err := newAPIClient(base, "").do(t.Context(), "GET", link, nil, "")
	if err != nil || status != http.StatusOK || !bytes.Equal(b, d.content) {
		t.Errorf("acknowledged document %s: download got %d, %d bytes (%v), want 200 and the %d uploaded",
			d.id, status, len(b), err, len(d.content))
	}
}

// jsonEqual compares two JSON texts as values.
func jsonEqual(a, b []byte) bool {
	var x, y bytes.Buffer
	if json.Compact(&x, a) != nil || json.Compact(&y, b) != nil {
		return false
	}
	return bytes.Equal(x.Bytes(), y.Bytes())
}

// openSQL opens a data directory's database for plain SQL.
func openSQL(t *testing.T, dir string) *sql.DB {
	t.Helper()
	u := url.URL{Scheme: "file", Path: filepath.Join(dir, "journal.db"), RawQuery: "_pragma=busy_timeout(10000)"}
	d, err := sql.Open("sqlite", u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// count runs a query of one number.
func count(t *testing.T, d *sql.DB, query string) int {
	t.Helper()
	var n int
	if err := d.QueryRowContext(t.Context(), query).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// checkNoPartialTrades fails if the database at dir holds a trade without
// its executions, or with another number of them than it was created with
// (every trade of a workload has 2 to 4, told by its symbol).
func checkNoPartialTrades(t *testing.T, dir string) {
	t.Helper()
	d := openSQL(t, dir)
	if n := count(t, d, `SELECT count(*) FROM trades t WHERE NOT EXISTS (SELECT 1 FROM executions e WHERE e.trade_id = t.id)`); n != 0 {
		t.Errorf("%s: %d trade(s) without executions", dir, n)
	}
	if n := count(t, d, `SELECT count(*) FROM trades t WHERE (SELECT count(*) FROM executions e WHERE e.trade_id = t.id) !=
		CASE t.symbol WHEN 'AAPL' THEN 2 WHEN 'MSFT' THEN 3 WHEN 'NVDA' THEN 4 END`); n != 0 {
		t.Errorf("%s: %d trade(s) with some of their executions missing", dir, n)
	}
}
