package store

import (
	"crypto/rand"
	"encoding/binary"
	"sync"
	"time"
)

// crockford is Crockford's base32 alphabet in lower case; its characters are
// in ascending byte order, so the text of an id sorts like its value.
const crockford = "0123456789abcdefghjkmnpqrstvwxyz"

var idState struct {
	sync.Mutex
	ms     uint64
	hi, lo uint64 // the last id's 128 bits
}

// NewID returns a new session id: 26 lower-case characters (a ULID: 48 bits
// of unix milliseconds, then 80 random bits). Ids sort by creation time as
// strings, and within one process strictly increase even inside one
// millisecond. Safe for concurrent use.
func NewID() string {
	return newIDAt(time.Now())
}

func newIDAt(t time.Time) string {
	now := uint64(t.UnixMilli()) & (1<<48 - 1)
	idState.Lock()
	defer idState.Unlock()
	var hi, lo uint64
	if now <= idState.ms {
		// Same millisecond (or the clock stepped back): the next value after
		// the last id keeps the order strict.
		hi, lo = idState.hi, idState.lo+1
		if lo == 0 {
			hi++
		}
	} else {
		var r [10]byte
		rand.Read(r[:]) // never fails (crypto/rand contract since Go 1.24)
		hi = now<<16 | uint64(binary.BigEndian.Uint16(r[:2]))
		lo = binary.BigEndian.Uint64(r[2:])
		idState.ms = now
	}
	idState.hi, idState.lo = hi, lo
	return encodeID(hi, lo)
}

func encodeID(hi, lo uint64) string {
	var out [26]byte
	for i := 25; i >= 0; i-- {
		out[i] = crockford[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}
