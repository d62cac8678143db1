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
		slices.Concat(oldAlice(at), []string{
			`INSERT INTO imports (id, user_id, format, file_name, timezone, account_ids, rows, fills, skipped, duplicates,
			trades_created, trades_updated, warnings, created_at)
			VALUES ('i1', 'u1', 'tradovate_orders', 'Orders.csv', 'America/New_York', '["a1"]', 3, 2, 1, 0, 1, 0,
			'["a warning"]', ` + at + `)`,
		}, oldImportedTrade(at, "310001", "310002"))...)
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
