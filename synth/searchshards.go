package synth

import (
	"bytes"
	"math"
	"strconv"
)

// The JSON of the search page's shards, as [EditClient] reads and writes
// it: objects whose keys are numbers and whose values are arrays of
// numbers (a stem's postings, [idf,[nodes],[frequencies]]; a pair's,
// [[nodes],[frequencies]]) or objects of them (a stem's pairs), encoded
// as encoding/json encodes them.

// encodePart encodes v as a shard encodes its values: JSON, "<" and ">"
// as they are.
func encodePart(v any) []byte {
	b, _ := encodeShard(v) // shard values are numbers and strings: they always encode
	return b
}

// encodeShard encodes a shard's part, v, as [ClientSearch.Encoded] does.
func encodeShard(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := compactEncoder(&b).Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Encoded returns the shards of the client index c, each part encoded as
// the search page's scripts hold it.
func (c ClientSearch) Encoded() (ClientShards, error) {
	var s ClientShards
	var err error
	encode := func(parts [][]byte, i int, v any) {
		if err == nil {
			parts[i], err = encodeShard(v)
		}
	}
	s.Postings = make([][]byte, len(c.Postings))
	for i, p := range c.Postings {
		encode(s.Postings, i, p)
	}
	s.Pairs = make([][]byte, len(c.Pairs))
	for i, p := range c.Pairs {
		encode(s.Pairs, i, p)
	}
	s.Exact = make([][]byte, len(c.Exact))
	for i, p := range c.Exact {
		encode(s.Exact, i, p)
	}
	s.Texts = make([][]byte, len(c.Texts))
	for i, p := range c.Texts {
		encode(s.Texts, i, p)
	}
	return s, err
}

// eachMember calls fn with each member of the JSON object data, a
// shard's, whose keys have no escapes and whose values are arrays or
// objects with no strings but keys, each ending at the first end in it,
// until fn says no; false when data is no such object or fn said no.
func eachMember(data []byte, end string, fn func(key, value []byte) bool) bool {
	if len(data) < 2 || data[0] != '{' || data[len(data)-1] != '}' {
		return false
	}
	at := 1
	for at < len(data)-1 {
		if data[at] != '"' {
			return false
		}
		q := bytes.IndexByte(data[at+1:], '"')
		if q < 0 || at+q+2 >= len(data) || data[at+q+2] != ':' {
			return false
		}
		key := data[at+1 : at+1+q]
		at += q + 3
		n := bytes.Index(data[at:], []byte(end))
		if n < 0 || !fn(key, data[at:at+n+len(end)]) {
			return false
		}
		at += n + len(end)
		if data[at] == ',' {
			at++
		} else if at != len(data)-1 {
			return false
		}
	}
	return true
}

// A stem's or a pair's encoded postings end with their list of
// frequencies: postingEnd; a stem's pairs, with their last pair's.
const (
	postingEnd = "]]"
	pairsEnd   = "]]}"
)

// postingLists are the lists of nodes and frequencies of a stem's
// encoded postings, [idf,[nodes],[freqs]], or of a pair's, [[nodes],[freqs]].
func postingLists(v []byte) (nodes, freqs []byte, ok bool) {
	if len(v) < 2 || v[0] != '[' || v[len(v)-1] != ']' {
		return nil, nil, false
	}
	v = v[1 : len(v)-1]
	if v[0] != '[' {
		i := bytes.IndexByte(v, ',')
		if i < 0 {
			return nil, nil, false
		}
		v = v[i+1:] // the idf
	}
	i := bytes.IndexByte(v, ']')
	if i < 0 || v[0] != '[' || i+2 >= len(v) || v[i+1] != ',' || v[i+2] != '[' || v[len(v)-1] != ']' {
		return nil, nil, false
	}
	return v[1:i], v[i+3 : len(v)-1], true
}

// firstAndCount are the first number of a list of numbers and how many
// there are.
func firstAndCount(list []byte) (int32, int, bool) {
	end := bytes.IndexByte(list, ',')
	if end < 0 {
		end = len(list)
	}
	first, ok := atoi(list[:end])
	return int32(first), bytes.Count(list, []byte(",")) + 1, ok
}

// atoi parses a number of the shards: digits, not too many.
func atoi(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// decodePostings decodes encoded lists of nodes (differences) and
// frequencies ([appendFreqs]).
func decodePostings(nodes, freqs []byte) ([]int32, [][numFields]int, bool) {
	n := bytes.Count(nodes, []byte(",")) + 1
	out := make([]int32, 0, n)
	counts := make([][numFields]int, 0, n)
	d := 0
	for len(nodes) > 0 {
		delta, ok1 := nextInt(&nodes)
		mask, ok2 := nextInt(&freqs)
		if !ok1 || !ok2 {
			return nil, nil, false
		}
		d += delta
		var c [numFields]int
		for f := range numFields {
			if mask&(1<<f) != 0 {
				var ok bool
				if c[f], ok = nextInt(&freqs); !ok {
					return nil, nil, false
				}
			}
		}
		out, counts = append(out, int32(d)), append(counts, c)
	}
	return out, counts, len(freqs) == 0
}

// nextInt takes the first number of a list of numbers off it.
func nextInt(list *[]byte) (int, bool) {
	l := *list
	end := bytes.IndexByte(l, ',')
	if end < 0 {
		*list = nil
		return atoi(l)
	}
	*list = l[end+1:]
	return atoi(l[:end])
}

// appendFloat appends f as encoding/json encodes a float64.
func appendFloat(b []byte, f float64) []byte {
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) || math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, encodePart(f)...) // never so for an idf
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}
