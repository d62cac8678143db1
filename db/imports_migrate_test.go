package db

import (
	"reflect"
	"slices"
	"testing"
)

// TestMigrateImportAccounts: a journal of schema 9 opens under 10 with its
// accounts, trades, fills and imports whole; an import made before created
// no account (unknown_accounts []), and undoing it removes its fills and
// trade but never the account they were in.
func TestMigrateImportAccounts(t *testing.T) {
	const at = `'2025-12-01T00:00:00.000Z'`
	path := oldJournal(t, 9,
		`INSERT INTO users (id, name, created_at) VALUES ('u1', 'alice', `+at+`)`,
		`INSERT INTO accounts (id, user_id, name, account_number, account_type, broker, created_at, updated_at)
			VALUES ('a1', 'u1', 'TV-1001', 'TV-1001', 'retail', 'Tradovate', `+at+`, `+at+`)`,
		`INSERT INTO imports (id, user_id, format, file_name, timezone, account_ids, rows, fills, skipped, duplicates,
			trades_created, trades_updated, warnings, created_at)
			VALUES ('i1', 'u1', 'tradovate_orders', 'Orders.csv', 'America/New_York', '["a1"]', 3, 2, 1, 0, 1, 0,
			'["a warning"]', `+at+`)`,
		`INSERT INTO trades (id, user_id, account_id, symbol, root, side, quantity, entry_price, exit_price, entry_date,
			entry_time, exit_date, exit_time, gross_pnl, net_pnl, total_commission, status, asset_class, point_value,
			created_at, updated_at, day, hold_seconds)
			VALUES ('t1', 'u1', 'a1', 'MNQZ5', 'MNQ', 'long', 1, 21000, 21010, '2025-12-01', '09:31:00', '2025-12-01',
			'09:45:00', 20, 20, 0, 'win', 'futures', 2, `+at+`, `+at+`, '2025-12-01', 840)`,
		`INSERT INTO executions (id, trade_id, position, side, price, quantity, commission, execution_date, execution_time,
			execution_type, execution_timestamp, source_id, import_id) VALUES
			('e1', 't1', 0, 'buy', 21000, 1, 0, '2025-12-01', '09:31:00', 'scale_in', '2025-12-01T14:31:00+00:00', '310001', 'i1'),
			('e2', 't1', 1, 'sell', 21010, 1, 0, '2025-12-01', '09:45:00', 'scale_out', '2025-12-01T14:45:00+00:00', '310002', 'i1')`,
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
	want := Import{ID: &id, Format: "tradovate_orders", FileName: "Orders.csv", Timezone: "America/New_York",
		AccountIDs: []string{"a1"}, UnknownAccounts: []string{}, Rows: 3, Fills: 2, Skipped: 1, TradesCreated: 1,
		Warnings: []string{"a warning"}, CreatedAt: "2025-12-01T00:00:00.000Z"}
	if !reflect.DeepEqual(imp, want) {
		t.Errorf("import after migrating\n got %+v\nwant %+v", imp, want)
	}
	tr, err := d.Trade(ctx, "u1", "t1")
	if err != nil || tr.NetPnL != 20 || len(tr.Executions) != 2 || *tr.Executions[1].importID != "i1" ||
		tr.Executions[0].sourceID != "310001" {
		t.Errorf("trade after migrating: %v %+v", err, tr)
	}
	if problems, err := d.IntegrityCheck(ctx); err != nil || len(problems) > 0 {
		t.Errorf("IntegrityCheck after migrating: %q, %v", problems, err)
	}

	undone, err := d.DeleteImport(ctx, "u1", "i1", false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Deleted 2 executions", "Deleted 1 trade"}; !slices.Equal(undone.Warnings, want) {
		t.Errorf("undo's warnings: %q, want %q", undone.Warnings, want)
	}
	if a, err := d.Account(ctx, "u1", "a1"); err != nil || a.AccountNumber != "TV-1001" {
		t.Errorf("the account after undoing an import of schema 9: %v %+v; want it kept", err, a)
	}
}
