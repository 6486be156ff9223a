package retrieval

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/retrieve"
	"github.com/ctxpack/ctxpack/internal/secrets"
)

// Tier is one tier of retrieval mode's budget: the aiwg seed's primary,
// supporting, reference and history context, with their shares of the
// budget and the relevance a part needs to be placed in them.
type Tier struct {
	Name      string
	Share     float64 // percent of the budget
	Threshold float64 // the least relevance of the tier's parts
}

// DefaultTiers are the aiwg seed's tiers: 50/30/15/5 with thresholds
// 0.7/0.5/0.3. Parts below the last threshold go to the last tier.
func DefaultTiers() []Tier {
	return []Tier{
		{Name: "primary", Share: 50, Threshold: 0.7},
		{Name: "supporting", Share: 30, Threshold: 0.5},
		{Name: "reference", Share: 15, Threshold: 0.3},
		{Name: "history", Share: 5, Threshold: 0},
	}
}

// TierFor is the tier a relevance places a retrieved part in: the first
// whose threshold it reaches, else the last.
func TierFor(relevance float64, tiers []Tier) Tier {
	for _, t := range tiers {
		if relevance >= t.Threshold {
			return t
		}
	}
	return tiers[len(tiers)-1]
}

// Policy is the engine's budget policy for tiers: one bucket per tier,
// in order, with its share.
func Policy(tiers []Tier) pack.Policy {
	var p pack.Policy
	for _, t := range tiers {
		p.Buckets = append(p.Buckets, pack.Bucket{Name: t.Name, Share: t.Share})
	}
	return p
}

// Files reads project files as the index does, each once. It is not safe
// for concurrent use.
type Files struct {
	fsys fs.FS
	m    map[string]fileText
}

type fileText struct {
	text string
	err  error
}

// NewFiles reads the files of fsys.
func NewFiles(fsys fs.FS) *Files { return &Files{fsys: fsys} }

// Read returns the text of the file at slash path p, as project.ReadText
// gives it, reading it on the first call only.
func (f *Files) Read(p string) (string, error) {
	if t, ok := f.m[p]; ok {
		return t.text, t.err
	}
	if f.m == nil {
		f.m = map[string]fileText{}
	}
	text, _, err := project.ReadText(f.fsys, p)
	f.m[p] = fileText{text, err}
	return text, err
}

// Inputs gives a ranking its access to the project at root: files for
// the dependency depth (through files) and git commit times for the
// recency.
func Inputs(ctx context.Context, root string, files *Files, opt *retrieve.Options) {
	opt.Read = files.Read
	opt.Changed = func(paths []string) (map[string]int64, error) {
		want := make(map[string]bool, len(paths))
		for _, p := range paths {
			want[p] = true
		}
		return project.LastChanged(ctx, root, want)
	}
}

// Parts makes a part of each ranked chunk, read through files. A chunk
// whose text no longer has the indexed content id (its file changed since
// the index was updated), or whose file cannot be read, is left out: it
// is returned as dropped with the reason, and warned about once per file.
//
// With a scanner sc, a secret of the file that a chunk's bounds cut (a
// key whose first lines are in the chunk before, say) is replaced in the
// chunk by its marker: a chunk's own scan cannot recognize a piece of a
// secret, and a span cut from a file carries that file's findings. The
// warnings count them.
func Parts(chunks []retrieve.Chunk, files *Files, tiers []Tier, windows bool, sc *secrets.Scanner) ([]pack.Part, []render.Dropped, []string) {
	var warnings []string
	var parts []pack.Part
	var skipped []render.Dropped
	warned := map[string]bool{}
	found := map[string][]secrets.Finding{}
	cut := map[string]int{}
	for _, c := range chunks {
		text, err := files.Read(c.Path)
		var body string
		if err == nil {
			body, err = retrieve.ChunkText(c, text)
		}
		if err == nil && sc != nil {
			f, ok := found[c.Path]
			if !ok {
				f = sc.Scan(c.Path, text)
				found[c.Path] = f
			}
			var n int
			if body, n = redactCut(body, c.Start, f); n > 0 {
				c.CID = "" // the engine's, of the text shown
				cut[c.Path] += n
			}
		}
		if err != nil {
			key := fmt.Sprintf("%s#%d", c.Path, c.Seq)
			skipped = append(skipped, render.Dropped{Key: key, Path: c.Path, Reason: err.Error()})
			if !warned[c.Path] {
				warned[c.Path] = true
				warnings = append(warnings, fmt.Sprintf("skipped chunks of %s: %v", c.Path, err))
			}
			continue
		}
		parts = append(parts, Part(c, body, TierFor(c.Relevance, tiers).Name, windows))
	}
	for _, p := range slices.Sorted(maps.Keys(cut)) {
		warnings = append(warnings, fmt.Sprintf("redacted %d %s of %s that a chunk's bounds cut", cut[p], plural(cut[p], "secret", "secrets"), p))
	}
	return parts, skipped, warnings
}

