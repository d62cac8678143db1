package watch_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWatchImportsSettledFile: a file moved into the folder is imported
// once, as alice with format=auto, after its size has held for the settle
// time (2 s), and moves to imported/ named by the import's time in her
// zone; the import and its trade read back through the API, and later
// looks at the folder import nothing more.
func TestWatchImportsSettledFile(t *testing.T) {
	e := newEnv(t, nil)
	e.drop(t, "morning.csv", morning)
	e.tick(t, 0) // first seen
	e.tick(t, time.Second)
	e.tick(t, 999*time.Millisecond)
	if n := e.count(t, "imports"); n != 0 {
		t.Fatalf("%d imports 1.999 s after the file appeared, want 0", n)
	}
	e.wantFiles(t, "", "failed", "imported", "morning.csv")

	e.tick(t, time.Millisecond) // 2 s: settled
	e.wantFiles(t, "", "failed", "imported")
	e.wantFiles(t, "imported", prefix+"morning.csv")
	if got := read(t, filepath.Join(e.dir, "imported", prefix+"morning.csv")); string(got) != morning {
		t.Errorf("imported/ holds %q, want the file as dropped", got)
	}
	imps := e.imports(t)
	if len(imps) != 1 {
		t.Fatalf("%d imports, want 1: %+v", len(imps), imps)
	}
	imp := imps[0]
	if imp.Format != "generic" || imp.FileName != "morning.csv" || imp.Timezone != "America/New_York" || imp.Fills != 3 ||
		imp.TradesCreated != 1 || imp.Duplicates != 0 {
		t.Errorf("import = %+v", imp)
	}
	trades := e.trades(t)
	if len(trades) != 1 || trades[0].Quantity != 2 || trades[0].EntryPrice != 21002 || trades[0].GrossPnL != 32 ||
		trades[0].TotalCommission != 2.48 || trades[0].NetPnL != 29.52 {
		t.Errorf("trades = %+v, want long 2 @21002, gross 32.00, commission 2.48, net 29.52", trades)
	}
	if !strings.Contains(e.logs.String(), `msg="watched file imported" file=morning.csv import_id=`+*imp.ID) {
		t.Errorf("the import is not logged:\n%s", e.logs.String())
	}

	for range 5 {
		e.tick(t, time.Second)
	}
	if n := e.count(t, "imports"); n != 1 {
		t.Errorf("%d imports after more looks, want 1", n)
	}
}

// TestWatchWaitsForHalfWrittenFile: a file whose size still changes is not
// read, however often the folder is looked at; once it holds for the
// settle time it is imported once, whole.
func TestWatchWaitsForHalfWrittenFile(t *testing.T) {
	e := newEnv(t, nil)
	path := filepath.Join(e.dir, "morning.csv")
	half := len(header) + 20 // inside the first row
	if err := os.WriteFile(path, []byte(morning[:half]), 0o600); err != nil {
		t.Fatal(err)
	}
	e.tick(t, 0)
	e.tick(t, time.Second)
	e.tick(t, 900*time.Millisecond)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(morning[half : half+40])
	e.tick(t, 200*time.Millisecond) // 2.1 s after it appeared, 0 s after it grew
	e.tick(t, time.Second)
	f.WriteString(morning[half+40:])
	f.Close()
	for range 3 {
		e.tick(t, 900*time.Millisecond) // grew 0, 0.9, 1.8 s ago
	}
	if n := e.count(t, "imports") + e.count(t, "executions"); n != 0 {
		t.Fatalf("%d rows written while the file was still being written", n)
	}
	e.wantFiles(t, "", "failed", "imported", "morning.csv")

	e.tick(t, 200*time.Millisecond) // 2 s after it last grew
	imps := e.imports(t)
	if len(imps) != 1 || imps[0].Rows != 3 || imps[0].Fills != 3 || imps[0].TradesCreated != 1 {
		t.Fatalf("imports = %+v, want one of the whole file (3 rows, 1 trade)", imps)
	}
	e.wantFiles(t, "imported", prefix+"morning.csv")
}

