package files

import (
	"context"
	"fmt"
	"io/fs"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
)

// Env is what the collector reads: the project's files and its git
// history.
type Env struct {
	FS fs.FS // the project's files, rooted at the project root
	// Root is the project root on disk, where git history is read for
	// recency; "" reads none.
	Root string
	// Walk configures the walk (file size limit, hidden files); its
	// Reverse is Request.Reverse.
	Walk project.WalkOptions
}

// Request says what to collect and how to rank it.
type Request struct {
	// Roots are the files and directories to pack: slash paths relative
	// to the project root, sorted and distinct; empty means ".".
	Roots []string
	// Ranked ranks the files by structure (centrality, recency, file
	// type) and gives their summary and detailed levels, for a pack under
	// a budget.
	Ranked bool
	// Query, when set, ranks the files by their relevance to it instead,
	// with or without a budget, through Relevance.
	Query string
	// Relevance gives each file's relevance to query, in [0, 1], by path
	// (0 for files it leaves out), and the ranking's warnings. It is
	// called once, when Query is set.
	Relevance func(ctx context.Context, query string) (map[string]float64, []string, error)
	// Changed sets each part's Changed time from git history, for the
	// engine's PreferRecent, when the files are not ranked (a ranking
	// weighs recency itself).
	Changed bool
	// Reverse walks in reverse order: a test knob that proves the
	// collection does not depend on walk order.
	Reverse bool
}

// Collection is what a pack is made of.
type Collection struct {
	// Parts are the files read, one part each, in walk order; with
	// Request.Reverse, in reverse walk order.
	Parts []pack.Part
	// StateRoot is the Merkle root over the (path, content id) of every
	// file read (project.StateRoot).
	StateRoot string
	// Target names what was packed: the roots, space-separated.
	Target string
	// Warnings are the files skipped and why, the files whose invalid
	// UTF-8 was replaced, and the ranking's warnings, sorted.
	Warnings []string
}

// Collect walks req.Roots, reads every file and ranks the parts.
func Collect(ctx context.Context, env Env, req Request) (*Collection, error) {
	roots := req.Roots
	if len(roots) == 0 {
		roots = []string{"."}
	}
	wo := env.Walk
	wo.Reverse = req.Reverse
	listed, skipped, err := project.Walk(env.FS, roots, wo)
	if err != nil {
		return nil, err
	}
	parts, inputs, warnings, err := readParts(ctx, env.FS, listed, req.Ranked)
	if err != nil {
		return nil, err
	}
	for _, s := range skipped {
		warnings = append(warnings, fmt.Sprintf("skipped %s: %s", s.Path, s.Reason))
	}
	switch {
	case req.Query != "":
		warns, err := rankByQuery(ctx, parts, req.Query, req.Relevance)
		if err != nil {
			return nil, err
		}
		warnings = append(warnings, warns...)
	case req.Ranked:
		if err := rankByStructure(ctx, env.Root, parts); err != nil {
			return nil, err
		}
	case req.Changed:
		changed, err := lastChanged(ctx, env.Root, parts)
		if err != nil {
			return nil, err
		}
		for i := range parts {
			parts[i].Changed = changed[parts[i].Path]
		}
	}
	slices.Sort(warnings)
	return &Collection{
		Parts:     parts,
		StateRoot: project.StateRoot(inputs),
		Target:    strings.Join(roots, " "),
		Warnings:  warnings,
	}, nil
}

// readParts reads files in parallel and makes one part per file, in the
// order given; the parallelism never reaches the output. With levels,
// each part also gives its extractive summary and detailed levels (what
// fitting to a budget lowers files to) through Part.More: the engine asks
// for them only for the files it raises above their meta line.
func readParts(ctx context.Context, fsys fs.FS, files []project.File, levels bool) ([]pack.Part, []project.Input, []string, error) {
	type read struct {
		text, cid string
		repaired  bool
		err       error
	}
	out := make([]read, len(files))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range files {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			t, rep, err := project.ReadText(fsys, files[i].Path)
			out[i] = read{text: t, repaired: rep, err: err}
			if err == nil {
				out[i].cid = project.ContentID(t)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	parts := make([]pack.Part, 0, len(files))
	inputs := make([]project.Input, 0, len(files))
	var warnings []string
	for i, f := range files {
		r := out[i]
		if r.err != nil {
			warnings = append(warnings, fmt.Sprintf("skipped %s: %v", f.Path, r.err))
			continue
		}
		if r.repaired {
			warnings = append(warnings, fmt.Sprintf("%s: invalid UTF-8 replaced with U+FFFD", f.Path))
		}
		part := filePart(f.Path, r.text)
		part.CID = r.cid
		if levels {
			part.More = codeLevels(f.Path)
		}
		parts = append(parts, part)
		inputs = append(inputs, project.Input{Path: f.Path, CID: part.CID})
	}
	return parts, inputs, warnings, nil
}
