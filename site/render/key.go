package render

import (
	"crypto/sha256"
	"encoding/binary"
)

// Key hashes the parts of a cache key, each length-prefixed, so no two
// lists of parts give the same bytes. The keys rendering makes (a
// highlighted fragment's) and the build cache's are all made by it.
func Key(parts ...[]byte) []byte {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		binary.BigEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write(p)
	}
	return h.Sum(nil)
}
