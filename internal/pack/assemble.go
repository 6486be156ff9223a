package pack

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/rank"
	"github.com/ctxpack/ctxpack/internal/render"
)

// Result is an assembled context.
type Result struct {
	Plan render.Plan
	// Output is what the format writes: the content, or the plan as JSON.
	Output []byte

	// shown are the parts shown, in render order, as shown: a copy
	// (Options.ShowCopies) is the one-line part naming the part it
	// repeats. Split reads them.
	shown []*Part
	// notes are what the transforms did to each part shown at its full
	// level, with its path (notePaths), and noteWarnings the warnings made
	// of them: Split sums them over its outputs.
	notes        []transformNote
	notePaths    []string
	noteWarnings []string
}

// BudgetError reports that the parts could not be fitted: the pinned parts
// alone exceed the budget, or overflow is error and everything at the
// requested levels does not fit.
type BudgetError struct {
	Budget int
	Need   int      // tokens the pinned parts, or all parts, need
	Pinned bool     // the pinned parts alone do not fit
	Parts  []string // "KEY (N tokens)", largest first
}

func (e *BudgetError) Error() string {
	what := "the parts at the requested levels"
	if e.Pinned {
		what = "the parts that are never dropped"
	}
	msg := fmt.Sprintf("pack: %s need %d tokens but the budget is %d", what, e.Need, e.Budget)
	if len(e.Parts) > 0 {
		msg += "; largest: " + strings.Join(e.Parts, ", ")
	}
	return msg
}

// Assemble fits parts to the budget and renders them. It does not modify
// parts.
func Assemble(parts []Part, opt Options) (*Result, error) {
	return assemble(parts, opt, nil)
}

// AssembleTo is Assemble writing the output to w. With overflow allow,
// where nothing is taken out once it is rendered, and a format other than
// json, the output is written as it is rendered, part by part, and is not
// kept: the Result has no Output and its Plan no Content, and the memory
// the content takes is about that of a few parts, not of the output.
// Otherwise the output is rendered and verified whole, then written, and
// the Result is Assemble's. The output written and the plan are
// Assemble's either way. When an error occurs after writing started, part
// of the output has been written.
func AssembleTo(w io.Writer, parts []Part, opt Options) (*Result, error) {
	if opt.Overflow != Allow || opt.Format == render.JSON {
		res, err := assemble(parts, opt, nil)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(res.Output); err != nil {
			return nil, err
		}
		return res, nil
	}
	return assemble(parts, opt, w)
}

// assemble is Assemble, streaming the output to w when w is not nil.
func assemble(parts []Part, opt Options, w io.Writer) (*Result, error) {
	if err := opt.normalize(); err != nil {
		return nil, err
	}
	if err := validateParts(parts); err != nil {
		return nil, err
	}
	if opt.Structure {
		if s, ok := structurePart(parts); ok {
			parts = append(slices.Clip(parts), s)
		}
	}
	fail := &failure{}
	items, err := prepare(parts, &opt, fail)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(items, compareRank)
	for i, it := range items {
		it.rank = i
	}
	var dropped []drop
	var copyWarnings []string
	if opt.DedupThreshold >= 0 {
		var d []drop
		items, d = opt.dedup(items)
		if opt.ShowCopies {
			items, d, copyWarnings = showCopies(items, d, opt.DedupThreshold)
		}
		dropped = append(dropped, d...)
		if err := fail.get(); err != nil {
			return nil, err
		}
	}
	if opt.MaxChunksPerDoc > 0 {
		var d []drop
		items, d = limitPerDoc(items, opt.MaxChunksPerDoc)
		dropped = append(dropped, d...)
	}
	c := newCoster(opt.Tokenizer, opt.Format)
	items, d, shares := allocate(c, items, &opt)
	dropped = append(dropped, d...)
	markTree(c, items, &opt)
	order := packingOrder(items, opt.Strategy)
	for i, it := range order {
		it.fit = i
	}
	f := &fitter{opt: &opt, c: c, order: order, shares: shares, fail: fail, warnings: copyWarnings, sizes: map[*item]int{}}
	if err := f.fit(); err != nil {
		return nil, err
	}
	if err := fail.get(); err != nil {
		return nil, err
	}
	for {
		res, over, err := f.render(dropped, w)
		if err != nil {
			return nil, err
		}
		if !over {
			return res, nil
		}
		if opt.Overflow == Error { // fail, as when the pieces' counts were over
			return nil, f.budgetError(res.Plan.TotalTokens, false)
		}
		if !f.shrink() {
			return nil, fmt.Errorf("pack: rendered output has %d tokens, over the budget of %d, with nothing left to remove", res.Plan.TotalTokens, opt.Budget)
		}
	}
}

