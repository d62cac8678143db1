package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportWhileServing: tradejournal import writes into a journal that
// serve has open, prints each file's summary, and the API reads the trades;
// a file with a bad row is refused by line and column, nothing written,
// and the command exits non-zero.
func TestImportWhileServing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	mustRun(t, "user", "add", "alice", "--data", dir)
	key := lastLine(mustRun(t, "key", "create", "--user", "alice", "--data", dir))
	srv := startServe(t, dir)
	defer srv.stop()
	if status, body := call(t, "POST", srv.base+"/api/v1/accounts", key, `{"account_number":"APEX-1"}`); status != 201 {
		t.Fatalf("account: %d %s", status, body)
	}

	good := filepath.Join(t.TempDir(), "good.csv")
	bad := filepath.Join(t.TempDir(), "bad.csv")
	const header = "account_number,symbol,side,quantity,price,commission,timestamp,exec_id\n"
	os.WriteFile(good, []byte(header+
		"APEX-1,MNQZ5,buy,1,21000,0.62,2025-12-01T09:31:00-05:00,G1\n"+
		"APEX-1,MNQZ5,sell,1,21010,0.62,2025-12-01T09:40:00-05:00,G2\n"), 0o600)
	os.WriteFile(bad, []byte(header+"APEX-1,MNQZ5,hold,1,21000,0.62,2025-12-01T09:31:00-05:00,B1\n"), 0o600)

	out := mustRun(t, "import", "--user", "alice", "--dry-run", good, "--data", dir)
	if !strings.Contains(out, "good.csv: generic (dry run, nothing written): 2 rows, 2 fills, 0 skipped, 0 duplicates; 1 trades created, 0 continued") {
		t.Errorf("dry run printed:\n%s", out)
	}
	out = mustRun(t, "import", "--user", "alice", good, "--data", dir)
	if !strings.Contains(out, "2 rows, 2 fills, 0 skipped, 0 duplicates; 1 trades created") {
		t.Errorf("import printed:\n%s", out)
	}
	status, body := call(t, "GET", srv.base+"/api/v1/trades", key, "")
	if status != 200 || !strings.Contains(string(body), `"net_pnl":18.76`) || !strings.Contains(string(body), `"total":1`) {
		t.Errorf("trades after the import: %d %s", status, body)
	}

	out, err := run(t, "import", "--user", "alice", good, bad, "--data", dir)
	if err == nil || !strings.Contains(out, "2 duplicates") || !strings.Contains(out, "line 2, side: side must be Buy or Sell") {
		t.Errorf("good again and bad: err %v, printed:\n%s", err, out)
	}
	if _, err := run(t, "import", "--user", "nobody", good, "--data", dir); err == nil {
		t.Errorf("unknown user: no error")
	}

	// --format auto tries the user's column mappings after the formats;
	// the mapping's zone (Berlin: 15:31 is 09:31 in New York) is the
	// import's.
	if status, body := call(t, "POST", srv.base+"/api/v1/import-mappings", key, `{"name": "Quantower",
		"columns": {"date": "Date", "time": "Time", "symbol": "Symbol", "side": "Side", "quantity": "Quantity",
		"price": "Price", "exec_id": "Trade ID"}, "date_order": "dmy", "decimal": "comma", "timezone": "Europe/Berlin"}`); status != 201 {
		t.Fatalf("mapping: %d %s", status, body)
	}
	mapped := filepath.Join(t.TempDir(), "quantower.csv")
	os.WriteFile(mapped, []byte("Date;Time;Symbol;Side;Quantity;Price;Trade ID\n"+
		"03.12.2025;15:31:05;MNQZ5;Buy;1;21.000,25;Q-1\n03.12.2025;15:40:00;MNQZ5;Sell;1;21.010,50;Q-2\n"), 0o600)
	out = mustRun(t, "import", "--user", "alice", "--account", "APEX-1", mapped, "--data", dir)
	if !strings.Contains(out, "quantower.csv: mapping (import ") || !strings.Contains(out, "2 rows, 2 fills, 0 skipped") {
		t.Errorf("mapped import printed:\n%s", out)
	}
	if status, body := call(t, "GET", srv.base+"/api/v1/imports?limit=1", key, ""); status != 200 ||
		!strings.Contains(string(body), `"format":"mapping"`) || !strings.Contains(string(body), `"timezone":"Europe/Berlin"`) {
		t.Errorf("the mapped import: %d %s", status, body)
	}
}
