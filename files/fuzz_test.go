package files

import (
	"bytes"
	"strconv"
	"testing"
	"time"
)

// FuzzVerify feeds arbitrary ids, expiries and signatures to the verifier:
// it never panics, and it accepts only what Sign made for that very id and
// expiry, unexpired.
func FuzzVerify(f *testing.F) {
	key := bytes.Repeat([]byte{7}, SecretSize)
	now := time.Date(2026, 2, 5, 15, 0, 0, 0, time.UTC)
	const id = "0194d2f0-0000-7000-8000-000000000001"
	exp := now.AddDate(1, 0, 0).Unix()
	f.Add(id, strconv.FormatInt(exp, 10), Sign(key, id, exp))
	f.Add(id, "-1", Sign(key, id, -1))
	f.Add("", "", "")
	f.Add(id, "99999999999999999999", "AAAA")
	f.Fuzz(func(t *testing.T, id, expires, sig string) {
		err := Verify(key, id, expires, sig, now)
		if err != nil {
			return
		}
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
	})
}