// prepare derives the engine's view of each part.
func prepare(parts []Part, opt *Options, fail *failure) ([]*item, error) {
	bucket := map[string]int{}
	for i, b := range opt.Policy.Buckets {
		bucket[b.Name] = i
	}
	var newest int64
	if opt.PreferRecent {
		for i := range parts {
			newest = max(newest, parts[i].Changed)
		}
	}
	items := make([]*item, len(parts))
	var later []*item // parts whose More is needed to know their start level
	for i := range parts {
		p := &parts[i]
		it := &item{Part: p, q: rank.Quantize(p.Score), doc: p.doc()}
		if opt.PreferRecent && p.Changed > 0 {
			r := float64(0.2 * rank.HalfLife(newest-p.Changed, 7)) // rounded: never fused with the add below
			it.q = rank.Quantize(p.Score + r)
			it.recency = r
		}
		for l, t := range p.Text {
			it.text[l], it.has[l] = t, true
		}
		if p.Loader != nil {
			it.has[Full] = true
		}
		it.fail = fail
		if opt.Secrets != nil {
			it.red = &redaction{sc: opt.Secrets}
		}
		if opt.Transform.any() && p.Path != "" {
			it.tf = &opt.Transform
		}
		lo, top := it.eagerRange()
		it.top = top
		it.pending = p.More != nil && top-lo > 1
		if it.pending && opt.MaxLevel > lo && opt.MaxLevel < top {
			// The start level may be one of More's.
			later = append(later, it)
		}
		it.cid = p.CID
		b, ok := bucket[p.Bucket]
		if !ok {
			if p.Bucket != "" {
				return nil, fmt.Errorf("pack: part %q is in bucket %q, which the policy does not have", p.Key, p.Bucket)
			}
			b = 0
		}
		it.bucket = b
		items[i] = it
	}
	redactEager(items)
	for _, it := range items {
		if it.cid == "" {
			_, top := it.eagerRange()
			it.cid = contentID(it.textAt(top))
		}
	}
	resolveAll(later)
	if err := fail.get(); err != nil {
		return nil, err
	}
	for _, it := range items {
		it.start = startLevel(it, opt.MaxLevel)
	}
	return items, nil
}

// startLevel is the highest level the item has at or below max, or, when
// it has none, its lowest.
func startLevel(it *item, max Level) Level {
	start := Level(-1)
	for l := Meta; l <= Full; l++ {
		if it.has[l] && l <= max {
			start = l
		}
	}
	if start < 0 {
		for l := Meta; l <= Full; l++ {
			if it.has[l] {
				return l
			}
		}
	}
	return start
}

// showCopies turns the parts deduplication left out for repeating a kept
// part, when both have a path, into one-line references to it
// (Options.ShowCopies), put back in rank order; it returns the items, the
// drops left, and the warnings that count the copies.
func showCopies(items []*item, dropped []drop, threshold float64) ([]*item, []drop, []string) {
	var rest []drop
	exact, near := 0, 0
	for _, d := range dropped {
		it, of := d.it, d.copyOf
		if of == nil || it.Path == "" || of.Path == "" {
			rest = append(rest, d)
			continue
		}
		var note string
		if d.exact {
			note = "[ctxpack: same as " + of.Path + "]\n"
			it.copy = "same as " + of.Path + ": an exact copy, shown as a line naming it"
			exact++
		} else {
			note = fmt.Sprintf("[ctxpack: left out: %.0f%% the same text as %s (word shingles); the whole is at %s]\n", math.Floor(100*d.alike), of.Path, it.Path)
			it.copy = fmt.Sprintf("%s (%.2f): a near copy, shown as a line naming it", strings.Replace(d.reason, fmt.Sprintf(" (%.2f)", d.alike), "", 1), d.alike)
			near++
		}
		p := *it.Part
		p.Text, p.Loader, p.More = map[Level]string{Meta: note}, nil, nil
		it.Part = &p
		it.text, it.has = [numLevels]string{}, [numLevels]bool{}
		it.text[Meta], it.has[Meta] = note, true
		it.pending, it.red, it.start, it.top = false, nil, Meta, Meta
		it.cid = contentID(note)
		items = append(items, it)
	}
	slices.SortFunc(items, func(a, b *item) int { return cmp.Compare(a.rank, b.rank) })
	var warnings []string
	if exact > 0 {
		warnings = append(warnings, fmt.Sprintf("%d %s left out as %s, each shown as one line instead: \"[ctxpack: same as PATH]\"", exact, plural(exact, "file"), copies(exact, "an exact copy of another", "exact copies of others")))
	}
	if near > 0 {
		warnings = append(warnings, fmt.Sprintf("%d %s left out as %s (word shingles more than %.0f%% the same), each shown as one line naming the other instead; --dedup-threshold 1 keeps them", near, plural(near, "file"), copies(near, "a near copy of another", "near copies of others"), 100*threshold))
	}
	return items, rest, warnings
}

