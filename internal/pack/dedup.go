package pack

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// maxPosting bounds how many kept parts one shingle is indexed for. A
// shingle in that many parts ("return nil }") says nothing about
// duplication; once its list is full it is no longer counted, which keeps
// deduplication linear.
const maxPosting = 64

// shingles returns the distinct FNV-1a hashes of the text's word 3-grams
// (of the whole text when it has fewer than three words), in first-seen
// order. Words are separated by Unicode white space.
func shingles(text string, seen map[uint64]bool, out []uint64) []uint64 {
	var win [3]uint64 // hashes of the last three words
	n := 0
	clear(seen)
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if unicode.IsSpace(r) {
			i += size
			continue
		}
		j := i
		h := uint64(14695981039346656037)
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if unicode.IsSpace(r) {
				break
			}
			for k := j; k < j+size; k++ {
				h ^= uint64(text[k])
				h *= 1099511628211
			}
			j += size
		}
		i = j
		win[0], win[1], win[2] = win[1], win[2], h
		n++
		if n >= 3 {
			s := mix(mix(win[0], win[1]), win[2])
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	if n > 0 && n < 3 {
		s := win[2]
		if n == 2 {
			s = mix(win[1], win[2])
		}
		out = append(out, s)
	}
	return out
}

func mix(a, b uint64) uint64 {
	a ^= b + 0x9e3779b97f4a7c15 + (a << 6) + (a >> 2)
	return a * 0xff51afd7ed558ccd
}

// dedup drops, in rank order, every part that repeats an earlier kept part:
// the same content id, or a shingle overlap |A∩B| / min(|A|,|B|) above the
// threshold. Pinned parts are never dropped. It returns the kept items in
// the order given, and the reasons for the rest.
func dedup(items []*item, threshold float64) (kept []*item, dropped []drop) {
	byCID := map[string]*item{}
	postings := map[uint64][]int32{} // shingle → indexes into kept
	var sizes []int
	var counts []int32 // shared-shingle counts per kept part, reset after each part
	var touched []int32
	seen := map[uint64]bool{}
	var sh []uint64
	overlap := threshold >= 0 && threshold < 1
	for _, it := range items {
		if first, ok := byCID[it.cid]; ok && !it.Pinned {
			dropped = append(dropped, drop{it: it, reason: "duplicate of " + first.Key})
			continue
		}
		sh = sh[:0]
		if overlap {
			sh = shingles(it.Text[it.start], seen, sh)
		}
		if len(sh) > 0 && !it.Pinned {
			for _, s := range sh {
				post := postings[s]
				if len(post) >= maxPosting {
					continue
				}
				for _, k := range post {
					if counts[k] == 0 {
						touched = append(touched, k)
					}
					counts[k]++
				}
			}
			best, bestOverlap := int32(-1), 0.0
			for _, k := range touched {
				o := float64(counts[k]) / float64(min(len(sh), sizes[k]))
				if o > threshold && (o > bestOverlap || (o == bestOverlap && k < best)) {
					best, bestOverlap = k, o
				}
				counts[k] = 0
			}
			touched = touched[:0]
			if best >= 0 {
				dropped = append(dropped, drop{it: it, reason: fmt.Sprintf("overlaps %s (%.2f)", kept[best].Key, bestOverlap)})
				continue
			}
		}
		if _, ok := byCID[it.cid]; !ok {
			byCID[it.cid] = it
		}
		k := int32(len(kept))
		kept = append(kept, it)
		sizes = append(sizes, len(sh))
		counts = append(counts, 0)
		for _, s := range sh {
			if post := postings[s]; len(post) < maxPosting {
				postings[s] = append(post, k)
			}
		}
	}
	return kept, dropped
}

// drop records a part left out, and why.
type drop struct {
	it     *item
	reason string
	need   int
}
