package pack

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"math"
	"slices"

	"github.com/ctxpack/ctxpack/internal/rank"
	"github.com/ctxpack/ctxpack/internal/render"
)

// render renders the current choice and reports whether the whole text
// counts over the budget. With w, it writes the content to w as it goes
// and keeps none of it (see AssembleTo): only when nothing can be removed
// after verification (overflow allow) and the format is not json.
func (f *fitter) render(pre []drop, w io.Writer) (*Result, bool, error) {
	o := f.opt
	chosen := map[*item]*choice{}
	var list []*item
	for _, s := range f.seq.steps[:f.prefix] {
		ch := chosen[s.it]
		if ch == nil {
			ch = &choice{}
			chosen[s.it] = ch
			list = append(list, s.it)
		}
		ch.level = s.level
	}
	for _, s := range f.seq.steps[f.prefix:] {
		if ch := chosen[s.it]; ch != nil && ch.next == nil {
			ch.next = s
		}
	}
	if f.trunc != nil {
		chosen[f.trunc] = &choice{level: f.trunc.start, text: f.truncTxt, truncated: true}
		list = append(list, f.trunc)
	}
	// Under the relevance strategy the packing order is the rank order
	// and the parts are shown by document, documents by their best part
	// shown, each document's parts in reading order.
	docFirst := map[string]int{}
	if o.Strategy == Relevance {
		for _, it := range list {
			if v, ok := docFirst[it.doc]; !ok || it.fit < v {
				docFirst[it.doc] = it.fit
			}
		}
	}
	slices.SortFunc(list, func(a, b *item) int {
		if o.Sectioned {
			if c := cmp.Compare(a.Section, b.Section); c != 0 {
				return c
			}
		}
		if o.Strategy == Relevance {
			if c := cmp.Compare(docFirst[a.doc], docFirst[b.doc]); c != 0 {
				return c
			}
			return compareReading(a, b)
		}
		return cmp.Compare(a.fit, b.fit)
	})
	// With MetaAsTree, the tree items left at their metadata level are
	// lines of one directory tree, shown first, not blocks of their own.
	inTree := map[*item]*step{}
	if f.restTree {
		if t := f.restItem(chosen); t != nil {
			chosen[t] = &choice{level: Full}
			list = append(list, t)
		}
	} else if o.MetaAsTree {
		var treeList, rest []*item
		for _, it := range list {
			if ch := chosen[it]; it.tree && ch.level == Meta && !ch.truncated {
				treeList = append(treeList, it)
				inTree[it] = ch.next
				delete(chosen, it)
				continue
			}
			rest = append(rest, it)
		}
		list = rest
		if t, _ := f.treeItem(treeList, f.reserve); t != nil {
			chosen[t] = &choice{level: Full}
			at := 0 // first, after the directory structure (Options.Structure)
			if len(list) > 0 && list[0].Key == StructureKey {
				at = 1
			}
			list = slices.Insert(list, at, t)
		}
	}

	// The content is the format's opening, each block's run header (doc
	// format) and body, and its closing: render.Content, built here from
	// the pieces, which a tokenizer.Tally counts exactly as it would count
	// the whole. A part's tokens are its body's count plus its run
	// header's. Bodies are made and measured in parallel, a few parts
	// ahead of the one written, so that with w only those few are held.
	out := newSink(o.Tokenizer, w, o.chunker)
	tokens := make([]int, len(list))
	notes := make([]transformNote, len(list))
	textTokens := 0 // coverage is a share of the budget: the text alone, without headings
	treeTokens := 0 // the text of the tree of parts not shown, which is overhead
	open, close := f.frame(list)
	if len(list) > 0 {
		known := make([]int, len(list)) // body counts measured before, or -1
		for i, it := range list {
			known[i] = -1
			if ch := chosen[it]; !ch.truncated {
				if b := f.c.bodies[it]; b != nil {
					known[i] = int(b[ch.level])
				}
			}
		}
		out.add(open, -1)
		var prev render.Block
		inOrder(len(list), func(i int) segment {
			return f.segment(list[i], chosen[list[i]], known[i])
		}, func(i int, seg segment) {
			if h := render.RunHeader(o.Format, seg.block, prev); h != "" {
				n := f.c.runHeader(h)
				out.add(h, n)
				tokens[i] += n
			}
			out.add(seg.body, seg.tokens)
			tokens[i] += seg.tokens
			notes[i] = seg.note
			textTokens += seg.textTokens
			if list[i].Key == TreeKey {
				treeTokens += seg.textTokens
			}
			if ch := chosen[list[i]]; !ch.truncated {
				f.c.counts(list[i])[ch.level] = int32(seg.tokens)
			}
			prev = seg.block
		})
		out.add(close, -1)
	}
	if err := out.close(); err != nil {
		return nil, false, err
	}
	if err := f.fail.get(); err != nil {
		return nil, false, err
	}
	total := out.tally.Total()
	if o.Overflow != Allow && total > o.Budget {
		return &Result{Plan: render.Plan{TotalTokens: total}}, true, nil
	}
	content := out.content.String()

	plan := render.Plan{
		Version: "1", Mode: o.Mode, Target: o.Target, Tokenizer: o.Tokenizer.Name(), Chunker: o.chunker,
		Budget: o.Budget, TotalTokens: total, Truncated: f.trunc != nil || slices.ContainsFunc(list, func(it *item) bool { return it.cut != "" }),
		Exceeded: o.Budget > 0 && total > o.Budget,
		Strategy: string(o.Strategy), Overflow: string(o.Overflow),
		Parts: make([]render.PlanPart, 0, len(list)), Dropped: []render.Dropped{},
		Paths: slices.Sorted(slices.Values(o.Paths)), StateRoot: o.StateRoot, Shares: f.shares,
		Content: content,
	}
	if plan.Paths == nil {
		plan.Paths = []string{}
	}
	plan.Warnings = append(append([]string{}, o.Warnings...), f.warnings...)
	var tn []transformNote
	var tnPaths, tnWarnings []string
	if o.Transform.any() {
		for i, it := range list {
			if it.tf != nil && chosen[it].level == Full {
				tn, tnPaths = append(tn, notes[i]), append(tnPaths, it.Path)
			}
		}
		tnWarnings = transformWarnings(o.Transform, tn, tnPaths)
		plan.Warnings = append(plan.Warnings, tnWarnings...)
	}
	plan.Skipped = o.Skipped

	for i, it := range list {
		ch := chosen[it]
		cut := it.cut
		pp := render.PlanPart{
			Key: it.Key, Source: it.Source, Type: it.Type, Path: it.Path,
			Level: ch.level.String(), Tokens: tokens[i], CID: it.cid,
			Via: it.Via, Components: components(it), Truncated: ch.truncated || cut != "",
			Reason: f.levelReason(it, ch),
		}
		switch {
		case cut == "":
		case ch.truncated || ch.level < it.start: // the budget reduced it too
			pp.Reason += "; " + cut
		default: // the cut is why it is not shown whole, whatever its levels
			pp.Reason = cut
		}
		if it.Lines[0] > 0 {
			lines := it.Lines
			pp.Lines = &lines
		}
		if ch.level == Detailed && !ch.truncated && len(it.Window) > 0 {
			pp.Shown = it.Window
		}
		pp.Transforms = notes[i].strings()
		if it.q != 0 || len(it.Components) > 0 {
			s := float64(it.q) / rank.Quantum
			pp.Score = &s
		}
		if len(o.Policy.Buckets) > 1 {
			pp.Bucket = o.Policy.Buckets[it.bucket].Name
		}
		plan.Parts = append(plan.Parts, pp)
	}
	plan.Redactions = f.redactions(list, chosen, func(it *item, ch *choice) string {
		if ch.truncated {
			return ch.text
		}
		return it.textAt(ch.level)
	})
	if len(plan.Redactions) > 0 {
		plan.Warnings = append(plan.Warnings, redactionSummary(plan.Redactions))
	}
	plan.Dropped = append(append([]render.Dropped{}, o.Dropped...), f.dropped(pre, chosen, inTree)...)
	plan.Metrics = metrics(list, total, textTokens, o.Budget)
	if o.Budget > 0 {
		plan.Metrics.Overhead = total - textTokens + treeTokens
	}

	plan.Digest = out.digest()
	res := &Result{Plan: plan, shown: make([]*Part, len(list)), notes: tn, notePaths: tnPaths, noteWarnings: tnWarnings}
	for i, it := range list {
		res.shown[i] = it.Part
	}
	switch {
	case w != nil:
		if o.Format == render.JSON {
			return nil, false, fmt.Errorf("pack: the json format cannot be written as it is rendered")
		}
	case o.Format == render.JSON:
		enc, err := render.EncodePlan(&plan)
		if err != nil { // a Plan always encodes; keep the content rather than fail
			enc = []byte(content)
		}
		res.Output = enc
	default:
		res.Output = []byte(content)
	}
	return res, false, nil
}

