package retrieve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/embed"
	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/ctxpack/ctxpack/internal/lang"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/rank"
	"github.com/ctxpack/ctxpack/internal/refgraph"
)

// Factors are the weights of the relevance factors of the aiwg seed. A
// factor with no data for a query (recency in a tree without history) is
// left out and the others' weights are scaled to sum to the same.
type Factors struct {
	TaskAlignment   float64 // the fused retrieval rank
	Recency         float64 // git commit time, relative to the newest file, among the relevant (RecencyMargin)
	MentionDensity  float64 // paths and definitions the query names
	DependencyDepth float64 // distance from the best-matching files
	FileType        float64 // source over tests over docs over config
}

// RecencyMargin is how far below the best relevance without recency a
// chunk's relevance without recency may be for recency to count: recency
// reorders the chunks that match about as well as the best, and a chunk
// further down gets a recency of 0, so that what changed lately is never
// lifted above what matches better.
const RecencyMargin = 0.1

// DefaultFactors are the aiwg seed's weights: 0.4, 0.2, 0.2, 0.1, 0.1.
func DefaultFactors() Factors {
	return Factors{TaskAlignment: 0.4, Recency: 0.2, MentionDensity: 0.2, DependencyDepth: 0.1, FileType: 0.1}
}

// Options control a ranking. The zero value of every field means its
// default.
type Options struct {
	Factors  Factors
	K        int // the RRF constant; 60
	Lexical  int // chunks taken from the lexical ranking; 50
	Semantic int // chunks taken from the semantic ranking; 50
	Mentions int // chunks taken from the mention ranking; 50
	Fused    int // chunks kept after fusion; 100
	// Changed, when set, returns the last commit times (Unix seconds) of
	// the files it is given, for the recency factor: it is called once,
	// with the files of the fused chunks. Files it does not return, and
	// every file when it is nil or returns nothing, get no recency.
	Changed func(paths []string) (map[string]int64, error)
	// DecayDays is the recency half-life in days; 7.
	DecayDays float64
	// FileTypes are the file-type priorities; the zero value means
	// DefaultFileTypes().
	FileTypes FileTypes
	// Read, when set, reads a file's text for the dependency-depth factor:
	// the reference graph of the ranked files (package refgraph) gives each
	// file its distance from the Seeds best files. Without it the factor is
	// left out.
	Read func(path string) (string, error)
	// Seeds is how many of the best files the dependency depth is measured
	// from; 0 means 3.
	Seeds int
	// MaxDepth is the dependency depth at which the factor reaches 0; 0
	// means 3 (the aiwg seed's max_depth).
	MaxDepth int
	// Embedder, when set, adds the semantic ranking: the index's vectors
	// for it (see index.Embed).
	Embedder embed.Embedder
	// Expand is how many of the best files bring all their chunks, not
	// only those that matched, at ExpandShare of the file's relevance:
	// the code around a match is usually what a change needs. 0 means 1;
	// negative means none.
	Expand int
	// ExpandShare is the share of its file's relevance an expanded chunk
	// gets; 0 means 0.25.
	ExpandShare float64
	// Off turns components of the ranking off, to measure what each
	// contributes (bench/swebench); the zero value has every one on.
	Off Components
}

// Components are the parts of the ranking that can be turned off, each
// by the name ComponentNames gives it.
type Components struct {
	// QueryCleaning: CleanQuery's removals, and not counting the query's
	// own definitions as mentions.
	QueryCleaning bool
	// KindPrior: weighing the lexical ranking's scores by the priority of
	// the file's kind before its best are taken.
	KindPrior bool
	// Stemming: matching a query's words by their stems
	// (index.SearchOptions.Stem).
	Stemming bool
	// TestMapping: the ranking of the files the best-matching tests test
	// (testedRanking).
	TestMapping bool
	// TermSelection: searching a long query for its MaxQueryTerms terms
	// that weigh most (index.SelectTerms) rather than for all of them.
	TermSelection bool
	// Windows: the relevant window of a large chunk as its detailed
	// level (internal/collect/retrieval), rather than its signatures.
	Windows bool
}

// components name each field of Components, in order.
var components = []struct {
	name  string
	field func(*Components) *bool
}{
	{"query_cleaning", func(c *Components) *bool { return &c.QueryCleaning }},
	{"kind_prior", func(c *Components) *bool { return &c.KindPrior }},
	{"stemming", func(c *Components) *bool { return &c.Stemming }},
	{"test_mapping", func(c *Components) *bool { return &c.TestMapping }},
	{"term_selection", func(c *Components) *bool { return &c.TermSelection }},
	{"windows", func(c *Components) *bool { return &c.Windows }},
}

