package server_test

import (
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
	"tradejournal/internal/testkit"
)

// postFills posts a body to /fills.
func (e *tradeEnv) postFills(t testing.TB, key, body string) (int, string) {
	t.Helper()
	status, b := e.do(t, "POST", "/api/v1/fills", key, body)
	return status, string(b)
}

// fillsBody is a post into the env's account; zone "" leaves timezone out.
func (e *tradeEnv) fillsBody(zone string, fills ...string) string {
	tz := ""
	if zone != "" {
		tz = fmt.Sprintf(`"timezone": %q, `, zone)
	}
	return fmt.Sprintf(`{"account_id": %q, %s"fills": [%s]}`, e.accountID, tz, strings.Join(fills, ", "))
}

// apiFill is one fill of a post; commission "" leaves it out.
func apiFill(id, symbol, side string, quantity, price float64, commission, timestamp string) string {
	c := ""
	if commission != "" {
		c = `, "commission": ` + commission
	}
	return fmt.Sprintf(`{"exec_id": %q, "symbol": %q, "side": %q, "quantity": %v, "price": %v%s, "timestamp": %q}`,
		id, symbol, side, quantity, price, c, timestamp)
}

// wantRows fails unless query's rows, each as its columns joined by " ",
// are want.
func (e *tradeEnv) wantRows(t *testing.T, query string, want ...string) {
	t.Helper()
	rows, err := e.sql(t).Query(query)
	if err != nil {
		t.Fatal(err)
	}
	_, values := testkit.Rows(t, rows)
	var got []string
	for _, vals := range values {
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = fmt.Sprint(v)
		}
		got = append(got, strings.Join(parts, " "))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n got %q\nwant %q", query, got, want)
	}
}

