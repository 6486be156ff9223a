package pack

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/rank"
	"github.com/ctxpack/ctxpack/internal/textsim"
)

// DedupStrategy is how the engine finds the parts that repeat others
// (Options.DedupStrategy).
type DedupStrategy string

// The deduplication strategies.
const (
	// Shingles drops, in rank order, a part with the content id of an
	// earlier kept part, or whose word 3-gram shingles resemble an earlier
	// kept part's above the threshold (0.8: |A∩B| / |A∪B|, symmetric, so a
	// part contained in a bigger one is kept): the default, linear in the
	// parts, for files and chunks.
	Shingles DedupStrategy = "shingles"
	// EditDistance compares parts most relevant first (compareRelevance)
	// and drops a part whose text is at least the threshold (0.9) alike
	// to a kept part's: 1 − Levenshtein distance / length, after
	// lower-casing and collapsing white space (textsim); or that is the
	// same thing as a kept part of another bucket, or names only a file
	// another part shows (DedupKeys). The more relevant copy is kept. It
	// compares every pair, for the few dozen items of sources mode, whose
	// near copies (an edited note, a reworded lesson) share few shingles.
	EditDistance DedupStrategy = "edit-distance"
)

// ParseDedupStrategy parses a deduplication strategy name; "" is Shingles.
func ParseDedupStrategy(s string) (DedupStrategy, error) {
	switch DedupStrategy(s) {
	case "":
		return Shingles, nil
	case Shingles, EditDistance:
		return DedupStrategy(s), nil
	}
	return "", fmt.Errorf("pack: unknown dedup strategy %q (valid: shingles, edit-distance)", s)
}

// defaultThreshold is the strategy's threshold when the options give none.
func (s DedupStrategy) defaultThreshold() float64 {
	if s == EditDistance {
		return 0.9 // the ContextAssembler seed's "fuzzy match with 90% similarity"
	}
	return 0.8
}

// DedupKeys tell the EditDistance deduplication what a part is beyond its
// text. The zero value says nothing more.
type DedupKeys struct {
	// Text is the text compared for likeness when it is not the part's
	// text at its start level: an item's body, without the heading and
	// metadata line every item of its kind has.
	Text string
	// Origin names what the part was made from, as KIND:ID
	// ("experience:12", for an experience and for a value derived from
	// it). A part whose Origin a kept part of another bucket has repeats
	// it ("duplicate of value:3: the same experience (experience:12)").
	Origin string
	// Shows is the file whose text the part shows (a code chunk's); Names
	// are the files it only names (a commit's changed files). A part that
	// names exactly one file, which a part shows, repeats the most
	// relevant part that shows it, whatever its own relevance: that part
	// holds what it only names.
	Shows string
	Names []string
}

// dedup runs the options' deduplication strategy over items, which are in
// rank order; it returns the kept items in the order given and the
// reasons for the rest, in the order the strategy went through them.
func (o *Options) dedup(items []*item) ([]*item, []drop) {
	if o.DedupStrategy == EditDistance {
		return dedupSimilar(items, o.DedupThreshold)
	}
	return dedup(items, o.DedupThreshold)
}

// dedupSimilar is the EditDistance strategy. Pinned parts are never
// dropped.
func dedupSimilar(items []*item, threshold float64) ([]*item, []drop) {
	order := slices.Clone(items)
	slices.SortFunc(order, compareRelevance)
	texts := make([]textsim.Text, len(order))
	parallel(len(order), func(i int) {
		it := order[i]
		text := it.Dedup.Text
		if text == "" {
			text = it.textAt(it.start)
		}
		texts[i] = textsim.Prepare(text)
	})
	shows := map[string]*item{} // the most relevant part that shows each file
	for _, it := range order {
		if f := it.Dedup.Shows; f != "" && shows[f] == nil {
			shows[f] = it
		}
	}
	var kept []int // indexes into order
	var dropped []drop
	out := map[*item]bool{}
	for i, it := range order {
		why := ""
		if len(it.Dedup.Names) == 1 {
			f := it.Dedup.Names[0]
			if k := shows[f]; k != nil && k != it {
				why = fmt.Sprintf("duplicate of %s: the same file (%s), which the %s item shows", k.Key, f, k.Type)
			}
		}
		for _, j := range kept {
			if why != "" {
				break
			}
			why = repeats(it, order[j], texts[i], texts[j], threshold)
		}
		if why != "" && !it.Pinned {
			dropped = append(dropped, drop{it: it, reason: why})
			out[it] = true
			continue
		}
		kept = append(kept, i)
	}
	return slices.DeleteFunc(slices.Clone(items), func(it *item) bool { return out[it] }), dropped
}

// repeats says why it, whose text is a, repeats k, a more relevant kept
// part whose text is b, or "" when it does not.
func repeats(it, k *item, a, b textsim.Text, threshold float64) string {
	if o := it.Dedup.Origin; o != "" && o == k.Dedup.Origin && it.bucket != k.bucket {
		kind, _, _ := strings.Cut(o, ":")
		return fmt.Sprintf("duplicate of %s: the same %s (%s)", k.Key, kind, o)
	}
	if sim, ok := a.AtLeast(b, threshold); ok {
		return fmt.Sprintf("duplicate of %s: the texts are %.0f%% alike", k.Key, math.Floor(100*sim))
	}
	return ""
}

// compareRelevance is the order the EditDistance deduplication and a
// cutting item cap go through parts in: pinned first, priority desc, then
// most relevant first by the part's own score (the recency the engine adds
// with PreferRecent aside), ties going to the part of the earlier bucket
// (the source shown first), then path, sequence, offset and key, as in
// the total order.
func compareRelevance(a, b *item) int {
	if a.Pinned != b.Pinned {
		if a.Pinned {
			return -1
		}
		return 1
	}
	return cmp.Or(
		cmp.Compare(b.Priority, a.Priority),
		cmp.Compare(rank.Quantize(b.Score), rank.Quantize(a.Score)),
		cmp.Compare(a.bucket, b.bucket),
		cmp.Compare(a.Path, b.Path),
		cmp.Compare(a.Seq, b.Seq),
		cmp.Compare(a.Offset, b.Offset),
		cmp.Compare(a.Key, b.Key),
	)
}