// ComponentNames are the names of the Components, in order: the names
// retrieval.off takes.
func ComponentNames() []string {
	names := make([]string, len(components))
	for i, c := range components {
		names[i] = c.name
	}
	return names
}

// Set turns the component with the given name off; false for a name that
// is not a component's.
func (c *Components) Set(name string) bool {
	for _, k := range components {
		if k.name == name {
			*k.field(c) = true
			return true
		}
	}
	return false
}

// WithDefaults returns o with every zero field set to its default, as
// Rank uses it.
func (o Options) WithDefaults() Options {
	o.normalize()
	return o
}

func (o *Options) normalize() {
	if o.Factors == (Factors{}) {
		o.Factors = DefaultFactors()
	}
	o.K = cmp.Or(o.K, 60)
	o.Lexical = cmp.Or(o.Lexical, 50)
	o.Semantic = cmp.Or(o.Semantic, 50)
	o.Mentions = cmp.Or(o.Mentions, 50)
	o.Fused = cmp.Or(o.Fused, 100)
	if o.FileTypes == (FileTypes{}) {
		o.FileTypes = DefaultFileTypes()
	}
	o.Seeds = cmp.Or(o.Seeds, 3)
	o.MaxDepth = cmp.Or(o.MaxDepth, 3)
	if o.Expand == 0 {
		o.Expand = 1
	}
	if o.ExpandShare <= 0 {
		o.ExpandShare = 0.25
	}
	if o.DecayDays <= 0 {
		o.DecayDays = 7
	}
}

// Chunk is a ranked chunk.
type Chunk struct {
	index.Hit
	// Relevance is the weighted mean of the factors, in [0, 1], quantized
	// to 1e-6.
	Relevance float64
	// Factors are the factor values in [0, 1], by name: task_alignment,
	// recency, mention_density, dependency_depth, file_type (those with
	// data).
	Factors map[string]float64
	// Ranks are the chunk's 1-based ranks in the rankings that were fused,
	// by name: lexical, semantic, mentions, tested (RankingNames).
	Ranks map[string]int
	// Named says what of the chunk the query names: "defines NAME",
	// "path", "file defines NAME".
	Named []string
}

// Why says in one line why a chunk was retrieved: the terms it matched by
// field, what of it the query names, and its file's relevance when it
// came in with its file.
func (c Chunk) Why() string {
	var parts []string
	if w := c.Hit.Why(); w != "" {
		parts = append(parts, w)
	}
	if len(c.Named) > 0 {
		parts = append(parts, "named: "+strings.Join(c.Named, ", "))
	}
	if r, ok := c.Factors["file_relevance"]; ok {
		parts = append(parts, fmt.Sprintf("in the best file (relevance %.3f)", r))
	}
	if c.Ranks["semantic"] > 0 {
		parts = append(parts, fmt.Sprintf("semantic rank %d", c.Ranks["semantic"]))
	}
	if c.Ranks["tested"] > 0 {
		parts = append(parts, fmt.Sprintf("its file is tested by a matching test (tested rank %d)", c.Ranks["tested"]))
	}
	return strings.Join(parts, "; ")
}

// Weight is the weight of the factor with the given name (0 for names
// that are not factors).
func (f Factors) Weight(name string) float64 {
	switch name {
	case "task_alignment":
		return f.TaskAlignment
	case "recency":
		return f.Recency
	case "mention_density":
		return f.MentionDensity
	case "dependency_depth":
		return f.DependencyDepth
	case "file_type":
		return f.FileType
	}
	return 0
}

// RankingNames are the names of the rankings Rank fuses, in order: the
// keys of Chunk.Ranks.
func RankingNames() []string { return []string{"lexical", "semantic", "mentions", "tested"} }

// FactorNames are the names of the factors, in a fixed order.
func FactorNames() []string { return slices.Clone(factorNames) }

// File is a ranked file: the relevance of its best chunk.
type File struct {
	Path      string
	Relevance float64
	Best      int // the index of its best chunk in Ranking.Chunks
}

// Ranking is the result of Rank.
type Ranking struct {
	Chunks []Chunk // best first: relevance desc, path asc, sequence asc
	Files  []File  // best first, one per file
	// Mentions are what the query named.
	Mentions Mentions
	// Warnings say what the ranking could not use, such as chunks with no
	// vector yet.
	Warnings []string

	mentions map[string]*fileMentions // how the query mentions each file
	newest   int64                    // the newest commit time among the fused files; 0 if none
	// recencyFloor is the relevance without recency below which a chunk's
	// recency is 0 (RecencyMargin under the best).
	recencyFloor float64
	seeds        []string // the files dependency depth is measured from
	terms        []string // the terms searched for (nil: the query's own)
}

