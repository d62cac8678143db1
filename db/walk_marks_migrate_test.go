package db

import (
	"slices"
	"testing"
)

// TestMigrateWalkMarks: a journal of schema 15 opens under 16 with its
// import, trade, fills and stale day whole; its account's status reads
// them; settling records the day's generation; and a fill changed
// afterwards by another connection marks the trade's entry day, so the
// status after it has the new price.
func TestMigrateWalkMarks(t *testing.T) {
	const at = `'2025-12-01T00:00:00.000Z'`
	path := oldJournal(t, 15,
		slices.Concat(oldAlice(at), oldGenericImport(at), oldImportedTrade(at, "G1", "G2"))...)
	d, err := Open(t.Context(), path)
	if err != nil {
		t.Fatalf("Open migrates: %v", err)
	}
	defer d.Close()
	ctx := t.Context()
	var trades, fills, imports int
	if err := d.read.QueryRow(`SELECT (SELECT count(*) FROM trades), (SELECT count(*) FROM executions),
		(SELECT count(*) FROM imports)`).Scan(&trades, &fills, &imports); err != nil {
		t.Fatal(err)
	}
	if trades != 1 || fills != 2 || imports != 1 {
		t.Fatalf("after migrating: %d trades, %d fills, %d imports; want 1, 2, 1", trades, fills, imports)
	}
	// MNQ at 2 a point: 10 points long is +20.
	s, err := d.AccountStatus(ctx, "u1", "a1")
	if err != nil {
		t.Fatal(err)
	}
	if s.RealizedPnL != 20 || s.TradingDays != 1 {
		t.Fatalf("status: realised %v over %d days, want 20 over 1", s.RealizedPnL, s.TradingDays)
	}
	if err := d.SettleDays(ctx); err != nil {
		t.Fatal(err)
	}
	var day string
	var gen int64
	if err := d.read.QueryRow(`SELECT day, gen FROM trade_days_settled WHERE user_id = 'u1'`).Scan(&day, &gen); err != nil ||
		day != "2025-12-01" || gen != 1 {
		t.Fatalf("settled %q in generation %d (%v), want 2025-12-01 in 1", day, gen, err)
	}
	if _, err := d.AccountStatus(ctx, "u1", "a1"); err != nil {
		t.Fatal(err)
	}
	// The exit 5 points higher: 15 points, +30.
	if _, err := d.write.Exec(`UPDATE executions SET price = 21015 WHERE id = 'e2'`); err != nil {
		t.Fatal(err)
	}
	if s, err = d.AccountStatus(ctx, "u1", "a1"); err != nil {
		t.Fatal(err)
	}
	if s.RealizedPnL != 30 {
		t.Fatalf("status after the fill moved: realised %v, want 30", s.RealizedPnL)
	}
}
