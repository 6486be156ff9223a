package links

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/graph"
	"github.com/ctxpack/ctxpack/internal/render"
)

// Explanation says why an artifact is or is not in a task's context.
type Explanation struct {
	Task     string `json:"task"`
	Artifact string `json:"artifact"`
	// Kind is "included", "budget", "depth", "status", "missing" or
	// "no-link"; for a file of the code (ExplainCode) "included",
	// "budget", "no-link" or "not-listed". Artifact is then the file's
	// path.
	Kind   string   `json:"kind"`
	In     bool     `json:"in"`
	Level  string   `json:"level,omitempty"`
	Tokens int      `json:"tokens,omitempty"`
	Via    []string `json:"via,omitempty"`
	// NeedBudget and MoreTokens say, for kind "budget", the smallest
	// budget that keeps the artifact and how many tokens more that is.
	NeedBudget int    `json:"need_budget,omitempty"`
	MoreTokens int    `json:"more_tokens,omitempty"`
	Reason     string `json:"reason"`
}

// Missing is the explanation for an artifact id that set does not have,
// or nil when it has it.
func Missing(set *artifact.Set, taskID, id string) *Explanation {
	if _, ok := set.ByID[id]; ok {
		return nil
	}
	return &Explanation{Task: taskID, Artifact: id, Kind: "missing", Reason: fmt.Sprintf("%s does not exist in %s", id, set.Dir)}
}

// Explain says why artifact id is in the context of the task whose
// collection is col and whose assembly planned plan (its chain and
// level), or why not: no link reaches it, the link depth (linkDepth, 0
// for none), its status, or the budget, with how many more tokens would
// have kept it. set must have id (see Missing).
func Explain(set *artifact.Set, col *Collection, plan *render.Plan, taskID, id string, linkDepth int) *Explanation {
	e := &Explanation{Task: taskID, Artifact: id}
	a := set.ByID[id]
	c := col.Closure
	chain := func(via []string) string { return strings.Join(append(append([]string{}, via...), id), " → ") }
	for _, pp := range plan.Parts {
		if pp.Key != id {
			continue
		}
		e.Kind, e.In, e.Level, e.Tokens, e.Via = "included", true, pp.Level, pp.Tokens, pp.Via
		switch {
		case id == taskID:
			e.Reason = fmt.Sprintf("%s is the task, always included, at %s (%d tokens)", id, pp.Level, pp.Tokens)
		case pp.Via == nil:
			e.Reason = fmt.Sprintf("%s is the project identity, always included, at %s (%d tokens)", id, pp.Level, pp.Tokens)
		default:
			e.Reason = fmt.Sprintf("included at %s (%d tokens) through %s", pp.Level, pp.Tokens, chain(pp.Via))
		}
		if pp.Reason != "" {
			e.Reason += "; " + pp.Reason
		}
		return e
	}
	for _, d := range plan.Dropped {
		if d.Key != id {
			continue
		}
		e.Kind, e.Reason = "budget", "left out by the budget: "+d.Reason
		for _, n := range c.Nodes {
			if n.A.ID == id {
				e.Via = n.Via
			}
		}
		if d.NeedBudget > 0 {
			e.NeedBudget, e.MoreTokens = d.NeedBudget, d.NeedBudget-plan.Budget
			e.Reason = fmt.Sprintf("reached through %s but left out by the budget: a budget of %d (%d more tokens) would keep it", chain(e.Via), d.NeedBudget, e.MoreTokens)
		}
		return e
	}
	for _, x := range c.Excluded {
		if x.ID != id {
			continue
		}
		e.Via = x.Via
		switch x.Reason {
		case "depth":
			e.Kind = "depth"
			e.Reason = fmt.Sprintf("reached through %s at link depth %d, past --link-depth %d", chain(x.Via), x.Depth, linkDepth)
		case "superseded":
			e.Kind = "status"
			e.Reason = fmt.Sprintf("%s is superseded; the link through %s", id, chain(x.Via))
			if x.ReplacedBy != "" {
				e.Reason += " brings in " + x.ReplacedBy + " instead"
			} else {
				e.Reason += " leads nowhere: " + describeSuccessor(a.SupersededBy)
			}
		case "deprecated":
			e.Kind = "status"
			e.Reason = fmt.Sprintf("%s is deprecated, so the link through %s is not followed", id, chain(x.Via))
		}
		if e.Kind != "" {
			return e
		}
	}
	// Not reached with these options: is it reachable at all?
	if linkDepth > 0 {
		all, err := graph.Traverse(set, taskID, graph.Options{})
		if err == nil {
			for _, n := range all.Nodes {
				if n.A.ID == id {
					e.Kind, e.Via = "depth", n.Via
					e.Reason = fmt.Sprintf("reached through %s at link depth %d, past --link-depth %d", chain(n.Via), n.Depth, linkDepth)
					return e
				}
			}
		}
	}
	e.Kind = "no-link"
	e.Reason = fmt.Sprintf("no link from %s reaches %s", taskID, id)
	if a.Status == "deprecated" || a.Status == "superseded" {
		e.Reason += fmt.Sprintf(" (and it is %s)", a.Status)
	}
	return e
}

