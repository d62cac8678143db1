package db

import (
	"slices"
	"strings"
	"testing"
	"time"

	"tradejournal/db/brokers"
)

// TestHeldElsewherePlan: the lookup of fills from other sources reads the
// executions by their time index, one probe a second the file names, never
// a scan of every fill.
func TestHeldElsewherePlan(t *testing.T) {
	d := newTestDB(t)
	rows, err := d.write.Query(`EXPLAIN QUERY PLAN `+heldElsewhereQuery, `[["2025-11-12T15:05:30","2025-11-12T15:05:31"]]`, "u1", "generic", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	text := strings.Join(plan, "\n")
	if !strings.Contains(text, "SEARCH e USING INDEX executions_time (execution_timestamp>? AND execution_timestamp<?)") ||
		strings.Contains(text, "SCAN e") || strings.Contains(text, "SCAN t") {
		t.Errorf("plan:\n%s", text)
	}
}

// TestMigrateExecutionsTime: a journal of schema 10 opens under 12 with its
// trades, fills and imports whole, the fills' time index made, and a file
// of another format holding the same fills finds them there.
func TestMigrateExecutionsTime(t *testing.T) {
	const at = `'2025-12-01T00:00:00.000Z'`
	path := oldJournal(t, 10,
		slices.Concat(oldAlice(at), []string{
			`INSERT INTO imports (id, user_id, format, file_name, timezone, account_ids, unknown_accounts, rows, fills, skipped,
			duplicates, trades_created, trades_updated, warnings, created_at)
			VALUES ('i1', 'u1', 'tradovate_orders', 'Orders.csv', 'America/New_York', '["a1"]', '[]', 2, 2, 0, 0, 1, 0,
			'[]', ` + at + `)`,
		}, oldImportedTrade(at, "310001", "310002"))...)
	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open migrates: %v", err)
	}
	defer d.Close()
	ctx := t.Context()
	var index int
	if err := d.write.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'executions_time'`).Scan(&index); err != nil || index != 1 {
		t.Fatalf("executions_time after migrating: %d %v", index, err)
	}
	imp, err := d.ImportRecord(ctx, "u1", "i1")
	if err != nil || imp.Format != "tradovate_orders" || imp.FileName != "Orders.csv" || imp.Fills != 2 || imp.TradesCreated != 1 {
		t.Errorf("import after migrating: %v %+v", err, imp)
	}
	tr, err := d.Trade(ctx, "u1", "t1")
	if err != nil || tr.NetPnL != 20 || len(tr.Executions) != 2 || tr.Executions[0].sourceID != "310001" ||
		tr.Executions[1].ExecutionTimestamp != "2025-12-01T14:45:00+00:00" {
		t.Errorf("trade after migrating: %v %+v", err, tr)
	}
	if problems, err := d.IntegrityCheck(ctx); err != nil || len(problems) > 0 {
		t.Errorf("IntegrityCheck after migrating: %q, %v", problems, err)
	}

	file, err := brokers.Read(strings.NewReader("account_number,symbol,side,quantity,price,commission,timestamp,exec_id\n"+
		"TV-1001,MNQZ5,buy,1,21000,,2025-12-01T14:31:00Z,G1\nTV-1001,MNQZ5,sell,1,21010,,2025-12-01T14:45:00Z,G2\n"),
		brokers.Options{Location: time.UTC})
	if err != nil {
		t.Fatal(err)
	}
	again, err := d.Import(ctx, "u1", ImportInput{File: file, FileName: "export.csv", Timezone: "UTC"})
	if err != nil || again.Fills != 2 || again.Duplicates != 2 || again.TradesCreated != 0 {
		t.Errorf("the same fills in the generic format: %v %+v, want 2 duplicates", err, again)
	}
}
