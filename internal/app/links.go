package app

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/collect/files"
	"github.com/ctxpack/ctxpack/internal/collect/links"
	"github.com/ctxpack/ctxpack/internal/graph"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/retrieve"
)

// artifacts loads the project's artifacts once.
func (p *Project) artifacts() (*artifact.Set, error) {
	p.once.Do(func() { p.set, p.setErr = artifact.Load(p.FS) })
	return p.set, p.setErr
}

// Artifacts returns every artifact of the project.
func (p *Project) Artifacts() (*artifact.Set, error) { return p.artifacts() }

var idLike = regexp.MustCompile(`^[A-Za-z]+-[A-Za-z0-9_.-]+$`)

// Context assembles the context for a target: an artifact id (links mode:
// the task and what its links reach), a file or directory of the project
// (pack mode), or free text (retrieval mode); see TargetMode. With
// req.Sources or req.Task, the target is a query for sources mode
// (Sources), and a task alone asks for its artifacts. With req.FreeText
// the target is free text whatever it looks like: a query a front end
// read from standard input.
func (p *Project) Context(ctx context.Context, target string, req Request) (*Result, error) {
	if len(req.Sources) > 0 || req.Task != "" {
		if wantsChanges(req) {
			return nil, &InputError{Field: changesFlag(req), Msg: "adds the repository's changes to a pack or a free-text retrieval, not to sources mode"}
		}
		if len(req.Sources) == 0 {
			req.Sources = []string{SourceArtifacts}
		}
		return p.Sources(ctx, target, req)
	}
	if strings.TrimSpace(target) == "" {
		return nil, fmt.Errorf("ctxpack: target is empty: give a task id, a path of the project or free text")
	}
	if req.FreeText {
		return p.Retrieve(ctx, target, req)
	}
	mode, err := p.TargetMode(target)
	if err != nil {
		return nil, err
	}
	switch mode {
	case "links":
		if wantsChanges(req) {
			return nil, &InputError{Field: changesFlag(req), Msg: "adds the repository's changes to a pack or a free-text retrieval, not to a task's links (" + target + ")"}
		}
		res, _, err := p.Links(ctx, target, req)
		return res, err
	case "pack":
		req.Paths = []string{target}
		return p.Pack(ctx, req)
	}
	return p.Retrieve(ctx, target, req)
}

// TargetMode says which mode Context assembles a target in, without
// assembling it: "links" for an artifact id, "pack" for a file or
// directory of the project, "retrieval" for free text (and "-", the
// query on standard input). An id-like target that names no artifact is
// an error, and so is a path-like one that names nothing (*TargetError).
func (p *Project) TargetMode(target string) (string, error) {
	if target == "-" {
		return "retrieval", nil
	}
	set, err := p.artifacts()
	if err != nil {
		return "", err
	}
	if _, ok := set.ByID[target]; ok {
		return "links", nil
	}
	path := target
	if !filepath.IsAbs(path) {
		path = filepath.Join(p.Dir, path)
	}
	if _, err := os.Stat(path); err == nil {
		return "pack", nil
	}
	if idLike.MatchString(target) {
		_, err := graph.Traverse(set, target, graph.Options{})
		return "", fmt.Errorf("ctxpack: %w", err)
	}
	if pathLike(target) {
		return "", &TargetError{Target: target}
	}
	return "retrieval", nil
}

// TargetError is a target that looks like a path but is neither a file
// or directory of the project nor an artifact id.
type TargetError struct{ Target string }

func (e *TargetError) Error() string {
	return fmt.Sprintf("ctxpack: %q is not an artifact id, a file or a directory of the project (free text is searched: write a phrase, or pass it on standard input with '-')", e.Target)
}

// pathLike reports whether a target that is not a file is meant as one:
// one word with a path separator, or a file name with an extension.
func pathLike(target string) bool {
	if strings.ContainsAny(target, " \t\n") {
		return false
	}
	if strings.ContainsAny(target, "/\\") || strings.HasPrefix(target, ".") {
		return true
	}
	return retrieve.IsFileName(target)
}

// Links assembles the context of a task by following its links, and
// returns the closure it followed.
func (p *Project) Links(ctx context.Context, taskID string, req Request) (*Result, *graph.Closure, error) {
	res, col, err := p.links(ctx, taskID, req)
	if err != nil {
		return nil, nil, err
	}
	return res, col.Closure, nil
}

func (p *Project) links(ctx context.Context, taskID string, req Request) (*Result, *links.Collection, error) {
	set, err := p.artifacts()
	if err != nil {
		return nil, nil, err
	}
	o, err := p.options(req)
	if err != nil {
		return nil, nil, err
	}
	code, skipped, err := p.linkedCode(ctx, req)
	if err != nil {
		return nil, nil, err
	}
	col, err := links.Collect(set, taskID, req.LinkDepth, code)
	if err != nil {
		return nil, nil, fmt.Errorf("ctxpack: %w", err)
	}
	links.Options(&o)
	o.Mode, o.Target = "links", taskID
	o.StateRoot = col.StateRoot
	o.Paths = col.Paths
	for _, s := range *skipped {
		if _, ok := links.Governs(col.Globs, s.Path); ok {
			o.Skipped = append(o.Skipped, s)
		}
	}
	o.Warnings = slices.Concat(p.Warnings, col.Warnings, SkipWarnings(o.Skipped, p.tooLargeFix()))
	p.setMetadata(req, &o)
	res, err := pack.Assemble(col.Parts, o)
	if err != nil {
		return nil, col, err
	}
	return &Result{Plan: res.Plan, Output: res.Output}, col, nil
}

// linkedCode is how links mode lists the code its artifacts name: the
// files under the globs' roots that exist, walked and read as pack mode
// walks and reads them (ignore files honoured; binary, oversized and
// secret files skipped, and returned in skipped once List has run).
func (p *Project) linkedCode(ctx context.Context, req Request) (*links.Code, *[]Skip, error) {
	wo, err := p.walkOptions()
	if err != nil {
		return nil, nil, err
	}
	skipped := new([]Skip)
	code := &links.Code{
		List: func(roots []string) ([]pack.Part, error) {
			var there []string
			for _, r := range roots {
				if _, err := fs.Stat(p.FS, r); err == nil {
					there = append(there, r)
				}
			}
			if len(there) == 0 {
				return nil, nil
			}
			c, err := files.Collect(ctx, files.Env{FS: p.FS, Root: p.Root, Walk: wo}, files.Request{Roots: there, Reverse: req.ReverseWalk})
			if err != nil {
				return nil, err
			}
			*skipped = skips(c.Skipped)
			return c.Parts, nil
		},
		Read: func(path string) (string, error) {
			text, _, err := project.ReadText(p.FS, path)
			return text, err
		},
	}
	return code, skipped, nil
}

// projectState holds what a Project loads lazily.
type projectState struct {
	once   sync.Once
	set    *artifact.Set
	setErr error

	retrievalOnce  sync.Once
	retrievalOpt   retrieve.Options
	retrievalTiers []Tier
	retrievalErr   error // of the retrieval: section
	embedErr       error // of loading the embedder

	secrets secretsState // the secrets: section
}
