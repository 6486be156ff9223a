package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/graph"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/retrieve"
)

// Score is the relevance of one file of the project to a task, factor by
// factor, as retrieval mode would rank it (retrieve.ScoreFile). file is a
// path relative to the project's working directory (or absolute); task
// is free text or an artifact id, whose title and body are then the
// query. The index is brought up to date first unless req.Index.NoUpdate.
func (p *Project) Score(ctx context.Context, file, task string, req Request) (*retrieve.FileScore, error) {
	query, err := p.TaskQuery(task)
	if err != nil {
		return nil, err
	}
	rel, err := project.Resolve(p.Root, p.Dir, file)
	if err != nil {
		return nil, err
	}
	opt, _, err := p.retrieval()
	if err != nil {
		return nil, err
	}
	oi, warnings, err := p.currentIndex(ctx, req.Index)
	if err != nil {
		return nil, err
	}
	defer oi.Close()
	p.rankInputs(ctx, &opt)
	s, err := retrieve.ScoreFile(ctx, oi.Index, query, rel, opt)
	if err != nil {
		var warning string
		if warning, err = p.retryDamaged(ctx, oi, req.Index, err); err == nil {
			warnings = append(warnings, warning)
			s, err = retrieve.ScoreFile(ctx, oi.Index, query, rel, opt)
		}
	}
	if err != nil {
		return nil, err
	}
	s.Warnings = append(append(warnings, p.Warnings...), s.Warnings...)
	return s, nil
}

// TaskQuery is the query text of a task target: the title and body of the
// artifact when target is an artifact id, else target itself. An id-like
// target that names no artifact is an error, as for Context.
func (p *Project) TaskQuery(target string) (string, error) {
	if strings.TrimSpace(target) == "" {
		return "", fmt.Errorf("ctxpack: the task is empty: give free text, an artifact id or - (standard input)")
	}
	set, err := p.artifacts()
	if err != nil {
		return "", err
	}
	if a, ok := set.ByID[target]; ok {
		return strings.TrimSpace(a.Title + "\n\n" + a.Body), nil
	}
	if idLike.MatchString(target) {
		_, err := graph.Traverse(set, target, graph.Options{})
		return "", fmt.Errorf("ctxpack: %w (free text with a hyphen and no spaces reads as an artifact id: add a word)", err)
	}
	return target, nil
}

// Tiers are the project's retrieval tiers, highest first.
func (p *Project) Tiers() ([]Tier, error) {
	p.loadRetrievalOnce()
	return slices.Clone(p.retrievalTiers), p.retrievalErr
}
