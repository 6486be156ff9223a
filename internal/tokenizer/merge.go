package tokenizer

import "math"

// none is the merge rank of two adjacent parts that do not form a token.
const none = math.MaxUint32

// shortPiece is the longest piece merged by rescanning all pairs after each
// merge, as tiktoken does (quadratic, but fast when short). Longer pieces
// use a heap and a linked list.
const shortPiece = 64

// merger merges the bytes of a piece into tokens. It holds scratch space
// that one Count or Truncate reuses; its zero value is ready to use.
type merger struct {
	// parts[i] is the rank of parts i and i+1 merged, shifted left by 32,
	// plus the offset where part i starts: the least value is the merge
	// to make next, the leftmost on ties.
	parts [shortPiece + 1]uint64
	nodes []mergeNode
	heap  mergeHeap
	out   []int32
}

// merge returns where the tokens of the piece s[lo:hi] start, relative to
// lo, followed by hi-lo: the piece's bytes merged repeatedly at the
// adjacent pair of parts whose concatenation has the lowest rank, the
// leftmost pair on ties, until no pair is a token. The result is valid until
// the next call.
func (m *merger) merge(v *vocab, s string, lo, hi int) []int32 {
	if hi-lo > shortPiece {
		return m.mergeLong(v, s[lo:hi])
	}
	parts := m.mergeShort(v, s, lo, hi)
	out := m.out[:0]
	for _, p := range parts {
		out = append(out, int32(uint32(p)))
	}
	m.out = out
	return out
}

// count returns the number of tokens of the piece s[lo:hi].
func (m *merger) count(v *vocab, s string, lo, hi int) int {
	if hi-lo > shortPiece {
		return len(m.mergeLong(v, s[lo:hi])) - 1
	}
	return len(m.mergeShort(v, s, lo, hi)) - 1
}

// pairRank returns the rank of the two-byte token s[i:i+2], or none.
func pairRank(v *vocab, s string, i int) uint32 {
	return uint32(v.pair[int(s[i])<<8|int(s[i+1])])
}

// mergeShort merges s[lo:hi], 2 <= hi-lo <= shortPiece, as tiktoken does:
// after each merge it scans all pairs for the next. It returns the parts
// (see merger.parts), followed by the end.
func (m *merger) mergeShort(v *vocab, s string, lo, hi int) []uint64 {
	const noMerge = none << 32
	n := hi - lo
	p := m.parts[:n+1]
	for i := range n - 1 {
		p[i] = uint64(pairRank(v, s, lo+i))<<32 | uint64(i)
	}
	p[n-1] = noMerge | uint64(n-1)
	p[n] = noMerge | uint64(n)
	for len(p) > 2 {
		best, at := p[0], 0
		for i := 1; i < len(p)-2; i++ {
			if p[i] < best {
				best, at = p[i], i
			}
		}
		if best >= noMerge {
			break
		}
		// Part at absorbs part at+1; its pairs with its neighbours change.
		start := lo + int(uint32(best))
		rank := uint32(none)
		if at+3 < len(p) {
			rank = uint32(v.rankIn(s, start, lo+int(uint32(p[at+3]))))
		}
		p[at] = uint64(rank)<<32 | uint64(uint32(best))
		if at > 0 {
			prev := uint32(p[at-1])
			p[at-1] = uint64(uint32(v.rankIn(s, lo+int(prev), lo+int(uint32(p[at+2])))))<<32 | uint64(prev)
		}
		for i := at + 1; i < len(p)-1; i++ {
			p[i] = p[i+1]
		}
		p = p[:len(p)-1]
	}
	return p
}

// mergeNode is the start of a part in mergeLong's linked list; rank is the
// rank of the part merged with the next one.
type mergeNode struct {
	prev, next int32
	rank       uint32
}

// mergeLong gives the same result as mergeShort in O(n log n): the parts
// are a doubly linked list and the candidate merges a heap ordered by rank,
// then offset. An entry whose rank no longer matches its node is stale:
// ranks are unique per token and a part only grows, so equal ranks mean an
// unchanged pair.
func (m *merger) mergeLong(v *vocab, piece string) []int32 {
	n := int32(len(piece))
	if cap(m.nodes) < int(n)+1 {
		m.nodes = make([]mergeNode, n+1)
	}
	nodes := m.nodes[:n+1]
	if cap(m.heap) < int(n) {
		m.heap = make(mergeHeap, 0, n)
	}
	h := m.heap[:0]
	for i := range n + 1 {
		nodes[i] = mergeNode{prev: i - 1, next: i + 1, rank: none}
		if i+1 < n {
			if r := pairRank(v, piece, int(i)); r != none {
				nodes[i].rank = r
				h = append(h, candidate(r, i))
			}
		}
	}
	nodes[n].next = -1
	h.init()

	// rankAt returns the rank of the part at i merged with the next one.
	rankAt := func(i int32) uint32 {
		j := nodes[i].next
		if j < 0 || nodes[j].next < 0 {
			return none
		}
		return uint32(v.rank(piece[i:nodes[j].next]))
	}
	for len(h) > 0 {
		top := h.pop()
		i := int32(uint32(top))
		if nodes[i].rank != uint32(top>>32) {
			continue
		}
		j := nodes[i].next
		k := nodes[j].next
		nodes[j].rank = none
		nodes[i].next = k
		if k >= 0 {
			nodes[k].prev = i
		}
		if nodes[i].rank = rankAt(i); nodes[i].rank != none {
			h.push(candidate(nodes[i].rank, i))
		}
		if p := nodes[i].prev; p >= 0 {
			if nodes[p].rank = rankAt(p); nodes[p].rank != none {
				h.push(candidate(nodes[p].rank, p))
			}
		}
	}
	m.heap = h

	out := m.out[:0]
	for i := int32(0); i >= 0; i = nodes[i].next {
		out = append(out, i)
	}
	m.out = out
	return out
}

// candidate returns the heap key of merging the part at offset at with the
// next one, whose rank is rank: ordered by rank, then offset.
func candidate(rank uint32, at int32) uint64 { return uint64(rank)<<32 | uint64(uint32(at)) }

// mergeHeap is a binary min-heap of candidate keys.
type mergeHeap []uint64

func (h mergeHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *mergeHeap) push(c uint64) {
	*h = append(*h, c)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p] <= c {
			break
		}
		s[i] = s[p]
		i = p
	}
	s[i] = c
}

func (h *mergeHeap) pop() uint64 {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	*h = s[:last]
	h.down(0)
	return top
}

func (h mergeHeap) down(i int) {
	if i >= len(h) {
		return
	}
	x := h[i]
	for {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if r := c + 1; r < len(h) && h[r] < h[c] {
			c = r
		}
		if x <= h[c] {
			break
		}
		h[i] = h[c]
		i = c
	}
	h[i] = x
}
