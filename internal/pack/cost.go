package pack

import (
	"runtime"

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
func (it *item) block(l Level, text string) render.Block {
	label := it.Label
	if label == "" {
		label = it.Key
	}
	return render.Block{Type: it.Type, Label: label, Path: it.Path, Lines: it.Lines, Doc: it.doc, Lang: it.Lang, Text: text, Section: it.Heading, CID: it.cid}
}