// Rank ranks the chunks of the index for a free-text query. The query is
// cleaned first (CleanQuery). Up to four rankings are then fused by
// reciprocal rank (RRF, constant Options.K): the lexical one (BM25 over
// stems, weighed by file kind: lexicalRanking), the semantic one (cosine
// to the query's embedding, when Options.Embedder is set), the mention
// one (chunks that define identifiers the query names, the best chunk of
// files whose paths it names) and the tested one (the files the
// best-matching tests test, testedRanking, at TestedWeight). The Fused
// best are re-scored by the relevance factors.
//
// The task-alignment factor is half the fused score over the best fused
// score, and half the chunk's similarity over the best similarity, averaged
// over the similarity rankings (BM25, cosine): rank fusion alone forgets
// how far ahead the best matches are. A negative similarity (a cosine
// below 0) counts as none, so the factor stays in [0, 1].
func Rank(ctx context.Context, ix *index.Index, query string, opt Options) (*Ranking, error) {
	opt.normalize()
	var own map[string]bool
	var warnings []string
	if !opt.Off.QueryCleaning {
		if cq := CleanQuery(query); strings.TrimSpace(cq.Text) != "" {
			query, own = cq.Text, cq.Own
			if w := cq.Note(); w != "" {
				warnings = append(warnings, w)
			}
		}
	}
	var terms []string // nil: each search takes the query's own
	if !opt.Off.TermSelection {
		sel, err := ix.SelectTerms(ctx, query, MaxQueryTerms, !opt.Off.Stemming)
		if err != nil {
			return nil, err
		}
		terms = sel.Terms // all of the query's when it has few: no search derives them again
		if sel.Dropped() > 0 {
			warnings = append(warnings, selectionNote(sel))
		}
	}
	lexical, pool, err := lexicalRanking(ctx, ix, query, terms, opt)
	if err != nil {
		return nil, err
	}
	var semantic []index.Hit
	if opt.Embedder != nil {
		semantic, err = ix.Nearest(ctx, opt.Embedder, query, opt.Semantic)
		var mv *index.MissingVectorsError
		if errors.As(err, &mv) {
			warnings = append(warnings, fmt.Sprintf("semantic search: %v", err))
			err = nil
		}
		if err != nil {
			return nil, err
		}
	}
	m := ParseMentions(query)
	m.Idents = slices.DeleteFunc(m.Idents, func(id string) bool { return own[id] })
	mentioned, fileMention, err := mentionRanking(ctx, ix, query, terms, m, opt.Mentions)
	if err != nil {
		return nil, err
	}
	var tested []index.Hit
	if !opt.Off.TestMapping {
		if tested, err = testedRanking(ctx, ix, pool, opt.Mentions); err != nil {
			return nil, err
		}
	}

	type cand struct {
		hit   index.Hit
		rrf   float64
		sim   float64 // the sum of the similarity rankings' normalized scores
		ranks map[string]int
	}
	byKey := map[string]*cand{}
	var order []*cand
	similarity := 0 // the number of similarity rankings
	add := func(list string, hits []index.Hit, scored bool, weight float64) {
		if scored && len(hits) > 0 {
			similarity++
		}
		for i, h := range hits {
			key := fmt.Sprintf("%s#%d", h.Path, h.Seq)
			c := byKey[key]
			if c == nil {
				c = &cand{hit: h, ranks: map[string]int{}}
				byKey[key] = c
				order = append(order, c)
			}
			c.ranks[list] = i + 1
			c.rrf += weight / float64(opt.K+i+1)
			if scored && hits[0].Score > 0 {
				c.sim += max(h.Score/hits[0].Score, 0)
			}
		}
	}
	add("lexical", lexical, true, 1)
	add("semantic", semantic, true, 1)
	add("mentions", mentioned, false, 1)
	add("tested", tested, false, TestedWeight)
	slices.SortFunc(order, func(a, b *cand) int {
		return cmp.Or(cmp.Compare(rank.Quantize(b.rrf), rank.Quantize(a.rrf)), strings.Compare(a.hit.Path, b.hit.Path), cmp.Compare(a.hit.Seq, b.hit.Seq))
	})
	order = order[:min(len(order), opt.Fused)]
	if len(order) == 0 {
		return &Ranking{Mentions: m, Warnings: warnings, terms: terms}, nil
	}
	top := order[0].rrf
	alignment := func(c *cand) float64 {
		if similarity == 0 {
			return c.rrf / top
		}
		return (c.rrf/top + c.sim/float64(similarity)) / 2
	}

	out := &Ranking{Mentions: m, Warnings: warnings, mentions: fileMention, terms: terms}
	var changed map[string]int64
	if opt.Changed != nil {
		var paths []string
		for _, c := range order {
			paths = append(paths, c.hit.Path)
		}
		slices.Sort(paths)
		if changed, err = opt.Changed(slices.Compact(paths)); err != nil {
			return nil, err
		}
		for _, t := range changed {
			out.newest = max(out.newest, t)
		}
	}
	recent := map[string]float64{} // each file's recency, counted by gateRecency
	for _, c := range order {
		f := map[string]float64{
			"task_alignment":  alignment(c),
			"mention_density": mentionDensity(c.hit, fileMention[c.hit.Path]),
			"file_type":       opt.FileTypes.Priority(c.hit.Path),
		}
		if t, ok := changed[c.hit.Path]; ok && out.newest > 0 {
			recent[c.hit.Path] = rank.Round(recency(t, out.newest, opt.DecayDays))
		}
		for k, v := range f {
			f[k] = rank.Round(v)
		}
		out.Chunks = append(out.Chunks, Chunk{Hit: c.hit, Relevance: relevance(f, opt.Factors), Factors: f, Ranks: c.ranks, Named: named(c.hit, fileMention[c.hit.Path])})
	}
	out.sort()
	out.files()
	dependencyDepth(out, opt)
	gateRecency(out, recent, opt.Factors)
	if err := expand(ctx, ix, out, opt); err != nil {
		return nil, err
	}
	return out, nil
}

