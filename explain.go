package ctxpack

import (
	"context"
	"fmt"
	"strings"

	"github.com/ctxpack/ctxpack/internal/graph"
)

// Explanation says why an artifact is or is not in a task's context.
type Explanation struct {
	Task     string `json:"task"`
	Artifact string `json:"artifact"`
	// Kind is "included", "budget", "depth", "status", "missing" or
	// "no-link".
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

// Explain says why the artifact is in the task's context for req (its
// chain and level), or why not: no link reaches it, the link depth, its
// status, or the budget, with how many more tokens would have kept it.
func (p *Project) Explain(ctx context.Context, taskID, id string, req Request) (*Explanation, error) {
	set, err := p.artifacts()
	if err != nil {
		return nil, err
	}
	e := &Explanation{Task: taskID, Artifact: id}
	a, ok := set.ByID[id]
	if !ok {
		e.Kind, e.Reason = "missing", fmt.Sprintf("%s does not exist in %s", id, set.Dir)
		return e, nil
	}
	res, c, err := p.Links(ctx, taskID, req)
	if err != nil {
		return nil, err
	}
	chain := func(via []string) string { return strings.Join(append(append([]string{}, via...), id), " → ") }
	for _, pp := range res.Plan.Parts {
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
		return e, nil
	}
	for _, d := range res.Plan.Dropped {
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
			e.NeedBudget, e.MoreTokens = d.NeedBudget, d.NeedBudget-res.Plan.Budget
			e.Reason = fmt.Sprintf("reached through %s but left out by the budget: a budget of %d (%d more tokens) would keep it", chain(e.Via), d.NeedBudget, e.MoreTokens)
		}
		return e, nil
	}
	for _, x := range c.Excluded {
		if x.ID != id {
			continue
		}
		e.Via = x.Via
		switch x.Reason {
		case "depth":
			e.Kind = "depth"
			e.Reason = fmt.Sprintf("reached through %s at link depth %d, past --link-depth %d", chain(x.Via), x.Depth, req.LinkDepth)
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
			return e, nil
		}
	}
	// Not reached with these options: is it reachable at all?
	if req.LinkDepth > 0 {
		all, err := graph.Traverse(set, taskID, graph.Options{})
		if err == nil {
			for _, n := range all.Nodes {
				if n.A.ID == id {
					e.Kind, e.Via = "depth", n.Via
					e.Reason = fmt.Sprintf("reached through %s at link depth %d, past --link-depth %d", chain(n.Via), n.Depth, req.LinkDepth)
					return e, nil
				}
			}
		}
	}
	e.Kind = "no-link"
	e.Reason = fmt.Sprintf("no link from %s reaches %s", taskID, id)
	if a.Status == "deprecated" || a.Status == "superseded" {
		e.Reason += fmt.Sprintf(" (and it is %s)", a.Status)
	}
	return e, nil
}

func describeSuccessor(id string) string {
	if id == "" {
		return "it names no superseded_by"
	}
	return "its successor " + id + " is missing, deprecated or superseded in a cycle"
}