func describeSuccessor(id string) string {
	if id == "" {
		return "it names no superseded_by"
	}
	return "its successor " + id + " is missing, deprecated or superseded in a cycle"
}

// ExplainCode says why the file at path p (a slash path from the project
// root) is in the context of the task whose collection is col and whose
// assembly planned plan, or why not: which artifact's paths glob brought
// it, its rank for the task's text and its level; or that the budget
// left it out, with the budget that keeps it; or that no artifact the
// links reach names it (and which artifacts that are not reached do).
// exists says whether the project has a file or directory at p.
func ExplainCode(set *artifact.Set, col *Collection, plan *render.Plan, taskID, p string, exists bool) *Explanation {
	e := &Explanation{Task: taskID, Artifact: p}
	if !exists {
		e.Kind = "missing"
		e.Reason = fmt.Sprintf("%s is neither an artifact id of %s nor a file of the project", p, set.Dir)
		return e
	}
	var f *CodeFile
	for i := range col.files {
		if col.files[i].Path == p {
			f = &col.files[i]
		}
	}
	if f == nil {
		if g, ok := Governs(col.Globs, p); ok {
			e.Kind, e.Via = "not-listed", append(slices.Clone(g.Via), g.Artifact)
			e.Reason = fmt.Sprintf("%s paths %s covers it, but it is not a text file of the project: missing, ignored, binary, oversized or a secrets file", g.Artifact, g.Glob)
			return e
		}
		e.Kind = "no-link"
		e.Reason = fmt.Sprintf("no artifact that the links from %s reach names it in its paths", taskID)
		var others []string
		for _, a := range set.List {
			for _, g := range a.Paths {
				if artifact.Governs(g, p) && !slices.Contains(others, a.ID) {
					others = append(others, a.ID)
				}
			}
		}
		if len(others) > 0 {
			e.Reason += fmt.Sprintf(" (%s %s, but no link from %s reaches %s)", strings.Join(others, ", "), plural(len(others), "does", "do"), taskID, plural(len(others), "it", "them"))
		}
		return e
	}
	named := fmt.Sprintf("%s names it (paths %s, reached through %s); ranked %d of %d for the task's text (task_match %g)",
		f.Glob.Artifact, f.Glob.Glob, strings.Join(append(slices.Clone(f.Glob.Via), f.Glob.Artifact), " → "), f.Rank, len(col.files), f.Score)
	e.Via = append(slices.Clone(f.Glob.Via), f.Glob.Artifact)
	for _, pp := range plan.Parts {
		if pp.Key != p {
			continue
		}
		e.Kind, e.In, e.Level, e.Tokens = "included", true, pp.Level, pp.Tokens
		e.Reason = fmt.Sprintf("included at %s (%d tokens): %s", pp.Level, pp.Tokens, named)
		if pp.Reason != "" {
			e.Reason += "; " + pp.Reason
		}
		return e
	}
	e.Kind = "budget"
	e.Reason = named + "; left out by the budget (the code gets what the artifacts leave)"
	for _, d := range plan.Dropped {
		if d.Key == p && d.NeedBudget > 0 {
			e.NeedBudget, e.MoreTokens = d.NeedBudget, d.NeedBudget-plan.Budget
			e.Reason = fmt.Sprintf("%s; left out by the budget (the code gets what the artifacts leave): a budget of %d (%d more tokens) would keep it", named, d.NeedBudget, e.MoreTokens)
		}
	}
	return e
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
