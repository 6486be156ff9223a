package retrieve

import (
	"context"
	"fmt"
	"slices"

	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/ctxpack/ctxpack/internal/rank"
)

// FileScore is the relevance of one file to a query, factor by factor.
type FileScore struct {
	Path  string
	Query string
	// Rank is the file's 1-based place among the files Rank retrieves for
	// the query (Files of them), or 0 when it is not among them.
	Rank  int
	Files int
	// Relevance is the weighted mean of the factors with data, in [0, 1],
	// quantized to 1e-6: for a retrieved file, the relevance of its best
	// chunk, as Rank gives it.
	Relevance float64
	// Factors are the five factors in a fixed order (Breakdown):
	// task_alignment, recency, mention_density, dependency_depth,
	// file_type.
	Factors []FactorScore
	// Best is the file's best chunk: for a retrieved file the one that
	// gives its relevance, else its best lexical match for the query, or
	// its first chunk.
	Best index.Hit
	// Warnings say what the ranking could not use.
	Warnings []string
}

// FactorScore is one factor's part of a relevance.
type FactorScore struct {
	Name string `json:"name"`
	// Present is false for a factor with no data for the query (recency
	// without git history, dependency depth without Options.Read): it is
	// left out and the other weights scaled up.
	Present bool    `json:"present"`
	Value   float64 `json:"value"` // in [0, 1], quantized to 1e-6
	// Weight is the configured weight; Share is the weight over the sum of
	// the weights of the factors present, the part of the relevance the
	// factor decides, quantized to 1e-6.
	Weight float64 `json:"weight"`
	Share  float64 `json:"share"`
	// Contribution is Value × Weight / that sum (Value × Share, up to
	// rounding), quantized to 1e-6; the contributions sum to the relevance
	// up to that rounding.
	Contribution float64 `json:"contribution"`
}

// Breakdown is each factor's part of the relevance of factor values f
// under the weights w (the weighted mean of the factors present, as Rank
// computes it): the five factors in the order of FactorNames, those
// absent from f with Present false and no share or contribution.
func Breakdown(f map[string]float64, w Factors) []FactorScore {
	_, total := weighted(f, w)
	out := make([]FactorScore, 0, len(factorNames))
	for _, name := range factorNames {
		v, ok := f[name]
		s := FactorScore{Name: name, Present: ok, Value: v, Weight: w.Weight(name)}
		if ok && total > 0 {
			s.Share = rank.Round(s.Weight / total)
			s.Contribution = rank.Round(v * s.Weight / total)
		}
		out = append(out, s)
	}
	return out
}

// ScoreFile scores the file at slash path p against a free-text query
// with the options of Rank. When Rank retrieves the file, its factors are
// those of its best chunk. When it does not, task alignment is 0 (no
// ranking found it) and the others are computed for its best chunk as
// Rank would: mention density from the paths and identifiers the query
// names (ParseMentions), file type from opt.FileTypes, recency from
// opt.Changed, dependency depth (with opt.Read) from its distance to the
// best files. The file must be in the index.
func ScoreFile(ctx context.Context, ix *index.Index, query, p string, opt Options) (*FileScore, error) {
	opt.normalize()
	paths, err := ix.Paths(ctx)
	if err != nil {
		return nil, err
	}
	if _, ok := slices.BinarySearch(paths, p); !ok {
		return nil, fmt.Errorf("retrieve: %s is not in the index: it may be ignored, binary or larger than walk.max_file_bytes ('ctxpack index --status' lists skipped files), or the path may be wrong (give it relative to the current directory)", p)
	}
	// Without expansion: its chunks, at a share of at most 1 of their
	// file's relevance, change no file's relevance or place, but at a
	// share of 1 one of them can tie the best chunk and sort before it.
	opt.Expand = -1
	r, err := Rank(ctx, ix, query, opt)
	if err != nil {
		return nil, err
	}
	out := &FileScore{Path: p, Query: query, Files: len(r.Files), Warnings: r.Warnings}
	var factors map[string]float64
	for i, f := range r.Files {
		if f.Path == p {
			c := r.Chunks[f.Best]
			out.Rank, out.Best, factors = i+1, c.Hit, c.Factors
			break
		}
	}
	if factors == nil {
		if factors, err = unranked(ctx, ix, r, query, p, opt, &out.Best); err != nil {
			return nil, err
		}
	}
	out.Relevance = relevance(factors, opt.Factors)
	out.Factors = Breakdown(factors, opt.Factors)
	return out, nil
}

// unranked computes the factors of a file Rank did not retrieve, for its
// best chunk, which it stores in best. Its dependency depth is its
// distance from the ranking's seed files in the reference graph of the
// ranked files and itself.
func unranked(ctx context.Context, ix *index.Index, r *Ranking, query, p string, opt Options, best *index.Hit) (map[string]float64, error) {
	chunks, err := bestChunks(ctx, ix, query, r.terms, []string{p})
	if err != nil {
		return nil, err
	}
	h, ok := chunks[p]
	if !ok {
		return nil, fmt.Errorf("retrieve: %s has no chunks in the index (an empty file has nothing to score)", p)
	}
	*best = h
	f := map[string]float64{
		"task_alignment":  0,
		"mention_density": mentionDensity(h, r.mentions[p]),
		"file_type":       opt.FileTypes.Priority(p),
	}
	if r.seeds != nil {
		paths := []string{p}
		for _, rf := range r.Files {
			paths = append(paths, rf.Path)
		}
		f["dependency_depth"] = depthFactor(distances(paths, r.seeds, opt), p, opt.MaxDepth)
	}
	if opt.Changed != nil && r.newest > 0 {
		changed, err := opt.Changed([]string{p})
		if err != nil {
			return nil, err
		}
		if t, ok := changed[p]; ok {
			// As gateRecency counts it: only within the margin of the best.
			v := 0.0
			if relevance(roundAll(f), opt.Factors) >= r.recencyFloor {
				v = recency(t, r.newest, opt.DecayDays)
			}
			f["recency"] = v
		}
	}
	return roundAll(f), nil
}

// roundAll rounds every factor value of f, in place, and returns f.
func roundAll(f map[string]float64) map[string]float64 {
	for k, v := range f {
		f[k] = rank.Round(v)
	}
	return f
}
