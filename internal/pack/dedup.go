package pack

import (
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"
)

// maxPosting bounds how many kept parts one shingle is indexed for. A
// shingle in that many parts ("return nil }") says nothing about
// duplication; once its list is full it is no longer counted, which keeps
// deduplication linear.
const maxPosting = 64

// sampleAbove is the number of shingles above which a part keeps only the
// shingles whose hash is 0 mod sampleRate: a content-defined sample, the
// same in every part, so overlaps can still be estimated (scaled by the
// rate) while big files cost a quarter of the lookups.
const (
	sampleAbove = 256
	sampleRate  = 4
)

// shingleSet is a part's sampled word 3-gram hashes, sorted and distinct.
type shingleSet struct {
	hashes []uint64
	rate   int // 1, or sampleRate when sampled
	size   int // distinct shingles: exact, or estimated as len(hashes)*rate
}

// shingles returns the distinct hashes of the text's word 3-grams (of the
// whole text when it has fewer than three words). Words are separated by
// Unicode white space.
func shingles(text string) shingleSet {
	var win [3]uint64 // hashes of the last three words
	n := 0
	scratch := shingleScratch.Get().(*[]uint64)
	defer shingleScratch.Put(scratch)
	out := (*scratch)[:0]
	defer func() { *scratch = out[:0] }()
	// add appends a shingle; past sampleAbove shingles, only those of the
	// sample, keeping of the ones before only those of the sample too.
	add := func(h uint64) {
		switch {
		case n <= sampleAbove+2: // the first sampleAbove shingles (n counts words)
			out = append(out, h)
		case n == sampleAbove+3:
			out = sample(out)
			fallthrough
		default:
			if h%sampleRate == 0 {
				out = append(out, h)
			}
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f' {
				i++
				continue
			}
		} else if r, size := utf8.DecodeRuneInString(text[i:]); unicode.IsSpace(r) {
			i += size
			continue
		}
		h := uint64(14695981039346656037)
		j := i
		for j < len(text) {
			c := text[j]
			if c < utf8.RuneSelf {
				if c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f' {
					break
				}
				h = (h ^ uint64(c)) * 1099511628211
				j++
				continue
			}
			r, size := utf8.DecodeRuneInString(text[j:])
			if unicode.IsSpace(r) {
				break
			}
			for k := j; k < j+size; k++ {
				h = (h ^ uint64(text[k])) * 1099511628211
			}
			j += size
		}
		i = j
		win[0], win[1], win[2] = win[1], win[2], h
		n++
		if n >= 3 {
			add(mix(mix(win[0], win[1]), win[2]))
		}
	}
	switch n {
	case 1:
		out = append(out, win[2])
	case 2:
		out = append(out, mix(win[1], win[2]))
	}
	set := shingleSet{rate: 1}
	if n > sampleAbove+2 {
		set.rate = sampleRate
	}
	slices.Sort(out)
	out = slices.Compact(out)
	set.hashes, set.size = slices.Clone(out), max(1, len(out)*set.rate)
	return set
}

// shingleScratch holds the buffers shingles collects hashes in, so that
// the sets it returns take no more than their hashes.
var shingleScratch = sync.Pool{New: func() any { return new([]uint64) }}

// sample keeps the shingles of the sample: those whose hash is 0 mod
// sampleRate.
func sample(hashes []uint64) []uint64 {
	kept := hashes[:0]
	for _, h := range hashes {
		if h%sampleRate == 0 {
			kept = append(kept, h)
		}
	}
	return kept
}

func mix(a, b uint64) uint64 {
	a ^= b + 0x9e3779b97f4a7c15 + (a << 6) + (a >> 2)
	return a * 0xff51afd7ed558ccd
}

// allShingles computes every item's shingles in parallel; the result is
// by index, so scheduling never shows. Pinned items have theirs too: they
// are never dropped, but a later copy of one is. Each set keeps only the
// shingles that may be in another set too (see shared).
func allShingles(items []*item) []shingleSet {
	out := make([]shingleSet, len(items))
	parallel(len(items), func(i int) { out[i] = shingles(items[i].textAt(items[i].start)) })
	shared(out)
	return out
}

// shared drops from each set the shingles that are in no other set, all
// of them but a few: they can never count towards an overlap (an overlap
// is a shingle two parts share), so dedup decides exactly as with them,
// and on a large tree most shingles are of one file only (five in six on
// Go's). A shingle is kept when its slot in a table of eight slots per
// shingle (picked by the top bits of its hash; a bit for "hit once" and
// one for "hit twice") has been hit twice: a shingle in two sets always
// is, one of one set only when another hash falls in its slot. Sets keep
// their size and rate, which the overlap is measured with.
func shared(sets []shingleSet) {
	total := 0
	for _, s := range sets {
		total += len(s.hashes)
	}
	if total == 0 {
		return
	}
	shift := 64 - bits.Len(uint(max(64, 8*total)-1)) // slot = top bits of the hash
	once := make([]uint64, (1<<(64-shift))/64)
	twice := make([]uint64, len(once))
	slot := func(h uint64) (int, uint64) { i := h >> shift; return int(i / 64), 1 << (i % 64) }
	for _, s := range sets {
		for _, h := range s.hashes {
			w, b := slot(h)
			if once[w]&b != 0 {
				twice[w] |= b
			}
			once[w] |= b
		}
	}
	for i := range sets {
		kept := sets[i].hashes[:0]
		for _, h := range sets[i].hashes {
			if w, b := slot(h); twice[w]&b != 0 {
				kept = append(kept, h)
			}
		}
		sets[i].hashes = kept
	}
}