// gateRecency adds the recency factor to the chunks whose files have one
// (recent), and ranks again: a chunk whose relevance without recency is
// within RecencyMargin of the best chunk's gets its file's recency, any
// other chunk 0. Recency so reorders only the chunks that match about as
// well as the best, and never lifts a chunk above one that was ahead of it
// by more than the margin.
func gateRecency(r *Ranking, recent map[string]float64, w Factors) {
	if len(recent) == 0 || len(r.Chunks) == 0 {
		return
	}
	r.recencyFloor = rank.Round(r.Chunks[0].Relevance - RecencyMargin)
	for i := range r.Chunks {
		c := &r.Chunks[i]
		v, ok := recent[c.Path]
		if !ok {
			continue
		}
		if c.Relevance < r.recencyFloor {
			v = 0
		}
		c.Factors["recency"] = v
		c.Relevance = relevance(c.Factors, w)
	}
	r.sort()
	r.files()
}

// recency is the recency factor of a file last changed at t: 0.5^(days
// older than newest / decayDays), rank.HalfLife.
func recency(t, newest int64, decayDays float64) float64 {
	return rank.HalfLife(newest-t, decayDays)
}

// dependencyDepth adds the dependency_depth factor to every chunk (see
// depthFactor), measured from the Seeds best files, and ranks again.
func dependencyDepth(r *Ranking, opt Options) {
	if opt.Read == nil || len(r.Files) == 0 || opt.Factors.DependencyDepth == 0 {
		return
	}
	paths := make([]string, len(r.Files))
	for i, f := range r.Files {
		paths[i] = f.Path
	}
	r.seeds = paths[:min(opt.Seeds, len(paths))]
	dist := distances(paths, r.seeds, opt)
	for i := range r.Chunks {
		c := &r.Chunks[i]
		c.Factors["dependency_depth"] = depthFactor(dist, c.Path, opt.MaxDepth)
		c.Relevance = relevance(c.Factors, opt.Factors)
	}
	r.sort()
	r.files()
}

// distances are the files' distances from seeds in the reference graph of
// the files (package refgraph), up to opt.MaxDepth. Files opt.Read cannot
// read are left out of the graph.
func distances(paths, seeds []string, opt Options) map[string]int {
	files := make([]refgraph.File, 0, len(paths))
	for _, p := range paths {
		if text, err := opt.Read(p); err == nil {
			files = append(files, refgraph.File{Path: p, Text: text})
		}
	}
	return refgraph.Build(files).Distances(seeds, opt.MaxDepth)
}

// depthFactor is 1 − d/(maxDepth+1) for a file d references from a seed,
// 0 beyond maxDepth, quantized.
func depthFactor(dist map[string]int, p string, maxDepth int) float64 {
	d, ok := dist[p]
	if !ok {
		return 0
	}
	return rank.Round(1 - float64(d)/float64(maxDepth+1))
}

// sort puts the chunks in the total order.
func (r *Ranking) sort() {
	slices.SortFunc(r.Chunks, func(a, b Chunk) int {
		return cmp.Or(cmp.Compare(b.Relevance, a.Relevance), strings.Compare(a.Path, b.Path), cmp.Compare(a.Seq, b.Seq))
	})
}

// files ranks the files by their best chunks.
func (r *Ranking) files() {
	r.Files = r.Files[:0]
	seen := map[string]bool{}
	for i, c := range r.Chunks {
		if !seen[c.Path] {
			seen[c.Path] = true
			r.Files = append(r.Files, File{Path: c.Path, Relevance: c.Relevance, Best: i})
		}
	}
}

