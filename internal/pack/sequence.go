package pack

import (
	"container/heap"
	"math"
	"slices"
)

// fillWindow is how many steps past a step that does not fit the sequence
// looks for smaller steps to place first (see fill).
const fillWindow = 64

// step raises one item to one level; the first step of an item adds it.
type step struct {
	it      *item
	level   Level
	prev    *step // the item's previous step; nil for the first
	next    *step // the item's next step, once materialized
	cost    int   // tokens the step adds, run header included; set when placed
	cum     int   // tokens of the sequence up to and including this step
	key     int   // the smallest budget at which the sequence includes this step
	release int   // the budget before which the item cap holds this step back while other steps need the room
	placed  bool
	waiting bool // deferred until prev is placed
	fit     int  // the item's packing position, for tie-breaks
}

// sequence is the budget-independent list of steps: the context for budget
// B is its longest prefix whose keys are all at most B.
type sequence struct {
	steps    []*step
	complete bool // every step of every item is placed
}

// bucketQueue is one bucket's steps in packing order, materialized lazily:
// every item's first step, then (with degrade) each item's upgrades.
type bucketQueue struct {
	share float64
	used  int
	items []*item
	list  []*step
	adds  int // items whose first step is materialized
	ups   int // items whose upgrades are materialized
	next  int // first index not yet placed or deferred
}

// builder places steps. Nothing it does depends on the budget, except
// where it may stop early.
type builder struct {
	c         *coster
	opt       *Options
	firstStep map[*item]*step
	buckets   []*bucketQueue
	fillers   bool
	seq       sequence
	overhead  int // the format's opening and closing text, paid by the first step
	cum, key  int
	deferred  deferHeap
	groupPaid map[string]bool // documents whose doc-format run header is paid
	headPaid  map[string]bool // section headings paid
}

// build returns the sequence for items, which are in packing order.
// Pinned items come first, at their start level. When stopAt is not
// negative, building stops once a step's key passes it.
func build(c *coster, opt *Options, items []*item, overhead int, stopAt int) sequence {
	b := &builder{c: c, opt: opt, firstStep: map[*item]*step{}, groupPaid: map[string]bool{}, headPaid: map[string]bool{}}
	b.fillers = opt.Overflow == Degrade || opt.Overflow == Drop
	b.overhead = overhead
	for _, bk := range opt.Policy.Buckets {
		b.buckets = append(b.buckets, &bucketQueue{share: bk.Share})
	}
	for _, it := range items {
		if it.Pinned {
			b.place(&step{it: it, level: it.start, fit: it.fit})
			continue
		}
		q := b.buckets[it.bucket]
		q.items = append(q.items, it)
	}
	for {
		if stopAt >= 0 && b.key > stopAt {
			return b.seq
		}
		b.placeReleased()
		q := b.pickBucket()
		if q == nil {
			if b.deferred.Len() == 0 {
				break
			}
			// Every other step is placed: the item cap has held these
			// back for the parts that needed the room, and none is left
			// to need it. They are placed as they fit, the cap no longer
			// raising their key: a capped part rises while the budget
			// allows, rather than waiting for a budget ItemCap of which
			// would hold it.
			s := heap.Pop(&b.deferred).(*step)
			s.release = 0
			b.place(s)
			continue
		}
		s := q.list[q.next]
		q.next++
		if s.placed {
			continue
		}
		if (s.prev != nil && !s.prev.placed) || b.cum+b.costOf(s) < s.release {
			b.postpone(s)
			continue
		}
		if b.fillers {
			b.fill(q, b.costOf(s)/2)
		}
		b.place(s)
	}
	b.seq.complete = true
	return b.seq
}

// has reports whether q has a step at index i, materializing as needed.
func (b *builder) has(q *bucketQueue, i int) bool {
	for i >= len(q.list) {
		switch {
		case q.adds < len(q.items):
			it := q.items[q.adds]
			q.adds++
			s := &step{it: it, level: b.first(it), fit: it.fit}
			s.release = b.releaseOf(s)
			b.firstStep[it] = s
			q.list = append(q.list, s)
		case b.opt.Overflow == Degrade && q.ups < len(q.items):
			it := q.items[q.ups]
			q.ups++
			prev := b.firstStep[it]
			for _, l := range b.ladder(q, q.ups-1)[1:] {
				s := &step{it: it, level: l, prev: prev, fit: it.fit}
				s.release = b.releaseOf(s)
				prev.next = s
				q.list = append(q.list, s)
				prev = s
			}
		default:
			return false
		}
	}
	return true
}

