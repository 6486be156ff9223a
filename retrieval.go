package ctxpack

import (
	"context"
	"fmt"
	"path"
	"strings"

	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/retrieve"
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

// rank opens the index, brings it up to date and ranks its chunks for
// query.
func (p *Project) rank(ctx context.Context, query string, o IndexOptions) (*retrieve.Ranking, *OpenedIndex, []string, error) {
	opt, _, err := p.retrieval()
	if err != nil {
		return nil, nil, nil, err
	}
	oi, warnings, err := p.currentIndex(ctx, o)
	if err != nil {
		return nil, nil, nil, err
	}
	opt.Read = p.readText
	r, err := retrieve.Rank(ctx, oi.Index, query, opt)
	if err != nil {
		oi.Close()
		return nil, nil, nil, err
	}
	return r, oi, warnings, nil
}

// readText reads a project file's text as the index does.
func (p *Project) readText(path string) (string, error) {
	t, _, err := project.ReadText(p.FS, path)
	return t, err
}

// Search ranks the chunks of the project's index for a free-text query
// as retrieval mode does (without bringing in the rest of the best file),
// and returns the k best, or with files the best chunk of each of the k
// best files, with the options used (for the factor weights).
func (p *Project) Search(ctx context.Context, query string, k int, files bool, o IndexOptions) ([]retrieve.Chunk, retrieve.Options, []string, error) {
	opt, _, err := p.retrieval()
	if err != nil {
		return nil, opt, nil, err
	}
	opt.Expand = -1
	opt.Read = p.readText
	opt.Lexical = max(opt.Lexical, k)
	opt.Fused = max(opt.Fused, k)
	oi, warnings, err := p.currentIndex(ctx, o)
	if err != nil {
		return nil, opt, nil, err
	}
	defer oi.Close()
	r, err := retrieve.Rank(ctx, oi.Index, query, opt)
	if err != nil {
		return nil, opt, nil, err
	}
	warnings = append(warnings, r.Warnings...)
	var out []retrieve.Chunk
	if files {
		for _, f := range r.Files {
			out = append(out, r.Chunks[f.Best])
		}
	} else {
		out = r.Chunks
	}
	return out[:min(k, len(out))], opt, warnings, nil
}

// RankFiles ranks the project's files for a free-text query, best first.
func (p *Project) RankFiles(ctx context.Context, query string, o IndexOptions) ([]string, error) {
	r, oi, _, err := p.rank(ctx, query, o)
	if err != nil {
		return nil, err
	}
	defer oi.Close()
	out := make([]string, len(r.Files))
	for i, f := range r.Files {
		out[i] = f.Path
	}
	return out, nil
}

// rankFiles ranks the project's files for a free-text query through the
// repository index (brought up to date unless o.NoUpdate): the relevance of
// each file that matches, in [0, 1], by slash path, and the warnings to
// report. Files that do not match are absent.
func (p *Project) rankFiles(ctx context.Context, query string, o IndexOptions) (map[string]float64, []string, error) {
	r, oi, warnings, err := p.rank(ctx, query, o)
	if err != nil {
		return nil, nil, err
	}
	defer oi.Close()
	rel := make(map[string]float64, len(r.Files))
	for _, f := range r.Files {
		rel[f.Path] = f.Relevance
	}
	return rel, warnings, nil
}

// Retrieve assembles the context for a free-text query (retrieval mode):
// the index's chunks ranked for it, placed in tiers by relevance, grouped
// by file and fitted to the budget.
func (p *Project) Retrieve(ctx context.Context, query string, req Request) (*Result, error) {
	if strings.TrimSpace(query) == "" {
		return nil, fmt.Errorf("ctxpack: the query is empty")
	}
	o, err := p.options(req)
	if err != nil {
		return nil, err
	}
	r, oi, warnings, err := p.rank(ctx, query, req.Index)
	if err != nil {
		return nil, err
	}
	defer oi.Close()
	root, err := oi.StateRoot(ctx)
	if err != nil {
		return nil, err
	}
	key := p.retrievalKey(query, root, req, o, r, warnings)
	if res, ok := p.cacheGet(key); ok {
		return res, nil
	}
	_, tiers, err := p.retrieval()
	if err != nil {
		return nil, err
	}
	parts, warns := p.chunkParts(r, tiers)
	warnings = append(append(warnings, p.Warnings...), warns...)
	for _, t := range tiers {
		o.Policy.Buckets = append(o.Policy.Buckets, pack.Bucket{Name: t.Name, Share: t.Share})
	}
	o.Mode, o.Target = "retrieval", query
	o.StateRoot = root
	o.Warnings = warnings
	if p.includeMetadata(req) {
		o.Metadata = fmt.Sprintf("mode=%s tokenizer=%s budget=%d state_root=%s", o.Mode, o.Tokenizer.Name(), o.Budget, o.StateRoot)
	}
	res, err := pack.Assemble(parts, o)
	if err != nil {
		return nil, err
	}
	return p.cachePut(key, &Result{Plan: res.Plan, Output: res.Output}), nil
}

// chunkParts makes a part of each ranked chunk, read from the project's
// files; a chunk whose file changed since the index was updated is left
// out with a warning.
func (p *Project) chunkParts(r *retrieve.Ranking, tiers []Tier) ([]pack.Part, []string) {
	texts := map[string]string{}
	var warnings []string
	var parts []pack.Part
	for _, c := range r.Chunks {
		text, ok := texts[c.Path]
		if !ok {
			t, _, err := project.ReadText(p.FS, c.Path)
			if err != nil {
				warnings = append(warnings, fmt.Sprintf("skipped %s: %v", c.Path, err))
			}
			text = t
			texts[c.Path] = t
		}
		if c.End > len(text) || c.Start > c.End {
			warnings = append(warnings, fmt.Sprintf("skipped %s:%d-%d: the file changed since it was indexed", c.Path, c.StartLine, c.EndLine))
			continue
		}
		body := text[c.Start:c.End]
		cid := project.ContentID(body)
		if cid != c.CID {
			warnings = append(warnings, fmt.Sprintf("skipped %s:%d-%d: the file changed since it was indexed", c.Path, c.StartLine, c.EndLine))
			continue
		}
		parts = append(parts, chunkPart(c, body, cid, tierOf(c.Relevance, tiers)))
	}
	return parts, warnings
}

// tierOf is the tier a relevance places a part in.
func tierOf(rel float64, tiers []Tier) string {
	for _, t := range tiers {
		if rel >= t.Threshold {
			return t.Name
		}
	}
	return tiers[len(tiers)-1].Name
}

// chunkPart is a ranked chunk as a part, at four levels: full, its
// signatures and doc comments (detailed), its first lines (summary), and
// a line naming it (meta).
func chunkPart(c retrieve.Chunk, body, cid, tier string) pack.Part {
	lang, _, _ := classify(c.Path)
	label := fmt.Sprintf("%s:%d-%d", c.Path, c.StartLine, c.EndLine)
	meta := fmt.Sprintf("%s %s, lines %d-%d\n", firstNonEmpty(c.Kind, "chunk"), firstNonEmpty(c.Symbol, path.Base(c.Path)), c.StartLine, c.EndLine)
	text := map[pack.Level]string{pack.Meta: meta, pack.Full: body}
	summary, detailed := chunk.Levels(c.Path, []byte(body))
	if summary != "" && len(summary) < len(body) {
		text[pack.Summary] = summary
	}
	if detailed != "" && len(detailed) < len(body) {
		text[pack.Detailed] = detailed
	}
	comps := make(map[string]float64, len(c.Factors))
	for k, v := range c.Factors {
		comps[k] = v
	}
	return pack.Part{
		Key: fmt.Sprintf("%s#%d", c.Path, c.Seq), Source: "code", Type: partType[retrieve.FileKind(c.Path)], Label: label,
		Path: c.Path, Lines: [2]int{c.StartLine, c.EndLine}, Doc: c.Path, Seq: c.Seq, Offset: c.Start,
		Lang: lang, Text: text, Score: c.Relevance, Components: comps, Bucket: tier, CID: cid,
	}
}

// partType is the section word of a retrieved chunk, by kind of file.
var partType = map[string]string{
	"source": "code", "test": "test", "documentation": "doc", "requirements": "doc", "config": "config", "other": "file",
}