// redactCut replaces in a chunk's body, which starts at byte start of its
// file, each secret of the file (found) that the chunk holds only part
// of by its marker, and returns the body and how many it replaced.
func redactCut(body string, start int, found []secrets.Finding) (string, int) {
	end := start + len(body)
	var b strings.Builder
	at, n := 0, 0
	for _, f := range found {
		if f.End <= start || f.Start >= end || f.Start >= start && f.End <= end {
			continue // outside the chunk, or whole in it: its own scan finds it
		}
		lo, hi := max(f.Start, start)-start, min(f.End, end)-start
		if lo < at {
			continue
		}
		b.WriteString(body[at:lo])
		b.WriteString(secrets.Marker(f.Rule))
		at = hi
		n++
	}
	if n == 0 {
		return body, 0
	}
	b.WriteString(body[at:])
	return b.String(), n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Part is a ranked chunk as a part in bucket tier, at four levels: full
// (body), its signatures and doc comments (detailed), its first lines
// (summary), and a line naming it (meta).
func Part(c retrieve.Chunk, body, tier string, windows bool) pack.Part {
	label := fmt.Sprintf("%s:%d-%d", c.Path, c.StartLine, c.EndLine)
	meta := fmt.Sprintf("%s %s, lines %d-%d\n", or(c.Kind, "chunk"), or(c.Symbol, path.Base(c.Path)), c.StartLine, c.EndLine)
	text := map[pack.Level]string{pack.Meta: meta, pack.Full: body}
	summary, detailed := chunk.Levels(c.Path, []byte(body))
	if summary != "" && len(summary) < len(body) {
		text[pack.Summary] = summary
	}
	if detailed != "" && len(detailed) < len(body) {
		text[pack.Detailed] = detailed
	}
	// A large chunk's detailed level is its relevant window, where it
	// has one: the lines that hold the query's terms, not its signatures
	// alone.
	var win string
	var spans [][2]int
	if windows {
		win, spans = window(chunkView{path: c.Path, start: c.StartLine, terms: bodyTerms(c)}, body)
	}
	if win != "" {
		text[pack.Detailed] = win
	}
	return pack.Part{
		Key: fmt.Sprintf("%s#%d", c.Path, c.Seq), Source: "code", Type: retrieve.SectionWord(retrieve.FileKind(c.Path), true), Label: label,
		Path: c.Path, Lines: [2]int{c.StartLine, c.EndLine}, Doc: c.Path, Seq: c.Seq, Offset: c.Start,
		Lang: chunk.Language(c.Path), Text: text, Score: c.Relevance, Components: maps.Clone(c.Factors), Bucket: tier, CID: c.CID,
		Window: spans,
	}
}

// bodyTerms are the query terms the chunk's body matched.
func bodyTerms(c retrieve.Chunk) []string {
	for _, m := range c.Matched {
		if m.Column == "body" {
			return m.Terms
		}
	}
	return nil
}

func or(s, otherwise string) string {
	if s == "" {
		return otherwise
	}
	return s
}
