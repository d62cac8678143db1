package db

import (
	"hash/crc32"
	"regexp"
	"strings"
	"testing"
	"time"
)

// FuzzWellFormedKey: WellFormedKey agrees on every input with the key
// format written again below (documentedKey); a key of the generator's
// form (a prefix, 43 characters, their checksum) is well-formed exactly
// when the 43 are base62, and its checksum reads back as their CRC32; it
// accepts every key NewKey makes, and refuses any one-character change of
// a current key.
func FuzzWellFormedKey(f *testing.F) {
	f.Add("tj_nTujccHP8ibBbJkUsQGRIsLhgzx2n9ER0X1PXLC3yQu34eXUv", 5, byte('x'))
	f.Add("tjk_0000000000000000000000000000000000000000000", 0, byte('A'))
	f.Add("Bearer", 3, byte(0))
	// 43 characters, base62 or with one that is not, for the keys of the
	// generator's form made from the input.
	f.Add("nTujccHP8ibBbJkUsQGRIsLhgzx2n9ER0X1PXLC3yQu", 0, byte(0))
	f.Add("nTujccHP8ibBbJkUsQGRIsLhgzx2n9ER0X1PXLC3y-u", 0, byte(0))
	f.Fuzz(func(t *testing.T, key string, at int, c byte) {
		if got, want := WellFormedKey(key), documentedKey(key); got != want {
			t.Fatalf("WellFormedKey(%q) = %v, want %v", key, got, want)
		}
		// The input's first 43 bytes, whatever they are, made into keys.
		secret := (key + strings.Repeat("0", keySecretLen))[:keySecretLen]
		want := base62Text.MatchString(secret)
		for _, k := range []string{KeyPrefix + secret + keyChecksum(secret), LegacyKeyPrefix + secret} {
			if WellFormedKey(k) != want || documentedKey(k) != want {
				t.Fatalf("key %q of the generator's form: WellFormedKey %v, documentedKey %v; want both %v, as its 43 characters are base62 or not",
					k, WellFormedKey(k), documentedKey(k), want)
			}
		}
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

// documentedKey is the key format written again apart from keys.go:
// "tjk_" + 43 base62 characters, or "tj_" + 43 base62 characters + their
// CRC32 (IEEE) as a 6-digit base62 number, most significant digit first,
// digits 0-9, A-Z, a-z (the spelling keys were always issued in, so it
// cannot change). The checksum is read back as a number, where keys.go
// writes it, so that a slip on either side shows.
func documentedKey(key string) bool {
	if s, ok := strings.CutPrefix(key, "tjk_"); ok {
		return len(s) == 43 && base62Text.MatchString(s)
	}
	s, ok := strings.CutPrefix(key, "tj_")
	if !ok || len(s) != 43+6 || !base62Text.MatchString(s) {
		return false
	}
	var n uint64
	for _, c := range []byte(s[43:]) {
		switch {
		case c <= '9':
			n = n*62 + uint64(c-'0')
		case c <= 'Z':
			n = n*62 + uint64(c-'A'+10)
		default:
			n = n*62 + uint64(c-'a'+36)
		}
	}
	return n == uint64(crc32.ChecksumIEEE([]byte(s[:43])))
}

var base62Text = regexp.MustCompile(`^[0-9A-Za-z]*$`)

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
