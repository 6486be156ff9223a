package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/collect/retrieval"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/retrieve"
)

// Tier is one tier of retrieval mode's budget: the aiwg seed's primary,
// supporting, reference and history context, with their shares of the
// budget and the relevance a part needs to be placed in them.
type Tier = retrieval.Tier

// DefaultTiers are the aiwg seed's tiers: 50/30/15/5 with thresholds
// 0.7/0.5/0.3. Parts below the last threshold go to the last tier.
func DefaultTiers() []Tier { return retrieval.DefaultTiers() }

// TierFor is the tier a relevance places a retrieved part in: the first
// whose threshold it reaches, else the last.
func TierFor(relevance float64, tiers []Tier) Tier { return retrieval.TierFor(relevance, tiers) }

// RetrievalComponents are the names of the parts of retrieval's ranking
// that retrieval.off in the configuration turns off, to measure what
// each contributes: query_cleaning, kind_prior, stemming, test_mapping,
// term_selection.
func RetrievalComponents() []string { return retrieve.ComponentNames() }

// RankingNames are the names of the rankings retrieval fuses, in order:
// the keys of a ranked chunk's Ranks.
func RankingNames() []string { return retrieve.RankingNames() }

// ranked is a query's ranking with the open index it came from and the
// files read for it.
type ranked struct {
	*retrieve.Ranking
	oi       *OpenedIndex
	texts    *retrieval.Files
	warnings []string // the index update's and the ranking's
}

// rank opens the index, brings it up to date and ranks its chunks for
// query with the project's retrieval options, changed by adjust when it
// is not nil. The caller closes r.oi.
func (p *Project) rank(ctx context.Context, query string, o IndexOptions, adjust func(*retrieve.Options)) (*ranked, error) {
	opt, _, err := p.retrieval()
	if err != nil {
		return nil, err
	}
	oi, warnings, err := p.currentIndex(ctx, o)
	if err != nil {
		return nil, err
	}
	texts := p.rankInputs(ctx, &opt)
	if adjust != nil {
		adjust(&opt)
	}
	r, err := retrieve.Rank(ctx, oi.Index, query, opt)
	if err != nil {
		var warning string
		if warning, err = p.retryDamaged(ctx, oi, o, err); err == nil {
			warnings = append(warnings, warning)
			r, err = retrieve.Rank(ctx, oi.Index, query, opt)
		}
	}
	if err != nil {
		oi.Close()
		return nil, err
	}
	return &ranked{Ranking: r, oi: oi, texts: texts, warnings: append(warnings, r.Warnings...)}, nil
}

// rankInputs gives a ranking its access to the project: files for the
// dependency depth (read once, through the returned Files) and git
// commit times for the recency.
func (p *Project) rankInputs(ctx context.Context, opt *retrieve.Options) *retrieval.Files {
	files := retrieval.NewFiles(p.FS)
	retrieval.Inputs(ctx, p.Root, files, opt)
	return files
}

// Search ranks the chunks of the project's index for a free-text query
// as retrieval mode does (without bringing in the rest of the best file),
// and returns the k best, or with files the best chunk of each of the k
// best files, with the options used (for the factor weights). The ranking
// does not depend on k up to the number of chunks retrieval takes from
// the lexical ranking and keeps after fusion; a larger k takes more.
func (p *Project) Search(ctx context.Context, query string, k int, files bool, o IndexOptions) ([]retrieve.Chunk, retrieve.Options, []string, error) {
	var opt retrieve.Options
	r, err := p.rank(ctx, query, o, func(o *retrieve.Options) {
		*o = o.WithDefaults()
		o.Expand = -1
		o.Lexical = max(o.Lexical, k)
		o.Fused = max(o.Fused, k)
		opt = *o
	})
	if err != nil {
		return nil, opt, nil, err
	}
	defer r.oi.Close()
	var out []retrieve.Chunk
	if files {
		for _, f := range r.Files {
			out = append(out, r.Chunks[f.Best])
		}
	} else {
		out = r.Chunks
	}
	return out[:min(k, len(out))], opt, r.warnings, nil
}

