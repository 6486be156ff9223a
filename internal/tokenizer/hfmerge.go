package tokenizer

import "math"

// noPair is the pairTable value of two ids that do not merge.
const noPair = math.MaxUint64

// pairTable maps a pair of token ids to the merge that joins them: its rank
// (its index in tokenizer.json's merges) and the id of the token it makes,
// as rank<<32 | id. It is an open-addressing hash table with linear probing,
// at most half full.
type pairTable struct {
	keys  []uint64 // left<<32 | right
	vals  []uint64 // rank<<32 | id; noPair marks an empty slot
	shift uint
}

// init sizes the table for n merges.
func (t *pairTable) init(n int) {
	size := 2
	for size < 2*n {
		size *= 2
	}
	t.keys = make([]uint64, size)
	t.vals = make([]uint64, size)
	for i := range t.vals {
		t.vals[i] = noPair
	}
	shift := uint(64)
	for s := size; s > 1; s /= 2 {
		shift--
	}
	t.shift = shift
}

// put adds a merge; it reports false if the pair has one already.
func (t *pairTable) put(left, right int32, rank uint32, id int32) bool {
	key := uint64(uint32(left))<<32 | uint64(uint32(right))
	mask := uint64(len(t.keys) - 1)
	for i := key * hashMul >> t.shift; ; i = (i + 1) & mask {
		if t.vals[i] == noPair {
			t.keys[i], t.vals[i] = key, uint64(rank)<<32|uint64(uint32(id))
			return true
		}
		if t.keys[i] == key {
			return false
		}
	}
}

// get returns the merge of left and right, or noPair.
func (t *pairTable) get(left, right int32) uint64 {
	key := uint64(uint32(left))<<32 | uint64(uint32(right))
	mask := uint64(len(t.keys) - 1)
	for i := key * hashMul >> t.shift; ; i = (i + 1) & mask {
		if v := t.vals[i]; v == noPair || t.keys[i] == key {
			return v
		}
	}
}

// hfMerger merges a piece's symbols as Hugging Face's BPE does
// (tokenizers' Word::merge_all): while some adjacent pair has a merge, the
// pair with the lowest rank merges, the leftmost one on ties. Its zero
// value is ready to use; it keeps its scratch space between calls.
type hfMerger struct {
	// init holds the merges of the first symbols' pairs, if the caller
	// looked them up (len(init) == len(ids)-1); merge clears it.
	init  []uint64
	pairs []uint64
	nodes []hfNode
	heap  mergeHeap
}

// initPair returns the merge of symbols i and i+1 of the piece.
func (m *hfMerger) initPair(t *pairTable, ids []int32, i int) uint64 {
	if len(m.init) == len(ids)-1 {
		return m.init[i]
	}
	return t.get(ids[i], ids[i+1])
}

// hfNode is a symbol in mergeLong's linked list; pair is its merge with
// the next symbol, or noPair.
type hfNode struct {
	prev, next int32
	id         int32
	pair       uint64
}

// merge merges the symbols ids, which start at offs, in place and returns
// how many are left: ids[:k] and offs[:k].
func (m *hfMerger) merge(t *pairTable, ids, offs []int32) int {
	var k int
	if len(ids) > shortPiece {
		k = m.mergeLong(t, ids, offs)
	} else {
		k = m.mergeShort(t, ids, offs)
	}
	m.init = m.init[:0]
	return k
}

// mergeShort scans all pairs after each merge: quadratic, but fast for a
// short piece.
func (m *hfMerger) mergeShort(t *pairTable, ids, offs []int32) int {
	n := len(ids)
	if n < 2 {
		return n
	}
	if cap(m.pairs) < n {
		m.pairs = make([]uint64, shortPiece+1)
	}
	p := m.pairs[:n]
	for i := range n - 1 {
		p[i] = m.initPair(t, ids, i)
	}
	p[n-1] = noPair
	for n > 1 {
		best, at := p[0], 0
		for i := 1; i < n-1; i++ {
			if p[i] < best {
				best, at = p[i], i
			}
		}
		if best == noPair {
			break
		}
		ids[at] = int32(uint32(best))
		copy(ids[at+1:n-1], ids[at+2:n])
		copy(offs[at+1:n-1], offs[at+2:n])
		copy(p[at+1:n-1], p[at+2:n])
		n--
		p[n-1] = noPair
		if at+1 < n {
			p[at] = t.get(ids[at], ids[at+1])
		} else {
			p[at] = noPair
		}
		if at > 0 {
			p[at-1] = t.get(ids[at-1], ids[at])
		}
	}
	return n
}

// mergeLong gives mergeShort's result in O(n log n): the symbols are a
// linked list and the candidate merges a heap ordered by rank, then
// position. An entry is stale when its symbol's pair no longer has its rank
// (a rank names one pair, so an equal rank means an unchanged pair).
func (m *hfMerger) mergeLong(t *pairTable, ids, offs []int32) int {
	n := int32(len(ids))
	if cap(m.nodes) < int(n) {
		m.nodes = make([]hfNode, n)
	}
	nodes := m.nodes[:n]
	if cap(m.heap) < int(n) {
		m.heap = make(mergeHeap, 0, n)
	}
	h := m.heap[:0]
	for i := range n {
		nodes[i] = hfNode{prev: i - 1, next: i + 1, id: ids[i], pair: noPair}
		if i+1 < n {
			if v := m.initPair(t, ids, int(i)); v != noPair {
				nodes[i].pair = v
				h = append(h, candidate(uint32(v>>32), i))
			}
		}
	}
	nodes[n-1].next = -1
	h.init()
	update := func(i int32) {
		nodes[i].pair = noPair
		if j := nodes[i].next; j >= 0 {
			if v := t.get(nodes[i].id, nodes[j].id); v != noPair {
				nodes[i].pair = v
				h.push(candidate(uint32(v>>32), i))
			}
		}
	}
	for len(h) > 0 {
		top := h.pop()
		i := int32(uint32(top))
		if nodes[i].pair == noPair || uint32(nodes[i].pair>>32) != uint32(top>>32) {
			continue
		}
		j := nodes[i].next
		nodes[i].id = int32(uint32(nodes[i].pair))
		k := nodes[j].next
		nodes[j].pair = noPair
		nodes[i].next = k
		if k >= 0 {
			nodes[k].prev = i
		}
		update(i)
		if p := nodes[i].prev; p >= 0 {
			update(p)
		}
	}
	m.heap = h
	k := 0
	for i := int32(0); i >= 0; i = nodes[i].next {
		ids[k], offs[k] = nodes[i].id, offs[i]
		k++
	}
	return k
}