// TestWatchRefusedFileGoesToFailed: a file with a bad row is refused as the
// API refuses it: it moves to failed/ beside NAME.error.json, which holds
// the API's error body byte for byte, and nothing is written. A second
// refused file of the same name takes the next free name.
func TestWatchRefusedFileGoesToFailed(t *testing.T) {
	e := newEnv(t, nil)
	bad := header + "APEX-1,MNQZ5,buy,1,21000,0.62,2025-12-01T09:31:00-05:00,B1\n" +
		"APEX-1,MNQZ5,hold,1,21010,0.62,2025-12-01T09:40:00-05:00,B2\n"
	status, want := e.postImport(t, e.key, "bad.csv", []byte(bad))
	if status != http.StatusBadRequest || !strings.Contains(string(want), `"rows[3].side"`) {
		t.Fatalf("the API answers the bad file %d %s, want a 400 keyed rows[3].side", status, want)
	}

	for range 2 {
		e.drop(t, "bad.csv", bad)
		e.tick(t, 0)
		e.tick(t, 2*time.Second)
	}
	e.wantFiles(t, "", "failed", "imported")
	e.wantFiles(t, "failed", "bad-2.csv", "bad-2.csv.error.json", "bad.csv", "bad.csv.error.json")
	for _, name := range []string{"bad.csv", "bad-2.csv"} {
		if got := read(t, filepath.Join(e.dir, "failed", name+".error.json")); !bytes.Equal(got, want) {
			t.Errorf("failed/%s.error.json = %s, want the API's body %s", name, got, want)
		}
		if got := read(t, filepath.Join(e.dir, "failed", name)); string(got) != bad {
			t.Errorf("failed/%s = %q, want the file as dropped", name, got)
		}
	}
	for _, table := range []string{"imports", "trades", "executions"} {
		if n := e.count(t, table); n != 0 {
			t.Errorf("%d %s written, want none", n, table)
		}
	}
	if !strings.Contains(e.logs.String(), `msg="watched file refused" file=bad.csv status=400 code=VALIDATION_ERROR`) {
		t.Errorf("the refusal is not logged:\n%s", e.logs.String())
	}
}

// TestWatchAllDuplicatesGoToImported: the same file dropped again, all its
// fills duplicates, is an import like any other (in the history, nothing
// added) and goes to imported/; its name, taken there in the same second,
// becomes the next free one: nothing is overwritten.
func TestWatchAllDuplicatesGoToImported(t *testing.T) {
	e := newEnv(t, nil)
	for range 2 {
		e.drop(t, "morning.csv", morning)
		e.tick(t, 0)
		e.tick(t, 2*time.Second)
	}
	e.wantFiles(t, "imported", prefix+"morning-2.csv", prefix+"morning.csv")
	e.wantFiles(t, "failed")
	imps := e.imports(t)
	if len(imps) != 2 {
		t.Fatalf("%d imports, want 2", len(imps))
	}
	var dup = imps[0]
	if imps[1].Duplicates == 3 {
		dup = imps[1]
	}
	if dup.Duplicates != 3 || dup.TradesCreated != 0 || dup.TradesUpdated != 0 {
		t.Errorf("the second import = %+v, want 3 duplicates and no trade", dup)
	}
	if trades := e.trades(t); len(trades) != 1 || trades[0].NetPnL != 29.52 {
		t.Errorf("trades = %+v, want the one trade, net 29.52", trades)
	}
}

// TestWatchIgnores: hidden files, files still downloading under a
// temporary name (any case) and subfolders are never read, however long
// they stay.
func TestWatchIgnores(t *testing.T) {
	e := newEnv(t, nil)
	names := []string{".morning.csv", "a.crdownload", "b.part", "c.tmp", "d.PART", "e.Tmp"}
	for _, name := range names {
		e.drop(t, name, morning)
	}
	if err := os.Mkdir(filepath.Join(e.dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(e.dir, "sub", "morning.csv"), []byte(morning), 0o600)
	for range 5 {
		e.tick(t, time.Second)
	}
	if n := e.count(t, "imports"); n != 0 {
		t.Errorf("%d imports of ignored files, want 0", n)
	}
	e.wantFiles(t, "", append(names, "failed", "imported", "sub")...)
	e.wantFiles(t, "sub", "morning.csv")

	// The download finishes: renamed to its real name, it is read.
	os.Rename(filepath.Join(e.dir, "b.part"), filepath.Join(e.dir, "b.csv"))
	e.tick(t, time.Second)
	e.tick(t, 2*time.Second)
	e.wantFiles(t, "imported", prefix+"b.csv")
}
