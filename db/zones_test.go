package db

import "testing"

// TestZonesLoadedOnce: a zone is read from its file once and then served
// from memory, the same *time.Location; a name that is no zone is an
// error every time, and never remembered.
func TestZonesLoadedOnce(t *testing.T) {
	var z zones
	first, err := z.load("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	again, err := z.load("Europe/Berlin")
	if err != nil || again != first {
		t.Errorf("second load: %p, %v; want the first, %p", again, err, first)
	}
	for range 2 {
		if loc, err := z.load("Mars/Olympus_Mons"); err == nil {
			t.Errorf("an unknown zone loaded as %v", loc)
		}
	}
	if len(z.byName) != 1 {
		t.Errorf("%d zones remembered, want 1", len(z.byName))
	}
}
