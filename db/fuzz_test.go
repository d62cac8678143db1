package db

import (
	"testing"
	"time"
)

// FuzzWellFormedKey: the key parser never panics, accepts every key
// NewKey makes, and refuses any one-character change of a current key.
func FuzzWellFormedKey(f *testing.F) {
	f.Add("tj_nTujccHP8ibBbJkUsQGRIsLhgzx2n9ER0X1PXLC3yQu34eXUv", 5, byte('x'))
	f.Add("tjk_0000000000000000000000000000000000000000000", 0, byte('A'))
	f.Add("Bearer", 3, byte(0))
	f.Fuzz(func(t *testing.T, key string, at int, c byte) {
		WellFormedKey(key)
		k := NewKey(false)
		if !WellFormedKey(k) || !WellFormedKey(NewKey(true)) {
			t.Fatalf("NewKey made a key WellFormedKey refuses: %s", k)
		}
		if at < 0 || at >= len(k) || k[at] == c {
			return
		}
		changed := k[:at] + string(c) + k[at+1:]
		if WellFormedKey(changed) {
			// A CRC32 cannot catch every change, but one character of the
			// secret or checksum replaced by another is always caught.
			t.Fatalf("changed key %s (at %d) still well-formed", changed, at)
		}
	})
}

// FuzzParseFillTimestamp: the fast reader of stored fill timestamps agrees
// with time.Parse on every input, and round-trips what the journal writes
// (years 1900 to 2999).
func FuzzParseFillTimestamp(f *testing.F) {
	for _, s := range []string{"2026-02-09T23:30:00+00:00", "2025-12-02T02:30:00.5+00:00", "2026-02-05T14:30:00.123456789+00:00",
		"2026-04-31T10:00:00+00:00", "2026-02-09T23:30:00Z", "2026-02-09T23:30:00-05:00", "2026-02-09T24:00:00+00:00",
		"2026-02-09T23:30:00.+00:00", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseFillTimestamp(s)
		want, wantErr := time.Parse(time.RFC3339Nano, s)
		if (err == nil) != (wantErr == nil) || (err == nil && !got.Equal(want)) {
			t.Fatalf("parseFillTimestamp(%q) = %v, %v; time.Parse: %v, %v", s, got, err, want, wantErr)
		}
		if y := got.UTC().Year(); err == nil && y >= 1900 && y <= 2999 { // the years the journal stores
			if back, _ := parseFillTimestamp(formatFillTimestamp(got)); !back.Equal(got) {
				t.Fatalf("%q: %v does not round-trip", s, got)
			}
		}
	})
}