// mayHave reports, without materializing steps, whether q may have steps
// left: true when it has unplaced materialized steps or items still to
// materialize (whose upgrades may turn out to be none).
func (b *builder) mayHave(q *bucketQueue) bool {
	return q.next < len(q.list) || q.adds < len(q.items) ||
		(b.opt.Overflow == Degrade && q.ups < len(q.items))
}

// first is the level an item is added at: the lowest rung of its
// ladder. It is chosen from the part's Text alone, so it is known without
// calling More.
func (b *builder) first(it *item) Level {
	if b.opt.Overflow != Degrade || it.Pinned {
		return it.start
	}
	return lowestRung(b.c, it)
}

// lowestRung is the lowest level of the part's Text that is shorter than
// every higher level up to its start level (coster.shorter), or the
// start level.
func lowestRung(c *coster, it *item) Level {
	low := it.start
	for l := it.start - 1; l >= Meta; l-- {
		if _, ok := it.Text[l]; ok && c.shorter(it, l, low) {
			low = l
		}
	}
	return low
}

// ladder returns the levels an item climbs, lowest first. With degrade it
// is its first level, then every level it has between that and its start
// level whose text is longer than the first's and shorter than every
// higher rung's as shown (a lower level as long as a higher one is
// pointless), then the start level; otherwise, and for pinned items, just
// the start level. Lengths, not token counts, decide where they are far
// apart (coster.shorter), so building the ladder of a large file
// tokenizes nothing: only the steps the sequence reaches are measured.
// The item's More is called here, when the sequence needs its upgrades;
// the next resolveAhead items of q are resolved with it, in parallel.
func (b *builder) ladder(q *bucketQueue, i int) []Level {
	it := q.items[i]
	low := b.first(it)
	if low == it.start {
		return []Level{low}
	}
	if it.pending {
		resolveAll(q.items[i:min(len(q.items), i+resolveAhead)])
	}
	lad := []Level{it.start}
	top := it.start
	for l := it.start - 1; l > low; l-- {
		if it.has[l] && b.c.shorter(it, l, top) && b.c.shorter(it, low, l) {
			lad = append(lad, l)
			top = l
		}
	}
	lad = append(lad, low)
	slices.Reverse(lad)
	return lad
}

// resolveAhead is how many items' More the builder calls at once, in
// parallel, when it first needs one of them.
const resolveAhead = 16

// costOf is the tokens step s adds if placed now: the item's body at the
// new level less its body at the old one, plus the run header when the doc
// format needs one.
//
// With Options.MetaAsTree, a tree item's metadata level is a line of the
// directory tree, whose tokens the first step pays with the overhead
// (fitter.reserveTree): adding it costs nothing more, and raising it costs
// the whole of its new block, as adding it at that level would.
func (b *builder) costOf(s *step) int {
	if s.it.tree && s.level == Meta && s.prev == nil {
		if len(b.seq.steps) == 0 {
			return b.overhead
		}
		return 0
	}
	c := b.c.body(s.it, s.level)
	if len(b.seq.steps) == 0 {
		c += b.overhead
	}
	if s.prev != nil && !(s.it.tree && s.prev.level == Meta) {
		return c - b.c.body(s.it, s.prev.level)
	}
	if !b.headPaid[s.it.Heading] {
		c += b.c.heading(s.it)
	}
	if b.opt.Strategy == Greedy && b.groupPaid[s.it.doc] {
		return c
	}
	return c + b.c.header(s.it)
}

// releaseOf is the smallest budget at which the item cap allows the item at
// s.level while other parts still need the room: the item may take at
// most ItemCap of its bucket's share until every other step is placed,
// after which it rises as the budget allows (build) (a cap that cuts,
// Policy.Cut, has done its work before: nothing waits). With
// degrade, an item's lowered least form is never held back, only its
// fuller levels; an item whose only form is its start level is capped as
// under drop.
func (b *builder) releaseOf(s *step) int {
	cp := b.opt.Policy.ItemCap
	if cp <= 0 || b.opt.Policy.Cut || s.it.Pinned || (s.prev == nil && b.opt.Overflow == Degrade && s.level < s.it.start) {
		return 0
	}
	frac := b.shareFraction(s.it.bucket)
	if frac <= 0 {
		return math.MaxInt32
	}
	return int(math.Ceil(float64(b.c.body(s.it, s.level)) / (cp * frac)))
}

func (b *builder) shareFraction(i int) float64 {
	eff, total := b.effectiveShares(i)
	if total <= 0 {
		return 0
	}
	return eff[i] / total
}

