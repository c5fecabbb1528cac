package render

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"hash"
	"strconv"
)

// Key hashes the parts of a cache key, each length-prefixed, so no two
// lists of parts give the same bytes. The keys rendering makes (a
// highlighted fragment's) and the build cache's are all made by it.
func Key(parts ...[]byte) []byte {
	k := keyHash{h: sha256.New()}
	for _, p := range parts {
		k.part(p)
	}
	return k.h.Sum(nil)
}

// keyHash is a key being made part by part, as [Key] makes it: for a key
// of many parts (a page's model key, [Renderer.modelKey]), which are
// hashed as they come instead of held.
type keyHash struct {
	h   hash.Hash
	enc *json.Encoder // into h; from newKeyHash
	n   [8]byte
}

// newKeyHash starts a key whose parts may also be JSON values (enc):
// self-delimiting, a value and a newline.
func newKeyHash() *keyHash {
	k := &keyHash{h: sha256.New()}
	k.enc = json.NewEncoder(k.h)
	k.enc.SetEscapeHTML(false)
	return k
}

func (k *keyHash) part(p []byte) {
	binary.BigEndian.PutUint64(k.n[:], uint64(len(p)))
	k.h.Write(k.n[:])
	k.h.Write(p)
}

func (k *keyHash) str(s string) { k.part([]byte(s)) }

func (k *keyHash) num(i int) { k.str(strconv.Itoa(i)) }