// expand adds the other chunks of the best files, each at a share of its
// file's relevance, with the factor "file_relevance".
func expand(ctx context.Context, ix *index.Index, r *Ranking, opt Options) error {
	if opt.Expand < 0 {
		return nil
	}
	have := map[string]bool{}
	for _, c := range r.Chunks {
		have[fmt.Sprintf("%s#%d", c.Path, c.Seq)] = true
	}
	n := len(r.Chunks)
	for _, f := range r.Files[:min(opt.Expand, len(r.Files))] {
		all, err := ix.FileChunks(ctx, f.Path)
		if err != nil {
			return err
		}
		rel := rank.Round(f.Relevance * opt.ExpandShare)
		for _, h := range all {
			if have[fmt.Sprintf("%s#%d", h.Path, h.Seq)] {
				continue
			}
			r.Chunks = append(r.Chunks, Chunk{Hit: h, Relevance: rel, Factors: map[string]float64{"file_relevance": f.Relevance}, Ranks: map[string]int{}})
		}
	}
	if len(r.Chunks) > n {
		r.sort()
		r.files()
	}
	return nil
}

// named lists what of a chunk the query names.
func named(h index.Hit, f *fileMentions) []string {
	if f == nil {
		return nil
	}
	var out []string
	if f.path > 0 {
		out = append(out, "path")
	}
	own := chunk.SymbolNames(h.Symbol)
	for _, name := range slices.Sorted(maps.Keys(f.defs)) {
		if slices.Contains(own, name) {
			out = append(out, "defines "+name)
		} else {
			out = append(out, "file defines "+name)
		}
	}
	return out
}

// relevance is the weighted mean of the factors present, quantized.
func relevance(f map[string]float64, w Factors) float64 {
	sum, total := weighted(f, w)
	if total == 0 {
		return 0
	}
	return rank.Round(sum / total)
}

// weighted returns Σ weight × value and Σ weight over the factors present
// in f, summed in the order of factorNames (each product rounded before
// it is added, so no platform fuses them): every relevance and every
// breakdown of one (Breakdown) divides by that total.
func weighted(f map[string]float64, w Factors) (sum, total float64) {
	for _, name := range factorNames {
		if v, ok := f[name]; ok {
			sum += float64(w.Weight(name) * v)
			total += w.Weight(name)
		}
	}
	return sum, total
}

// factorNames are the factors in a fixed order, so that sums are the same
// every run.
var factorNames = []string{"task_alignment", "recency", "mention_density", "dependency_depth", "file_type"}

// fileMentions is how a query mentions one file.
type fileMentions struct {
	path float64            // pathMention
	defs map[string]float64 // names it defines that the query mentions, with their specificity
}

// mentionRanking returns the chunks the query points at, best first, and
// the mentions of each file. A chunk that defines a mentioned identifier
// scores that identifier's specificity (1 / the number of chunks defining
// it); each file whose path is mentioned contributes its best lexical
// chunk (or its first) with the path's mention strength.
func mentionRanking(ctx context.Context, ix *index.Index, query string, terms []string, m Mentions, limit int) ([]index.Hit, map[string]*fileMentions, error) {
	files := map[string]*fileMentions{}
	get := func(p string) *fileMentions {
		f := files[p]
		if f == nil {
			f = &fileMentions{defs: map[string]float64{}}
			files[p] = f
		}
		return f
	}
	type scored struct {
		hit   index.Hit
		score float64
	}
	var list []scored
	if len(m.Idents) > 0 {
		defs, err := ix.Definitions(ctx, m.Idents)
		if err != nil {
			return nil, nil, err
		}
		// A chunk may define several names (a merged chunk); only those
		// the query mentions count.
		mentioned := make(map[string]bool, len(m.Idents))
		for _, id := range m.Idents {
			mentioned[id] = true
		}
		names := make([][]string, len(defs))
		count := map[string]int{}
		for i, d := range defs {
			for _, n := range chunk.SymbolNames(d.Symbol) {
				if mentioned[n] {
					names[i] = append(names[i], n)
					count[n]++
				}
			}
		}
		for i, d := range defs {
			best := 0.0
			f := get(d.Path)
			for _, name := range names[i] {
				spec := 1 / float64(count[name])
				f.defs[name] = max(f.defs[name], spec)
				best = max(best, spec)
			}
			list = append(list, scored{d, best})
		}
	}
	if len(m.Paths) > 0 {
		paths, err := ix.Paths(ctx)
		if err != nil {
			return nil, nil, err
		}
		var hitPaths []string
		for _, p := range paths {
			if s := pathMention(p, m.Paths); s > 0 {
				get(p).path = s
				hitPaths = append(hitPaths, p)
			}
		}
		// A generic mention ("utils.py") can name many files: cap them.
		if len(hitPaths) <= limit {
			best, err := bestChunks(ctx, ix, query, terms, hitPaths)
			if err != nil {
				return nil, nil, err
			}
			for _, p := range hitPaths {
				if h, ok := best[p]; ok {
					list = append(list, scored{h, files[p].path})
				}
			}
		}
	}
	slices.SortFunc(list, func(a, b scored) int {
		return cmp.Or(cmp.Compare(rank.Quantize(b.score), rank.Quantize(a.score)), strings.Compare(a.hit.Path, b.hit.Path), cmp.Compare(a.hit.Seq, b.hit.Seq))
	})
	list = slices.CompactFunc(list, func(a, b scored) bool { return a.hit.Path == b.hit.Path && a.hit.Seq == b.hit.Seq })
	out := make([]index.Hit, 0, min(len(list), limit))
	for _, s := range list[:min(len(list), limit)] {
		out = append(out, s.hit)
	}
	return out, files, nil
}

