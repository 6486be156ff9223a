package evidence

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"

	workspace "github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/lexical"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/textsim"
)

// DefaultAskTop is how many of the index's best hits for a question's
// subject evidence ask weighs when the request names no number.
const DefaultAskTop = 10

// SimilarThreshold is how alike two evidence texts must be (textsim: 1 −
// edit distance / length, after lower-casing and collapsing white space)
// for ask to call one redundant beside the other: the engine's threshold
// for its edit-distance deduplication.
const SimilarThreshold = 0.9

// maxSimilarRunes bounds the texts ask compares by edit distance: the
// comparison costs up to n·n/10 steps for two texts of n runes, so larger
// texts are compared by content id, span and containment only.
const maxSimilarRunes = 20000

// AskReport is evidence ask's answer. The facade fills what the engine's
// plan says (statuses, tokens, totals); the rest is the workspace's and
// the index's.
type AskReport struct {
	Question string   `json:"question"`
	Subject  string   `json:"subject" jsonschema:"the question's words that name what it is about: what the index was searched for"`
	Terms    []string `json:"terms" jsonschema:"the subject's search terms, matched against the evidence"`
	Sections []string `json:"sections" jsonschema:"the sections answered: coverage, gaps, redundancy"`
	Chosen   string   `json:"chosen" jsonschema:"how the sections were chosen"`
	Hits     int      `json:"hits" jsonschema:"the index's hits for the subject that were weighed"`

	Coverage  []Covering  `json:"coverage" jsonschema:"the evidence that answers the subject, best first"`
	Gaps      []Gap       `json:"gaps" jsonschema:"what the index ranks high for the subject that no workspace file holds, best first"`
	Redundant []Redundant `json:"redundant" jsonschema:"evidence whose content another evidence file covers"`
	Overlaps  []Overlap   `json:"overlaps" jsonschema:"evidence files that share some lines of a project file"`

	Tokenizer   string   `json:"tokenizer"`
	Budget      int      `json:"budget" jsonschema:"the budget prompt.mdctx is fitted to; 0 when there is none"`
	TotalTokens int      `json:"total_tokens" jsonschema:"prompt.mdctx's tokens with every active file shown whole"`
	Warnings    []string `json:"warnings"`

	// Collection is the workspace as read, for the engine.
	Collection *Collection `json:"-"`
}

// Covering is a workspace evidence file that answers a question's
// subject.
type Covering struct {
	EntryView
	Status string `json:"status" jsonschema:"in the plan under the budget: active, linked, degraded, truncated, dropped or skipped"`
	Tokens int    `json:"tokens" jsonschema:"what it takes in prompt.mdctx under the budget; 0 when not shown"`
	Source string `json:"source,omitempty" jsonschema:"the project file its text came from; absent for text added by hand"`
	// Lines are its span: the first and last line of Source, or of the
	// workspace file when it has no source.
	Lines [2]int     `json:"lines" jsonschema:"its span: lines of source, or of the workspace file when it has none"`
	Hits  []CoverHit `json:"hits" jsonschema:"the index's hits for the subject that overlap its span"`
	Terms []TermAt   `json:"terms" jsonschema:"the subject's terms it holds, each at the first line that does"`
	Why   string     `json:"why"`

	best, order int // its best hit's rank (0: none) and place in the workspace
}

// CoverHit is one of the index's hits that overlaps an evidence file's
// span.
type CoverHit struct {
	Rank      int     `json:"rank" jsonschema:"its rank among the index's hits for the subject, from 1"`
	Path      string  `json:"path"`
	Lines     [2]int  `json:"lines" jsonschema:"the hit's first and last line"`
	Shared    [2]int  `json:"shared" jsonschema:"the lines it shares with the evidence's span"`
	Relevance float64 `json:"relevance"`
}

// TermAt is a term of the subject and the first line that holds it.
type TermAt struct {
	Term string `json:"term"`
	Path string `json:"path" jsonschema:"the project file, or the workspace file for evidence with no source"`
	Line int    `json:"line"`
}

