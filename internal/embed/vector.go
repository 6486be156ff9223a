package embed

import (
	"cmp"
	"container/heap"
	"fmt"
	"github.com/ctxpack/ctxpack/internal/rank"
	"math"
	"slices"
)

// Normalize scales v in place to unit length (L2 norm 1), computing the
// norm in float64. A zero vector is left as it is; Normalize reports
// whether v was non-zero.
func Normalize(v []float32) bool {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return false
	}
	inv := 1 / math.Sqrt(s)
	for i, x := range v {
		v[i] = float32(float64(x) * inv)
	}
	return true
}

// Dot returns the dot product of a and b, which must have the same length
// (it panics otherwise).
//
// Every product of two float32 values is exact in float64, and the sum is
// taken in float64 in a fixed order, so the result is the same on every
// platform, whether or not the compiler fuses multiply and add.
func Dot(a, b []float32) float64 {
	if len(a) != len(b) {
		panic(fmt.Sprintf("embed: Dot of vectors of lengths %d and %d", len(a), len(b)))
	}
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += float64(a[i]) * float64(b[i])
		s1 += float64(a[i+1]) * float64(b[i+1])
		s2 += float64(a[i+2]) * float64(b[i+2])
		s3 += float64(a[i+3]) * float64(b[i+3])
	}
	for ; i < len(a); i++ {
		s0 += float64(a[i]) * float64(b[i])
	}
	return (s0 + s1) + (s2 + s3)
}

// Scored is a key with its score, quantized to 1e-6.
type Scored[K any] struct {
	Key   K
	Score float64
}

// Top keeps the k best of the keys pushed to it, in the total order of
// DESIGN §2: score descending after quantizing to 1e-6, then key
// ascending by the caller's compare function, which must be a total order
// on the keys. It also keeps every key whose quantized score equals that
// of the k-th best, for callers whose final order breaks ties by
// something other than the key (BestWithTies).
//
// What Top returns depends only on the multiset of (key, score) pushed,
// not on the order of the pushes. Use NewTop; a Top is not safe for
// concurrent use.
type Top[K any] struct {
	k       int
	compare func(a, b K) int
	h       topHeap[K] // the k best so far, worst at the root
	tied    []scoredQ[K]
	tiedQ   int64 // the quantized score every entry of tied has
}

type scoredQ[K any] struct {
	key K
	q   int64
}

// NewTop returns a Top that keeps the k best keys; k <= 0 keeps none.
func NewTop[K any](k int, compare func(a, b K) int) *Top[K] {
	t := &Top[K]{k: max(k, 0), compare: compare}
	t.h.compare = compare
	return t
}

// better reports whether a ranks before b.
func better[K any](a, b scoredQ[K], compare func(a, b K) int) bool {
	if a.q != b.q {
		return a.q > b.q
	}
	return compare(a.key, b.key) < 0
}

// Push offers key with its score.
func (t *Top[K]) Push(key K, score float64) {
	if t.k == 0 {
		return
	}
	e := scoredQ[K]{key: key, q: rank.Quantize(score)}
	if len(t.h.s) < t.k {
		heap.Push(&t.h, e)
		return
	}
	worst := t.h.s[0]
	if !better(e, worst, t.compare) {
		t.tie(e, worst.q)
		return
	}
	t.h.s[0] = e
	heap.Fix(&t.h, 0)
	t.tie(worst, t.h.s[0].q)
}

// tie keeps e, left out of the k best, if its score equals the k-th
// best's, q; entries tied at a lower score than q are dropped.
func (t *Top[K]) tie(e scoredQ[K], q int64) {
	if len(t.tied) > 0 && t.tiedQ != q {
		t.tied = t.tied[:0]
	}
	if e.q == q {
		t.tied = append(t.tied, e)
		t.tiedQ = q
	}
}

// BestWithTies returns the k best keys (fewer if fewer were pushed), best
// first, and after them every other key pushed whose quantized score
// equals the k-th best's, in the same order.
func (t *Top[K]) BestWithTies() []Scored[K] {
	all := slices.Clone(t.h.s)
	if len(t.h.s) > 0 && len(t.tied) > 0 && t.tiedQ == t.h.s[0].q {
		all = append(all, t.tied...)
	}
	return t.result(all)
}

func (t *Top[K]) result(es []scoredQ[K]) []Scored[K] {
	es = slices.Clone(es)
	slices.SortFunc(es, func(a, b scoredQ[K]) int {
		return cmp.Or(cmp.Compare(b.q, a.q), t.compare(a.key, b.key))
	})
	out := make([]Scored[K], len(es))
	for i, e := range es {
		out[i] = Scored[K]{Key: e.key, Score: float64(e.q) / rank.Quantum}
	}
	return out
}

// topHeap is a heap with the worst entry at the root.
type topHeap[K any] struct {
	s       []scoredQ[K]
	compare func(a, b K) int
}

func (h topHeap[K]) Len() int           { return len(h.s) }
func (h topHeap[K]) Less(i, j int) bool { return better(h.s[j], h.s[i], h.compare) }
func (h topHeap[K]) Swap(i, j int)      { h.s[i], h.s[j] = h.s[j], h.s[i] }
func (h *topHeap[K]) Push(x any)        { h.s = append(h.s, x.(scoredQ[K])) }
func (h *topHeap[K]) Pop() any {
	e := h.s[len(h.s)-1]
	h.s = h.s[:len(h.s)-1]
	return e
}
