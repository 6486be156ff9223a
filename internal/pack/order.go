package pack

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
)

// item is a part with what the engine derives from it.
type item struct {
	*Part
	q       int64   // quantized score, recency included
	recency float64 // the PreferRecent component added to the score
	doc     string  // grouping document
	cid     string  // content id of the part's fullest text
	start   Level   // the level the part starts at
	top     Level   // the part's highest level: the part whole
	rank    int     // position in the total order
	fit     int     // position in packing order
	bucket  int     // index into the policy's buckets
	cut     string  // why the item cap cut the part's text (Policy.Cut), if it did
	copy    string  // why the part is shown as a line naming the part it repeats (Options.ShowCopies)
	tree    bool    // at its metadata level, the part is a line of the directory tree (Options.MetaAsTree)

	// text and has are the part's levels: Text's, the Loader's (has
	// only: its text is loaded by textAt) and More's once resolved (the
	// part itself is never modified).
	text    [numLevels]string
	has     [numLevels]bool
	pending bool       // More is set and not called yet
	fail    *failure   // where a Loader's error goes
	red     *redaction // the redact stage's findings; nil when it is off
	tf      *Transform // changes the full text (Options.Transform); nil when it does not
}

// loads reports whether the item's text at level l comes from its
// part's Loader: the full level of a part with one, unless the item cap
// cut that level's text, which the item then holds.
func (it *item) loads(l Level) bool {
	return l == Full && it.Loader != nil && !(it.cut != "" && l == it.start)
}

// size is the length in bytes of the item's text at level l.
func (it *item) size(l Level) int {
	if it.loads(l) {
		return it.Loader.Len
	}
	return len(it.text[l])
}

// textAt returns the item's text at level l, loading it when the part's
// Loader gives it. A load that fails is recorded in it.fail, which fails
// the assembly, and gives "".
func (it *item) textAt(l Level) string {
	t, _ := it.noted(l)
	return t
}

// noted is textAt with what the transform did (Options.Transform).
func (it *item) noted(l Level) (string, transformNote) {
	t, err := it.load(l)
	if err != nil {
		it.fail.set(err)
		return "", transformNote{}
	}
	return it.transformed(l, t)
}

// load returns the item's text at level l, loading it when the part's
// Loader gives it.
func (it *item) load(l Level) (string, error) {
	if !it.loads(l) {
		return it.text[l], nil
	}
	t, err := it.Loader.Load()
	if err == nil && len(t) != it.Loader.Len {
		err = fmt.Errorf("loaded %d bytes, not %d", len(t), it.Loader.Len)
	}
	if err != nil {
		return "", fmt.Errorf("pack: part %q: %w", it.Key, err)
	}
	return it.redactLoaded(t), nil
}

// failure keeps the first error of work done in parallel.
type failure struct {
	mu  sync.Mutex
	err error
}

func (f *failure) set(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = err
	}
}

func (f *failure) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

// resolve calls the part's More, once, with its fullest text, and adds the
// levels it may give: those strictly between the part's lowest and highest
// levels that it does not have, with non-empty text.
func (it *item) resolve() {
	if !it.pending {
		return
	}
	it.pending = false
	lo, hi := it.eagerRange()
	text, err := it.load(hi)
	if err != nil {
		it.fail.set(err)
		return
	}
	for l, t := range it.More(text) {
		if l > lo && l < hi && !it.has[l] && t != "" {
			it.text[l], it.has[l] = it.redactMore(l, t), true
		}
	}
}

// eagerRange is the lowest and highest level of the part's Text and
// Loader.
func (it *item) eagerRange() (lo, hi Level) {
	lo, hi = Full+1, Meta-1
	for l := range it.Text {
		lo, hi = min(lo, l), max(hi, l)
	}
	if it.Loader != nil {
		lo, hi = min(lo, Full), Full
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
	if s == ByScore || s == Relevance {
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
