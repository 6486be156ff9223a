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
// Go's). A shingle is kept when its slot in a table of 8 bits per shingle
// has been hit twice: a shingle in two sets always is, one of one set
// only when another hash falls in its slot. Sets keep their size and
// rate, which the overlap is measured with; their hashes end up in one
// array.
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
	kept := 0
	for _, s := range sets {
		for _, h := range s.hashes {
			if w, b := slot(h); twice[w]&b != 0 {
				kept++
			}
		}
	}
	all := make([]uint64, 0, kept)
	for i := range sets {
		start := len(all)
		for _, h := range sets[i].hashes {
			if w, b := slot(h); twice[w]&b != 0 {
				all = append(all, h)
			}
		}
		sets[i].hashes = all[start:len(all):len(all)]
	}
}

// dedup drops, in rank order, every part that repeats an earlier kept part:
// the same content id, or a shingle overlap |A∩B| / min(|A|,|B|) above the
// threshold (estimated from the samples of big parts). Pinned parts are
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
// copies are dropped).
func dedupSets(items []*item, sets []shingleSet, threshold float64) (kept []*item, dropped []drop) {
	overlap := sets != nil
	byCID := make(map[string]*item, len(items))
	// Postings: shingle → index into lists; each list is a chain of kept
	// parts through slab, newest first.
	type list struct{ head, n int32 }
	type node struct{ part, next int32 }
	index := map[uint64]int32{}
	var lists []list
	slab := make([]node, 0, postings(sets))
	var keptSets []shingleSet
	var counts []int32 // shared shingles per kept part, reset after each part
	var touched []int32
	var found []int32 // the list of each of the part's shingles, -1 if none
	for i, it := range items {
		if first, ok := byCID[it.cid]; ok && !it.Pinned {
			dropped = append(dropped, drop{it: it, reason: "duplicate of " + first.Key})
			continue
		}
		var set shingleSet
		if overlap {
			set = sets[i]
		}
		found = found[:0]
		for _, s := range set.hashes {
			l, ok := index[s]
			if !ok {
				found = append(found, -1)
				continue
			}
			found = append(found, l)
			if lists[l].n >= maxPosting {
				continue
			}
			for n := lists[l].head; n >= 0; n = slab[n].next {
				k := slab[n].part
				if counts[k] == 0 {
					touched = append(touched, k)
				}
				counts[k]++
			}
		}
		best, bestOverlap := int32(-1), 0.0
		for _, k := range touched {
			other := keptSets[k]
			o := float64(counts[k]) * float64(max(set.rate, other.rate)) / float64(min(set.size, other.size))
			if o > threshold && (o > bestOverlap || (o == bestOverlap && k < best)) {
				best, bestOverlap = k, o
			}
			counts[k] = 0
		}
		touched = touched[:0]
		if best >= 0 && !it.Pinned {
			dropped = append(dropped, drop{it: it, reason: fmt.Sprintf("overlaps %s (%.2f)", kept[best].Key, min(bestOverlap, 1))})
			continue
		}
		if _, ok := byCID[it.cid]; !ok {
			byCID[it.cid] = it
		}
		k := int32(len(kept))
		kept = append(kept, it)
		keptSets = append(keptSets, set)
		counts = append(counts, 0)
		for j, s := range set.hashes {
			l := found[j]
			if l < 0 {
				l = int32(len(lists))
				lists = append(lists, list{head: -1})
				index[s] = l
			}
			if lists[l].n >= maxPosting {
				continue
			}
			slab = append(slab, node{part: k, next: lists[l].head})
			lists[l].head = int32(len(slab) - 1)
			lists[l].n++
		}
	}
	return kept, dropped
}

// postings is the most nodes dedupSets can index: a node per shingle of
// each set.
func postings(sets []shingleSet) int {
	n := 0
	for _, s := range sets {
		n += len(s.hashes)
	}
	return n
}

// drop records a part left out, and why.
type drop struct {
	it     *item
	reason string
	need   int
}
