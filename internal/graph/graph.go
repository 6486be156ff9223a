// Package graph follows the links between artifacts: the closure of a task
// (DESIGN §4), the chain that reached each artifact, and why an artifact
// is not in it.
//
// Traversal is breadth-first from the task, following each artifact's
// links in frontmatter order (specs, then decisions, then norms; links to
// other tasks are not followed). Each artifact is visited once; the first
// chain that reached it is kept, so it is a shortest chain, ties broken by
// link order. A superseded artifact is replaced by its superseded_by
// target (followed until a current one); a deprecated one is left out;
// links to missing artifacts are reported. Cycles are legal. The result
// depends only on the artifacts, never on map order.
package graph

import (
	"fmt"
	"strings"

	"github.com/ctxpack/ctxpack/internal/artifact"
)

// Node is an artifact in a closure.
type Node struct {
	A *artifact.Artifact
	// Via is the chain of ids that reached the artifact, from the task to
	// the artifact that links to it (the task itself has none).
	Via   []string
	Depth int // links from the task: 1 for the artifacts the task links
}

// Direct reports whether the task links to the artifact itself.
func (n Node) Direct() bool { return n.Depth == 1 }

// Exclusion is an artifact the links reach that is not in the closure.
type Exclusion struct {
	ID     string
	Reason string   // "missing", "deprecated", "superseded", "depth"
	Via    []string // the first chain that reached it
	Depth  int      // where it was reached
	// ReplacedBy is the artifact a superseded one was replaced by.
	ReplacedBy string
}

// Closure is what a task's links reach.
type Closure struct {
	Task     Node
	Nodes    []Node // the task first, then every reached artifact in visit order
	Excluded []Exclusion
	Warnings []string
}

// Options control a traversal.
type Options struct {
	// MaxDepth stops following links after this many steps from the task;
	// 0 means no limit.
	MaxDepth int
}

// Traverse returns the closure of the task with the given id.
func Traverse(set *artifact.Set, taskID string, opt Options) (*Closure, error) {
	task, ok := set.ByID[taskID]
	if !ok {
		return nil, fmt.Errorf("graph: no artifact %s%s", taskID, suggest(set, taskID))
	}
	if opt.MaxDepth < 0 {
		return nil, fmt.Errorf("graph: link depth must not be negative (got %d)", opt.MaxDepth)
	}
	c := &Closure{Task: Node{A: task}}
	c.Nodes = append(c.Nodes, c.Task)
	seen := map[string]bool{task.ID: true}
	excluded := map[string]bool{}
	exclude := func(e Exclusion, warning string) {
		if excluded[e.ID] {
			return
		}
		excluded[e.ID] = true
		c.Excluded = append(c.Excluded, e)
		if warning != "" {
			c.Warnings = append(c.Warnings, warning)
		}
	}
	queue := []Node{c.Task}
	for len(queue) > 0 {
		from := queue[0]
		queue = queue[1:]
		via := append(append([]string{}, from.Via...), from.A.ID)
		for _, id := range outLinks(from.A) {
			depth := from.Depth + 1
			target, ok := set.ByID[id]
			if !ok {
				exclude(Exclusion{ID: id, Reason: "missing", Via: via, Depth: depth},
					fmt.Sprintf("%s links to %s, which does not exist", from.A.ID, id))
				continue
			}
			if target.Status == artifact.Superseded {
				repl, why := successor(set, target)
				if repl == nil {
					exclude(Exclusion{ID: id, Reason: "superseded", Via: via, Depth: depth},
						fmt.Sprintf("%s links to %s, which is superseded %s; left out", from.A.ID, id, why))
					continue
				}
				exclude(Exclusion{ID: id, Reason: "superseded", Via: via, Depth: depth, ReplacedBy: repl.ID},
					fmt.Sprintf("%s links to %s, which is superseded by %s; using %s", from.A.ID, id, repl.ID, repl.ID))
				target = repl
			}
			if target.Status == artifact.Deprecated {
				exclude(Exclusion{ID: target.ID, Reason: "deprecated", Via: via, Depth: depth},
					fmt.Sprintf("%s links to %s, which is deprecated; left out", from.A.ID, target.ID))
				continue
			}
			if seen[target.ID] {
				continue
			}
			if opt.MaxDepth > 0 && depth > opt.MaxDepth {
				exclude(Exclusion{ID: target.ID, Reason: "depth", Via: via, Depth: depth}, "")
				continue
			}
			seen[target.ID] = true
			n := Node{A: target, Via: via, Depth: depth}
			c.Nodes = append(c.Nodes, n)
			queue = append(queue, n)
		}
	}
	return c, nil
}

// outLinks are the links traversal follows, in order: specs, decisions,
// norms. Links to tasks describe work, not context, and are not followed.
func outLinks(a *artifact.Artifact) []string {
	out := make([]string, 0, len(a.Links.Specs)+len(a.Links.Decisions)+len(a.Links.Norms))
	out = append(out, a.Links.Specs...)
	out = append(out, a.Links.Decisions...)
	return append(out, a.Links.Norms...)
}

// successor follows superseded_by from a superseded artifact to the first
// one that is not superseded. It returns nil and why when the chain breaks
// (no target, a missing target, or a cycle).
func successor(set *artifact.Set, a *artifact.Artifact) (*artifact.Artifact, string) {
	seen := map[string]bool{a.ID: true}
	for a.Status == artifact.Superseded {
		next := a.SupersededBy
		if next == "" {
			return nil, "and names no superseded_by"
		}
		b, ok := set.ByID[next]
		if !ok {
			return nil, "by " + next + ", which does not exist"
		}
		if seen[next] {
			return nil, "in a cycle of superseded_by links"
		}
		seen[next] = true
		a = b
	}
	return a, ""
}

// suggest names close ids when one is not found.
func suggest(set *artifact.Set, id string) string {
	var near []string
	up := strings.ToUpper(id)
	for _, a := range set.List {
		if strings.EqualFold(a.ID, id) || strings.HasPrefix(a.ID, up) || strings.HasSuffix(a.ID, up) {
			near = append(near, a.ID)
		}
		if len(near) == 3 {
			break
		}
	}
	if len(near) == 0 {
		return " (ctxpack list shows the ids)"
	}
	return " (did you mean " + strings.Join(near, ", ") + "?)"
}
