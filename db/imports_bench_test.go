package db

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"tradejournal/db/brokers"
)

// genericFile writes n fills of the generic format: MNQ trades of buy 1,
// buy 1, sell 1, sell 1 (4 fills a trade, as the list benchmarks seed),
// a minute apart, in contracts and with ids of run's own.
func genericFile(run, n int) []byte {
	var b bytes.Buffer
	b.WriteString("account_number,symbol,side,quantity,price,commission,timestamp,exec_id\n")
	start := time.Date(2030+run, 1, 2, 14, 30, 0, 0, time.UTC)
	for i := range n {
		side := "buy"
		if i%4 >= 2 {
			side = "sell"
		}
		fmt.Fprintf(&b, "B-1,MNQ%c%d,%s,1,%d.25,0.62,%s,r%d-%d\n", "FGHJKMNQUVXZ"[run%12], i/20000%10, side, 21000+i%50,
			start.Add(time.Duration(i)*time.Minute).Format(time.RFC3339), run, i)
	}
	return b.Bytes()
}

// BenchmarkImport imports 50,000 fills of the generic format into a journal
// that already holds 100,000 trades, beside a raw insert of the same
// number of fill rows in one transaction, and reports fills per second.
func BenchmarkImport(b *testing.B) {
	const fills = 50_000
	d := newTestDB(b)
	userID, accountID := newTradeFixture(b, d)
	seedTrades(b, d, userID, accountID, 100_000)
	ctx := context.Background()

	b.Run("import", func(b *testing.B) {
		run := 0
		for b.Loop() {
			run++
			file, err := brokers.Read(bytes.NewReader(genericFile(run, fills)), brokers.Options{Location: time.UTC})
			if err != nil {
				b.Fatal(err)
			}
			imp, err := d.Import(ctx, userID, ImportInput{File: file, FileName: "bench.csv", Timezone: "UTC"})
			if err != nil {
				b.Fatal(err)
			}
			if imp.Duplicates != 0 || imp.Fills != fills {
				b.Fatalf("import: %+v", imp)
			}
		}
		b.ReportMetric(float64(fills*b.N)/b.Elapsed().Seconds(), "fills/s")
	})

	b.Run("raw", func(b *testing.B) {
		var tradeID string
		if err := d.write.QueryRow(`SELECT id FROM trades LIMIT 1`).Scan(&tradeID); err != nil {
			b.Fatal(err)
		}
		run := 0
		for b.Loop() {
			run++
			tx, err := d.write.Begin()
			if err != nil {
				b.Fatal(err)
			}
			stmt, err := tx.Prepare(`INSERT INTO executions (id, trade_id, position, side, price, quantity, commission,
				execution_date, execution_time, execution_type, execution_timestamp, source_id)
				VALUES (?, ?, ?, 'buy', 21000.25, 1, 0.62, '2030-01-02', '09:30:00', 'scale_in', '2030-01-02T14:30:00+00:00', ?)`)
			if err != nil {
				b.Fatal(err)
			}
			for i := range fills {
				if _, err := stmt.Exec(d.NewID(), tradeID, i, fmt.Sprintf("raw%d-%d", run, i)); err != nil {
					b.Fatal(err)
				}
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(fills*b.N)/b.Elapsed().Seconds(), "fills/s")
	})
}