// effectiveShares gives each bucket with steps left its share plus the
// shares of exhausted buckets before it (wrapping around). Bucket self
// (-1 for none) counts as having steps left: it is the bucket of a step
// being made, which is not queued yet.
func (b *builder) effectiveShares(self int) ([]float64, float64) {
	n := len(b.buckets)
	eff := make([]float64, n)
	live := make([]bool, n)
	total := 0.0
	for i, q := range b.buckets {
		total += q.share
		live[i] = i == self || b.mayHave(q)
	}
	for i, q := range b.buckets {
		if live[i] {
			eff[i] += q.share
			continue
		}
		for k := 1; k < n; k++ {
			if j := (i + k) % n; live[j] {
				eff[j] += q.share
				break
			}
		}
	}
	return eff, total
}

// pickBucket returns the bucket with steps left that has used the least of
// its effective share; ties go to the earlier bucket.
func (b *builder) pickBucket() *bucketQueue {
	eff, _ := b.effectiveShares(-1)
	var best *bucketQueue
	bestRatio := math.Inf(1)
	for i, q := range b.buckets {
		if !b.has(q, q.next) {
			continue
		}
		r := math.Inf(1)
		if eff[i] > 0 {
			r = float64(q.used) / eff[i]
		}
		if best == nil || r < bestRatio {
			best, bestRatio = q, r
		}
	}
	return best
}

// fill places, before a step that costs c, the parts among the next
// fillWindow steps of its bucket that can be added whole within room =
// c/2, in order. This is how a part that does not fit is skipped while
// packing goes on (CFS-021's vector: B does not fit after A, C does) without
// breaking monotonicity: the fillers come before the big step at every
// budget, so it is never dropped for them at a larger budget, and it enters
// at most c/2 tokens later than it would without them. Only adding a part
// can fill: raising a part's level never jumps ahead of a
// higher-priority part.
func (b *builder) fill(q *bucketQueue, room int) {
	for i, seen := q.next, 0; seen < fillWindow && room > 0; i++ {
		// A queue materializes every item's first step before any
		// upgrade, so once the adds are behind, nothing can fill; and
		// the upgrades are not materialized (their ladders may call More).
		if i >= len(q.list) && q.adds == len(q.items) || !b.has(q, i) {
			return
		}
		s := q.list[i]
		if s.prev != nil {
			return
		}
		if s.placed || s.waiting {
			continue
		}
		seen++
		c := b.costOf(s)
		if c > room || b.cum+c < s.release {
			continue
		}
		b.place(s)
		room -= c
	}
}

func (b *builder) place(s *step) {
	s.cost = b.costOf(s)
	b.cum += s.cost
	s.cum = b.cum
	b.key = max(b.key, b.cum) // a step is placed only once cum reaches its release
	s.key = b.key
	s.placed = true
	if s.prev == nil && !(s.it.tree && s.level == Meta) || s.prev != nil && s.it.tree && s.prev.level == Meta {
		b.groupPaid[s.it.doc] = true
		b.headPaid[s.it.Heading] = true
	}
	if !s.it.Pinned {
		b.buckets[s.it.bucket].used += s.cost
	}
	b.seq.steps = append(b.seq.steps, s)
	if n := s.next; n != nil && n.waiting {
		n.waiting = false
		heap.Push(&b.deferred, n)
	}
}

// postpone defers a step until the item cap releases it or, for an
// upgrade, until the item's previous step is placed.
func (b *builder) postpone(s *step) {
	if s.prev != nil && !s.prev.placed {
		s.waiting = true
		return
	}
	heap.Push(&b.deferred, s)
}

// placeReleased places deferred steps that the sequence has grown into.
func (b *builder) placeReleased() {
	for b.deferred.Len() > 0 {
		s := b.deferred[0]
		if b.cum+b.costOf(s) < s.release {
			return
		}
		heap.Pop(&b.deferred)
		b.place(s)
	}
}

// deferHeap orders deferred steps by the budget that releases them, then
// by packing order.
type deferHeap []*step

func (h deferHeap) Len() int { return len(h) }
func (h deferHeap) Less(i, j int) bool {
	if h[i].release != h[j].release {
		return h[i].release < h[j].release
	}
	if h[i].fit != h[j].fit {
		return h[i].fit < h[j].fit
	}
	return h[i].level < h[j].level
}
func (h deferHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *deferHeap) Push(x any)   { *h = append(*h, x.(*step)) }
func (h *deferHeap) Pop() any {
	old := *h
	s := old[len(old)-1]
	*h = old[:len(old)-1]
	return s
}
