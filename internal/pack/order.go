package pack

import (
	"cmp"
	"slices"
)

// item is a part with what the engine derives from it.
type item struct {
	*Part
	q       int64   // quantized score, recency included
	recency float64 // the PreferRecent component added to the score
	doc     string  // grouping document
	cid     string  // content id of the part's fullest text
	start   Level   // the level the part starts at
	rank    int     // position in the total order
	fit     int     // position in packing order
	bucket  int     // index into the policy's buckets
	cut     string  // why the item cap cut the part's text (Policy.Cut), if it did

	// text and has are the part's levels: Text's, and More's once
	// resolved (the part itself is never modified).
	text    [numLevels]string
	has     [numLevels]bool
	pending bool // More is set and not called yet
}

// resolve calls the part's More, once, and adds the levels it may give:
// those strictly between Text's lowest and highest levels that Text does
// not have, with non-empty text.
func (it *item) resolve() {
	if !it.pending {
		return
	}
	it.pending = false
	lo, hi := it.eagerRange()
	for l, t := range it.More() {
		if l > lo && l < hi && !it.has[l] && t != "" {
			it.text[l], it.has[l] = t, true
		}
	}
}

// eagerRange is the lowest and highest level of the part's Text.
func (it *item) eagerRange() (lo, hi Level) {
	lo, hi = Full+1, Meta-1
	for l := range it.Text {
		lo, hi = min(lo, l), max(hi, l)
	}
	return lo, hi
}

// resolveAll resolves the items' More in parallel; each item is resolved
// by one goroutine, and its levels are stored in it, so scheduling never
// shows.
func resolveAll(items []*item) {
	var todo []*item
	for _, it := range items {
		if it.pending {
			todo = append(todo, it)
		}
	}
	parallel(len(todo), func(i int) { todo[i].resolve() })
}

// compareRank is the total order of DESIGN §2, with pinned parts and
// priority classes first.
func compareRank(a, b *item) int {
	if a.Pinned != b.Pinned {
		if a.Pinned {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(b.Priority, a.Priority); c != 0 {
		return c
	}
	if c := cmp.Compare(b.q, a.q); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Path, b.Path); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Seq, b.Seq); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Offset, b.Offset); c != 0 {
		return c
	}
	return cmp.Compare(a.Key, b.Key)
}

// compareReading orders the parts of one document as they are read.
func compareReading(a, b *item) int {
	if c := cmp.Compare(a.Seq, b.Seq); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Offset, b.Offset); c != 0 {
		return c
	}
	return cmp.Compare(a.Key, b.Key)
}

// packingOrder returns the items in the order the strategy packs them,
// which is also the order they are rendered in. items must be in rank order.
func packingOrder(items []*item, s Strategy) []*item {
	if s == ByScore {
		return slices.Clone(items)
	}
	// Groups, ordered by their best part (the first in rank order).
	var groups [][]*item
	index := map[string]int{}
	for _, it := range items {
		g, ok := index[it.doc]
		if !ok {
			g = len(groups)
			index[it.doc] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], it)
	}
	for _, g := range groups {
		slices.SortFunc(g, compareReading)
	}
	out := make([]*item, 0, len(items))
	if s == Greedy {
		for _, g := range groups {
			out = append(out, g...)
		}
		return out
	}
	for round := 0; len(out) < len(items); round++ {
		for _, g := range groups {
			if round < len(g) {
				out = append(out, g[round])
			}
		}
	}
	return out
}