// bestChunks is each file's best chunk for the query, or its first chunk
// when none matches, by path; a file without chunks is absent. One search
// ranks the chunks of all the files (BM25's statistics are those of the
// whole index, so each file's best is the one a search of it alone
// finds); only the files it does not reach are read on their own.
func bestChunks(ctx context.Context, ix *index.Index, query string, terms, paths []string) (map[string]index.Hit, error) {
	out := make(map[string]index.Hit, len(paths))
	if len(paths) == 0 {
		return out, nil
	}
	hits, err := ix.Search(ctx, query, len(paths), index.SearchOptions{Files: true, Paths: paths, Terms: terms})
	if err != nil {
		return nil, err
	}
	for _, h := range hits {
		out[h.Path] = h
	}
	for _, p := range paths {
		if _, ok := out[p]; ok {
			continue
		}
		all, err := ix.FileChunks(ctx, p)
		if err != nil {
			return nil, err
		}
		if len(all) > 0 {
			out[p] = all[0]
		}
	}
	return out, nil
}

// mentionDensity combines the mentions of a chunk's file (its path, the
// names it defines) and of the chunk itself: 1 − Π(1 − w) over them.
func mentionDensity(h index.Hit, f *fileMentions) float64 {
	if f == nil {
		return 0
	}
	own := chunk.SymbolNames(h.Symbol)
	miss := 1 - f.path
	for _, name := range slices.Sorted(maps.Keys(f.defs)) {
		w := f.defs[name]
		if !slices.Contains(own, name) {
			w /= 2 // defined elsewhere in the file
		}
		miss *= 1 - w
	}
	return 1 - miss
}

// FileTypes are the priorities of the file-type factor, by kind of file.
type FileTypes struct {
	Source, Test, Requirements, Documentation, Config, Other float64
}

// DefaultFileTypes are the priorities measured best for finding the code
// a change needs (bench/swebench): source code 1.0, requirements 0.8,
// config and other files 0.2, tests and documentation 0.1. The aiwg
// seed's own priorities (1.0, 0.9, 0.8, 0.7, 0.6, 0.5) rank tests and
// examples above the code they exercise too often; they are one
// retrieval.file_types setting away.
func DefaultFileTypes() FileTypes {
	return FileTypes{Source: 1, Test: 0.1, Requirements: 0.8, Documentation: 0.1, Config: 0.2, Other: 0.2}
}

// SeedFileTypes are the aiwg seed's priorities: source 1.0, tests 0.9,
// requirements 0.8, documentation 0.7, config 0.6, other 0.5.
func SeedFileTypes() FileTypes {
	return FileTypes{Source: 1, Test: 0.9, Requirements: 0.8, Documentation: 0.7, Config: 0.6, Other: 0.5}
}

// Priority is the priority of the file at slash path p.
func (t FileTypes) Priority(p string) float64 { return t.Of(FileKind(p)) }

// Of is the priority of a kind of file, as FileKind names it.
func (t FileTypes) Of(kind string) float64 {
	switch kind {
	case "test":
		return t.Test
	case "requirements":
		return t.Requirements
	case "documentation":
		return t.Documentation
	case "config":
		return t.Config
	case "source":
		return t.Source
	}
	return t.Other
}