// Gap is a hit of the index for the subject that no workspace file's span
// holds whole: evidence that may be missing.
type Gap struct {
	Rank      int     `json:"rank" jsonschema:"its rank among the index's hits for the subject, from 1"`
	Path      string  `json:"path"`
	Lines     [2]int  `json:"lines"`
	Symbol    string  `json:"symbol,omitempty"`
	Relevance float64 `json:"relevance"`
	Selector  string  `json:"selector" jsonschema:"what evidence add takes to add what is missing: its lines when one range, else the hit"`
	// Missing are its line ranges that no workspace file's span holds
	// (without the lines that hold no term); Partly the workspace files
	// that hold the rest.
	Missing [][2]int `json:"missing" jsonschema:"its line ranges that no workspace file holds"`
	Partly  []string `json:"partly" jsonschema:"the workspace files that hold the rest of it"`
	// Tokens is what its section would take in prompt.mdctx, measured
	// alone; TotalTokens prompt.mdctx's tokens with it added (as evidence
	// add would: the next rank of the evidence band) and every active file
	// shown; Fits whether that is within the budget.
	Tokens      int    `json:"tokens" jsonschema:"what its section would take in prompt.mdctx, counted with the tokenizer"`
	TotalTokens int    `json:"total_tokens" jsonschema:"prompt.mdctx's tokens with it added and every active file shown"`
	Fits        bool   `json:"fits" jsonschema:"whether total_tokens is within the budget"`
	Why         string `json:"why"`

	// Parts are the workspace's parts with it added; Whole its section.
	// Nil when it cannot be read now.
	Parts []pack.Part   `json:"-"`
	Whole *render.Block `json:"-"`
}

// Redundant is an evidence file whose content another covers.
type Redundant struct {
	EntryView
	By         string  `json:"by" jsonschema:"the id of the evidence file that covers it"`
	How        string  `json:"how" jsonschema:"how by covers it: same-text, same-span, within-span, text-within or similar"`
	Similarity float64 `json:"similarity" jsonschema:"1 for the same text; for similar, how alike the texts are (1 − edit distance / length); else 0"`
	Tokens     int     `json:"tokens" jsonschema:"what its section takes whole, measured alone"`
	Saves      int     `json:"saves" jsonschema:"the tokens prompt.mdctx takes less without it, every active file shown"`
	Why        string  `json:"why"`

	order int
}

// Overlap is two evidence files whose spans share lines of a project
// file, neither holding the other.
type Overlap struct {
	Entry string `json:"entry" jsonschema:"the id of the later file in assembly order"`
	Other string `json:"other" jsonschema:"the id of the earlier file"`
	Path  string `json:"path"`
	Lines [2]int `json:"lines" jsonschema:"the lines both hold"`
	Why   string `json:"why"`

	order [2]int
}

// The kinds of redundancy, strongest first.
const (
	SameText   = "same-text"   // the same text, after lower-casing and collapsing white space
	SameSpan   = "same-span"   // the same lines of the same project file
	WithinSpan = "within-span" // lines within the other's span of the same file
	TextWithin = "text-within" // its text appears whole in the other's
	Similar    = "similar"     // texts at least SimilarThreshold alike
)

// span is a workspace file's source span as it is now.
type span struct {
	path   string
	lo, hi int
	stale  bool // the text there is not what the file was made from
}

