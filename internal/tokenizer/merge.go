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
	bounds [shortPiece + 1]int32
	ranks  [shortPiece + 1]uint32
	nodes  []mergeNode
	heap   mergeHeap
	out    []int32
}

// merge returns where the tokens of piece start, followed by len(piece):
// the piece's bytes merged repeatedly at the adjacent pair of parts whose
// concatenation has the lowest rank, the leftmost pair on ties, until no
// pair is a token. The result is valid until the next call.
func (m *merger) merge(v *vocab, piece string) []int32 {
	if len(piece) <= shortPiece {
		return m.mergeShort(v, piece)
	}
	return m.mergeLong(v, piece)
}

// pairRank returns the rank of the two-byte token piece[i:i+2], or none.
func pairRank(v *vocab, piece string, i int) uint32 {
	return uint32(v.pair[int(piece[i])<<8|int(piece[i+1])])
}

func (m *merger) mergeShort(v *vocab, piece string) []int32 {
	n := len(piece)
	b := m.bounds[:n+1]
	r := m.ranks[:n+1]
	for i := range n - 1 {
		b[i] = int32(i)
		r[i] = pairRank(v, piece, i)
	}
	b[n-1], r[n-1] = int32(n-1), none
	b[n], r[n] = int32(n), none
	// r[i] is the rank of parts i and i+1 merged: piece[b[i]:b[i+2]].
	for len(b) > 2 {
		best, at := uint32(none), 0
		for i, x := range r[:len(b)-2] {
			if x < best {
				best, at = x, i
			}
		}
		if best == none {
			break
		}
		if at+3 < len(b) {
			r[at] = uint32(v.rank(piece[b[at]:b[at+3]]))
		} else {
			r[at] = none
		}
		if at > 0 {
			r[at-1] = uint32(v.rank(piece[b[at-1]:b[at+2]]))
		}
		copy(b[at+1:], b[at+2:])
		copy(r[at+1:], r[at+2:])
		b, r = b[:len(b)-1], r[:len(r)-1]
	}
	return b
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
	h := m.heap[:0]
	for i := range n + 1 {
		nodes[i] = mergeNode{prev: i - 1, next: i + 1, rank: none}
		if i+1 < n {
			if r := pairRank(v, piece, int(i)); r != none {
				nodes[i].rank = r
				h = append(h, mergeCand{r, i})
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
		i := top.at
		if nodes[i].rank != top.rank {
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
			h.push(mergeCand{nodes[i].rank, i})
		}
		if p := nodes[i].prev; p >= 0 {
			if nodes[p].rank = rankAt(p); nodes[p].rank != none {
				h.push(mergeCand{nodes[p].rank, p})
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

// mergeCand is a possible merge of the part at offset at with the next one.
type mergeCand struct {
	rank uint32
	at   int32
}

// mergeHeap is a binary min-heap of merge candidates by rank, then offset.
type mergeHeap []mergeCand

func (h mergeHeap) less(a, b int) bool {
	if h[a].rank != h[b].rank {
		return h[a].rank < h[b].rank
	}
	return h[a].at < h[b].at
}

func (h mergeHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *mergeHeap) push(c mergeCand) {
	*h = append(*h, c)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s.less(i, p) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *mergeHeap) pop() mergeCand {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	*h = s[:last]
	h.down(0)
	return top
}

func (h mergeHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		c := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			c = r
		}
		if !h.less(c, i) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