// RankFiles ranks the project's files for a free-text query through the
// repository index (brought up to date unless o.NoUpdate), best first,
// and returns the warnings to report. Files that do not match are absent.
// It ranks without expansion: the chunks expansion adds, at a share of at
// most 1 of their file's relevance, change no file's relevance or place.
func (p *Project) RankFiles(ctx context.Context, query string, o IndexOptions) ([]retrieve.File, []string, error) {
	r, err := p.rank(ctx, query, o, func(opt *retrieve.Options) { opt.Expand = -1 })
	if err != nil {
		return nil, nil, err
	}
	defer r.oi.Close()
	return r.Files, r.warnings, nil
}

// Retrieve assembles the context for a free-text query (retrieval mode):
// the index's chunks ranked for it and the project's artifacts that match
// it best (retrieval.Artifacts), placed in tiers by relevance, grouped by
// file and fitted to the budget. Its state root covers the index and the
// artifacts (retrieval.StateRoot), and so does the cache key.
func (p *Project) Retrieve(ctx context.Context, query string, req Request) (*Result, error) {
	if strings.TrimSpace(query) == "" {
		return nil, fmt.Errorf("ctxpack: the query is empty")
	}
	o, err := p.options(req)
	if err != nil {
		return nil, err
	}
	ropt, tiers, err := p.retrieval()
	if err != nil {
		return nil, err
	}
	r, err := p.rank(ctx, query, req.Index, nil)
	if err != nil {
		return nil, err
	}
	defer r.oi.Close()
	root, set, err := p.retrievalRoot(ctx, r.oi)
	if err != nil {
		return nil, err
	}
	var changed pack.Options // the changes' parts' state root and warnings
	changed.StateRoot = root
	changes, err := p.addChanges(ctx, req, nil, &changed, nil)
	if err != nil {
		return nil, err
	}
	root = changed.StateRoot
	for i := range changes {
		// The diff goes to the tier of its score (the first); commits,
		// which are history, to the last.
		t := retrieval.TierFor(changes[i].Score, tiers)
		if changes[i].Source == "commit" {
			t = tiers[len(tiers)-1]
		}
		changes[i].Bucket = t.Name
	}
	key := p.retrievalKey(query, root, req, r.Ranking, append(slices.Clone(r.warnings), changed.Warnings...))
	if res, ok := p.cacheGet(key); ok {
		return res, nil // never empty: an empty result is not kept
	}
	code, skipped, warns := retrieval.Parts(r.Chunks, r.texts, tiers, !ropt.Off.Windows, o.Secrets)
	parts := append(retrieval.Artifacts(set, query, retrieval.BestRelevance(r.Chunks), tiers), code...)
	parts = append(parts, changes...)
	warnings := append(append(append(r.warnings, p.Warnings...), warns...), changed.Warnings...)
	if len(skipped) > 0 {
		key = "" // the files differ from the index: do not keep this answer
	}
	o.Dropped = skipped
	o.Strategy = p.rankedStrategy(req, o.Strategy)
	o.Policy.Buckets = retrieval.Policy(tiers).Buckets
	o.Mode, o.Target = "retrieval", query
	o.MetaAsTree = true
	o.Sectioned = changed.Sectioned
	o.StateRoot = root
	o.Warnings = warnings
	p.setMetadata(req, &o)
	res, err := pack.Assemble(parts, o)
	if err != nil {
		return nil, err
	}
	if err := checkEmpty(&res.Plan, "nothing in the repository index matches it ('ctxpack search' shows what does)"); err != nil {
		return nil, err
	}
	return p.cachePut(key, &Result{Plan: res.Plan, Output: res.Output}), nil
}

// retrievalRoot is the state root of a retrieval's inputs, over the
// index's and the artifacts' (retrieval.StateRoot), with the artifacts.
func (p *Project) retrievalRoot(ctx context.Context, oi *OpenedIndex) (string, *artifact.Set, error) {
	root, err := oi.StateRoot(ctx)
	if err != nil {
		return "", nil, err
	}
	set, err := p.artifacts()
	if err != nil {
		return "", nil, err
	}
	return retrieval.StateRoot(root, set), set, nil
}
