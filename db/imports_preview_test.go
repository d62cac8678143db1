package db

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"tradejournal/db/brokers"
)

// TestDryRunCountsEveryTrade: a dry run writes only the trades it
// previews, yet answers what the import then does: the same fills,
// duplicates, trades created and continued, warnings and accounts.
// The file repeats the two buys an earlier import left open (duplicates),
// closes that trade (continued), then opens 150 more, the last left open.
func TestDryRunCountsEveryTrade(t *testing.T) {
	d := newTestDB(t)
	userID, accountID := newTradeFixture(t, d)
	ctx := context.Background()
	read := func(b []byte) *brokers.File {
		t.Helper()
		f, err := brokers.Read(bytes.NewReader(b), brokers.Options{Location: time.UTC})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	if _, err := d.Import(ctx, userID, ImportInput{File: read(genericFile(1, 2)), Timezone: "UTC"}); err != nil {
		t.Fatal(err)
	}
	before := tradeRows(t, d)
	file := genericFile(1, 4*151+2)

	dry, err := d.Import(ctx, userID, ImportInput{File: read(file), Timezone: "UTC", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := tradeRows(t, d); n != before {
		t.Errorf("trades after the dry run: %d, want %d", n, before)
	}
	real, err := d.Import(ctx, userID, ImportInput{File: read(file), Timezone: "UTC"})
	if err != nil {
		t.Fatal(err)
	}
	if dry.ID != nil || dry.Fills != real.Fills || dry.Duplicates != 2 || real.Duplicates != 2 ||
		dry.TradesCreated != 151 || real.TradesCreated != 151 || dry.TradesUpdated != 1 || real.TradesUpdated != 1 ||
		!slices.Equal(dry.Warnings, real.Warnings) || !slices.Equal(dry.AccountIDs, []string{accountID}) ||
		!slices.Equal(real.AccountIDs, dry.AccountIDs) {
		t.Errorf("dry run %+v\nimport  %+v\nwant the same counts: 2 duplicates, 151 trades created, 1 continued", dry, real)
	}
	if len(dry.Trades) != maxPreview || len(dry.Trades[0].Executions) != 4 || dry.Trades[maxPreview-1].Status == "open" {
		t.Errorf("preview: %d trades, the first with %d fills; want %d, the continued one first with 4", len(dry.Trades),
			len(dry.Trades[0].Executions), maxPreview)
	}
	if n := tradeRows(t, d); n != before+151 {
		t.Errorf("trades after the import: %d, want %d", n, before+151)
	}
}

func tradeRows(t *testing.T, d *DB) int {
	t.Helper()
	var n int
	if err := d.write.QueryRow(`SELECT count(*) FROM trades`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
