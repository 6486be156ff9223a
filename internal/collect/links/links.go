package links

import (
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/graph"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
)

// Render sections of links mode: identity → norms → decisions → specs →
// task → code paths (DESIGN §4), then the code they name.
const (
	sectionIdentity = iota
	sectionNorms
	sectionDecisions
	sectionSpecs
	sectionTask
	sectionPaths
	sectionCode
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
	// Parts are the closure's artifacts, the list of their globs, then
	// the code the globs govern.
	Parts []pack.Part
	// Paths are the code globs of the artifacts reached, sorted and
	// unique.
	Paths []string
	// Globs are the same globs in the order the links reached their
	// artifacts (the task's first), each with the artifact that names it.
	Globs []Glob
	// StateRoot is the Merkle root over every artifact of the set and
	// every file of the code.
	StateRoot string
	// Warnings are the set's problems, then the closure's.
	Warnings []string

	files  []CodeFile      // the code, in the order listed
	inputs []project.Input // of the state root
}

// Files are the files of the code, in path order, each with the glob
// that brought it and its rank for the task's text.
func (col *Collection) Files() []CodeFile { return col.files }

// Collect follows the links of task taskID in set, to linkDepth links
// (0: no limit), and makes the parts of what they reach: the artifacts,
// the list of their paths globs and, when code is not nil, the files the
// globs govern, ranked for the task's title and body (Match).
func Collect(set *artifact.Set, taskID string, linkDepth int, code *Code) (*Collection, error) {
	c, err := graph.Traverse(set, taskID, graph.Options{MaxDepth: linkDepth})
	if err != nil {
		return nil, err
	}
	parts := Parts(set, c)
	col := &Collection{
		Closure:  c,
		Parts:    parts,
		Globs:    globs(c),
		Warnings: slices.Concat(Problems(set), c.Warnings),
	}
	for _, a := range set.List {
		col.inputs = append(col.inputs, project.Input{Path: a.Path, CID: a.CID})
	}
	if code != nil {
		if err := col.code(set, code); err != nil {
			return nil, err
		}
	}
	for _, g := range col.Globs {
		col.Paths = append(col.Paths, g.Glob)
	}
	slices.Sort(col.Paths)
	if len(col.Globs) > 0 {
		col.Parts = append(col.Parts, pathsPart(col.Globs))
	}
	col.StateRoot = project.StateRoot(col.inputs)
	return col, nil
}

// Options sets what links mode asks of the engine: parts rendered by
// section, no deduplication (distinct artifacts and files are never
// duplicates), strict priority with no item cap, and the code in a
// bucket of its own with no share: it is fitted, degraded by level like
// pack mode's files, in what the closure leaves.
func Options(o *pack.Options) {
	o.Sectioned = true
	o.DedupThreshold = -1
	o.Policy = pack.Policy{Buckets: []pack.Bucket{{Name: "", Share: 1}, {Name: CodeBucket, Share: 0}}}
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

// Parts turns a closure into parts: one per artifact.
func Parts(set *artifact.Set, c *graph.Closure) []pack.Part {
	var parts []pack.Part
	if id, ok := set.ByID["identity"]; ok && id.Type == artifact.Identity {
		parts = append(parts, artifactPart(id, nil, sectionIdentity, 0, true))
	}
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
	return parts
}

// priority is the priority of a part reached directly from the task, or
// through other artifacts.
func priority(direct bool, directPrio, transitivePrio int) int {
	if direct {
		return directPrio
	}
	return transitivePrio
}

// artifactPart is an artifact at every level it has (artifact.Part),
// in its section with its priority.
func artifactPart(a *artifact.Artifact, via []string, section, priority int, pinned bool) pack.Part {
	p := a.Part()
	p.Priority, p.Pinned, p.Section, p.Via = priority, pinned, section, via
	return p
}
