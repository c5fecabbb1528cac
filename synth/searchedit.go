package synth

import (
	"slices"
	"strconv"
	"strings"
)

// An edit of a page's text changes few of the numbers of the search
// page's index ([SearchIndex.Client]), but stems are numbered in the order
// they first occur, node after node: a word that is new, or gone, shifts
// the number of every stem after it, and with it the keys and shards of
// almost every postings and pairs shard. [EditClient] makes the index of
// edited entries from the last build's instead of from every entry: it
// splits the last postings and pairs shards into their stems' and pairs'
// encoded values, which an edit changes only for what the edited nodes
// hold, tokenizes the edited nodes (before and after the edit, and the
// few nodes where a stem now first occurs), numbers the stems again, and
// encodes anew only the values of the stems and pairs the edited nodes
// hold or held. Its result is byte for byte what Client and the shards'
// JSON encoding make of the edited entries.

// ClientShards are the JSON encodings of a client index's shards, by
// kind, in shard order ([ClientSearch]).
type ClientShards struct {
	Postings, Pairs, Exact, Texts [][]byte
}

// EditClient returns the client index of the edited search index ed from
// head and shards, the client index of the index before the edit (its
// postings and pairs shards are all that is read of shards). The shards
// it returns are those that may differ: every postings and pairs shard,
// and the text shards whose nodes changed (nil for the others, and for
// the exact shards, which are as they were). False when it cannot tell:
// when the edit changes a node's id, type or title, or the number of
// shards of a kind, or when shards is not what head says; then the index
// is made from every entry.
func EditClient(head ClientSearchHead, shards ClientShards, ed *SearchEdit) (ClientSearchHead, ClientShards, bool) {
	e := &clientEdit{head: head, shards: shards, ed: ed, entries: map[int]SearchEntry{}}
	if !e.read() || !e.tokenize() {
		return head, ClientShards{}, false
	}
	h := newClientHead(head.Language, nil)
	h.Docs, h.Types, h.Exact = head.Docs, head.Types, head.Exact
	var out ClientShards
	var ok bool
	if h.Texts, out.Texts, ok = e.texts(); !ok {
		return head, ClientShards{}, false
	}
	out.Exact = make([][]byte, head.Exact)
	if !e.number() {
		return head, ClientShards{}, false
	}
	h.Words = e.words()
	h.Lens, h.AvgLen = e.lens()
	if h.Postings, out.Postings, ok = e.postingShards(); !ok {
		return head, ClientShards{}, false
	}
	if h.Pairs, out.Pairs, ok = e.pairShards(); !ok {
		return head, ClientShards{}, false
	}
	return h, out, true
}

// clientEdit is the work of [EditClient]. Stems are known by their number
// in the last index (its "old id"); a stem the edit brings gets an old id
// past the last one's.
type clientEdit struct {
	head    ClientSearchHead
	shards  ClientShards // the last index's
	ed      *SearchEdit
	entries map[int]SearchEntry // the entries decoded, by index
	stem    func(string) string
	stop    func(string) bool
	edited  []int // the nodes whose words may have changed, ascending

	// By old id: each stem's encoded postings, first node and node count
	// in the last index (stems the edit brings have none).
	values   [][]byte
	first    []int32
	df       []int
	postings int // every stem's node count, summed

	stemIDs  map[string]int32 // a stem's old id by its text, made when a new word needs it
	newStems map[string]int32 // the stems the edit brings, by text
	newWords map[string]int32 // the words the edit brings, with their stems' old ids

	// The edited nodes' fields as old ids, and how often each word is
	// interned in them, before and after the edit.
	was, is           map[int]searchDoc
	wasCount, isCount map[string]int

	touched map[int32]*stemPostings // the postings of the stems the edited nodes hold or held, by old id
	id      []int32                 // new id by old id; -1 for a stem gone
	order   []int32                 // old id by new id
}

// stemPostings are a stem's or a pair's nodes, ascending, with its
// frequency in each field of each.
type stemPostings struct {
	nodes  []int32
	counts [][numFields]int
}

