package files

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"time"
)

// A download link carries expires (Unix seconds) and sig: the HMAC-SHA256,
// keyed with the data directory's secret, of the document id, a newline and
// expires as written in the link, in base64url without padding. The link
// needs no API key: whoever holds it may fetch the file until it expires.

// Errors of Verify.
var (
	ErrBadSignature = errors.New("files: the link's signature does not match")
	ErrExpired      = errors.New("files: the link has expired")
)

// sigEncoding refuses a signature whose unused trailing bits are set, so
// that no second spelling of a signature verifies. It still skips line
// breaks (\r, \n) as every base64 decoder does, so Verify also wants
// exactly sigLen characters.
var sigEncoding = base64.RawURLEncoding.Strict()

// sigLen is the length of a signature: a SHA-256 MAC in base64url.
var sigLen = sigEncoding.EncodedLen(sha256.Size)

// Sign returns the signature of a link to the document id that expires at
// the Unix time expires.
func Sign(key []byte, id string, expires int64) string {
	return sigEncoding.EncodeToString(mac(key, id, strconv.FormatInt(expires, 10)))
}

// Verify checks a link's id and its expires and sig query values at now:
// ErrBadSignature unless sig is the signature of id and expires (compared
// in constant time), else ErrExpired once now is past expires.
func Verify(key []byte, id, expires, sig string, now time.Time) error {
	exp, err := strconv.ParseInt(expires, 10, 64)
	if err != nil || strconv.FormatInt(exp, 10) != expires {
		return ErrBadSignature // "+5" or "05" would sign as "5": one spelling only
	}
	if len(sig) != sigLen {
		return ErrBadSignature // a line break in it would decode all the same
	}
	got, err := sigEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, mac(key, id, expires)) {
		return ErrBadSignature
	}
	if now.Unix() > exp {
		return ErrExpired
	}
	return nil
}

func mac(key []byte, id, expires string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "\n" + expires))
	return m.Sum(nil)
}
