package pack

import (
	"fmt"

	"github.com/ctxpack/ctxpack/internal/render"
)

// TreeKey is the key of the part that lists, with Options.MetaAsTree, the
// parts shown at their metadata level as a directory tree.
const TreeKey = "ctxpack:tree"

// treeLines is the most lines the directory tree takes for the budget:
// one per 80 tokens, at least 12.
func treeLines(budget int) int { return max(12, budget/80) }

// markTree marks the items that, at their metadata level, are a line of
// the directory tree (Options.MetaAsTree): those the degrade strategy adds
// at metadata below the level they start at, with a path, neither pinned
// nor shown as copies.
func markTree(c *coster, items []*item, o *Options) {
	if !o.MetaAsTree || o.Overflow != Degrade || o.Strategy == Relevance {
		return // the relevance strategy lists what is left out instead (restTree)
	}
	for _, it := range items {
		it.tree = !it.Pinned && it.copy == "" && it.cut == "" && it.Path != "" &&
			it.start > Meta && it.has[Meta] && lowestRung(c, it) == Meta
	}
}

// treeSizes measures, in parallel, the whole text of the tree items that
// are not measured yet: the size each is listed with.
func (f *fitter) treeSizes(items []*item) {
	var todo []*item
	for _, it := range items {
		if _, ok := f.sizes[it]; !ok {
			todo = append(todo, it)
		}
	}
	n := make([]int, len(todo))
	parallel(len(todo), func(i int) {
		it := todo[i]
		top := Meta
		for l := Full; l >= Meta; l-- {
			if it.has[l] {
				top = l
				break
			}
		}
		n[i] = f.c.tok.Count(it.textAt(top))
	})
	for i, it := range todo {
		f.sizes[it] = n[i]
	}
}

// treeItem is the part that lists items, which are in packing order, as a
// directory tree, and its tokens as rendered first (run header
// included); nil when items is empty. The tree takes at most
// treeLines(budget) lines and, when limit is above 0, at most limit
// tokens: it is folded further until it does (a tree with fewer files may
// unfold directories that a tree with more keeps folded, and so count
// more).
func (f *fitter) treeItem(items []*item, limit int) (*item, int) {
	if len(items) == 0 {
		return nil, 0
	}
	lines := treeLines(f.opt.Budget)
	t, n := f.treeWithin(items, lines)
	if limit <= 0 || n <= limit {
		return t, n
	}
	lo, hi := 1, lines-1 // the largest line limit whose tree fits: lo fits, once found
	best, bestN := f.treeWithin(items, 1)
	for lo <= hi {
		mid := (lo + hi) / 2
		t, n := f.treeWithin(items, mid)
		if n <= limit {
			best, bestN, lo = t, n, mid+1
		} else {
			hi = mid - 1
		}
	}
	return best, bestN
}

// treeWithin is the tree part of items in at most lines lines, and its
// tokens.
func (f *fitter) treeWithin(items []*item, lines int) (*item, int) {
	f.treeSizes(items)
	files := make([]render.TreeFile, len(items))
	total := 0
	what := "file"
	for i, it := range items {
		files[i] = render.TreeFile{Path: it.Path, Tokens: f.sizes[it], Rank: it.rank}
		if it.Key != it.Path {
			files[i].Lines = it.Lines
			what = "part"
		}
		total += f.sizes[it]
	}
	text := render.Tree(files, lines)
	if len(items) != 1 {
		what += "s"
	}
	p := &Part{
		Key: TreeKey, Source: "ctxpack", Type: "tree",
		Label: fmt.Sprintf("%s %s not shown, each with its size in tokens (%s in all)", render.Thousands(len(items)), what, render.Thousands(total)),
		Text:  map[Level]string{Full: text},
	}
	it := &item{Part: p, doc: TreeKey, cid: contentID(text), start: Full, fit: -1, rank: -1, fail: f.fail}
	it.text[Full], it.has[Full] = text, true
	return it, f.c.tok.Count(render.Segment(f.opt.Format, it.block(Full, text), render.Block{}))
}