// Ask answers a question about the workspace from its files and the
// repository index (Env.Search, for the subject's top hits; top <= 0 is
// DefaultAskTop): the sections q asks for. It reads the workspace once,
// and returns it as a Collection for the caller to assemble: the fields
// that come from the engine's plan (statuses, tokens, totals) are the
// caller's to fill. Lists are in a total order: coverage by best hit,
// then terms held, then workspace order; gaps by hit rank; redundancy and
// overlaps in workspace order.
func (e Env) Ask(ctx context.Context, ws *workspace.Workspace, q Question, top int) (*AskReport, error) {
	if top <= 0 {
		top = DefaultAskTop
	}
	entries, warnings, err := ws.List()
	if err != nil {
		return nil, err
	}
	files, warns := e.readWorkspace(ws, entries)
	c := newCollection(ws, ws.Shown, entries, files, append(warnings, warns...))
	rep := &AskReport{
		Question: q.Text, Subject: q.Subject, Terms: q.Terms, Sections: q.Sections, Chosen: q.Chosen,
		Coverage: []Covering{}, Gaps: []Gap{}, Redundant: []Redundant{}, Overlaps: []Overlap{},
		Warnings: []string{}, Collection: c,
	}
	spans := make([]*span, len(files))
	for i, f := range files {
		if f.err != nil || f.sel == nil {
			continue
		}
		if ex, err := e.source(f); err == nil && ex != nil {
			spans[i] = &span{path: f.sel.Path, lo: ex.StartLine, hi: ex.EndLine, stale: f.prov != nil && f.entry.State != workspace.Linked && f.prov.CID != ex.CID}
		}
	}
	var hits []Hit
	if slices.Contains(q.Sections, Coverage) || slices.Contains(q.Sections, Gaps) {
		var w []string
		if hits, w, err = e.Search(ctx, q.Subject, top); err != nil {
			return nil, err
		}
		rep.Hits = len(hits)
		rep.Warnings = append(rep.Warnings, w...)
	}
	if slices.Contains(q.Sections, Coverage) {
		rep.Coverage = coverage(ws, files, spans, hits, q)
	}
	if slices.Contains(q.Sections, Gaps) {
		rep.Gaps = e.gaps(ws, entries, files, spans, hits)
	}
	if slices.Contains(q.Sections, Redundancy) {
		rep.Redundant, rep.Overlaps = redundancy(ws, files, spans)
	}
	return rep, nil
}

// coverage is the evidence files that answer q: those one of the hits
// overlaps, and those that hold at least half of its terms.
func coverage(ws *workspace.Workspace, files []*wsFile, spans []*span, hits []Hit, q Question) []Covering {
	out := []Covering{}
	for i, f := range files {
		if f.err != nil || f.entry.Role != workspace.Evidence {
			continue
		}
		text, first := content(f)
		cv := Covering{EntryView: ViewEntry(ws, f.entry), Hits: []CoverHit{}, Terms: []TermAt{}, order: i}
		where, shift := f.path, first-1 // terms' lines: of the workspace file
		if s := spans[i]; s != nil {
			cv.Source, cv.Lines = s.path, [2]int{s.lo, s.hi}
			where, shift = s.path, s.lo-1
			for r, h := range hits {
				if h.Path == s.path && h.StartLine <= s.hi && h.EndLine >= s.lo {
					cv.Hits = append(cv.Hits, CoverHit{Rank: r + 1, Path: h.Path, Lines: [2]int{h.StartLine, h.EndLine},
						Shared: [2]int{max(h.StartLine, s.lo), min(h.EndLine, s.hi)}, Relevance: h.Relevance})
				}
			}
		} else {
			cv.Lines = [2]int{first, first + max(0, project.CountLines(text)-1)}
		}
		for _, t := range termLines(text, q.Terms) {
			cv.Terms = append(cv.Terms, TermAt{Term: t.term, Path: where, Line: t.line + shift})
		}
		if len(cv.Hits) == 0 && (len(cv.Terms) == 0 || 2*len(cv.Terms) < len(q.Terms)) {
			continue
		}
		var why []string
		if len(cv.Hits) > 0 {
			h := cv.Hits[0]
			cv.best = h.Rank
			more := ""
			if n := len(cv.Hits) - 1; n > 0 {
				more = fmt.Sprintf(" (and %d more)", n)
			}
			why = append(why, fmt.Sprintf("hit %d of the index for %q, %s:%d-%d (relevance %.3f), overlaps its lines %d-%d%s",
				h.Rank, q.Subject, h.Path, h.Lines[0], h.Lines[1], h.Relevance, h.Shared[0], h.Shared[1], more))
		}
		if len(cv.Terms) > 0 {
			var at []string
			for _, t := range cv.Terms {
				at = append(at, fmt.Sprintf("%s (%s:%d)", t.Term, t.Path, t.Line))
			}
			why = append(why, fmt.Sprintf("holds %d of the subject's %d terms: %s", len(cv.Terms), len(q.Terms), strings.Join(at, ", ")))
		} else {
			why = append(why, "holds none of the subject's terms")
		}
		if s := spans[i]; s != nil && s.stale {
			why = append(why, "stale: its source span has changed since it was added (evidence stale), so its lines are the span's now")
		}
		cv.Why = strings.Join(why, "; ")
		out = append(out, cv)
	}
	slices.SortFunc(out, func(a, b Covering) int {
		return cmp.Or(
			cmp.Compare(rankKey(a.best), rankKey(b.best)),
			cmp.Compare(len(b.Terms), len(a.Terms)),
			cmp.Compare(a.order, b.order),
		)
	})
	return out
}

