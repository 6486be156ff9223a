package ctxpack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/graph"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/retrieve"
)

// Render sections of links mode: identity → norms → decisions → specs →
// task → code paths (DESIGN §4).
const (
	sectionIdentity = iota
	sectionNorms
	sectionDecisions
	sectionSpecs
	sectionTask
	sectionPaths
)

// Fitting priority of links mode, highest first; identity and the task
// are pinned. Specs the task links come before transitive ones, then
// norms, then decisions (direct before transitive). The code-path list is
// small and tells the agent where to look, so it ranks first.
const (
	prioPaths          = 7
	prioSpecDirect     = 6
	prioSpec           = 5
	prioNormDirect     = 4
	prioNorm           = 3
	prioDecisionDirect = 2
	prioDecision       = 1
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
// (pack mode), or free text (retrieval mode); see TargetMode.
func (p *Project) Context(ctx context.Context, target string, req Request) (*Result, error) {
	mode, err := p.TargetMode(target)
	if err != nil {
		return nil, err
	}
	switch mode {
	case "links":
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
	set, err := p.artifacts()
	if err != nil {
		return nil, nil, err
	}
	c, err := graph.Traverse(set, taskID, graph.Options{MaxDepth: req.LinkDepth})
	if err != nil {
		return nil, nil, fmt.Errorf("ctxpack: %w", err)
	}
	o, err := p.options(req)
	if err != nil {
		return nil, nil, err
	}
	parts, globs := linkParts(set, c)
	inputs := make([]project.Input, 0, len(set.List))
	for _, a := range set.List {
		inputs = append(inputs, project.Input{Path: a.Path, CID: a.CID})
	}
	warnings := slices.Concat(p.Warnings, ArtifactProblems(set), c.Warnings)
	o.Mode, o.Target = "links", taskID
	o.StateRoot = project.StateRoot(inputs)
	o.Paths = globs
	o.Warnings = warnings
	o.Sectioned = true
	o.DedupThreshold = -1    // distinct artifacts are never duplicates
	o.Policy = pack.Policy{} // strict priority, no item cap
	p.setMetadata(req, &o)
	res, err := pack.Assemble(parts, o)
	if err != nil {
		return nil, c, err
	}
	return &Result{Plan: res.Plan, Output: res.Output}, c, nil
}

// linkParts turns a closure into parts, and lists the code globs of its
// specs.
func linkParts(set *artifact.Set, c *graph.Closure) ([]pack.Part, []string) {
	var parts []pack.Part
	if id, ok := set.ByID["identity"]; ok && id.Type == artifact.Identity {
		parts = append(parts, artifactPart(id, nil, sectionIdentity, 0, true))
	}
	type glob struct{ glob, spec string }
	var globs []glob
	for i, n := range c.Nodes {
		a := n.A
		if n.Depth == 0 {
			parts = append(parts, artifactPart(a, nil, sectionTask, 0, true))
			continue
		}
		var part pack.Part
		switch a.Type {
		case artifact.Spec:
			part = artifactPart(a, n.Via, sectionSpecs, pick(n.Direct(), prioSpecDirect, prioSpec), false)
			for _, g := range a.Paths {
				globs = append(globs, glob{g, a.ID})
			}
		case artifact.Norm:
			part = artifactPart(a, n.Via, sectionNorms, pick(n.Direct(), prioNormDirect, prioNorm), false)
		case artifact.Decision:
			part = artifactPart(a, n.Via, sectionDecisions, pick(n.Direct(), prioDecisionDirect, prioDecision), false)
		default: // another type reached through a link: shown with the decisions, ranked last
			part = artifactPart(a, n.Via, sectionDecisions, 0, false)
		}
		// Within a priority class, parts keep the order the links reached
		// them in: the score is that order, from 1 down.
		part.Score = 1 - float64(i-1)/float64(len(c.Nodes))
		part.Components = map[string]float64{"link_order": part.Score}
		parts = append(parts, part)
	}
	var list []string
	if len(globs) > 0 {
		var b strings.Builder
		for _, g := range globs {
			fmt.Fprintf(&b, "%s (%s)\n", g.glob, g.spec)
			list = append(list, g.glob)
		}
		parts = append(parts, pack.Part{
			Key: "paths", Source: "artifact", Type: "paths", Section: sectionPaths, Priority: prioPaths,
			Text: map[pack.Level]string{pack.Meta: b.String(), pack.Full: b.String()}, // a list of globs is metadata at every depth
		})
	}
	slices.Sort(list)
	return parts, slices.Compact(list)
}

func pick(direct bool, a, b int) int {
	if direct {
		return a
	}
	return b
}

// artifactPart is an artifact at every level it has.
func artifactPart(a *artifact.Artifact, via []string, section, priority int, pinned bool) pack.Part {
	text := make(map[pack.Level]string, 4)
	for l := artifact.Meta; l <= artifact.Full; l++ {
		text[pack.Meta+pack.Level(l-artifact.Meta)] = a.Text(l)
	}
	label := a.ID
	if a.Type == artifact.Identity {
		label = ""
	}
	return pack.Part{
		Key: a.ID, Source: "artifact", Type: string(a.Type), Label: label, Path: a.Path,
		Lines: [2]int{1, max(1, a.Lines)}, Lang: "markdown", Text: text,
		Priority: priority, Pinned: pinned, Section: section, Via: via,
	}
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
}