// read splits the last postings shards into each stem's value.
func (e *clientEdit) read() bool {
	h, shards := &e.head, &e.shards
	if h.SchemaVersion != SearchClientSchemaVersion || h.Docs != e.ed.size() || len(h.Types) != h.Docs || len(h.Lens) != numFields*h.Docs ||
		len(shards.Postings) != h.Postings || len(shards.Pairs) != h.Pairs {
		return false
	}
	if e.edited = e.ed.edited(); len(e.edited) == 0 {
		return false // nothing to do, and no text shard to start from
	}
	for _, i := range e.edited {
		b, a := e.ed.before[i], e.ed.after[i]
		if b.ID != a.ID || b.Type != a.Type || b.Title != a.Title {
			return false // the exact shards and the types would change
		}
	}
	e.stem, e.stop = stemmer(h.Language)
	for k, data := range shards.Postings {
		ok := eachMember(data, postingEnd, func(key, value []byte) bool {
			s, ok := atoi(key)
			if !ok || s%h.Postings != k || s >= len(h.Words) { // a stem has a word at least

				return false
			}
			for len(e.values) <= s {
				e.values = append(e.values, nil)
			}
			e.values[s] = value
			return true
		})
		if !ok {
			return false
		}
	}
	e.first, e.df = make([]int32, len(e.values)), make([]int, len(e.values))
	for s, v := range e.values {
		nodes, _, ok := postingLists(v)
		if !ok {
			return false
		}
		first, n, ok := firstAndCount(nodes)
		if !ok || s > 0 && first < e.first[s-1] {
			return false // stems are numbered in the order of their first nodes
		}
		e.first[s], e.df[s] = first, n
		e.postings += n
	}
	for _, v := range h.Words {
		if v[0] < stopStem || v[0] >= len(e.values) {
			return false
		}
	}
	return true
}

// tokenize makes the edited nodes' fields, before and after.
func (e *clientEdit) tokenize() bool {
	e.was, e.is = map[int]searchDoc{}, map[int]searchDoc{}
	e.wasCount, e.isCount = map[string]int{}, map[string]int{}
	e.newStems, e.newWords = map[string]int32{}, map[string]int32{}
	ok := true
	for _, i := range e.edited {
		was, is := e.ed.before[i], e.ed.after[i]
		e.was[i] = docOf(&was, func(w string) int32 {
			e.wasCount[w]++
			v, found := e.head.Words[w]
			ok = ok && found
			return int32(v[0])
		})
		e.is[i] = docOf(&is, func(w string) int32 {
			e.isCount[w]++
			return e.stemOf(w)
		})
	}
	return ok
}

// stemOf is the old id of word w's stem, as NewSearchIndex interns it.
func (e *clientEdit) stemOf(w string) int32 {
	if v, ok := e.head.Words[w]; ok {
		return int32(v[0])
	}
	if s, ok := e.newWords[w]; ok {
		return s
	}
	s := int32(stopStem)
	if !e.stop(w) {
		s = e.stemID(e.stem(w))
	}
	e.newWords[w] = s
	return s
}

// stemID is the old id of the stem st: the last index's, or a new one.
func (e *clientEdit) stemID(st string) int32 {
	if e.stemIDs == nil {
		// The last index's stems, stemmed again from their words.
		e.stemIDs = map[string]int32{}
		for w, v := range e.head.Words {
			if v[0] != stopStem {
				e.stemIDs[e.stem(w)] = int32(v[0])
			}
		}
	}
	if s, ok := e.stemIDs[st]; ok {
		return s
	}
	s, ok := e.newStems[st]
	if !ok {
		s = int32(len(e.values) + len(e.newStems))
		e.newStems[st] = s
	}
	return s
}

// stems is how many old ids there are: the last index's stems and the
// edit's.
func (e *clientEdit) stems() int { return len(e.values) + len(e.newStems) }

// number gives each stem its new id: stems are numbered by the node where
// they first occur, then by where they first occur in it. A stem the
// edited nodes neither hold nor held keeps its first node; so does the
// order of the stems that first occur in a node, unless the edit brings
// one there (the node is edited, or a stem the edit took out of an
// earlier node occurs in it): those nodes' stems are ordered again from
// their fields.
func (e *clientEdit) number() bool {
	first, gone, again, ok := e.touch()
	if !ok {
		return false
	}
	n := e.stems()
	// A stem's rank in its first node: its old id, but in the nodes
	// ordered again, its place there.
	rank := make([]int, n)
	for s := range rank {
		rank[s] = s
	}
	placed := make([]bool, n)
	for i := range again {
		doc, ok := e.fieldsAfter(int(i))
		if !ok {
			return false
		}
		r := 0
		for _, seq := range doc.fields {
			for _, s := range seq {
				if first[s] == i && !placed[s] {
					placed[s], rank[s] = true, r
					r++
				}
			}
		}
	}
	e.order = make([]int32, 0, n)
	for s := range n {
		if gone[s] {
			continue
		}
		if again[first[s]] && !placed[s] {
			return false // the last index is not what the entries make
		}
		e.order = append(e.order, int32(s))
	}
	slices.SortFunc(e.order, func(a, b int32) int {
		if first[a] != first[b] {
			return int(first[a]) - int(first[b])
		}
		return rank[a] - rank[b]
	})
	e.id = make([]int32, n)
	for s := range e.id {
		e.id[s] = -1
	}
	for id, s := range e.order {
		e.id[s] = int32(id)
	}
	return true
}

