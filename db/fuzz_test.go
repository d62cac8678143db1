package db

import "testing"

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
