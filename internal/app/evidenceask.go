package app

import (
	"context"
	"fmt"
	"slices"

	evmode "github.com/ctxpack/ctxpack/internal/collect/evidence"
	"github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/render"
)

// The sections of evidence ask's answer, in its order.
const (
	AskCoverage   = evmode.Coverage
	AskGaps       = evmode.Gaps
	AskRedundancy = evmode.Redundancy
)

// AskSections are the sections evidence ask can answer, in its order:
// coverage, gaps, redundancy.
func AskSections() []string { return evmode.AskSections() }

// DefaultAskTop is how many of the index's best hits for a question's
// subject evidence ask weighs by default.
const DefaultAskTop = evmode.DefaultAskTop

// AskRequest is a question to evidence ask.
type AskRequest struct {
	// Question is asked in words ("what evidence covers error handling?",
	// "what is missing for authentication?", "what evidence is
	// redundant?"); its words choose the sections unless Sections names
	// them.
	Question string
	Sections []string // of AskSections; empty: chosen by the question
	Top      int      // the index's hits weighed; 0 is DefaultAskTop
}

// AskEvidence answers a question about the workspace, without a model,
// from its files, the repository index (brought up to date unless
// req.Index.NoUpdate) and the engine's plan under req (budget, window,
// tokenizer):
//
//   - coverage: the evidence files that answer the question's subject —
//     one of the index's top hits for it overlaps the file's span, or the
//     file holds half of its terms — with their spans, the hits and the
//     lines of the terms, and each file's status and tokens in the plan;
//   - gaps: the top hits that no workspace file's span holds whole, each
//     with the selector that adds it, the tokens its section would take
//     (counted with the tokenizer on the section evidence add would
//     write) and prompt.mdctx's total with it, against the budget;
//   - redundancy: the assembled evidence files whose content another
//     covers (the same text, the same or a wider span of the same file,
//     its text whole in the other's, or texts 90% alike by edit
//     distance), with the tokens turning each off saves, and the files
//     whose spans share lines.
//
// The question's words choose the sections (evmode.ParseQuestion) unless
// ar.Sections names them. Nothing is written.
func (p *Project) AskEvidence(ctx context.Context, ws *Workspace, ar AskRequest, req Request) (*AskReport, error) {
	q, err := evmode.ParseQuestion(ar.Question, ar.Sections)
	if err != nil {
		return nil, err
	}
	if ar.Top < 0 {
		return nil, fmt.Errorf("ctxpack: the number of hits to weigh must be positive (got %d)", ar.Top)
	}
	if !ws.Exists() {
		return nil, fmt.Errorf("ctxpack: %s: no such workspace; add evidence first (evidence add SELECTOR creates it) or name another folder", ws.Shown)
	}
	o, err := p.evidenceOptions(req)
	if err != nil {
		return nil, err
	}
	rep, err := p.evidenceEnv(req.Index).Ask(ctx, ws, q, ar.Top)
	if err != nil {
		return nil, err
	}
	c := rep.Collection
	o.Warnings = slices.Clone(p.Warnings)
	c.Options(&o)
	res, err := pack.Assemble(c.Parts, o)
	if err != nil {
		return nil, err
	}
	plan := render.CtxPlan(&res.Plan, c.Workspace, o.Tokenizer.Count)
	rep.Tokenizer, rep.Budget = plan.Tokenizer, plan.Budget
	rep.Warnings = append(slices.Clone(plan.Warnings), rep.Warnings...)
	byURI := make(map[string]EvidencePart, len(plan.Parts))
	for _, pt := range plan.Parts {
		byURI[pt.URI] = pt
	}
	for i := range rep.Coverage {
		cv := &rep.Coverage[i]
		pt := byURI[evidence.FileURI(cv.Path)]
		cv.Status, cv.Tokens = pt.Status, pt.Tokens
		switch pt.Status {
		case StatusSkipped:
			cv.Why += fmt.Sprintf("; skipped: not in prompt.mdctx (evidence toggle on %s turns it on)", cv.ID)
		case StatusDegraded, StatusTruncated, StatusDropped:
			cv.Why += fmt.Sprintf("; %s in prompt.mdctx: %s", pt.Status, pt.Reason)
		}
	}
	// The totals with every active file shown, as evidence add reports
	// them: as they are, without each redundant file, with each gap.
	o.Overflow = pack.Allow
	all, err := pack.Assemble(c.Parts, o)
	if err != nil {
		return nil, err
	}
	rep.TotalTokens = all.Plan.TotalTokens
	for i := range rep.Redundant {
		rd := &rep.Redundant[i]
		rd.Tokens = byURI[evidence.FileURI(rd.Path)].FullTokens
		without, err := pack.Assemble(slices.DeleteFunc(slices.Clone(c.Parts), func(pt pack.Part) bool { return pt.Key == rd.Path }), o)
		if err != nil {
			return nil, err
		}
		rd.Saves = rep.TotalTokens - without.Plan.TotalTokens
		rd.Why += fmt.Sprintf("; turning it off saves %d tokens", rd.Saves)
	}
	for i := range rep.Gaps {
		g := &rep.Gaps[i]
		if g.Whole == nil {
			continue
		}
		g.Tokens = o.Tokenizer.Count(render.Segment(render.MDCtx, *g.Whole, render.Block{}))
		with, err := pack.Assemble(g.Parts, o)
		if err != nil {
			return nil, err
		}
		g.TotalTokens = with.Plan.TotalTokens
		g.Fits = rep.Budget == 0 || g.TotalTokens <= rep.Budget
		switch {
		case rep.Budget == 0:
			g.Why += fmt.Sprintf("; its section takes %d tokens, %d in all with it (no budget)", g.Tokens, g.TotalTokens)
		case g.Fits:
			g.Why += fmt.Sprintf("; its section takes %d tokens: fits, %d of the budget of %d with it", g.Tokens, g.TotalTokens, rep.Budget)
		default:
			g.Why += fmt.Sprintf("; its section takes %d tokens: does not fit, %d with it is %d over the budget of %d", g.Tokens, g.TotalTokens, g.TotalTokens-rep.Budget, rep.Budget)
		}
	}
	return rep, nil
}
