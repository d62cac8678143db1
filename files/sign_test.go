package files

import (
	"bytes"
	"strconv"
	"testing"
	"time"
)

func TestVerify(t *testing.T) {
	key := bytes.Repeat([]byte{7}, SecretSize)
	otherKey := bytes.Repeat([]byte{8}, SecretSize)
	const id = "0194d2f0-0000-7000-8000-000000000001"
	now := time.Date(2026, 2, 5, 15, 0, 0, 0, time.UTC)
	exp := now.AddDate(1, 0, 0).Unix()
	expires := strconv.FormatInt(exp, 10)
	sig := Sign(key, id, exp)
	// flip changes one character of s to another base64url character.
	flip := func(s string, i int) string {
		c := byte('A')
		if s[i] == 'A' {
			c = 'B'
		}
		return s[:i] + string(c) + s[i+1:]
	}

	tests := []struct {
		name             string
		key              []byte
		id, expires, sig string
		now              time.Time
		want             error
	}{
		{"valid", key, id, expires, sig, now, nil},
		{"valid at the last second", key, id, expires, sig, time.Unix(exp, 0), nil},
		{"expired", key, id, expires, sig, time.Unix(exp+1, 0), ErrExpired},
		{"tampered id", key, "0194d2f0-0000-7000-8000-000000000002", expires, sig, now, ErrBadSignature},
		{"tampered expiry", key, id, strconv.FormatInt(exp+1, 10), sig, now, ErrBadSignature},
		{"expiry spelled with a sign", key, id, "+" + expires, sig, now, ErrBadSignature},
		{"expiry with a leading zero", key, id, "0" + expires, sig, now, ErrBadSignature},
		{"tampered signature", key, id, expires, flip(sig, 0), now, ErrBadSignature},
		{"signature's last character", key, id, expires, flip(sig, len(sig)-1), now, ErrBadSignature},
		{"wrong key", otherKey, id, expires, sig, now, ErrBadSignature},
		{"missing signature", key, id, expires, "", now, ErrBadSignature},
		{"missing expiry", key, id, "", sig, now, ErrBadSignature},
		{"malformed signature", key, id, expires, "not base64!", now, ErrBadSignature},
		{"padded signature", key, id, expires, sig + "=", now, ErrBadSignature},
		{"short signature", key, id, expires, sig[:20], now, ErrBadSignature},
		{"malformed expiry", key, id, "next-year", sig, now, ErrBadSignature},
		{"expiry out of range", key, id, "99999999999999999999", sig, now, ErrBadSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Verify(tt.key, tt.id, tt.expires, tt.sig, tt.now); got != tt.want {
				t.Errorf("Verify: got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestSignIsURLSafe(t *testing.T) {
	sig := Sign(bytes.Repeat([]byte{1}, SecretSize), "id", 1)
	if len(sig) != 43 {
		t.Errorf("len(sig): got %d, want 43", len(sig))
	}
	for _, c := range sig {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			t.Errorf("sig %q: got character %q, want base64url only", sig, c)
		}
	}
}
