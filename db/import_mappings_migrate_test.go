package db

import (
	"reflect"
	"testing"

	"tradejournal/db/brokers"
)

// TestMigrateImportMappings: a journal of schema 10 opens under 11 with its
// imports, accounts, trades and fills whole; its imports read with
// mapping_id null, and mappings can then be made, read by an import, and
// deleted, leaving the import.
func TestMigrateImportMappings(t *testing.T) {
	const at = `'2025-12-01T00:00:00.000Z'`
	path := oldJournal(t, 10,
		`INSERT INTO users (id, name, created_at) VALUES ('u1', 'alice', `+at+`)`,
		`INSERT INTO accounts (id, user_id, name, account_number, account_type, broker, created_at, updated_at)
			VALUES ('a1', 'u1', 'TV-1001', 'TV-1001', 'retail', 'Tradovate', `+at+`, `+at+`)`,
		`INSERT INTO imports (id, user_id, format, file_name, timezone, account_ids, unknown_accounts, rows, fills, skipped,
			duplicates, trades_created, trades_updated, warnings, created_at)
			VALUES ('i1', 'u1', 'generic', 'fills.csv', 'America/New_York', '["a1"]', '["TV-1001"]', 2, 2, 0, 0, 1, 0,
			'[]', `+at+`)`,
		`INSERT INTO import_accounts (import_id, account_id) VALUES ('i1', 'a1')`,
		`INSERT INTO trades (id, user_id, account_id, symbol, root, side, quantity, entry_price, exit_price, entry_date,
			entry_time, exit_date, exit_time, gross_pnl, net_pnl, total_commission, status, asset_class, point_value,
			created_at, updated_at, day, hold_seconds)
			VALUES ('t1', 'u1', 'a1', 'MNQZ5', 'MNQ', 'long', 1, 21000, 21010, '2025-12-01', '09:31:00', '2025-12-01',
			'09:45:00', 20, 20, 0, 'win', 'futures', 2, `+at+`, `+at+`, '2025-12-01', 840)`,
		`INSERT INTO executions (id, trade_id, position, side, price, quantity, commission, execution_date, execution_time,
			execution_type, execution_timestamp, source_id, import_id) VALUES
			('e1', 't1', 0, 'buy', 21000, 1, 0, '2025-12-01', '09:31:00', 'scale_in', '2025-12-01T14:31:00+00:00', 'G1', 'i1'),
			('e2', 't1', 1, 'sell', 21010, 1, 0, '2025-12-01', '09:45:00', 'scale_out', '2025-12-01T14:45:00+00:00', 'G2', 'i1')`,
	)
	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open migrates: %v", err)
	}
	defer d.Close()
	ctx := t.Context()
	imp, err := d.ImportRecord(ctx, "u1", "i1")
	if err != nil {
		t.Fatal(err)
	}
	id := "i1"
	want := Import{ID: &id, Format: "generic", FileName: "fills.csv", Timezone: "America/New_York",
		AccountIDs: []string{"a1"}, UnknownAccounts: []string{"TV-1001"}, Rows: 2, Fills: 2, TradesCreated: 1,
		Warnings: []string{}, CreatedAt: "2025-12-01T00:00:00.000Z"}
	if !reflect.DeepEqual(imp, want) {
		t.Errorf("import after migrating\n got %+v\nwant %+v", imp, want)
	}
	tr, err := d.Trade(ctx, "u1", "t1")
	if err != nil || tr.NetPnL != 20 || len(tr.Executions) != 2 || *tr.Executions[0].importID != "i1" {
		t.Errorf("trade after migrating: %v %+v", err, tr)
	}
	if problems, err := d.IntegrityCheck(ctx); err != nil || len(problems) > 0 {
		t.Errorf("IntegrityCheck after migrating: %q, %v", problems, err)
	}
	symbol, side, qty, price, stamp := "S", "D", "Q", "P", "T"
	m, err := d.CreateImportMapping(ctx, "u1", ImportMappingInput{Name: Some("m"),
		Columns: Some(brokers.MappingColumns{Timestamp: &stamp, Symbol: &symbol, Side: &side, Quantity: &qty, Price: &price})})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.write.ExecContext(ctx, `UPDATE imports SET mapping_id = ? WHERE id = 'i1'`, m.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := d.DeleteImportMapping(ctx, "u1", m.ID); err != nil {
		t.Fatal(err)
	}
	if imp, err := d.ImportRecord(ctx, "u1", "i1"); err != nil || imp.MappingID != nil {
		t.Errorf("the import after its mapping went: %v %+v", err, imp)
	}
}