// rankKey orders a best hit's rank, no hit (0) last.
func rankKey(r int) int {
	if r == 0 {
		return math.MaxInt
	}
	return r
}

type termLine struct {
	term string
	line int // 1-based, in the text
}

// termLines gives each of terms that text holds, in terms' order, with
// the first line that holds it. A term is held by a word term (of
// lexical.Terms) that is the same, that starts with the term's stem
// (lexical.Stem: handling holds handler), or whose stem is the term
// (errors holds error): the index's prefix matching, both ways.
func termLines(text string, terms []string) []termLine {
	found := make([]int, len(terms))
	left := len(terms)
	for n, line := range strings.SplitAfter(text, "\n") {
		if left == 0 {
			break
		}
		for _, w := range lexical.Terms(line) {
			for i, t := range terms {
				if found[i] == 0 && termMatches(t, w) {
					found[i] = n + 1
					left--
				}
			}
		}
	}
	var out []termLine
	for i, t := range terms {
		if found[i] > 0 {
			out = append(out, termLine{t, found[i]})
		}
	}
	return out
}

func termMatches(term, word string) bool {
	if term == word {
		return true
	}
	if s := lexical.Stem(term); s != "" && strings.HasPrefix(word, s) {
		return true
	}
	return lexical.Stem(word) == term
}

// content is the text a workspace file holds, without its heading, its
// provenance comment and the code fence around it, and the line of the
// workspace file its first line is.
func content(f *wsFile) (string, int) {
	body := f.body
	line := strings.Count(f.text[:len(f.text)-len(body)], "\n") + 1
	if f.prov != nil {
		if first, rest, ok := strings.Cut(body, "\n"); ok {
			if _, isProv, _ := workspace.ParseProvenance(strings.TrimSuffix(first, "\r")); isProv {
				body, line = rest, line+1
			}
		}
	}
	for strings.HasPrefix(body, "\n") || strings.HasPrefix(body, "\r\n") {
		_, body, _ = strings.Cut(body, "\n")
		line++
	}
	first, rest, ok := strings.Cut(body, "\n")
	fence := first[:len(first)-len(strings.TrimLeft(first, "`"))]
	if !ok || len(fence) < 3 {
		return body, line
	}
	end := strings.TrimSuffix(rest, "\n")
	if inner, ok := strings.CutSuffix(end, fence); ok && (inner == "" || strings.HasSuffix(inner, "\n")) {
		return inner, line + 1
	}
	return body, line
}