// touch edits the postings of the stems the edited nodes hold or held
// (e.touched), and returns by old id each stem's first node after the
// edit and whether it is gone, and the nodes whose stems are ordered
// again.
func (e *clientEdit) touch() (first []int32, gone []bool, again map[int32]bool, ok bool) {
	n := e.stems()
	e.touched = map[int32]*stemPostings{}
	for _, i := range e.edited {
		for _, d := range []searchDoc{e.was[i], e.is[i]} {
			for _, seq := range d.fields {
				for _, s := range seq {
					if e.touched[s] == nil {
						e.touched[s] = &stemPostings{}
					}
				}
			}
		}
	}
	first = make([]int32, n)
	copy(first, e.first)
	gone = make([]bool, n)
	again = map[int32]bool{}
	for _, i := range e.edited {
		again[int32(i)] = true
	}
	for s, p := range e.touched {
		if int(s) < len(e.values) {
			nodes, freqs, _ := postingLists(e.values[s]) // read checked them
			if p.nodes, p.counts, ok = decodePostings(nodes, freqs); !ok {
				return nil, nil, nil, false
			}
		}
		p.edit(e.edited, func(i int) (c [numFields]int) {
			for f, seq := range e.is[i].fields {
				for _, x := range seq {
					if x == s {
						c[f]++
					}
				}
			}
			return c
		})
		if len(p.nodes) == 0 {
			gone[s] = true
			continue
		}
		if int(s) >= len(e.values) || p.nodes[0] != e.first[s] {
			first[s] = p.nodes[0]
			again[p.nodes[0]] = true
		}
	}
	return first, gone, again, true
}

// fieldsAfter are node i's fields after the edit, as old ids.
func (e *clientEdit) fieldsAfter(i int) (searchDoc, bool) {
	if doc, ok := e.is[i]; ok {
		return doc, true
	}
	entry, ok := e.entry(i)
	if !ok {
		return searchDoc{}, false
	}
	doc := docOf(&entry, func(w string) int32 {
		v, found := e.head.Words[w]
		ok = ok && found // the node is as it was: its words are all known
		return int32(v[0])
	})
	return doc, ok
}

// edit takes the edited nodes out of p and puts back those that hold it
// after the edit, with their frequencies (counts of node i; none when it
// does not hold it).
func (p *stemPostings) edit(edited []int, counts func(i int) [numFields]int) {
	nodes := make([]int32, 0, len(p.nodes)+len(edited))
	cs := make([][numFields]int, 0, len(p.nodes)+len(edited))
	j := 0
	add := func(i int) {
		if c := counts(i); c != ([numFields]int{}) {
			nodes, cs = append(nodes, int32(i)), append(cs, c)
		}
	}
	for k, d := range p.nodes {
		for j < len(edited) && int32(edited[j]) <= d {
			add(edited[j])
			j++
		}
		if !slices.Contains(edited, int(d)) {
			nodes, cs = append(nodes, d), append(cs, p.counts[k])
		}
	}
	for ; j < len(edited); j++ {
		add(edited[j])
	}
	p.nodes, p.counts = nodes, cs
}

// appendTo appends p's nodes (as differences) and frequencies
// ([appendFreqs]) to b as a shard lists them, and the array's end:
// "[nodes],[freqs]]", after a comma when comma.
func (p *stemPostings) appendTo(b []byte, comma bool) []byte {
	if comma {
		b = append(b, ',')
	}
	b = append(b, '[')
	for k, d := range p.nodes {
		if k > 0 {
			b = append(b, ',')
			d -= p.nodes[k-1]
		}
		b = strconv.AppendInt(b, int64(d), 10)
	}
	b = append(b, ']', ',', '[')
	for k, c := range p.counts {
		if k > 0 {
			b = append(b, ',')
		}
		mask := 0
		for f, n := range c {
			if n > 0 {
				mask |= 1 << f
			}
		}
		b = strconv.AppendInt(b, int64(mask), 10)
		for _, n := range c {
			if n > 0 {
				b = strconv.AppendInt(append(b, ','), int64(n), 10)
			}
		}
	}
	return append(b, ']', ']')
}

