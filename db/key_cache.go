package db

import (
	"encoding/binary"
	"os"
	"slices"
	"sync"
)

// keyCache remembers the principals of the keys authenticated since the
// journal last changed, so that a stream of reads with one key reads the
// key once, not once a request (a fifth of a GET's CPU under compare.sh).
//
// What tells it the journal changed is the wal-index header at the start
// of the -shm file (https://sqlite.org/walformat.html): every commit, by
// this process or any other (a CLI revoking a key beside serve), rewrites
// it with the log's new last frame and checksums, and a log that starts
// over gets new salts. A principal is kept under the header read before
// the key was: while the header is still that one, nothing has been
// committed since, and the principal is what the key's query would read
// now. Any other header (or none, torn by a commit under way) empties the
// cache and the key is read again.
//
// This is the test SQLite's own connections make: each keeps its page
// cache while the header it reads at the start of a read transaction is
// the one it last saw (walIndexTryHdr), so a kept principal is exactly as
// current as a page SQLite itself would serve. The header can come back
// to an earlier value only if the wal-index is rebuilt (recovery over an
// empty log writes the same header every time), which SQLite's locks on
// the -shm file forbid while any connection has it open; hence DB.shm is
// closed after the connections (closing a descriptor drops every POSIX
// lock the process holds on the file).
//
// Only found keys are kept (a revoked one too, with Revoked set), at most
// keyCacheSize of them; an unknown key is read every time.
type keyCache struct {
	shm *os.File // the wal-index (DB.shm); nil: nothing is kept

	mu     sync.Mutex
	header [walHeaderSize]byte // the header the principals were read under
	keys   map[string]Principal
}

const keyCacheSize = 256

// now reads the wal-index header as it is now; ok is false when it cannot
// be trusted to name the journal's state.
func (c *keyCache) now() (h [walHeaderSize]byte, ok bool) {
	head, ok := readWALIndexHead(c.shm)
	if !ok {
		return h, false
	}
	copy(h[:], head[:walHeaderSize])
	return h, walHeaderValid(head[:2*walHeaderSize])
}

// walHeaderValid reports whether the two copies of the wal-index header in
// b agree, the header is initialized and its checksum holds, as SQLite's
// own readers check before they trust it (walIndexTryHdr): a header
// caught while a commit writes it fails one of these.
func walHeaderValid(b []byte) bool {
	if [walHeaderSize]byte(b[:walHeaderSize]) != [walHeaderSize]byte(b[walHeaderSize:]) || b[12] == 0 {
		return false
	}
	e := binary.NativeEndian
	var s1, s2 uint32
	for i := 0; i < 40; i += 8 {
		s1 += e.Uint32(b[i:]) + s2
		s2 += e.Uint32(b[i+4:]) + s1
	}
	return s1 == e.Uint32(b[40:]) && s2 == e.Uint32(b[44:])
}

// get is the principal kept for the key of hash under header h.
func (c *keyCache) get(h [walHeaderSize]byte, hash []byte) (Principal, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.header != h {
		c.header, c.keys = h, nil
		return Principal{}, false
	}
	p, ok := c.keys[string(hash)]
	return p, ok
}

// put keeps p, read after the header was h, if h is still the newest
// header the cache has seen.
func (c *keyCache) put(h [walHeaderSize]byte, hash []byte, p Principal) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.header != h || len(c.keys) >= keyCacheSize {
		return
	}
	if c.keys == nil {
		c.keys = make(map[string]Principal)
	}
	p.Scopes = slices.Clip(p.Scopes) // shared by every request: an append copies it
	c.keys[string(hash)] = p
}