// gaps is the hits whose lines no workspace file's span holds whole, each
// with what adding it as evidence add would would cost: its section, and
// the workspace's parts with it. Lines that hold no term (blank lines, a
// closing brace) are not missing: a hit whose other lines are all held is
// no gap. A gap's selector is of the lines missing when they are one
// range, else of the hit.
func (e Env) gaps(ws *workspace.Workspace, entries []workspace.Entry, files []*wsFile, spans []*span, hits []Hit) []Gap {
	out := []Gap{}
	for r, h := range hits {
		var held [][2]int
		var partly []string
		for i, s := range spans {
			if s != nil && s.path == h.Path && s.lo <= h.EndLine && s.hi >= h.StartLine {
				held = append(held, [2]int{max(s.lo, h.StartLine), min(s.hi, h.EndLine)})
				partly = append(partly, files[i].entry.ID())
			}
		}
		missing := subtract([2]int{h.StartLine, h.EndLine}, held)
		if len(missing) == 0 {
			continue
		}
		hit := workspace.Selector{Path: h.Path, Unit: workspace.Lines, Start: h.StartLine, End: h.EndLine}
		ex, err := e.readSelector(hit)
		if err == nil {
			if missing = substantive(missing, ex); len(missing) == 0 {
				continue
			}
		}
		sel := hit
		if len(missing) == 1 {
			sel.Start, sel.End = missing[0][0], missing[0][1]
		}
		g := Gap{Rank: r + 1, Path: h.Path, Lines: [2]int{h.StartLine, h.EndLine}, Symbol: h.Symbol, Relevance: h.Relevance,
			Selector: sel.String(), Missing: missing, Partly: orNone(partly)}
		var why []string
		why = append(why, fmt.Sprintf("hit %d of the index (relevance %.3f)", g.Rank, h.Relevance))
		if h.Why != "" {
			why = append(why, h.Why)
		}
		switch {
		case len(partly) == 0:
			why = append(why, "no workspace file holds any of it")
		case len(missing) == 1 && missing[0][0] == missing[0][1]:
			why = append(why, fmt.Sprintf("line %d is in no workspace file (the rest is in %s)", missing[0][0], strings.Join(partly, ", ")))
		default:
			why = append(why, fmt.Sprintf("lines %s are in no workspace file (the rest is in %s)", rangesString(missing), strings.Join(partly, ", ")))
		}
		g.Why = strings.Join(why, "; ")
		if err == nil {
			err = e.addGap(ws, entries, files, &g, sel)
		}
		if err != nil {
			g.Why += "; cannot be measured: " + err.Error()
		}
		out = append(out, g)
	}
	return out
}

// substantive is missing without the lines of ex (the hit's text) that
// hold no term, trimmed from each range's ends; a range of such lines
// alone is left out.
func substantive(missing [][2]int, ex *Excerpt) [][2]int {
	lines := strings.SplitAfter(ex.Text, "\n")
	holds := func(n int) bool {
		i := n - ex.StartLine
		return i >= 0 && i < len(lines) && len(lexical.Terms(lines[i])) > 0
	}
	out := [][2]int{}
	for _, m := range missing {
		lo, hi := m[0], m[1]
		for lo <= hi && !holds(lo) {
			lo++
		}
		for hi >= lo && !holds(hi) {
			hi--
		}
		if lo <= hi {
			out = append(out, [2]int{lo, hi})
		}
	}
	return out
}