// TestFillsPost: fills from a script are one Import of format api without a
// file name; the same fills again write nothing and answer 200 with id
// null; a post that overlaps writes only its new fills.
func TestFillsPost(t *testing.T) {
	e := newTradeEnv(t)
	e.pinClock(t0)
	n := 0
	e.db.NewID = func() string {
		n++
		return fmt.Sprintf("01940000-0000-7000-8000-%012d", n)
	}
	// 2025-11-12: New York at -05:00, Chicago at -06:00. The second fill
	// has no offset: 09:06:10 in Chicago is 15:06:10 UTC, 10:06:10 in New York.
	body := e.fillsBody("America/Chicago",
		apiFill("F1", "MNQZ5", "buy", 1, 21000.25, "0.62", "2025-11-12T10:05:30-05:00"),
		apiFill("F2", "MNQZ5", "buy", 1, 21004.75, "0.62", "2025-11-12T09:06:10"),
		apiFill("F3", "MNQZ5", "sell", 2, 21010.5, "1.24", "2025-11-12T15:20:00Z"))
	status, b := e.postFills(t, e.key, body)
	want := fmt.Sprintf(`{"data":{"id":"01940000-0000-7000-8000-000000000001","format":"api","mapping_id":null,"file_name":null,`+
		`"timezone":"America/Chicago","account_ids":[%q],"unknown_accounts":[],"rows":3,"fills":3,"skipped":0,"duplicates":0,`+
		`"trades_created":1,"trades_updated":0,"warnings":[],"created_at":"2026-02-05T15:17:54.123Z"}}`+"\n", e.accountID)
	if status != http.StatusCreated || b != want {
		t.Fatalf("POST /fills: %d %s\nwant 201 %s", status, b, want)
	}
	e.wantRows(t, `SELECT format, file_name, timezone, rows, fills, duplicates FROM imports`,
		"api  America/Chicago 3 3 0")
	e.wantRows(t, `SELECT source_id, import_id, side, quantity, price, commission, execution_timestamp FROM executions ORDER BY execution_timestamp`,
		"F1 01940000-0000-7000-8000-000000000001 buy 1 21000.25 0.62 2025-11-12T15:05:30+00:00",
		"F2 01940000-0000-7000-8000-000000000001 buy 1 21004.75 0.62 2025-11-12T15:06:10+00:00",
		"F3 01940000-0000-7000-8000-000000000001 sell 2 21010.5 1.24 2025-11-12T15:20:00+00:00")
	checkTrades(t, e.tradesOf(t, e.key, ""), []tradeWant{
		// (21010.50 - 21000.25) + (21010.50 - 21004.75) = 16 points x 2 = 32; 0.62 + 0.62 + 1.24 = 2.48.
		{"long", 2, 21002.5, 21010.5, 32, 2.48, 29.52, "win", "2025-11-12 10:05:30", "2025-11-12 10:20:00"},
	})

	// The same fills again (a script retrying): nothing written, not even
	// the Import.
	status, b = e.postFills(t, e.key, body)
	want = fmt.Sprintf(`{"data":{"id":null,"format":"api","mapping_id":null,"file_name":null,"timezone":"America/Chicago","account_ids":[%q],`+
		`"unknown_accounts":[],"rows":3,"fills":3,"skipped":0,"duplicates":3,"trades_created":0,"trades_updated":0,`+
		`"warnings":[],"created_at":"2026-02-05T15:17:54.123Z"}}`+"\n", e.accountID)
	if status != http.StatusOK || b != want {
		t.Fatalf("the same fills again: %d %s\nwant 200 %s", status, b, want)
	}
	e.wantRows(t, `SELECT count(*), (SELECT count(*) FROM executions), (SELECT count(*) FROM trades) FROM imports`, "1 3 1")

	// One known fill and two new ones: the new are written, the known counted.
	status, b = e.postFills(t, e.key, e.fillsBody("",
		apiFill("F3", "MNQZ5", "sell", 2, 21010.5, "1.24", "2025-11-12T15:20:00Z"),
		apiFill("F4", "MNQZ5", "sell", 1, 21020, "", "2025-11-12T10:30:00"),
		apiFill("F5", "MNQZ5", "buy", 1, 21015, "", "2025-11-12T10:35:00")))
	if status != http.StatusCreated || !strings.Contains(b, `"id":"01940000-0000-7000-8000-`) ||
		!strings.Contains(b, `"timezone":"America/New_York",`) || // the user's
		!strings.Contains(b, `"rows":3,"fills":3,"skipped":0,"duplicates":1,"trades_created":1,"trades_updated":0,`) {
		t.Fatalf("overlapping post: %d %s", status, b)
	}
	e.wantRows(t, `SELECT source_id, execution_timestamp FROM executions WHERE source_id IN ('F4', 'F5') ORDER BY source_id`,
		"F4 2025-11-12T15:30:00+00:00", "F5 2025-11-12T15:35:00+00:00")
	e.wantRows(t, `SELECT count(*), (SELECT count(*) FROM executions), (SELECT count(*) FROM trades) FROM imports`, "2 5 2")
	checkTrades(t, e.tradesOf(t, e.key, "")[1:], []tradeWant{
		// Short 1 at 21020 covered at 21015: 5 points x 2 = 10; no commission given, no schedule.
		{"short", 1, 21020, 21015, 10, 0, 10, "win", "2025-11-12 10:30:00", "2025-11-12 10:35:00"},
	})
	if status, b := e.do(t, "GET", "/api/v1/imports", e.key, ""); status != 200 || strings.Count(string(b), `"format":"api"`) != 2 {
		t.Errorf("the import history: %d %s, want the two posts that wrote", status, b)
	}
}

