package pack

import (
	"runtime"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
	"golang.org/x/sync/errgroup"
)

// coster measures rendered blocks with the tokenizer, each once.
type coster struct {
	tok     tokenizer.Tokenizer
	format  render.Format
	bodies  map[*item]*[numLevels]int32
	headers map[string]int // by header text
}

func newCoster(tok tokenizer.Tokenizer, f render.Format) *coster {
	return &coster{tok: tok, format: f, bodies: map[*item]*[numLevels]int32{}, headers: map[string]int{}}
}

// body is the token count of the item's block at level l.
func (c *coster) body(it *item, l Level) int {
	b := c.counts(it)
	if b[l] < 0 {
		b[l] = int32(c.measure(it, l))
	}
	return int(b[l])
}

// counts is the item's measured body counts by level, -1 where not
// measured yet.
func (c *coster) counts(it *item) *[numLevels]int32 {
	b := c.bodies[it]
	if b == nil {
		b = new([numLevels]int32)
		for l := range b {
			b[l] = -1
		}
		c.bodies[it] = b
	}
	return b
}

// measure counts the item's block at level l as render shows it.
func (c *coster) measure(it *item, l Level) int {
	return c.tok.Count(render.Body(c.format, it.block(l, it.textAt(l))))
}

// prefetch measures every item at its start level in parallel, for the
// strategies that will use them all. Results are stored by item, so the
// scheduling never shows.
func (c *coster) prefetch(items []*item) {
	counts := make([]int, len(items))
	parallel(len(items), func(i int) { counts[i] = c.measure(items[i], items[i].start) })
	for i, it := range items {
		c.counts(it)[it.start] = int32(counts[i])
	}
}

// parallel calls f(0..n-1) on GOMAXPROCS goroutines and waits.
func parallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var g errgroup.Group
	g.SetLimit(workers)
	for i := range n {
		g.Go(func() error {
			f(i)
			return nil
		})
	}
	g.Wait()
}

// header is the token count of the doc-format run header shown when the
// item starts a run.
func (c *coster) header(it *item) int {
	if c.format.Content() != render.Doc {
		return 0
	}
	return c.runHeader(render.RunHeader(c.format, it.block(it.start, ""), render.Block{}))
}

// heading is the token count of the section heading shown before the
// first item of the item's section (Part.Heading).
func (c *coster) heading(it *item) int {
	return c.runHeader(render.SectionHeading(c.format, it.Heading))
}

// runHeader is the token count of the run header s. Counts are kept by the
// header's text, not by document: a run header names its first block, and
// parts of one document (Part.Doc) may have different paths.
func (c *coster) runHeader(s string) int {
	if s == "" {
		return 0
	}
	h, ok := c.headers[s]
	if !ok {
		h = c.tok.Count(s)
		c.headers[s] = h
	}
	return h
}

// block is the item as render shows it at level l with the given text.
// Below the part's highest level, the block says which level it is and
// how to get the whole (render.Block.Shown, Part.Whole).
func (it *item) block(l Level, text string) render.Block {
	label := it.Label
	if label == "" {
		label = it.Key
	}
	b := render.Block{Type: it.Type, Label: label, Path: it.Path, Lines: it.Lines, Doc: it.doc, Lang: it.Lang, Text: text, Section: it.Heading, CID: it.cid}
	if it.reduced(l) {
		b.Shown, b.Rest = l.String(), it.Whole
		if l == Detailed && len(it.Window) > 0 {
			b.Shown = "window" // its elisions say which lines
		}
		if b.Rest == "" && it.Path != "" {
			b.Rest = SummarizeCommand(it.Path, it.Lines)
		}
	}
	return b
}

// reduced reports whether level l shows less than the whole part and
// the header must say so: it is below the part's highest level, and the
// part's text does not say it itself (Part.SelfNoted).
func (it *item) reduced(l Level) bool { return l < it.top && !it.SelfNoted }

// shownSize is the length in bytes of the item at level l as its
// ladder compares levels: its text's, and, when the level shows less than
// the whole, its header's note's, so that a lower level whose note makes
// it no shorter than a higher one is never a rung.
func (it *item) shownSize(l Level) int {
	n := it.size(l)
	if it.reduced(l) {
		n += len(render.Note(it.block(l, ""))) + len(" ()")
	}
	return n
}

// shorter reports whether the item at level l is shorter as shown than
// at level h: by their lengths (shownSize) when one is at most a third of
// the other, else by the tokens of both as rendered, measured once and
// kept. A level's note counts more tokens per byte than most text does,
// so lengths alone could make a rung of a level that costs more than the
// one above it.
func (c *coster) shorter(it *item, l, h Level) bool {
	nl, nh := it.shownSize(l), it.shownSize(h)
	switch {
	case nl >= nh:
		return false
	case 3*nl <= nh:
		return true
	}
	return c.body(it, l) < c.body(it, h)
}

// SummarizeCommand is the command that prints a part whole:
// 'ctxpack summarize PATH:START-END --depth full' for the lines of a part
// with a line span (1-based, inclusive), 'ctxpack summarize PATH --depth
// full' for a whole file (lines zero): the default of Part.Whole.
func SummarizeCommand(path string, lines [2]int) string {
	if lines[0] > 0 {
		path += ":" + strconv.Itoa(lines[0]) + "-" + strconv.Itoa(lines[1])
	}
	return "ctxpack summarize " + shellQuote(path) + " --depth full"
}

// shellQuote is p as one word of a POSIX shell: as it is when it holds
// only characters no shell treats specially, else in single quotes.
func shellQuote(p string) string {
	if p != "" && strings.IndexFunc(p, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+,:@%=", r))
	}) < 0 {
		return p
	}
	return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
}
