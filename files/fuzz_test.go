package files

import (
	"bytes"
	"hash/fnv"
	"math"
	"strconv"
	"testing"
	"time"
)

// FuzzVerify feeds arbitrary ids, expiries and signatures to the verifier:
// it never panics, and it accepts only what Sign made for that very id and
// expiry, unexpired. The other way round, a link Sign makes for the
// input's id and an expiry drawn from the input verifies up to its last
// second, is expired the second after, and is refused with another key,
// another id or expiry, a character of its signature replaced, or the
// input's signature inserted into it.
func FuzzVerify(f *testing.F) {
	key := bytes.Repeat([]byte{7}, SecretSize)
	now := time.Date(2026, 2, 5, 15, 0, 0, 0, time.UTC)
	const id = "0194d2f0-0000-7000-8000-000000000001"
	exp := now.AddDate(1, 0, 0).Unix()
	f.Add(id, strconv.FormatInt(exp, 10), Sign(key, id, exp))
	f.Add(id, "-1", Sign(key, id, -1))
	f.Add("", "", "")
	f.Add(id, "99999999999999999999", "AAAA")
	f.Add(id, "9223372036854775807", "\r\n") // the largest expiry; line breaks, which base64 skips
	f.Add("a\nb", "-9223372036854775808", "=")
	f.Fuzz(func(t *testing.T, id, expires, sig string) {
		if err := Verify(key, id, expires, sig, now); err == nil {
			n, perr := strconv.ParseInt(expires, 10, 64)
			if perr != nil || strconv.FormatInt(n, 10) != expires {
				t.Fatalf("accepted expires %q that is not a plain integer", expires)
			}
			if n <= now.Unix() {
				t.Fatalf("accepted an expired link: %q", expires)
			}
			if Sign(key, id, n) != sig {
				t.Fatalf("accepted a signature Sign did not make: id %q expires %q sig %q", id, expires, sig)
			}
		}

		// The expiry: the input's when it is a number, else a hash of it.
		n, err := strconv.ParseInt(expires, 10, 64)
		if err != nil {
			h := fnv.New64a()
			h.Write([]byte(expires))
			n = int64(h.Sum64())
		}
		e := strconv.FormatInt(n, 10)
		good := Sign(key, id, n)
		last := time.Unix(n, 0) // its Unix() is n for every int64
		if err := Verify(key, id, e, good, last); err != nil {
			t.Fatalf("a link Sign made for id %q expiring %d, at that second: %v, want it verified", id, n, err)
		}
		if n < math.MaxInt64 {
			if err := Verify(key, id, e, good, time.Unix(n+1, 0)); err != ErrExpired {
				t.Fatalf("a link Sign made for id %q expiring %d, a second later: %v, want %v", id, n, err, ErrExpired)
			}
		}

		otherKey := bytes.Clone(key)
		otherKey[len(id)%SecretSize] ^= 1
		at := len(sig) % len(good)
		c := byte('A')
		if good[at] == c {
			c = 'B'
		}
		type link struct {
			what             string
			key              []byte
			id, expires, sig string
		}
		changed := []link{
			{"another key", otherKey, id, e, good},
			{"another id", key, id + "0", e, good},
			{"a character of the signature replaced", key, id, e, good[:at] + string(c) + good[at+1:]},
		}
		if sig != "" {
			changed = append(changed, link{"the input's sig inserted into the signature", key, id, e, good[:at] + sig + good[at:]})
		}
		if sig != good {
			changed = append(changed, link{"the input's sig for the signature", key, id, e, sig})
		}
		if id != "" {
			changed = append(changed, link{"the id cut short", key, id[:len(id)-1], e, good})
		}
		if n < math.MaxInt64 {
			changed = append(changed, link{"the expiry a second later", key, id, strconv.FormatInt(n+1, 10), good})
		}
		if n > math.MinInt64 {
			changed = append(changed, link{"the expiry a second earlier", key, id, strconv.FormatInt(n-1, 10), good})
		}
		for _, l := range changed {
			if err := Verify(l.key, l.id, l.expires, l.sig, last); err != ErrBadSignature {
				t.Fatalf("a link Sign made for id %q expiring %d, with %s (id %q expires %q sig %q): %v, want %v",
					id, n, l.what, l.id, l.expires, l.sig, err, ErrBadSignature)
			}
		}
	})
}
