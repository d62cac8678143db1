package upload

import (
	"slices"
	"testing"
)

// TestImportsAtWork: Limits.ImportsAtWork hears how many imports are at
// work as each starts and ends; a refused one changes nothing.
func TestImportsAtWork(t *testing.T) {
	var heard []int
	up := New(Limits{MaxUploads: 4, MaxPerClient: 2, MaxImports: 2, ImportsAtWork: func(n int) { heard = append(heard, n) }})
	first, ok1 := up.StartImport()
	second, ok2 := up.StartImport()
	_, ok3 := up.StartImport()
	if !ok1 || !ok2 || ok3 {
		t.Fatalf("slots: %v %v %v, want two taken and the third refused", ok1, ok2, ok3)
	}
	first()
	second()
	if want := []int{1, 2, 1, 0}; !slices.Equal(heard, want) {
		t.Errorf("heard %v, want %v", heard, want)
	}
}