// dedup drops, in rank order, every part that repeats an earlier kept part:
// the same content id, or a shingle resemblance |A∩B| / |A∪B| above the
// threshold (estimated from the samples of big parts). The measure is
// symmetric: a small part whose text is contained in a bigger one is not
// a copy of it (a 20-line schema quoted in a 400-line tutorial is still a
// file of its own), only two parts that are mostly the same text are. Pinned parts are
// never dropped. It returns the kept items in the order given, and the
// reasons for the rest.
func dedup(items []*item, threshold float64) (kept []*item, dropped []drop) {
	var sets []shingleSet
	if threshold >= 0 && threshold < 1 {
		sets = allShingles(items)
	}
	return dedupSets(items, sets, threshold)
}

// dedupSets is dedup with the items' shingles given (nil when only exact
// copies are dropped). It consumes the sets' hashes.
func dedupSets(items []*item, sets []shingleSet, threshold float64) (kept []*item, dropped []drop) {
	var x postings
	if sets != nil {
		x = index(sets)
	}
	byCID := make(map[string]*item, len(items))
	keptAt := make([]int32, len(items)) // position in kept, -1 if dropped
	var counts []int32                  // shingles shared with each item, reset after each item
	var touched []int32
	var near [maxPosting]int32
	for i, it := range items {
		keptAt[i] = -1
		if first, ok := byCID[it.cid]; ok && !it.Pinned && it.cid != emptyCID {
			dropped = append(dropped, drop{it: it, reason: "duplicate of " + first.Key, copyOf: first, exact: true})
			continue
		}
		best, bestOverlap := int32(-1), 0.0
		if sets != nil {
			if counts == nil {
				counts = make([]int32, len(items))
			}
			for _, sh := range x.of(i) {
				// The kept items before this one that have the shingle:
				// counted when there are fewer than maxPosting (a
				// shingle that many parts have says nothing).
				n := 0
				for _, j := range x.has(sh) {
					if j == int32(i) || n == maxPosting {
						break
					}
					if keptAt[j] >= 0 {
						near[n] = j
						n++
					}
				}
				if n == maxPosting {
					continue
				}
				for _, j := range near[:n] {
					if counts[j] == 0 {
						touched = append(touched, j)
					}
					counts[j]++
				}
			}
			set := sets[i]
			for _, j := range touched {
				other := sets[j]
				o := resemblance(float64(counts[j])*float64(max(set.rate, other.rate)), set.size, other.size)
				if k := keptAt[j]; o > threshold && (o > bestOverlap || (o == bestOverlap && k < best)) {
					best, bestOverlap = k, o
				}
				counts[j] = 0
			}
			touched = touched[:0]
		}
		if best >= 0 && !it.Pinned {
			dropped = append(dropped, drop{it: it, reason: fmt.Sprintf("overlaps %s (%.2f)", kept[best].Key, min(bestOverlap, 1)), copyOf: kept[best], alike: min(bestOverlap, 1)})
			continue
		}
		if _, ok := byCID[it.cid]; !ok {
			byCID[it.cid] = it
		}
		keptAt[i] = int32(len(kept))
		kept = append(kept, it)
	}
	return kept, dropped
}

// emptyCID is the content id of an empty text: empty files are not copies
// of each other (each is its own file, and shows in no more room than a
// line naming another would take).
var emptyCID = contentID("")

// postings numbers the shingles of the items' sets and lists, for each,
// the items that have it, in item order.
type postings struct {
	shingles, shStart []int32 // item i's: shingles[shStart[i]:shStart[i+1]]
	items, itStart    []int32 // shingle s's: items[itStart[s]:itStart[s+1]]
}

func (x *postings) of(i int) []int32    { return x.shingles[x.shStart[i]:x.shStart[i+1]] }
func (x *postings) has(s int32) []int32 { return x.items[x.itStart[s]:x.itStart[s+1]] }

// index makes the postings of sets, dropping each set's hashes once it is
// numbered.
func index(sets []shingleSet) postings {
	total := 0
	for _, s := range sets {
		total += len(s.hashes)
	}
	x := postings{shingles: make([]int32, 0, total), shStart: make([]int32, len(sets)+1)}
	number := make(map[uint64]int32, total/4)
	for i := range sets {
		for _, h := range sets[i].hashes {
			n, ok := number[h]
			if !ok {
				n = int32(len(number))
				number[h] = n
			}
			x.shingles = append(x.shingles, n)
		}
		x.shStart[i+1] = int32(len(x.shingles))
		sets[i].hashes = nil
	}
	x.itStart = make([]int32, len(number)+1)
	for _, n := range x.shingles {
		x.itStart[n+1]++
	}
	for n := range len(number) {
		x.itStart[n+1] += x.itStart[n]
	}
	x.items = make([]int32, len(x.shingles))
	fill := slices.Clone(x.itStart[:len(number)])
	for i := range sets {
		for _, n := range x.of(i) {
			x.items[fill[n]] = int32(i)
			fill[n]++
		}
	}
	return x
}

// resemblance is the Jaccard index of two shingle sets of the given sizes
// that share inter shingles (an estimate when either is sampled):
// |A∩B| / |A∪B|, the union never taken below the larger set.
func resemblance(inter float64, a, b int) float64 {
	union := max(float64(a)+float64(b)-inter, float64(max(a, b)))
	return inter / union
}

// drop records a part left out, and why.
type drop struct {
	it     *item
	reason string
	need   int
	// copyOf is the kept part a deduplicated part repeats: exactly (the
	// same content id) or alike (the shingle resemblance).
	copyOf *item
	exact  bool
	alike  float64
}