// digestTag opens the text a plan's digest is taken of; it changes when
// the formula does.
const digestTag = "ctxpack digest v1\n"

// Digest is a plan's digest of content assembled by a build whose chunker
// is named chunker (chunkid.Name): "sha256:" and the lower-case hex SHA-256
// of
//
//	"ctxpack digest v1\n" + "chunker " + chunker + "\n" + content
//
// The chunker's name never holds a newline, so the text reads back
// unambiguously. The same chunker and content always give the same
// digest; builds that chunk differently (with and without cgo) give
// different digests even for identical content. In a shell:
// { printf 'ctxpack digest v1\nchunker %s\n' "$chunker"; cat content; } | sha256sum.
func Digest(chunker, content string) string {
	h := digestHash(chunker)
	io.WriteString(h, content)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// digestHash is the hash a digest is taken with, fed with the text before
// the content.
func digestHash(chunker string) hash.Hash {
	h := sha256.New()
	io.WriteString(h, digestTag+"chunker "+chunker+"\n")
	return h
}

// segment is one part as rendered: its block (without its text), its
// body and their counts.
type segment struct {
	block      render.Block
	body       string
	tokens     int // the body's
	textTokens int // the text's, when there is a budget
	note       transformNote
}

// segment renders the item as chosen; known is its body's count when
// measured before, or -1. It is called in parallel, and reads the fitter
// without changing it.
func (f *fitter) segment(it *item, ch *choice, known int) segment {
	o := f.opt
	text := ch.text
	var note transformNote
	if !ch.truncated {
		text, note = it.noted(ch.level)
	} else if it.tf != nil {
		_, note = it.noted(ch.level)
	}
	b := it.block(ch.level, text)
	seg := segment{body: render.Body(o.Format, b), tokens: known, note: note}
	if seg.tokens < 0 {
		seg.tokens = o.Tokenizer.Count(seg.body)
	}
	if o.Budget > 0 {
		seg.textTokens = o.Tokenizer.Count(text)
	}
	b.Text = ""
	seg.block = b
	return seg
}

// levelReason says why a chosen part is not shown in full ("" when it is).
func (f *fitter) levelReason(it *item, ch *choice) string {
	if it.copy != "" {
		return it.copy
	}
	if ch.truncated {
		return fmt.Sprintf("truncated to fit the budget: %d of %d tokens of text shown", f.c.tok.Count(ch.text), f.c.tok.Count(it.textAt(ch.level)))
	}
	if ch.level < it.start {
		if s := ch.next; s != nil {
			if s.key <= f.limit { // removed by verification (shrink)
				return fmt.Sprintf(render.ReasonDegraded+"%s: at %s the whole output counted over the budget", ch.level, s.level)
			}
			return fmt.Sprintf(render.ReasonDegraded+"%s: %s needs a budget of %d", ch.level, s.level, s.key+f.adjust)
		}
		return fmt.Sprintf(render.ReasonDegraded+"%s to fit the budget", ch.level)
	}
	if ch.level == Full {
		return ""
	}
	for l := ch.level + 1; l <= Full; l++ {
		if it.has[l] {
			return fmt.Sprintf("requested depth %s", f.opt.MaxLevel)
		}
	}
	return fmt.Sprintf("%s is the most the part has", ch.level)
}

// dropped lists every part left out, with its reason: in rank order, or
// with Options.DroppedByStage those pre left out in its order, then
// those the budget left out in rank order. The parts listed in the
// directory tree (inTree, with each one's next step) are among them,
// with their own reason.
func (f *fitter) dropped(pre []drop, chosen map[*item]*choice, inTree map[*item]*step) []render.Dropped {
	var all []drop
	firstStep := map[*item]*step{}
	for _, s := range f.seq.steps {
		if s.prev == nil {
			firstStep[s.it] = s
		}
	}
	for _, it := range f.order {
		if chosen[it] != nil {
			continue
		}
		if next, ok := inTree[it]; ok {
			all = append(all, drop{it: it, reason: f.treeReason(it, next)})
			continue
		}
		d := drop{it: it, reason: render.ReasonBudget}
		switch s := firstStep[it]; {
		case s == nil: // past where the sequence stopped
		case s.key <= f.limit:
			// In by its pieces' counts, removed by verification (shrink):
			// the budget it needs is not known.
			d.reason = render.ReasonBudget + ": with it the whole output counted over the budget"
		default:
			d.need = s.key + f.adjust
			d.reason = fmt.Sprintf(render.ReasonBudget+": enters at a budget of %d", d.need)
		}
		all = append(all, d)
	}
	if !f.opt.DroppedByStage {
		all = append(all, pre...)
	}
	slices.SortFunc(all, func(a, b drop) int { return cmp.Compare(a.it.rank, b.it.rank) })
	if f.opt.DroppedByStage {
		all = append(slices.Clone(pre), all...)
	}
	out := make([]render.Dropped, len(all))
	for i, d := range all {
		out[i] = render.Dropped{Key: d.it.Key, Path: d.it.Path, Reason: d.reason, NeedBudget: d.need}
	}
	return out
}

// metrics computes the plan's quality figures. Coverage counts the parts'
// text, without the format's headings and wrapper: after dedup every
// emitted part is distinct content, so these are the unique tokens of
// CFS-021's metric.
func metrics(list []*item, total, textTokens, budget int) render.Metrics {
	var m render.Metrics
	if budget > 0 {
		m.Utilization = round4(float64(total) / float64(budget))
		m.Coverage = round4(float64(textTokens) / float64(budget))
	}
	// Coherence: adjacent pairs from one document, out of the most there
	// could be (a document of k parts can give k-1); 1 when none could.
	perDoc := map[string]int{}
	for _, it := range list {
		perDoc[it.doc]++
	}
	possible, same := 0, 0
	for _, k := range perDoc {
		possible += k - 1
	}
	for i := 1; i < len(list); i++ {
		if list[i].doc == list[i-1].doc {
			same++
		}
	}
	m.Coherence = 1
	if possible > 0 {
		m.Coherence = round4(float64(same) / float64(possible))
	}
	// Are the top three parts by rank among the first five emitted?
	byRank := slices.Clone(list)
	slices.SortFunc(byRank, func(a, b *item) int { return cmp.Compare(a.rank, b.rank) })
	m.Ordering = true
	for _, top := range byRank[:min(3, len(byRank))] {
		if idx := slices.Index(list, top); idx >= 5 {
			m.Ordering = false
		}
	}
	return m
}

// components is the part's score breakdown with the recency the engine
// added, in a new map (the part is not modified).
func components(it *item) map[string]float64 {
	if it.recency == 0 {
		return it.Components
	}
	m := make(map[string]float64, len(it.Components)+1)
	for k, v := range it.Components {
		m[k] = v
	}
	m["recency"] = rank.Round(it.recency)
	return m
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
