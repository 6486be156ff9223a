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
	// relevance is Options.Strategy == Relevance: every part is in one
	// queue, in rank order, whatever its bucket, and climbs its ladder
	// before the next part is added (see has); its ladder starts at
	// detailed (floorRung).
	relevance bool
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
	b.relevance = opt.Strategy == Relevance
	b.overhead = overhead
	if b.relevance {
		b.buckets = []*bucketQueue{{share: 1}}
	} else {
		for _, bk := range opt.Policy.Buckets {
			b.buckets = append(b.buckets, &bucketQueue{share: bk.Share})
		}
	}
	for _, it := range items {
		if it.Pinned {
			b.place(&step{it: it, level: it.start, fit: it.fit})
			continue
		}
		q := b.buckets[b.queueOf(it)]
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
		// Under the relevance strategy a part shown at its floor rises
		// before anything else is added: nothing fills ahead of its
		// raise, so the best part is whole at the least budget.
		if b.fillers && !(b.relevance && s.prev != nil) {
			b.fill(q, s, b.costOf(s)/2)
		}
		b.place(s)
	}
	b.seq.complete = true
	return b.seq
}

// queueOf is the index of the queue an item's steps are in: its bucket's,
// or with the relevance strategy the one queue.
func (b *builder) queueOf(it *item) int {
	if b.relevance {
		return 0
	}
	return it.bucket
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
			if b.relevance && b.opt.Overflow == Degrade {
				// The part climbs to its start level before the next
				// part is added: the best parts are whole before a
				// weaker one is shown at all.
				b.climb(q, q.adds-1)
				q.ups = q.adds
			}
		case b.opt.Overflow == Degrade && q.ups < len(q.items):
			q.ups++
			b.climb(q, q.ups-1)
		default:
			return false
		}
	}
	return true
}

// climb queues the upgrades of q's i-th item after its first step.
func (b *builder) climb(q *bucketQueue, i int) {
	it := q.items[i]
	prev := b.firstStep[it]
	for _, l := range b.ladder(q, i)[1:] {
		s := &step{it: it, level: l, prev: prev, fit: it.fit}
		s.release = b.releaseOf(s)
		prev.next = s
		q.list = append(q.list, s)
		prev = s
	}
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
	if b.relevance {
		return floorRung(it)
	}
	return lowestRung(b.c, it)
}

// floorRung is the first level of an item under the relevance strategy:
// its detailed level when that is at most half as long as the part at
// its start level, as shown, and shows enough of it: a window of its
// lines (Part.Window), or an outline at least an eighth as long as the
// whole; else the start level. A summary, a metadata line or a
// signature alone is not worth its header where the budget goes to the
// best parts first, nor is a detailed level that saves little: a part
// that does not fit at its floor is left out, and listed with what is
// not shown. A lazy part's levels are resolved here, once, when the
// sequence reaches it.
// floorMinBytes is the least size of a part that the relevance strategy
// may show at its detailed level before its whole: about 1,000 tokens of
// code. A smaller part is shown whole or not at all.
const floorMinBytes = 2000

func floorRung(it *item) Level {
	if it.start <= Detailed {
		return it.start
	}
	it.resolve()
	if !it.has[Detailed] {
		return it.start
	}
	d, whole := it.shownSize(Detailed), it.shownSize(it.start)
	if whole >= floorMinBytes && 2*d <= whole && (len(it.Window) > 0 || 8*d >= whole) {
		return Detailed
	}
	return it.start
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
		if b.relevance {
			break // floorRung's level is the only one below the start
		}
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
// under drop. The relevance strategy holds nothing back: the best part
// is worth its room, and a large one has its floor rung to start at.
func (b *builder) releaseOf(s *step) int {
	cp := b.opt.Policy.ItemCap
	if cp <= 0 || b.relevance || b.opt.Policy.Cut || s.it.Pinned || (s.prev == nil && b.opt.Overflow == Degrade && s.level < s.it.start) {
		return 0
	}
	frac := b.shareFraction(b.queueOf(s.it))
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

// fill places, before step big that costs c, the parts among the next
// fillWindow steps of its bucket that can be added whole within room =
// c/2, in order. This is how a part that does not fit is skipped while
// packing goes on (CFS-021's vector: B does not fit after A, C does) without
// breaking monotonicity: the fillers come before the big step at every
// budget, so it is never dropped for them at a larger budget, and it enters
// at most c/2 tokens later than it would without them. Only adding a part
// can fill: raising a part's level never jumps ahead of a
// higher-priority part. A part with no score never fills before a step
// of a part that has one: it would be shown while a relevant part is
// left out or lowered. Under the relevance strategy a queue holds each
// part's upgrades right after its first step, and fill looks past them.
func (b *builder) fill(q *bucketQueue, big *step, room int) {
	for i, seen := q.next, 0; seen < fillWindow && room > 0; i++ {
		// A queue materializes every item's first step before any
		// upgrade, so once the adds are behind, nothing can fill; and
		// the upgrades are not materialized (their ladders may call More).
		if i >= len(q.list) && q.adds == len(q.items) || !b.has(q, i) {
			return
		}
		s := q.list[i]
		if s.prev != nil {
			if b.relevance {
				continue
			}
			return
		}
		if s.placed || s.waiting || s.it.q <= 0 && big.it.q > 0 {
			continue
		}
		seen++
		c := b.costOf(s)
		if b.relevance {
			c = b.climbCost(s)
		}
		if c > room || b.cum+c < s.release {
			continue
		}
		room -= c
		for ; s != nil; s = s.next {
			b.place(s)
			if !b.relevance {
				break
			}
		}
	}
}

// climbCost is, under the relevance strategy, what adding a part and
// raising it to its start level costs: a filler is a part shown whole,
// never the floor of a part that a big step would then keep from
// rising.
func (b *builder) climbCost(s *step) int {
	c := b.costOf(s)
	for u := s.next; u != nil; u = u.next {
		c += b.c.body(u.it, u.level) - b.c.body(u.it, u.prev.level)
	}
	return c
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
		b.buckets[b.queueOf(s.it)].used += s.cost
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
