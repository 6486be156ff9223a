package app

import (
	"context"
	"slices"

	evmode "github.com/ctxpack/ctxpack/internal/collect/evidence"
	"github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/render"
)

// The evidence workspace (DESIGN §7, the mdctx seed): a ctx/ folder of
// ranked role files that a person curates, assembled into
// build/prompt.mdctx and build/ctxplan.json. The collector, and the
// commands that read and change a workspace, are internal/collect/evidence;
// this file resolves requests, runs the engine and renders the plan.

// Workspace is an evidence workspace of the project.
type Workspace = evidence.Workspace

// DefaultWorkspace is the folder evidence commands use when none is given.
const DefaultWorkspace = evmode.DefaultWorkspace

// EvidencePlanVersion is the version of ctxplan.json's schema.
const EvidencePlanVersion = render.EvidencePlanVersion

// EvidenceOrderRule is how parts are ordered: by role (system, user,
// evidence), then rank (then kind and path, for equal ranks).
const EvidenceOrderRule = evmode.OrderRule

// The statuses of a plan's parts.
const (
	StatusActive    = render.StatusActive
	StatusLinked    = render.StatusLinked
	StatusSkipped   = render.StatusSkipped
	StatusDegraded  = render.StatusDegraded
	StatusTruncated = render.StatusTruncated
	StatusDropped   = render.StatusDropped
)

// The evidence commands' types.
type (
	// EvidencePlan is build/ctxplan.json: every file of the workspace,
	// what became of it, and the totals of prompt.mdctx.
	EvidencePlan = render.EvidencePlan
	// EvidencePart is one file of the workspace in the plan.
	EvidencePart = render.EvidencePart
	// EvidenceResult is an assembled workspace.
	EvidenceResult = evmode.Result
	// EvidenceEntry is a workspace file as the CLI's json format and the
	// MCP server's tools show it.
	EvidenceEntry = evmode.EntryView
	// Excerpt is what a selector selects from a project file, read now.
	Excerpt = evmode.Excerpt
	// AddRequest is what evidence add puts in a workspace.
	AddRequest = evmode.AddRequest
	// Added is a file evidence add wrote, with what it costs and the
	// whole context's size after it.
	Added = evmode.Added
	// StaleEntry is a workspace file whose source no longer holds the
	// text it was made from; StaleReport is what evidence stale found.
	StaleEntry  = evmode.StaleEntry
	StaleReport = evmode.StaleReport
	// FocusEntry is what focus did with one evidence file; FocusReport
	// the result of a focus.
	FocusEntry  = evmode.FocusEntry
	FocusReport = evmode.FocusReport
	// Deps is what references what around one workspace file: DepLink a
	// name it uses and where that is defined, DepRef a use of a name it
	// defines.
	Deps    = evmode.Deps
	DepLink = evmode.DepLink
	DepRef  = evmode.DepRef
	// ExportReport is what an export into a workspace wrote.
	ExportReport = evmode.ExportReport
	// AskReport is evidence ask's answer: Covering an evidence file that
	// answers the question, Gap a hit of the index that no evidence
	// holds, Redundant evidence that another covers, Overlap two files
	// that share lines.
	AskReport = evmode.AskReport
	Covering  = evmode.Covering
	CoverHit  = evmode.CoverHit
	TermAt    = evmode.TermAt
	Gap       = evmode.Gap
	Redundant = evmode.Redundant
	Overlap   = evmode.Overlap
)

// Workspace opens the workspace in dir (relative to the project's working
// directory, or absolute), which must be inside the project root and
// need not exist yet.
func (p *Project) Workspace(dir string) (*Workspace, error) {
	return evmode.OpenWorkspace(p.Root, p.Dir, dir)
}

// ViewEntry is e, a file of ws, as shown.
func ViewEntry(ws *Workspace, e evidence.Entry) EvidenceEntry { return evmode.ViewEntry(ws, e) }

// evidenceEnv is the project as the evidence collector reads it; idx
// says how focus and deps reach the repository index.
func (p *Project) evidenceEnv(idx IndexOptions) evmode.Env {
	return evmode.Env{
		Root: p.Root, FS: p.FS, MaxFileBytes: p.Config.Walk.MaxFileBytes,
		Search: func(ctx context.Context, query string, k int) ([]evmode.Hit, []string, error) {
			chunks, _, warnings, err := p.Search(ctx, query, k, false, idx)
			if err != nil {
				return nil, nil, err
			}
			hits := make([]evmode.Hit, len(chunks))
			for i, c := range chunks {
				hits[i] = evmode.Hit{Path: c.Path, StartLine: c.StartLine, EndLine: c.EndLine, Relevance: c.Relevance, Symbol: c.Symbol, Why: c.Why()}
			}
			return hits, warnings, nil
		},
		Index: func(ctx context.Context) (evmode.Index, []string, error) {
			oi, warnings, err := p.currentIndex(ctx, idx)
			if err != nil {
				return nil, nil, err
			}
			return oi, warnings, nil
		},
	}
}

// ReadSelector parses a selector and reads what it selects. Paths that
// leave the project (through "..", or a symlink), folders, binary files,
// files over walk.max_file_bytes and ranges past the end are errors that
// say so.
func (p *Project) ReadSelector(s string) (*Excerpt, error) {
	return p.evidenceEnv(IndexOptions{}).ReadSelector(s)
}