func copies(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func limitPerDoc(items []*item, n int) (kept []*item, dropped []drop) {
	count := map[string]int{}
	for _, it := range items {
		if count[it.doc] >= n && !it.Pinned {
			dropped = append(dropped, drop{it: it, reason: fmt.Sprintf("max_chunks_per_doc: %d parts of %s already taken", n, it.doc)})
			continue
		}
		count[it.doc]++
		kept = append(kept, it)
	}
	return kept, dropped
}

func contentID(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// choice is what the fit decided for one item.
type choice struct {
	level     Level
	text      string // the text shown when truncated
	truncated bool
	next      *step // the item's first step past the prefix, if the sequence has one
}

// fitter turns the packing order into the chosen parts.
type fitter struct {
	opt      *Options
	c        *coster
	order    []*item
	seq      sequence
	prefix   int // steps of seq that are in
	fail     *failure
	overhead int
	trunc    *item // the item cut by the truncate strategy
	truncTxt string
	warnings []string
	shares   []render.Share // the budget's division among the buckets, when the policy makes one
	// With Options.MetaAsTree: the tokens the first step pays for the
	// directory tree of every tree item (the reserve, in the overhead);
	// what the keys of the steps past the prefix overstate the budget they
	// need by, the tree shown being shorter (adjust, at most 0); the budget
	// the prefix was taken for; and each tree item's size in tokens once
	// measured.
	reserve int
	// restTree is set when the reserve is for the tree of the parts left
	// out (reserveRest), shown after the parts.
	restTree bool
	adjust   int
	limit    int
	sizes    map[*item]int
}

func (f *fitter) fit() error {
	o := f.opt
	f.overhead = f.countOverhead()
	switch o.Overflow {
	case Allow:
		// Everything at its start level, in packing order, measured as
		// it is rendered: nothing depends on the costs before.
		for _, it := range f.order {
			f.seq.steps = append(f.seq.steps, &step{it: it, level: it.start, fit: it.fit, placed: true})
		}
		f.seq.complete = true
		f.prefix = len(f.seq.steps)
		return nil
	case Error:
		// Everything at its start level, in packing order.
		f.c.prefetch(f.order)
		var sum, pinned int
		paid, headPaid := map[string]bool{}, map[string]bool{}
		for _, it := range f.order {
			s := &step{it: it, level: it.start, fit: it.fit}
			c := f.c.body(it, it.start)
			if len(f.seq.steps) == 0 {
				c += f.overhead
			}
			if o.Strategy != Greedy || !paid[it.doc] {
				c += f.c.header(it)
			}
			if !headPaid[it.Heading] {
				c += f.c.heading(it)
			}
			paid[it.doc], headPaid[it.Heading] = true, true
			sum += c
			if it.Pinned {
				pinned += c
			}
			s.cost, s.cum, s.key, s.placed = c, sum, sum, true
			f.seq.steps = append(f.seq.steps, s)
		}
		f.seq.complete = true
		f.prefix = len(f.seq.steps)
		if o.Budget > 0 && sum > o.Budget {
			return f.budgetError(sum, false)
		}
		return nil
	}
	stop := -1
	if len(f.order) > o.FullSequence {
		stop = o.Budget
	} else if o.Overflow == Degrade {
		// The whole sequence climbs every ladder: call every More that
		// will be needed now, in parallel, rather than one by one.
		var need []*item
		for _, it := range f.order {
			if it.pending && !it.Pinned && lowestRung(f.c, it) < it.start {
				need = append(need, it)
			}
		}
		resolveAll(need)
	}
	switch {
	case o.MetaAsTree && o.Strategy == Relevance && o.Overflow == Degrade:
		f.reserveRest()
	case o.MetaAsTree:
		f.reserveTree()
	}
	f.seq = build(f.c, o, f.order, f.overhead, stop)
	f.setPrefix(o.Budget)
	if f.reserve > 0 && !f.restTree {
		f.fitTree()
	}
	if err := f.fail.get(); err != nil {
		return err
	}
	for _, s := range f.seq.steps[f.prefix:] {
		if s.it.Pinned {
			need := 0
			for _, p := range f.seq.steps {
				if p.it.Pinned {
					need += p.cost
				}
			}
			return f.budgetError(need, true)
		}
	}
	if o.Overflow == Truncate && f.prefix < len(f.seq.steps) {
		f.truncateNext()
	}
	return nil
}

// countOverhead is the text written before the first block and after the
// last, with the footer as it reads when every part is shown: a measure,
// not a promise (the footer shown may count differently), which the
// verification of the whole output makes good.
func (f *fitter) countOverhead() int {
	open, close := f.frame(f.order)
	n := 0
	if open != "" {
		n += f.c.tok.Count(open)
	}
	if close != "" {
		n += f.c.tok.Count(close)
	}
	return n
}

// frame returns what is written before the first of the items shown and
// after the last: the format's opening and Options.Header, then the
// footer and the format's closing.
func (f *fitter) frame(shown []*item) (open, close string) {
	o := f.opt
	open = render.Open(o.Format, o.Metadata) + o.Header
	close = render.Close(o.Format)
	if o.Footer != nil {
		parts := make([]*Part, len(shown))
		for i, it := range shown {
			parts[i] = it.Part
		}
		close = o.Footer(parts) + close
	}
	return open, close
}

// truncateNext cuts the first step that does not fit, when it adds a part,
// to the room the budget leaves, with a marker that says where the rest is.
func (f *fitter) truncateNext() {
	s := f.seq.steps[f.prefix]
	if s.prev != nil {
		return
	}
	used := 0
	if f.prefix > 0 {
		used = f.seq.steps[f.prefix-1].cum
	}
	header := s.cost - f.c.body(s.it, s.level) // run header, and the format's own text when first
	room := f.opt.Budget - used - header
	full := s.it.textAt(s.level)
	limit := room - f.c.tok.Count(render.Body(f.opt.Format, s.it.block(s.level, marker(s.it, ""))))
	for limit > 0 {
		shown := f.c.tok.Truncate(full, limit)
		if shown == "" {
			return
		}
		text := withNewline(shown) + marker(s.it, shown)
		n := f.c.tok.Count(render.Body(f.opt.Format, s.it.block(s.level, text)))
		if n <= room {
			f.trunc, f.truncTxt = s.it, text
			return
		}
		limit -= n - room
	}
}

// marker is the visible line that ends a truncated part and names where
// the rest is; the plan records how many tokens were shown.
func marker(it *item, shown string) string {
	return "[ctxpack: truncated; the rest is at " + truncatedWhere(it, shown) + "]\n"
}

// truncatedWhere is where the rest of the item is when shown is what is
// shown of its text: its path and the lines from the one the cut is in,
// else its key.
func truncatedWhere(it *item, shown string) string {
	where := it.Key
	if it.Path != "" {
		where = it.Path
		if it.Lines[0] > 0 {
			first := it.Lines[0] + strings.Count(shown, "\n")
			if !strings.HasSuffix(shown, "\n") {
				first-- // the cut line continues there
			}
			where = fmt.Sprintf("%s:%d-%d", it.Path, max(first, it.Lines[0]), it.Lines[1])
		}
	}
	return where
}

func withNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

// shrink removes the last thing chosen after verification found the
// rendered text over budget. It reports false when nothing is left.
func (f *fitter) shrink() bool {
	if f.trunc != nil {
		f.warnings = append(f.warnings, fmt.Sprintf("verify: removed truncated %s: the whole text counted over the budget", f.trunc.Key))
		f.trunc = nil
		return true
	}
	if f.prefix == 0 || f.seq.steps[f.prefix-1].it.Pinned {
		return false
	}
	f.prefix--
	s := f.seq.steps[f.prefix]
	f.warnings = append(f.warnings, fmt.Sprintf("verify: removed %s at %s: the whole text counted over the budget", s.it.Key, s.level))
	return true
}

func (f *fitter) budgetError(need int, pinned bool) error {
	var parts []*item
	for _, it := range f.order {
		if it.Pinned || !pinned {
			parts = append(parts, it)
		}
	}
	slices.SortStableFunc(parts, func(a, b *item) int { return cmp.Compare(f.c.body(b, b.start), f.c.body(a, a.start)) })
	e := &BudgetError{Budget: f.opt.Budget, Need: need, Pinned: pinned}
	for i, it := range parts {
		if i == 5 {
			break
		}
		e.Parts = append(e.Parts, fmt.Sprintf("%s (%d tokens)", it.Key, f.c.body(it, it.start)))
	}
	return e
}