// FileKind is the kind of the file at slash path p: test (test files and
// anything under a test folder), documentation (prose, and code under
// doc, docs, example, examples or samples folders), requirements (prose
// whose path says requirement), config, source (code), or other (which
// includes build output: isGenerated).
func FileKind(p string) string {
	base := path.Base(p)
	ext := strings.ToLower(path.Ext(base))
	lower := "/" + strings.ToLower(p)
	f := lang.Of(p)
	prose := f.Language == "markdown" || ext == ".rst" || ext == ".txt" || ext == ".adoc"
	switch {
	case isTest(p) && !prose:
		return "test"
	case prose && strings.Contains(lower, "requirement"):
		return "requirements"
	case prose || underAny(lower, "/doc/", "/docs/", "/example/", "/examples/", "/samples/"):
		return "documentation"
	case f.Config || strings.Contains(lower, "/.") || f.Build:
		return "config"
	case isGenerated(p):
		return "other"
	case f.Code || !notSource[f.Language]:
		return "source"
	}
	return "other"
}

// notSource are chunk's languages that are not source code (and "", none):
// every other language chunk chunks as code is source here too.
var notSource = map[string]bool{"": true, "markdown": true, "json": true, "yaml": true, "toml": true, "xml": true, "html": true, "css": true}

func underAny(p string, dirs ...string) bool {
	for _, d := range dirs {
		if strings.Contains(p, d) {
			return true
		}
	}
	return false
}

// isGenerated reports whether the file at p is build output rather than
// source: under a dist or build folder at the top of the project, or a
// minified or bundled script or style sheet (.min.js, .bundle.js,
// .min.css).
func isGenerated(p string) bool {
	if strings.HasPrefix(p, "dist/") || strings.HasPrefix(p, "build/") {
		return true
	}
	base := strings.ToLower(path.Base(p))
	return strings.Contains(base, ".min.") || strings.Contains(base, ".bundle.")
}

func isTest(p string) bool {
	base := path.Base(p)
	return strings.Contains(base, "_test.") || strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") ||
		strings.HasPrefix(base, "test_") || strings.HasPrefix(base, "tests.") || base == "conftest.py" ||
		underAny("/"+p, "/testdata/", "/tests/", "/test/", "/testing/")
}

// SectionWord is the section word a part of a file of kind (FileKind) is
// shown under: source, test, doc (documentation and requirements), config
// or file; chunk asks for the word of a retrieved chunk, which says code
// for source.
func SectionWord(kind string, chunk bool) string {
	switch kind {
	case "source":
		if chunk {
			return "code"
		}
		return "source"
	case "test", "config":
		return kind
	case "documentation", "requirements":
		return "doc"
	}
	return "file"
}

// ErrChunkChanged is ChunkText's error for a file that no longer holds
// the text the index recorded for a chunk.
var ErrChunkChanged = errors.New("the file changed since it was indexed")

// ChunkText is chunk c's text in text, its file as read now: the bytes at
// its offsets, when they still have the content id the index recorded;
// ErrChunkChanged otherwise.
func ChunkText(c Chunk, text string) (string, error) {
	if c.Start > c.End || c.End > len(text) {
		return "", ErrChunkChanged
	}
	body := text[c.Start:c.End]
	if project.ContentID(body) != c.CID {
		return "", ErrChunkChanged
	}
	return body, nil
}

// KindPool is how many times Options.Lexical chunks the lexical ranking
// reads before weighing them by their file's kind (Components.KindPrior):
// tests and documentation that repeat a query's words would otherwise
// take every place before the code they are about is reached.
const KindPool = 4

// KindFloor is the share of its BM25 score a chunk of a file of priority
// 0 keeps under the kind prior: a chunk's score is multiplied by
// KindFloor + (1 − KindFloor) × its file type's priority (FileTypes), so
// with the default priorities a test or documentation chunk keeps 37%,
// a config chunk 44%, source code all of it.
const KindFloor = 0.3

// lexicalRanking is the lexical ranking: the opt.Lexical best chunks by
// BM25, each score weighed by the priority of its file's kind (KindPool,
// KindFloor), with query words matched by their stems, unless opt.Off
// turns those off.
//
// It returns the chunks read as well, as BM25 ranked them.
func lexicalRanking(ctx context.Context, ix *index.Index, query string, terms []string, opt Options) (ranked, read []index.Hit, err error) {
	so := index.SearchOptions{Stem: !opt.Off.Stemming, Terms: terms}
	n := opt.Lexical
	if !opt.Off.KindPrior {
		n *= KindPool
		so.Rerank = func(hits []index.Hit) []index.Hit {
			read = slices.Clone(hits)
			for i := range hits {
				p := opt.FileTypes.Priority(hits[i].Path)
				hits[i].Score = rank.Round(hits[i].Score * (KindFloor + (1-KindFloor)*p))
			}
			slices.SortStableFunc(hits, index.CompareHits)
			return hits[:min(len(hits), opt.Lexical)]
		}
	}
	ranked, err = ix.Search(ctx, query, n, so)
	if opt.Off.KindPrior {
		read = ranked
	}
	return ranked, read, err
}