// AddEvidence adds a file to the workspace (creating the folder when it
// is missing) and assembles the workspace under req, with every active
// file included (the allow overflow), to report the totals.
func (p *Project) AddEvidence(ctx context.Context, ws *Workspace, ar AddRequest, req Request) (*Added, error) {
	if p.noBudgetGiven(req) && !p.unbudgeted(req) {
		req.Budget = DefaultBudget // the totals are against the default budget, which allow alone would lift
	}
	req.Overflow = "allow"
	if _, err := p.evidenceOptions(req); err != nil { // before anything is written
		return nil, err
	}
	added, err := p.evidenceEnv(req.Index).Write(ws, ar)
	if err != nil {
		return nil, err
	}
	total, err := p.AssembleEvidence(ctx, ws, req, "")
	if err != nil {
		return nil, err
	}
	added.SetTotal(total)
	return added, nil
}

// AssembleEvidence assembles the workspace (evidence mode): its active
// and linked files in order (role, rank, kind), system and user files
// under "# System" and "# User Request", each evidence file as an
// "## Evidence: path" section with its provenance, fitted to the budget
// with the engine's overflow strategies (lowest-ranked evidence is
// degraded, then dropped, first; system and user files are never
// dropped). flowID names the flow in the header; "" is the workspace's
// path. Nothing is written: WriteEvidence writes the result.
func (p *Project) AssembleEvidence(ctx context.Context, ws *Workspace, req Request, flowID string) (*EvidenceResult, error) {
	o, err := p.evidenceOptions(req)
	if err != nil {
		return nil, err
	}
	c, err := p.evidenceEnv(req.Index).Collect(ctx, ws, flowID)
	if err != nil {
		return nil, err
	}
	o.Warnings = slices.Clone(p.Warnings)
	c.Options(&o)
	res, err := pack.Assemble(c.Parts, o)
	if err != nil {
		return nil, err
	}
	plan := render.CtxPlan(&res.Plan, c.Workspace, o.Tokenizer.Count)
	return &EvidenceResult{Plan: plan, Prompt: res.Output, Entries: c.Entries}, nil
}

// evidenceOptions are the engine's options for evidence mode under req:
// the mdctx format, and a depth of meta or full (the levels evidence has).
func (p *Project) evidenceOptions(req Request) (pack.Options, error) {
	if err := evmode.CheckRequest(req.Format, req.Depth); err != nil {
		return pack.Options{}, err
	}
	req.Format = string(render.MDCtx)
	return p.options(req)
}

// WriteEvidence writes the result's prompt.mdctx and ctxplan.json into
// dir (a slash path relative to the root; "" is BuildDir), each
// atomically, and returns their paths as slash paths relative to the root.
func (p *Project) WriteEvidence(ws *Workspace, res *EvidenceResult, dir string) (prompt, plan string, err error) {
	return p.evidenceEnv(IndexOptions{}).WriteBuild(ws, res, dir)
}

// StaleEvidence compares every workspace file made from a project file
// with that file now, by the content id of the selected span.
func (p *Project) StaleEvidence(ws *Workspace) (*StaleReport, error) {
	return p.evidenceEnv(IndexOptions{}).Stale(ws)
}

// FocusEvidence turns off the evidence files that are not relevant to
// query, and records them so that FocusOff turns them back on. A file is
// relevant when one of the top retrieval hits for the query (the
// repository index, brought up to date unless idx.NoUpdate) overlaps the
// span it was made from; a file with no project source when it holds at
// least half of the query's terms. System and user files, and links, are
// never turned off. A previous focus is replaced: the files it turned off
// are candidates again. When nothing is relevant, nothing changes and an
// error says so.
func (p *Project) FocusEvidence(ctx context.Context, ws *Workspace, query string, top int, idx IndexOptions) (*FocusReport, error) {
	return p.evidenceEnv(idx).Focus(ctx, ws, query, top)
}

// FocusOff turns back on the files a focus turned off, and forgets the
// focus. It returns the files it turned on and warnings for the recorded
// files that are no longer there as focus left them.
func (p *Project) FocusOff(ws *Workspace) ([]string, []string, error) { return evmode.FocusOff(ws) }

// EvidenceDeps reports what references what between the workspace file
// id names and the others, from the repository index (brought up to date
// unless idx.NoUpdate): the names its span defines and which files use
// them, and the names it uses and which files, in the workspace or not,
// define them.
func (p *Project) EvidenceDeps(ctx context.Context, ws *Workspace, id string, idx IndexOptions) (*Deps, error) {
	return p.evidenceEnv(idx).Deps(ctx, ws, id)
}

// ExportEvidence writes an assembly's parts into a new workspace, so that
// a person can start from it and edit: the identity and norms as system
// files, the task or the query as the user request, every other part as
// evidence of its file and line span, ranked in the assembly's render
// order. The workspace must not exist or be empty.
func (p *Project) ExportEvidence(ws *Workspace, plan *Plan) (*ExportReport, error) {
	return p.evidenceEnv(IndexOptions{}).Export(ws, plan)
}