// inTree returns the tree items that the first n steps of the sequence
// add and leave at their metadata level, in packing order.
func (f *fitter) inTree(n int) []*item {
	level := map[*item]Level{}
	for _, s := range f.seq.steps[:n] {
		level[s.it] = s.level
	}
	var list []*item
	for _, it := range f.order {
		if l, ok := level[it]; ok && it.tree && l == Meta {
			list = append(list, it)
		}
	}
	return list
}

// treeTokens is what the tree of the first n steps' tree items takes
// within the reserve, run header included: 0 when there are none.
func (f *fitter) treeTokens(n int) int {
	_, t := f.treeItem(f.inTree(n), f.reserve)
	return t
}

// reserveTree makes the first step pay for the directory tree of every
// tree item, as it pays for the format's own text: the reserve. When
// even that does not fit the budget, there is no tree and the items are
// shown as before.
func (f *fitter) reserveTree() {
	var all []*item
	for _, it := range f.order {
		if it.tree {
			all = append(all, it)
		}
	}
	t, n := f.treeItem(all, 0)
	if t == nil {
		return
	}
	if f.overhead+n > f.opt.Budget {
		for _, it := range all {
			it.tree = false
		}
		return
	}
	f.reserve = n
	f.overhead += n
}

// fitTree takes into the prefix the steps that the room the tree leaves
// unused admits: parts raised out of it make it shorter than the
// reserve. A prefix is taken when its last key, less that room, is
// within the budget (the verification of the whole output makes good
// any difference).
func (f *fitter) fitTree() {
	for range 8 {
		slack := f.reserve - f.treeTokens(f.prefix)
		if slack <= 0 {
			return
		}
		p, limit := f.prefix, f.limit
		f.setPrefix(f.opt.Budget + slack)
		if f.prefix == p {
			f.adjust = -slack
			return
		}
		if f.seq.steps[f.prefix-1].key-f.reserve+f.treeTokens(f.prefix) > f.opt.Budget {
			f.prefix, f.limit = p, limit // back to the last prefix that fitted
			return
		}
		f.adjust = -slack
	}
}

// setPrefix takes the longest prefix of the sequence whose keys are at
// most budget.
func (f *fitter) setPrefix(budget int) {
	f.limit = budget
	f.prefix = 0
	for f.prefix < len(f.seq.steps) && f.seq.steps[f.prefix].key <= budget {
		f.prefix++
	}
}

// treeReason is the reason a part listed in the tree gives: its next
// level and the budget it needs, when the sequence has it.
func (f *fitter) treeReason(it *item, next *step) string {
	r := fmt.Sprintf("%s: meta, listed by path in %s with its %d tokens", render.ReasonTree, TreeKey, f.sizes[it])
	if next != nil {
		r += fmt.Sprintf("; %s needs a budget of about %d", next.level, next.key+f.adjust)
	}
	return r
}

// reserveRest makes the first step pay, under the relevance strategy with
// Options.MetaAsTree, for the shortest directory tree of every part (one
// line): the least the output needs to list what it leaves out. The tree
// shown (restTree) lists the parts the budget leaves out in that reserve
// and the room the prefix leaves, never ahead of the parts.
func (f *fitter) reserveRest() {
	var all []*item
	for _, it := range f.order {
		if !it.Pinned && it.Path != "" {
			all = append(all, it)
		}
	}
	t, n := f.treeWithin(all, 1)
	if t == nil || f.overhead+n > f.opt.Budget {
		return
	}
	f.reserve = n
	f.overhead += n
	f.restTree = true
}

// restItem is the tree of the parts with a path that the prefix leaves
// out, folded to the reserve and the room the prefix leaves, up to a
// fortieth of the budget; nil when every part is in, or when one line
// does not fit.
func (f *fitter) restItem(chosen map[*item]*choice) *item {
	var rest []*item
	for _, it := range f.order {
		if chosen[it] == nil && !it.Pinned && it.Path != "" {
			rest = append(rest, it)
		}
	}
	used := f.overhead // the first step pays it, the reserve included
	if f.prefix > 0 {
		used = f.seq.steps[f.prefix-1].key
	}
	// The tree is overhead: it takes the reserve and at most a fortieth
	// of the budget of the room left.
	limit := f.reserve + min(f.opt.Budget-used, f.opt.Budget/40)
	t, n := f.treeItem(rest, limit)
	if n > limit {
		return nil // even one line does not fit: the plan lists them
	}
	return t
}