// testedRanking is the files the best-matching tests test, best first:
// for each test file among hits (in the order of its best chunk there,
// hits being in BM25's order), the source files named as the test is
// (TestedNames: testing/test_skipping.py tests skipping.py, x_test.go
// x.go, a.spec.ts a.ts), one in the test's folder first, then the rest by
// path, up to limit files; each file contributes its best chunk among
// hits, or its first chunk when hits hold none. A test that repeats an
// issue's words points at the code it exercises even when that code does
// not repeat them.
func testedRanking(ctx context.Context, ix *index.Index, hits []index.Hit, limit int) ([]index.Hit, error) {
	var tests []string // in the order of their best chunk
	for _, h := range hits {
		if isTest(h.Path) && !slices.Contains(tests, h.Path) {
			tests = append(tests, h.Path)
		}
	}
	if len(tests) == 0 {
		return nil, nil
	}
	paths, err := ix.Paths(ctx)
	if err != nil {
		return nil, err
	}
	byBase := map[string][]string{}
	for _, p := range paths {
		if !isTest(p) {
			byBase[path.Base(p)] = append(byBase[path.Base(p)], p)
		}
	}
	var files []string
	seen := map[string]bool{}
	for _, t := range tests {
		for _, name := range TestedNames(path.Base(t)) {
			cands := byBase[name]
			if len(cands) > testedMaxSources {
				continue // a name too common to say which
			}
			dir := path.Dir(t)
			inDir := func(p string) int {
				if path.Dir(p) == dir {
					return 0
				}
				return 1
			}
			slices.SortFunc(cands, func(a, b string) int { return cmp.Or(cmp.Compare(inDir(a), inDir(b)), strings.Compare(a, b)) })
			for _, c := range cands {
				if !seen[c] && len(files) < limit {
					seen[c] = true
					files = append(files, c)
				}
			}
		}
	}
	// Each file's best chunk among those read, else its first: a search
	// limited to the files would cost seconds on a large index.
	best := map[string]index.Hit{}
	for _, h := range hits {
		if _, ok := best[h.Path]; !ok && seen[h.Path] {
			best[h.Path] = h
		}
	}
	out := make([]index.Hit, 0, len(files))
	for _, f := range files {
		h, ok := best[f]
		if !ok {
			all, err := ix.FileChunks(ctx, f)
			if err != nil {
				return nil, err
			}
			if len(all) == 0 {
				continue
			}
			h = all[0]
		}
		out = append(out, h)
	}
	return out, nil
}

// MaxQueryTerms is the most search terms a query is searched for: a
// longer one (a pasted report with its logs, say) is searched for the
// MaxQueryTerms that weigh most (index.SelectTerms). On the SWE-bench dev
// split (bench/swebench) 96 keeps recall@1 and @5 of searching every term
// (0.59, 0.80) at a third of the time; 64 lost an instance at recall@1
// (0.56) and 32 lost four at recall@5 (0.76).
const MaxQueryTerms = 96

// selectionNote is the ranking's warning for the terms a selection left
// out.
func selectionNote(sel index.TermSelection) string {
	return fmt.Sprintf("the query's %d search terms were searched for the %d that weigh most (uses in the query × rarity in the index); %d left out, %d of them in no indexed file (retrieval.off: [term_selection] searches them all)",
		sel.Total, len(sel.Terms), sel.Dropped(), sel.Absent)
}

// TestedWeight is the weight of the tested ranking in the fusion: its
// chunks' reciprocal ranks count half as much as the other rankings'.
// Measured on the SWE-bench dev split and the history set (bench/swebench),
// a weight of 1 lifted recall@5 on the first and lowered recall@1 on both;
// a half lifts both on the first and keeps recall@5 on the second.
const TestedWeight = 0.5

// testedMaxSources is how many source files may share the name a test
// points at for it to point at them: more, and the name says nothing.
const testedMaxSources = 3

// TestedNames are the base names of the source files a test file's base
// name says it tests: test_x.py and x_test.py → x.py, unittest_x.py →
// x.py, x_test.go → x.go, x.test.js and x.spec.js → x.js (and .ts,
// .jsx, .tsx…), XTest.java → X.java, x_spec.rb → x.rb; none for a name
// that says no such thing.
func TestedNames(base string) []string {
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	var out []string
	add := func(s string) {
		if s != "" && s != stem {
			out = append(out, s+ext)
		}
	}
	for _, p := range []string{"test_", "unittest_", "tests_"} {
		if s, ok := strings.CutPrefix(stem, p); ok {
			add(s)
		}
	}
	for _, suf := range []string{"_test", "_tests", ".test", ".spec", "_spec", "Test", "Tests", "-test", "-spec"} {
		if s, ok := strings.CutSuffix(stem, suf); ok {
			add(s)
		}
	}
	return out
}