// words is the edited vocabulary, by new stem ids.
func (e *clientEdit) words() map[string][2]int {
	out := make(map[string][2]int, len(e.head.Words)+len(e.newWords))
	put := func(w string, s int32, freq int) {
		if freq > 0 {
			if s != stopStem {
				s = e.id[s]
			}
			out[w] = [2]int{int(s), freq}
		}
	}
	for w, v := range e.head.Words {
		put(w, int32(v[0]), v[1]-e.wasCount[w]+e.isCount[w])
	}
	for w, s := range e.newWords {
		put(w, s, e.isCount[w])
	}
	return out
}

// lens are the nodes' field lengths after the edit, and their averages.
func (e *clientEdit) lens() ([]int, []float64) {
	lens := slices.Clone(e.head.Lens)
	for i, d := range e.is {
		for f, seq := range d.fields {
			lens[i*numFields+f] = len(seq)
		}
	}
	var total, have [numFields]int
	for k, n := range lens {
		total[k%numFields] += n
		if n > 0 {
			have[k%numFields]++
		}
	}
	avg := avgLens(total, have)
	return lens, avg[:]
}

// postingShards are the postings shards of the new numbering, and how
// many there are; false when there would be another number of them.
func (e *clientEdit) postingShards() (int, [][]byte, bool) {
	total := e.postings
	for s, p := range e.touched {
		total += len(p.nodes)
		if int(s) < len(e.values) {
			total -= e.df[s]
		}
	}
	n := shardsFor(total, SearchShardPostings)
	if n != e.head.Postings {
		return 0, nil, false
	}
	keys, place := keyOrder(len(e.order))
	shards := make([][]int32, n) // new ids
	for id := range e.order {
		shards[id%n] = append(shards[id%n], int32(id))
	}
	out := make([][]byte, n)
	for k, ids := range shards {
		slices.SortFunc(ids, func(x, y int32) int { return int(place[x] - place[y]) })
		b := []byte{'{'}
		for j, id := range ids {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(strconv.AppendQuote(b, keys[id]), ':')
			if s := e.order[id]; e.touched[s] != nil {
				p := e.touched[s]
				b = p.appendTo(appendFloat(append(b, '['), idfOf(len(p.nodes), e.ed.size())), true)
			} else {
				b = append(b, e.values[s]...)
			}
		}
		out[k] = append(b, '}')
	}
	return n, out, true
}

// pairShards are the pairs shards of the new numbering, and how many
// there are; false when there would be another number of them.
func (e *clientEdit) pairShards() (int, [][]byte, bool) {
	touched := map[[2]int32]*stemPostings{}
	for _, i := range e.edited {
		for _, d := range []searchDoc{e.was[i], e.is[i]} {
			for _, seq := range d.fields {
				for j := 1; j < len(seq); j++ {
					if k := [2]int32{seq[j-1], seq[j]}; touched[k] == nil {
						touched[k] = &stemPostings{}
					}
				}
			}
		}
	}
	pairs, total, ok := e.readPairs(touched)
	if !ok {
		return 0, nil, false
	}
	for ab, p := range touched {
		p.edit(e.edited, func(i int) (c [numFields]int) {
			for f, seq := range e.is[i].fields {
				c[f] = pairCount(seq, ab[0], ab[1])
			}
			return c
		})
		if len(p.nodes) > 0 {
			pairs = append(pairs, stemPair{ab[0], ab[1], p.appendTo([]byte{'['}, false)})
			total += len(p.nodes)
		}
	}
	n := shardsFor(total, SearchShardPairs)
	if n != e.head.Pairs {
		return 0, nil, false
	}
	shards := make([][]stemPair, n)
	for _, p := range pairs {
		p.a, p.b = e.id[p.a], e.id[p.b]
		if p.a < 0 || p.b < 0 {
			return 0, nil, false // a pair of a stem gone
		}
		k := SearchPairShard(p.a, p.b, n)
		shards[k] = append(shards[k], p)
	}
	keys, place := keyOrder(len(e.order))
	out := make([][]byte, n)
	for k, ps := range shards {
		slices.SortFunc(ps, func(x, y stemPair) int {
			if x.a != y.a {
				return int(place[x.a] - place[y.a])
			}
			return int(place[x.b] - place[y.b])
		})
		out[k] = encodePairs(ps, keys)
	}
	return n, out, true
}

// stemPair is a pair of stems, by id, with its encoded postings.
type stemPair struct {
	a, b  int32
	value []byte
}