// TestFillsContinueAndSchedule: a position opened by one post is
// continued by the next; a fill without a commission pays the account's
// schedule, one with 0 pays 0; undoing the second post reopens the trade,
// and the same post then imports again.
func TestFillsContinueAndSchedule(t *testing.T) {
	e := newTradeEnv(t)
	if status, b := e.do(t, "PUT", "/api/v1/accounts/"+e.accountID, e.key, `{"commission_schedule":{"MNQ":0.5}}`); status != 200 {
		t.Fatalf("schedule: %d %s", status, b)
	}
	status, b := e.postFills(t, e.key, e.fillsBody("", apiFill("E1", "MNQZ5", "buy", 2, 21000, "", "2025-11-12T15:55:00-05:00")))
	if status != http.StatusCreated || !strings.Contains(b, `"trades_created":1,"trades_updated":0`) {
		t.Fatalf("first post: %d %s", status, b)
	}
	second := e.fillsBody("",
		`{"exec_id": "E2", "symbol": "MNQZ5", "side": "sell", "quantity": 1, "price": 21010, "commission": null, "timestamp": "2025-11-13T09:35:00-05:00"}`,
		apiFill("E3", "MNQZ5", "sell", 1, 21020, "0", "2025-11-13T09:40:00-05:00"))
	status, b = e.postFills(t, e.key, second)
	if status != http.StatusCreated || !strings.Contains(b, `"trades_created":0,"trades_updated":1`) {
		t.Fatalf("second post: %d %s", status, b)
	}
	checkTrades(t, e.tradesOf(t, e.key, ""), []tradeWant{
		// (21010 - 21000) x 1 x 2 + (21020 - 21000) x 1 x 2 = 20 + 40 = 60;
		// the schedule's 2 x 0.50 = 1.00 on E1 and 0.50 on E2 (null), E3's own 0.
		{"long", 2, 21000, 21015, 60, 1.5, 58.5, "win", "2025-11-12 15:55:00", "2025-11-13 09:40:00"},
	})
	e.wantRows(t, `SELECT source_id, commission FROM executions ORDER BY source_id`, "E1 1", "E2 0.5", "E3 0")

	id := regexp.MustCompile(`"id":"([0-9a-f-]{36})"`).FindStringSubmatch(b)[1]
	if status, b := e.do(t, "DELETE", "/api/v1/imports/"+id, e.key, ""); status != 200 {
		t.Fatalf("undo: %d %s", status, b)
	}
	got := e.tradesOf(t, e.key, "")
	if len(got) != 1 || got[0].Status != "open" || got[0].TotalCommission != 1 || got[0].ExitPrice != nil {
		t.Errorf("after undo: %+v, want the open trade of the first post", got)
	}
	if status, b := e.postFills(t, e.key, second); status != http.StatusCreated || !strings.Contains(b, `"duplicates":0,"trades_created":0,"trades_updated":1`) {
		t.Errorf("the second post after its undo: %d %s", status, b)
	}
}

