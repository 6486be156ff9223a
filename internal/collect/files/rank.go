package files

import (
	"context"
	"runtime"

	"golang.org/x/sync/errgroup"

	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/rank"
	"github.com/ctxpack/ctxpack/internal/refgraph"
)

// The weights of the factors that rank the files of a pack under a budget:
// a file's score is the weighted mean of its factors, each in [0, 1]. The
// main factor is the file's centrality in the graph of references between
// the files (internal/refgraph). Recency is left out, and the other
// weights renormalized, when git knows none of the files.
const (
	weightMain     = 0.6 // centrality
	weightRecency  = 0.3 // 0.5^(days older than the newest file / 7)
	weightFileType = 0.1 // classify: the priority of the file's kind
)

// rankByQuery scores each part by its file's relevance to query
// ("relevance"; 0 for files the ranking leaves out), which already weighs
// file type, recency and the rest, and returns the ranking's warnings.
func rankByQuery(ctx context.Context, parts []pack.Part, query string, relevance func(context.Context, string) (map[string]float64, []string, error)) ([]string, error) {
	if relevance == nil {
		return nil, errNoRelevance
	}
	rel, warnings, err := relevance(ctx, query)
	if err != nil {
		return nil, err
	}
	for i := range parts {
		r := unitScore(rel[parts[i].Path])
		parts[i].Components = map[string]float64{"relevance": r}
		parts[i].Score = r
	}
	return warnings, nil
}

// rankByStructure scores each part by the weighted mean of "centrality",
// "recency" (when the tree has git history; 0 for files git does not
// know) and "file_type", each in millionths in the part's Components.
func rankByStructure(ctx context.Context, env Env, parts []pack.Part, files []file) error {
	// The graph needs what each file defines (read already) and what it
	// uses: each file is read again, in parallel, and its uses kept.
	defs := make([]refgraph.Defs, len(files))
	for i := range files {
		defs[i], files[i].defs = files[i].defs, refgraph.Defs{}
	}
	names := refgraph.NewNames(defs)
	uses := make([]refgraph.Uses, len(files))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, f := range files {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			text, _, err := project.ReadText(env.FS, f.path)
			if err == nil {
				err = same(f.path, text, f.len, f.sum)
			}
			if err != nil {
				return err
			}
			uses[i] = names.Uses(f.path, text)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	main := names.Graph(uses).Centrality()
	changed, err := lastChanged(ctx, env.Root, parts)
	if err != nil {
		return err
	}
	var newest int64
	for _, t := range changed {
		newest = max(newest, t)
	}
	for i := range parts {
		pt := &parts[i]
		fileType := pt.Components["file_type"]
		m := unitScore(main[pt.Path])
		pt.Components = map[string]float64{"file_type": fileType, "centrality": m}
		// float64() rounds each product: no platform may fuse them into
		// a multiply-add, so the score is the same on every machine.
		sum, weights := float64(weightMain*m)+float64(weightFileType*fileType), weightMain+weightFileType
		if newest > 0 {
			r := 0.0
			if t := changed[pt.Path]; t > 0 {
				r = unitScore(rank.HalfLife(newest-t, 7))
			}
			pt.Components["recency"] = r
			sum, weights = sum+float64(weightRecency*r), weights+weightRecency
		}
		pt.Score = sum / weights
	}
	return nil
}

// unitScore clamps a factor to [0, 1] (NaN is 0) and rounds it to
// millionths, so that the components reported are the ones scored.
func unitScore(x float64) float64 {
	if !(x > 0) {
		return 0
	}
	return rank.Round(min(x, 1))
}

// lastChanged is git's last commit time of each part's file; none when
// root is "".
func lastChanged(ctx context.Context, root string, parts []pack.Part) (map[string]int64, error) {
	if root == "" {
		return map[string]int64{}, nil
	}
	want := make(map[string]bool, len(parts))
	for _, pt := range parts {
		want[pt.Path] = true
	}
	return project.LastChanged(ctx, root, want)
}
