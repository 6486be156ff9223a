package pack

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ctxpack/ctxpack/internal/render"
)

// Split assembles parts with no budget, as opt asks (overflow allow, its
// budget ignored), and divides what that shows into outputs that each
// take at most budget tokens, counted by the tokenizer on each output's
// rendered content: consecutive runs of the unbudgeted output's parts, in
// its order, each rendered on its own, with its plan (render.Plan.Split
// says which of how many it is). Together they show every part the
// unbudgeted output shows, at its level, and nothing else. A part that
// does not fit in an output of its own is cut into pieces at line ends
// (a line longer than an output, at token boundaries), each a part of its
// own keyed "KEY:FIRST-LAST" with the lines it holds (at a level below
// full, "KEY#N"), in reading order; nothing is left out. A copy of a part
// (Options.ShowCopies) stays the line naming the part it repeats, in
// whichever output that part is. The first output's plan lists what the
// unbudgeted assembly dropped, and every plan its warnings, those of the
// transforms (Options.Transform) summed over all the outputs. It fails when
// the budget cannot hold even the format's own text and one line.
func Split(parts []Part, opt Options, budget int) ([]*Result, error) {
	if budget <= 0 {
		return nil, fmt.Errorf("pack: split: the budget must be a positive number of tokens (got %d)", budget)
	}
	first := opt
	first.Overflow, first.Budget = Allow, 0
	first.MetaAsTree = false
	first.Format = opt.Format.Content()
	all, err := assemble(parts, first, io.Discard)
	if err != nil {
		return nil, err
	}
	// Each output is the parts as shown, with nothing more to decide:
	// no deduplication (a copy is its line already), no tree.
	each := opt
	each.Overflow, each.Budget = Allow, budget
	each.DedupThreshold, each.ShowCopies, each.MetaAsTree, each.MaxChunksPerDoc = -1, false, false, 0
	each.Structure = false // the structure is a part of the first output
	each.Dropped, each.Skipped = nil, nil
	s := &splitter{opt: &each, budget: budget}
	if err := s.init(); err != nil {
		return nil, err
	}
	var units []unit
	for i, p := range all.shown {
		pp := &all.Plan.Parts[i]
		if s.overhead+pp.Tokens <= budget {
			units = append(units, unit{part: p, tokens: pp.Tokens, reason: pp.Reason})
			continue
		}
		pieces, err := s.pieces(p, pp.Level)
		if err != nil {
			return nil, err
		}
		units = append(units, pieces...)
	}
	outs, err := s.group(units)
	if err != nil {
		return nil, err
	}
	// The transforms' warnings sum what was done in every output.
	var notes []transformNote
	var paths []string
	for _, r := range outs {
		notes, paths = append(notes, r.notes...), append(paths, r.notePaths...)
	}
	sums := transformWarnings(each.Transform, notes, paths)
	for i, r := range outs {
		if len(r.noteWarnings) > 0 || len(sums) > 0 {
			ws := slices.DeleteFunc(slices.Clone(r.Plan.Warnings), func(w string) bool { return slices.Contains(r.noteWarnings, w) })
			r.Plan.Warnings = append(ws, sums...)
		}
		r.notes, r.notePaths, r.noteWarnings = nil, nil, nil
		r.Plan.Split = &render.Split{Index: i + 1, Count: len(outs)}
		if i == 0 {
			r.Plan.Dropped = append(r.Plan.Dropped, all.Plan.Dropped...)
			r.Plan.Skipped = all.Plan.Skipped
		}
		r.shown = nil
		if opt.Format == render.JSON {
			enc, err := render.EncodePlan(&r.Plan)
			if err != nil {
				return nil, err
			}
			r.Output = enc
		}
	}
	return outs, nil
}

// unit is a part of a split output, with its tokens as the unbudgeted
// output (or, for a piece, an output of its own) counted them.
type unit struct {
	part   *Part
	tokens int
	reason string // the unbudgeted plan's reason for the part, which the output's plan keeps
}

type splitter struct {
	opt      *Options
	budget   int
	overhead int // the format's own text around the parts
}

func (s *splitter) init() error {
	if err := s.opt.normalize(); err != nil {
		return err
	}
	open := render.Open(s.opt.Format, s.opt.Metadata) + s.opt.Header
	close := render.Close(s.opt.Format)
	s.overhead = s.opt.Tokenizer.Count(open) + s.opt.Tokenizer.Count(close)
	return nil
}

// render assembles the parts as one output within the budget, and
// reports whether it is.
func (s *splitter) render(ps []*Part) (*Result, bool, error) {
	parts := make([]Part, len(ps))
	for i, p := range ps {
		parts[i] = *p
	}
	res, err := assemble(parts, *s.opt, nil)
	if err != nil {
		return nil, false, err
	}
	return res, res.Plan.TotalTokens <= s.budget, nil
}

