package app

import (
	"context"
	"os"
	"path/filepath"

	"github.com/ctxpack/ctxpack/internal/collect/links"
	"github.com/ctxpack/ctxpack/internal/project"
)

// Explanation says why an artifact is or is not in a task's context.
type Explanation = links.Explanation

// Explain says why the artifact is in the task's context for req (its
// chain and level), or why not: no link reaches it, the link depth, its
// status, or the budget, with how many more tokens would have kept it.
// When id is not an artifact but a file of the project (a path, relative
// to the working directory, with a slash or naming a file that exists),
// it says the same of the file among the code the artifacts' paths name:
// which artifact's glob brought it, its rank for the task's text, its
// level, or what left it out.
func (p *Project) Explain(ctx context.Context, taskID, id string, req Request) (*Explanation, error) {
	set, err := p.artifacts()
	if err != nil {
		return nil, err
	}
	e := links.Missing(set, taskID, id)
	file, exists := "", false
	if e != nil {
		file, exists = p.codePath(id)
		if file == "" {
			return e, nil
		}
	}
	res, col, err := p.links(ctx, taskID, req)
	if err != nil {
		return nil, err
	}
	if file != "" {
		e := links.ExplainCode(set, col, &res.Plan, taskID, file, exists)
		e.Artifact = id // as the caller wrote it
		return e, nil
	}
	return links.Explain(set, col, &res.Plan, taskID, id, req.LinkDepth), nil
}

// codePath is the slash path from the project root of what Explain is
// asked about when it is a path: one with a separator, or a file that
// exists; "" otherwise. exists says whether it exists.
func (p *Project) codePath(id string) (string, bool) {
	abs := id
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(p.Dir, id)
	}
	_, err := os.Stat(abs)
	if err != nil && !pathLike(id) {
		return "", false
	}
	r, rerr := project.Resolve(p.Root, p.Dir, id)
	if rerr != nil {
		return "", false
	}
	return r, err == nil
}