// TestFillsBadInput: every bad field is a 400 naming it, fills by their
// place from 0, and nothing is written.
func TestFillsBadInput(t *testing.T) {
	e := newTradeEnv(t)
	good := apiFill("G1", "MNQZ5", "buy", 1, 21000, "", "2025-11-12T10:05:30-05:00")
	for _, c := range []struct {
		name, body, details string
	}{
		{"empty object", `{}`, `{"account_id":"account_id is required","fills":"fills must hold 1 to 10000 fills"}`},
		{"no fills", fmt.Sprintf(`{"account_id": %q, "fills": []}`, e.accountID), `{"fills":"fills must hold 1 to 10000 fills"}`},
		{"null fills", fmt.Sprintf(`{"account_id": %q, "fills": null}`, e.accountID), `{"fills":"fills must hold 1 to 10000 fills"}`},
		{"fills not an array", fmt.Sprintf(`{"account_id": %q, "fills": {"exec_id": "x"}}`, e.accountID), `{"fills":"fills must be an array"}`},
		{"malformed account", `{"account_id": "acct-1", "fills": [` + good + `]}`, `{"account_id":"account_id must be a UUID"}`},
		{"account not a string", `{"account_id": 7, "fills": [` + good + `]}`, `{"account_id":"account_id must be a string"}`},
		{"bad zone", e.fillsBody("Mars/Olympus", good), `{"timezone":"timezone must be an IANA zone name such as America/New_York"}`},
		{"fill not an object", e.fillsBody("", good, `"F2"`), `{"fills[1]":"fills[1] must be an object"}`},
		{"wrong type", e.fillsBody("", good, good, `{"exec_id": "W", "symbol": "MNQZ5", "side": "buy", "quantity": "1", "price": 1, "timestamp": "2025-11-12T10:05:30Z"}`),
			`{"fills[2].quantity":"fills[2].quantity must be a number"}`},
		{"name in the wrong case", e.fillsBody("", `{"Exec_ID": "W", "symbol": "MNQZ5", "side": "buy", "quantity": 1, "price": 1, "timestamp": "2025-11-12T10:05:30Z"}`),
			`{"fills[0].Exec_ID":"fills[0].Exec_ID is not a field: names are case-sensitive (did you mean exec_id?)"}`},
		{"every field missing", e.fillsBody("", good, `{}`), `{"fills[1].exec_id":"fills[1].exec_id is required",` +
			`"fills[1].price":"fills[1].price must be a positive number","fills[1].quantity":"fills[1].quantity must be a positive number",` +
			`"fills[1].side":"fills[1].side is required","fills[1].symbol":"fills[1].symbol is required","fills[1].timestamp":"fills[1].timestamp is required"}`},
		{"bad numbers", e.fillsBody("", good, apiFill("B", "MNQZ5", "sell", -1, 0, "-0.5", "2025-11-12T10:05:30Z")),
			`{"fills[1].commission":"fills[1].commission must be zero or more","fills[1].price":"fills[1].price must be a positive number",` +
				`"fills[1].quantity":"fills[1].quantity must be a positive number"}`},
		{"timestamp not RFC 3339", e.fillsBody("", good, apiFill("B", "MNQZ5", "sell", 1, 1, "", "11/12/2025 10:05:30")),
			`{"fills[1].timestamp":"fills[1].timestamp must be RFC 3339 with an offset (2025-11-12T10:05:30-05:00) or a local time (2025-11-12T10:05:30) read in timezone"}`},
		{"blank exec_id", e.fillsBody("", apiFill(" ", "MNQZ5", "sell", 1, 1, "", "2025-11-12T10:05:30Z")), `{"fills[0].exec_id":"fills[0].exec_id is required"}`},
		// Read by the generic format: its words for a side, and a local
		// time the clocks skip (02:30 on 2025-03-09 in New York).
		{"side the format does not read", e.fillsBody("", good, good, apiFill("S", "MNQZ5", "sideways", 1, 1, "", "2025-11-12T10:05:30Z")),
			`{"fills[2].side":"fills[2].side must be Buy or Sell (or B/S, Bid/Ask)"}`},
		// An exec_id holding a line break spans two lines of the file the
		// fills are read as: the next fill is still fills[1].
		{"after a fill of two lines", e.fillsBody("", apiFill("two\nlines", "MNQZ5", "buy", 1, 1, "", "2025-11-12T10:05:30Z"),
			apiFill("S", "MNQZ5", "sideways", 1, 1, "", "2025-11-12T10:05:30Z")),
			`{"fills[1].side":"fills[1].side must be Buy or Sell (or B/S, Bid/Ask)"}`},
		{"a local time that does not exist", e.fillsBody("", apiFill("D", "MNQZ5", "buy", 1, 1, "", "2025-03-09T02:30:00"), good),
			`{"fills[0].timestamp":"fills[0].timestamp does not exist in America/New_York (the clocks jumped over it)"}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, b := e.postFills(t, e.key, c.body)
			want := `{"error":"Validation failed","code":"VALIDATION_ERROR","details":` + c.details + "}\n"
			if status != http.StatusBadRequest || b != want {
				t.Errorf("got %d %s\nwant 400 %s", status, b, want)
			}
		})
	}
	e.wantRows(t, `SELECT (SELECT count(*) FROM imports), (SELECT count(*) FROM executions), (SELECT count(*) FROM trades)`, "0 0 0")
}

// TestFillsLimits: 1 to 10,000 fills, in bodies of up to 8 MiB on this
// route alone.
func TestFillsLimits(t *testing.T) {
	e := newTradeEnv(t)
	fills := make([]string, 10_001)
	start := time.Date(2025, 11, 12, 14, 30, 0, 0, time.UTC)
	for i := range fills {
		side := "buy"
		if i%2 == 1 {
			side = "sell"
		}
		fills[i] = apiFill(fmt.Sprintf("L%05d", i), "MNQZ5", side, 1, 21000+float64(i%7), "0.62", start.Add(time.Duration(i)*time.Second).Format(time.RFC3339))
	}
	status, b := e.postFills(t, e.key, e.fillsBody("", fills...))
	if want := `{"error":"Validation failed","code":"VALIDATION_ERROR","details":{"fills":"fills must hold 1 to 10000 fills"}}` + "\n"; status != 400 || b != want {
		t.Errorf("10,001 fills: %d %s", status, b)
	}
	huge := fmt.Sprintf(`{"account_id": %q, "fills": [%s%s]}`, e.accountID, fills[0], strings.Repeat(" ", 8<<20))
	status, b = e.postFills(t, e.key, huge)
	if want := `{"error":"Request body exceeds the limit of 8 MiB","code":"PAYLOAD_TOO_LARGE"}` + "\n"; status != http.StatusRequestEntityTooLarge || b != want {
		t.Errorf("a body over 8 MiB: %d %s", status, b)
	}
	e.wantRows(t, `SELECT (SELECT count(*) FROM imports), (SELECT count(*) FROM executions)`, "0 0")

	// 10,000 fills, a body well over the 1 MiB of other routes.
	body := e.fillsBody("", fills[:10_000]...)
	if len(body) <= 1<<20 {
		t.Fatalf("the body of 10,000 fills is %d bytes, meant to be over 1 MiB", len(body))
	}
	status, b = e.postFills(t, e.key, body)
	if status != http.StatusCreated || !strings.Contains(b, `"rows":10000,"fills":10000,"skipped":0,"duplicates":0,"trades_created":5000,`) {
		t.Errorf("10,000 fills: %d %.300s", status, b)
	}
	e.wantRows(t, `SELECT count(*), sum(commission) FROM executions`, "10000 6200")
}

// TestFillsAccount: the account must be the caller's; a key needs
// trades:write.
func TestFillsAccount(t *testing.T) {
	e := newTradeEnv(t)
	_, bob := e.newUser(t, "bob")
	good := apiFill("G1", "MNQZ5", "buy", 1, 21000, "", "2025-11-12T10:05:30-05:00")
	notFound := `{"error":"Account not found","code":"NOT_FOUND","details":{"account_id":"Account not found"}}` + "\n"
	if status, b := e.postFills(t, bob, e.fillsBody("", good)); status != http.StatusNotFound || b != notFound {
		t.Errorf("bob posting into alice's account: %d %s", status, b)
	}
	unknown := fmt.Sprintf(`{"account_id": %q, "fills": [%s]}`, "0193f3c4-0000-7000-8000-000000000000", good)
	if status, b := e.postFills(t, e.key, unknown); status != http.StatusNotFound || b != notFound {
		t.Errorf("an unknown account: %d %s", status, b)
	}
	_, reader := e.newKey(t, "alice", "read", false)
	if status, b := e.postFills(t, reader, e.fillsBody("", good)); status != http.StatusForbidden ||
		b != `{"error":"This API key lacks the trades:write scope","code":"FORBIDDEN"}`+"\n" {
		t.Errorf("a read-only key: %d %s", status, b)
	}
	e.wantRows(t, `SELECT (SELECT count(*) FROM imports), (SELECT count(*) FROM executions)`, "0 0")
}

// TestFillsReadmeExample: the fill the README's script posts is one this
// route takes, and takes once.
func TestFillsReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^fill = (\{.*\})$`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no line `fill = {...}` in its example")
	}
	e := newTradeEnv(t)
	body := e.fillsBody("", string(m[1]))
	if status, b := e.postFills(t, e.key, body); status != http.StatusCreated || !strings.Contains(b, `"fills":1,"skipped":0,"duplicates":0,"trades_created":1`) {
		t.Errorf("the README's fill: %d %s", status, b)
	}
	if status, b := e.postFills(t, e.key, body); status != http.StatusOK || !strings.Contains(b, `"id":null`) {
		t.Errorf("the README's fill again: %d %s", status, b)
	}
}