// group takes the units, in order, into outputs: as many as fit by their
// counts, then, when the output counts over the budget, one fewer until
// it does not.
func (s *splitter) group(units []unit) ([]*Result, error) {
	var outs []*Result
	for len(units) > 0 {
		n, sum := 0, s.overhead
		for n < len(units) && (n == 0 || sum+units[n].tokens <= s.budget) {
			sum += units[n].tokens
			n++
		}
		for {
			ps := make([]*Part, n)
			for i := range n {
				ps[i] = units[i].part
			}
			res, ok, err := s.render(ps)
			if err != nil {
				return nil, err
			}
			if ok {
				reason := map[string]string{}
				for _, u := range units[:n] {
					if u.reason != "" {
						reason[u.part.Key] = u.reason
					}
				}
				for i := range res.Plan.Parts {
					if r, ok := reason[res.Plan.Parts[i].Key]; ok {
						res.Plan.Parts[i].Reason = r
					}
				}
				outs = append(outs, res)
				break
			}
			if n == 1 {
				return nil, fmt.Errorf("pack: split: %s takes %d tokens alone, over the budget of %d", units[0].part.Key, res.Plan.TotalTokens, s.budget)
			}
			n--
		}
		units = units[n:]
	}
	return outs, nil
}

// pieces cuts the part, shown at level, into parts that each fit in an
// output of their own: at line ends, lines filled to a share of the room
// an output leaves (a line longer than that at token boundaries), the
// share lowered until every piece fits.
func (s *splitter) pieces(p *Part, level string) ([]unit, error) {
	text, full, err := shownText(p, level)
	if err != nil {
		return nil, err
	}
	head := s.opt.Tokenizer.Count(render.Body(s.opt.Format, render.Block{Type: p.Type, Label: p.Key + ":000000-000000", Path: p.Path, Lines: [2]int{999999, 999999}, Lang: p.Lang}))
	room := s.budget - s.overhead - head
	for share := 0.95; share > 0.05; share -= 0.15 {
		limit := int(float64(room) * share)
		if limit < 1 {
			break
		}
		cuts := s.cut(text, limit)
		units := make([]unit, 0, len(cuts))
		ok := true
		for i, c := range cuts {
			q := piece(p, c, i, full)
			res, fits, err := s.render([]*Part{q})
			if err != nil {
				return nil, err
			}
			if !fits {
				ok = false
				break
			}
			units = append(units, unit{part: q, tokens: res.Plan.TotalTokens - s.overhead})
		}
		if ok {
			return units, nil
		}
	}
	return nil, fmt.Errorf("pack: split: a budget of %d tokens cannot hold a line of %s in an output of its own", s.budget, p.Key)
}

// shownText is the part's text at the level it is shown at, and whether
// that is its full text (whose lines are the file's).
func shownText(p *Part, level string) (string, bool, error) {
	l, err := ParseLevel(level)
	if err != nil {
		return "", false, err
	}
	if t, ok := p.Text[l]; ok {
		return t, l == Full, nil
	}
	if p.Loader == nil {
		return "", false, fmt.Errorf("pack: split: part %q has no text at %s", p.Key, level)
	}
	full, err := p.Loader.Load()
	if err != nil {
		return "", false, fmt.Errorf("pack: part %q: %w", p.Key, err)
	}
	if l == Full {
		return full, true, nil
	}
	if p.More != nil {
		if t := p.More(full)[l]; t != "" {
			return t, false, nil
		}
	}
	return "", false, fmt.Errorf("pack: split: part %q has no text at %s", p.Key, level)
}

// cutText is a piece of a text: its first and last line (from 1) and
// its text.
type cutText struct {
	first, last int
	text        string
}

// cut divides text at line ends into pieces of at most limit tokens by
// the sum of their lines' counts; a line over the limit is cut at token
// boundaries, each cut a piece of that one line.
func (s *splitter) cut(text string, limit int) []cutText {
	tok := s.opt.Tokenizer
	var out []cutText
	var cur strings.Builder
	first, n, sum := 1, 0, 0
	flush := func(last int) {
		if cur.Len() > 0 {
			out = append(out, cutText{first: first, last: last, text: cur.String()})
			cur.Reset()
		}
		first, sum = last+1, 0
	}
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line = text[:i+1]
		}
		text = text[len(line):]
		n++
		c := tok.Count(line)
		if c > limit {
			flush(n - 1)
			for rest := line; rest != ""; {
				head := tok.Truncate(rest, limit)
				if head == "" { // one token over the limit: a character at least
					_, size := utf8.DecodeRuneInString(rest)
					head = rest[:size]
				}
				out = append(out, cutText{first: n, last: n, text: head})
				rest = rest[len(head):]
			}
			first = n + 1
			continue
		}
		if sum+c > limit {
			flush(n - 1)
		}
		cur.WriteString(line)
		sum += c
	}
	flush(n)
	return out
}

// piece is the part of p that holds c, the i-th piece of its text: with
// the file's lines when the text is p's full text.
func piece(p *Part, c cutText, i int, full bool) *Part {
	q := &Part{
		Source: p.Source, Type: p.Type, Path: p.Path, Doc: p.doc(), Seq: p.Seq*1_000_000 + i, Lang: p.Lang,
		Score: p.Score, Components: p.Components, Priority: p.Priority, Bucket: p.Bucket, Section: p.Section,
		Heading: p.Heading, Via: p.Via, Whole: p.Whole, SelfNoted: true, Changed: p.Changed,
		Text: map[Level]string{Full: c.text},
	}
	if full {
		base := max(p.Lines[0], 1)
		q.Lines = [2]int{base + c.first - 1, base + c.last - 1}
		q.Key = fmt.Sprintf("%s:%d-%d", p.Key, q.Lines[0], q.Lines[1])
		if c.first == c.last && i > 0 {
			q.Key = fmt.Sprintf("%s#%d", q.Key, i) // a long line in several pieces
		}
	} else {
		q.Key = fmt.Sprintf("%s#%d", p.Key, i+1)
	}
	q.Label = q.Key
	return q
}