// addGap sets g's Parts and Whole: the workspace's files with sel added
// as evidence add would add it (the next rank of the evidence band, its
// kind from its path), read now.
func (e Env) addGap(ws *workspace.Workspace, entries []workspace.Entry, files []*wsFile, g *Gap, sel workspace.Selector) error {
	ex, err := e.readSelector(sel)
	if err != nil {
		return err
	}
	rank, err := workspace.NextRank(entries, workspace.Evidence)
	if err != nil {
		return err
	}
	kind := workspace.KindOf(sel.Path)
	en := workspace.Entry{Rank: rank, Kind: kind, Role: workspace.Evidence, State: workspace.Active,
		Rel: path.Join(workspace.EvidenceDir, workspace.FileName(rank, kind, workspace.Evidence, workspace.Active))}
	nf := &wsFile{entry: en, path: ws.ShownPath(en), sel: &sel, src: ex, srcRead: true}
	nf.text = Text(workspace.Evidence, ex.Provenance(), sel.Path, fenceLang(sel.Path), ex.Text)
	nf.title, nf.body, nf.prov = splitEvidence(en, nf.text, nf.path)
	byRel := map[string]*wsFile{en.Rel: nf}
	order := []workspace.Entry{en}
	for _, f := range files {
		byRel[f.entry.Rel] = f
		order = append(order, f.entry)
	}
	workspace.SortEntries(order)
	with := make([]*wsFile, len(order))
	for i, o := range order {
		with[i] = byRel[o.Rel]
	}
	parts, plan, _ := evidenceParts(with)
	for i, f := range with {
		if f == nf {
			g.Whole = plan[i].Whole
		}
	}
	g.Parts = parts
	return nil
}

