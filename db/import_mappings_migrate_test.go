package db

import (
	"reflect"
	"slices"
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
		slices.Concat(oldAlice(at), oldGenericImport(at), oldImportedTrade(at, "G1", "G2"))...)
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
