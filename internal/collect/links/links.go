package links

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/graph"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
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

// Collection is what links mode gives the engine for one task.
type Collection struct {
	Closure *graph.Closure
	Parts   []pack.Part
	// Paths are the code globs of the specs reached, sorted and unique.
	Paths []string
	// StateRoot is the Merkle root over every artifact of the set.
	StateRoot string
	// Warnings are the set's problems, then the closure's.
	Warnings []string
}

// Collect follows the links of task taskID in set, to linkDepth links
// (0: no limit), and makes the parts of what they reach.
func Collect(set *artifact.Set, taskID string, linkDepth int) (*Collection, error) {
	c, err := graph.Traverse(set, taskID, graph.Options{MaxDepth: linkDepth})
	if err != nil {
		return nil, err
	}
	parts, globs := Parts(set, c)
	inputs := make([]project.Input, 0, len(set.List))
	for _, a := range set.List {
		inputs = append(inputs, project.Input{Path: a.Path, CID: a.CID})
	}
	return &Collection{
		Closure:   c,
		Parts:     parts,
		Paths:     globs,
		StateRoot: project.StateRoot(inputs),
		Warnings:  slices.Concat(Problems(set), c.Warnings),
	}, nil
}

// Options sets what links mode asks of the engine: parts rendered by
// section, no deduplication (distinct artifacts are never duplicates) and
// strict priority with no item cap.
func Options(o *pack.Options) {
	o.Sectioned = true
	o.DedupThreshold = -1
	o.Policy = pack.Policy{}
}

// Problems are the problems found loading the artifacts of set, each as
// a warning naming the file.
func Problems(set *artifact.Set) []string {
	var out []string
	for _, e := range set.Problems {
		out = append(out, strings.TrimPrefix(e.Error(), "artifact: "))
	}
	return out
}

// Parts turns a closure into parts, and lists the code globs of its
// specs, sorted and unique.
func Parts(set *artifact.Set, c *graph.Closure) ([]pack.Part, []string) {
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
			part = artifactPart(a, n.Via, sectionSpecs, priority(n.Direct(), prioSpecDirect, prioSpec), false)
			for _, g := range a.Paths {
				globs = append(globs, glob{g, a.ID})
			}
		case artifact.Norm:
			part = artifactPart(a, n.Via, sectionNorms, priority(n.Direct(), prioNormDirect, prioNorm), false)
		case artifact.Decision:
			part = artifactPart(a, n.Via, sectionDecisions, priority(n.Direct(), prioDecisionDirect, prioDecision), false)
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
			// A list of globs is metadata at every depth, the same text at
			// each: no level shows less of it.
			Text: map[pack.Level]string{pack.Meta: b.String(), pack.Full: b.String()}, SelfNoted: true,
		})
	}
	slices.Sort(list)
	return parts, slices.Compact(list)
}

// priority is the priority of a part reached directly from the task, or
// through other artifacts.
func priority(direct bool, directPrio, transitivePrio int) int {
	if direct {
		return directPrio
	}
	return transitivePrio
}

// artifactPart is an artifact at every level it has.
func artifactPart(a *artifact.Artifact, via []string, section, priority int, pinned bool) pack.Part {
	text := make(map[pack.Level]string, 4)
	for l := pack.Meta; l <= pack.Full; l++ {
		text[l] = a.Text(l)
	}
	label := a.ID
	if a.Type == artifact.Identity {
		label = ""
	}
	return pack.Part{
		Key: a.ID, Source: "artifact", Type: string(a.Type), Label: label, Path: a.Path,
		Lines: [2]int{1, max(1, a.Lines)}, Lang: "markdown", Text: text, Whole: "ctxpack show " + a.ID,
		Priority: priority, Pinned: pinned, Section: section, Via: via,
	}
}
