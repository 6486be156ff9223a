package app

import (
	"context"

	"github.com/ctxpack/ctxpack/internal/collect/links"
)

// Explanation says why an artifact is or is not in a task's context.
type Explanation = links.Explanation

// Explain says why the artifact is in the task's context for req (its
// chain and level), or why not: no link reaches it, the link depth, its
// status, or the budget, with how many more tokens would have kept it.
func (p *Project) Explain(ctx context.Context, taskID, id string, req Request) (*Explanation, error) {
	set, err := p.artifacts()
	if err != nil {
		return nil, err
	}
	if e := links.Missing(set, taskID, id); e != nil {
		return e, nil
	}
	res, col, err := p.links(ctx, taskID, req)
	if err != nil {
		return nil, err
	}
	return links.Explain(set, col, &res.Plan, taskID, id, req.LinkDepth), nil
}