// subtract is r without the ranges in held, as sorted disjoint ranges.
func subtract(r [2]int, held [][2]int) [][2]int {
	out := [][2]int{}
	lo := r[0]
	slices.SortFunc(held, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	for _, h := range held {
		if h[0] > lo {
			out = append(out, [2]int{lo, min(h[0]-1, r[1])})
		}
		lo = max(lo, h[1]+1)
		if lo > r[1] {
			return out
		}
	}
	return append(out, [2]int{lo, r[1]})
}

func rangesString(rs [][2]int) string {
	var s []string
	for _, r := range rs {
		if r[0] == r[1] {
			s = append(s, fmt.Sprint(r[0]))
		} else {
			s = append(s, fmt.Sprintf("%d-%d", r[0], r[1]))
		}
	}
	return strings.Join(s, ", ")
}

func orNone(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// candidate is an evidence file weighed for redundancy.
type candidate struct {
	f     *wsFile
	order int
	span  *span
	norm  string // its content, normalized (textsim.Normalize)
	runes int
	sim   *textsim.Text
	// hist counts its runes by their value mod 256: one edit changes at
	// most two counts by one, so two texts whose counts differ by more
	// than twice the edits SimilarThreshold allows are not alike, which
	// rules out most pairs without following the edit distance.
	hist [256]int32
}

// redundancy finds the evidence files, of those assembled (active and
// linked), whose content another covers: larger files first (then in
// workspace order), each kept unless a kept file covers it, so that of
// two copies the larger, then the earlier, is kept, and a file is never
// called redundant beside one that is itself. It also lists the kept
// files whose spans share some lines.
func redundancy(ws *workspace.Workspace, files []*wsFile, spans []*span) ([]Redundant, []Overlap) {
	var cands []*candidate
	for i, f := range files {
		if f.err != nil || f.entry.Role != workspace.Evidence || f.entry.State == workspace.Skipped {
			continue
		}
		text, _ := content(f)
		norm := textsim.Normalize(text)
		c := &candidate{f: f, order: i, span: spans[i], norm: norm}
		for _, r := range norm {
			c.hist[uint32(r)%256]++
			c.runes++
		}
		cands = append(cands, c)
	}
	bySize := slices.Clone(cands)
	slices.SortFunc(bySize, func(a, b *candidate) int {
		return cmp.Or(cmp.Compare(len(b.norm), len(a.norm)), cmp.Compare(a.order, b.order))
	})
	red := []Redundant{}
	var kept []*candidate
	for _, c := range bySize {
		var best *Redundant
		bestKind := -1
		for _, k := range kept {
			kind, sim, why := covers(k, c)
			if kind < 0 || (best != nil && kind >= bestKind) {
				continue
			}
			best = &Redundant{EntryView: ViewEntry(ws, c.f.entry), By: k.f.entry.ID(), How: kinds[kind], Similarity: sim, Why: why, order: c.order}
			bestKind = kind
		}
		if best != nil {
			red = append(red, *best)
			continue
		}
		kept = append(kept, c)
	}
	slices.SortFunc(red, func(a, b Redundant) int { return cmp.Compare(a.order, b.order) })
	slices.SortFunc(kept, func(a, b *candidate) int { return cmp.Compare(a.order, b.order) })
	over := []Overlap{}
	for j, b := range kept {
		for _, a := range kept[:j] {
			sa, sb := a.span, b.span
			if sa == nil || sb == nil || sa.path != sb.path || sa.lo > sb.hi || sb.lo > sa.hi {
				continue
			}
			lines := [2]int{max(sa.lo, sb.lo), min(sa.hi, sb.hi)}
			n := lines[1] - lines[0] + 1
			over = append(over, Overlap{Entry: b.f.entry.ID(), Other: a.f.entry.ID(), Path: sa.path, Lines: lines, order: [2]int{b.order, a.order},
				Why: fmt.Sprintf("lines %d-%d of %s are in both (%d of its %d lines and %d of the other's %d)", lines[0], lines[1], sa.path, n, sb.hi-sb.lo+1, n, sa.hi-sa.lo+1)})
		}
	}
	slices.SortFunc(over, func(a, b Overlap) int {
		return cmp.Or(cmp.Compare(a.order[0], b.order[0]), cmp.Compare(a.order[1], b.order[1]))
	})
	return red, over
}

// mayBeAlike reports whether a and b may be SimilarThreshold alike: false
// only when their rune counts (hist) differ by more than two per edit the
// threshold allows.
func mayBeAlike(a, b *candidate) bool {
	n := max(a.runes, b.runes)
	edits := int(math.Ceil((1-SimilarThreshold)*float64(n))) + 1 // at least textsim's bound
	l1 := 0
	for i := range a.hist {
		d := int(a.hist[i] - b.hist[i])
		if d < 0 {
			d = -d
		}
		l1 += d
	}
	return l1 <= 2*edits
}

var kinds = []string{SameText, SameSpan, WithinSpan, TextWithin, Similar}

// covers says whether k's content covers c's, and how: the index in kinds
// of the strongest way (-1 when it does not), the texts' similarity, and
// why.
func covers(k, c *candidate) (int, float64, string) {
	kid := k.f.entry.ID()
	if c.norm == k.norm && c.norm != "" { // empty texts are no copies of each other, as in the engine's dedup
		return 0, 1, fmt.Sprintf("holds the same text as %s", kid)
	}
	if sk, sc := k.span, c.span; sk != nil && sc != nil && sk.path == sc.path {
		switch {
		case sk.lo == sc.lo && sk.hi == sc.hi:
			return 1, 0, fmt.Sprintf("selects the same lines as %s, %s:%d-%d", kid, sc.path, sc.lo, sc.hi)
		case sk.lo <= sc.lo && sc.hi <= sk.hi:
			return 2, 0, fmt.Sprintf("its lines %s:%d-%d are within %s's %d-%d", sc.path, sc.lo, sc.hi, kid, sk.lo, sk.hi)
		}
	}
	if c.norm != "" && strings.Contains(k.norm, c.norm) {
		return 3, 0, fmt.Sprintf("its text appears whole in %s", kid)
	}
	if c.runes > 0 && k.runes > 0 && c.runes <= maxSimilarRunes && k.runes <= maxSimilarRunes && mayBeAlike(c, k) {
		if c.sim == nil {
			t := textsim.Prepare(c.norm)
			c.sim = &t
		}
		if k.sim == nil {
			t := textsim.Prepare(k.norm)
			k.sim = &t
		}
		if sim, ok := c.sim.AtLeast(*k.sim, SimilarThreshold); ok {
			return 4, sim, fmt.Sprintf("its text is %.0f%% alike to %s's (edit distance; %.0f%% or more counts)", math.Floor(100*sim), kid, 100*SimilarThreshold)
		}
	}
	return -1, 0, ""
}