// readPairs splits the last pairs shards into each pair's value, by old
// ids, but for the touched pairs, whose postings it decodes into
// touched; total is how many nodes the pairs it returns hold.
func (e *clientEdit) readPairs(touched map[[2]int32]*stemPostings) (pairs []stemPair, total int, ok bool) {
	for k, data := range e.shards.Pairs {
		ok := eachMember(data, pairsEnd, func(key, value []byte) bool {
			a, ok := atoi(key)
			if !ok || a >= len(e.values) {
				return false
			}
			return eachMember(value, postingEnd, func(key, value []byte) bool {
				b, ok := atoi(key)
				if !ok || b >= len(e.values) || SearchPairShard(int32(a), int32(b), e.head.Pairs) != k {
					return false
				}
				nodes, freqs, ok := postingLists(value)
				if !ok {
					return false
				}
				if p := touched[[2]int32{int32(a), int32(b)}]; p != nil {
					p.nodes, p.counts, ok = decodePostings(nodes, freqs)
					return ok
				}
				_, n, ok := firstAndCount(nodes)
				pairs, total = append(pairs, stemPair{int32(a), int32(b), value}), total+n
				return ok
			})
		})
		if !ok {
			return nil, 0, false
		}
	}
	return pairs, total, true
}

// keyOrder is ids 0 to n-1 as keys, and each id's place in the order of
// its key: a shard's keys are sorted as strings ("10" before "9").
func keyOrder(n int) (keys []string, place []int32) {
	keys = make([]string, n)
	byKey := make([]int32, n)
	for id := range keys {
		keys[id], byKey[id] = strconv.Itoa(id), int32(id)
	}
	slices.SortFunc(byKey, func(x, y int32) int { return strings.Compare(keys[x], keys[y]) })
	place = make([]int32, n)
	for r, id := range byKey {
		place[id] = int32(r)
	}
	return keys, place
}

// encodePairs encodes a pairs shard of the pairs ps, in key order: by
// stem a, the object of its pairs by stem b.
func encodePairs(ps []stemPair, keys []string) []byte {
	size := 2
	for _, p := range ps {
		size += len(p.value) + 24
	}
	b := make([]byte, 0, size)
	b = append(b, '{')
	for j, p := range ps {
		if j == 0 || p.a != ps[j-1].a {
			if j > 0 {
				b = append(b, '}', ',')
			}
			b = strconv.AppendQuote(b, keys[p.a])
			b = append(b, ':', '{')
		} else {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, keys[p.b])
		b = append(append(b, ':'), p.value...)
	}
	if len(ps) > 0 {
		b = append(b, '}')
	}
	return append(b, '}')
}

// texts are the first nodes of the text shards and the shards that
// change; false when the edit changes how many there are. Shards are cut
// node after node, each as soon as the next node's text does not fit: the
// cuts before the node before the first edited one are as they were, and
// so are those after the last edited node once one is where it was.
func (e *clientEdit) texts() ([]int, [][]byte, bool) {
	was, n := e.head.Texts, e.ed.size()
	if len(was) == 0 || was[0] != 0 {
		return nil, nil, false
	}
	k, _ := slices.BinarySearch(was, max(e.edited[0]-1, 0)+1)
	starts := slices.Clone(was[:k]) // k-1 is the shard of the node before the first edited one
	last := e.edited[len(e.edited)-1]
	size := 0
	for i := was[k-1]; i < n; i++ {
		entry, ok := e.entry(i)
		if !ok {
			return nil, nil, false
		}
		if startsTextShard(size, &entry) {
			if j, found := slices.BinarySearch(was, i); found && i > last {
				starts = append(starts, was[j:]...)
				break
			}
			starts = append(starts, i)
			size = 0
		}
		size += textSize(&entry)
	}
	if len(starts) != len(was) {
		return nil, nil, false
	}
	out := make([][]byte, len(starts))
	for k, start := range starts {
		end := shardEnd(starts, k, n)
		changed := start != was[k] || end != shardEnd(was, k, n)
		for _, i := range e.edited {
			changed = changed || start <= i && i < end
		}
		if !changed {
			continue
		}
		entries := make([]SearchEntry, 0, end-start)
		for i := start; i < end; i++ {
			entry, ok := e.entry(i)
			if !ok {
				return nil, nil, false
			}
			entries = append(entries, entry)
		}
		out[k] = encodePart(textShard(entries, 0, len(entries)))
	}
	return starts, out, true
}

// entry is entry i of the edited index, decoded once.
func (e *clientEdit) entry(i int) (SearchEntry, bool) {
	if entry, ok := e.entries[i]; ok {
		return entry, true
	}
	entry, ok := e.ed.entry(i)
	if ok {
		e.entries[i] = entry
	}
	return entry, ok
}
