package ctxpack

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
)

// EvidencePlanVersion is the version of ctxplan.json's schema.
const EvidencePlanVersion = render.EvidencePlanVersion

// EvidenceOrderRule is how parts are ordered: by role (system, user,
// evidence), then rank (then kind and path, for equal ranks).
const EvidenceOrderRule = "role,rank"

// EvidencePlan is build/ctxplan.json: every file of the workspace, what
// became of it, and the totals of prompt.mdctx.
type EvidencePlan = render.EvidencePlan

// EvidencePart is one file of the workspace in the plan.
type EvidencePart = render.EvidencePart

// The statuses of a plan's parts.
const (
	StatusActive    = render.StatusActive
	StatusLinked    = render.StatusLinked
	StatusSkipped   = render.StatusSkipped
	StatusDegraded  = render.StatusDegraded
	StatusTruncated = render.StatusTruncated
	StatusDropped   = render.StatusDropped
)

// EvidenceResult is an assembled workspace.
type EvidenceResult struct {
	Plan    EvidencePlan
	Prompt  []byte // build/prompt.mdctx
	Entries []evidence.Entry
}

// PlanJSON is the plan as ctxplan.json holds it: indented, ending in a
// newline, in a fixed field order.
func (r *EvidenceResult) PlanJSON() ([]byte, error) { return render.EncodeEvidencePlan(&r.Plan) }

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
	if flowID == "" {
		flowID = ws.Shown
	}
	if strings.ContainsAny(flowID, "\n;") || strings.Contains(flowID, "--") {
		return nil, fmt.Errorf("ctxpack: flow id %q may not hold a newline, \";\" or \"--\"", flowID)
	}
	entries, warnings, err := ws.List()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	files, warns := p.readWorkspace(ws, entries)
	warnings = append(warnings, warns...)
	parts, plan, inputs := evidenceParts(files)
	o.Mode, o.Target = "evidence", ws.Shown
	o.Format = render.MDCtx
	o.DedupThreshold = -1 // every file was chosen by hand
	o.MaxChunksPerDoc = 0
	o.Policy = pack.Policy{}
	o.Sectioned = true
	o.PreferRecent = false
	o.StateRoot = project.StateRoot(inputs)
	o.Metadata = "flow_id=" + flowID + "; assembly=" + EvidenceOrderRule
	o.Warnings = append(slices.Clone(p.Warnings), warnings...)
	res, err := pack.Assemble(parts, o)
	if err != nil {
		return nil, err
	}
	w := render.EvidenceWorkspace{FlowID: flowID, OrderRule: EvidenceOrderRule, Files: plan}
	return &EvidenceResult{Plan: render.CtxPlan(&res.Plan, w, o.Tokenizer.Count), Prompt: res.Output, Entries: entries}, nil
}

// evidenceOptions are the engine's options for evidence mode under req:
// the mdctx format, and a depth of meta or full (the levels evidence has).
func (p *Project) evidenceOptions(req Request) (pack.Options, error) {
	if req.Format != "" && req.Format != string(render.MDCtx) {
		return pack.Options{}, fmt.Errorf("ctxpack: evidence assembles the mdctx format (got format %s)", req.Format)
	}
	req.Format = string(render.MDCtx)
	switch req.Depth {
	case "", pack.Meta.String(), "stub", pack.Full.String():
	default:
		return pack.Options{}, fmt.Errorf("ctxpack: evidence is shown whole or as a stub: depth must be meta or full (got %q)", req.Depth)
	}
	return p.options(req)
}

// evidenceParts makes a part of each active or linked file that could be
// read, to assemble, and the plan's view of every file, in order: a
// skipped file is measured, not assembled, and a file that cannot be read
// is in the plan as dropped, with the reason.
func evidenceParts(files []*wsFile) ([]pack.Part, []render.EvidenceFile, []project.Input) {
	var parts []pack.Part
	plan := make([]render.EvidenceFile, 0, len(files))
	var inputs []project.Input
	for i, f := range files {
		e := f.entry
		pf := render.EvidenceFile{Part: EvidencePart{
			Rank: evidence.RankString(e.Rank), Kind: e.Kind, Role: string(e.Role),
			URI: evidence.FileURI(f.path), Status: string(e.State),
		}}
		if f.err != nil {
			pf.Part.Status, pf.Part.Reason = StatusDropped, f.err.Error()
			plan = append(plan, pf)
			continue
		}
		if e.State == evidence.Linked {
			inputs = append(inputs, project.Input{Path: f.sel.Path, CID: f.src.CID})
		}
		pf.Part.CID = project.ContentID(f.text)
		pf.Part.Bytes = len(f.text)
		inputs = append(inputs, project.Input{Path: f.path, CID: pf.Part.CID})
		if f.prov != nil {
			pf.Part.Source, pf.Part.Span, pf.Part.Tags = f.prov.URI, f.prov.Span, f.prov.Tags
		}
		part := pack.Part{
			Key: f.path, Source: "evidence", Type: string(e.Role), Label: f.title, Path: f.path,
			Doc: f.path, Section: i, Priority: -i, CID: pf.Part.CID,
			Text: map[pack.Level]string{pack.Full: f.body},
		}
		switch e.Role {
		case evidence.System:
			part.Heading, part.Pinned = "System", true
		case evidence.User:
			part.Heading, part.Pinned = "User Request", true
		default:
			part.Text[pack.Meta] = "[ctxpack: not shown for the budget; the evidence is " + f.path + "]\n"
		}
		// Its section whole, alone: for a skipped file, as it would be
		// shown once on.
		whole := render.Block{Type: part.Type, Label: part.Label, Path: part.Path, Text: f.body, Section: part.Heading, CID: part.CID}
		if e.State == evidence.Skipped {
			whole.Path = path.Join(path.Dir(whole.Path), evidence.FileName(e.Rank, e.Kind, e.Role, evidence.Active))
		} else {
			pf.Key = part.Key
			parts = append(parts, part)
		}
		pf.Whole = &whole
		plan = append(plan, pf)
	}
	return parts, plan, inputs
}

// splitEvidence finds a workspace file's title, the text to show under it,
// and its provenance. An evidence file that starts with "## Evidence:
// TITLE" (as evidence add writes it) is shown under that title without
// the line; otherwise the title is the source path of its provenance
// comment, or the file's own path. System and user files are shown whole.
func splitEvidence(e evidence.Entry, text, shownPath string) (title, body string, prov *evidence.Provenance) {
	body, title = text, shownPath
	first, rest, _ := strings.Cut(text, "\n")
	if e.Role == evidence.Evidence {
		if t, ok := strings.CutPrefix(strings.TrimSuffix(first, "\r"), "## Evidence: "); ok && strings.TrimSpace(t) != "" {
			title, body = strings.TrimSpace(t), rest
			first, _, _ = strings.Cut(rest, "\n")
		} else if pv, ok, err := evidence.ParseProvenance(first); ok && err == nil {
			if fp, ok := evidence.FilePath(pv.URI); ok {
				title = fp
			}
		}
	}
	if pv, ok, err := evidence.ParseProvenance(first); ok && err == nil {
		prov = &pv
	}
	return title, body, prov
}

// WriteEvidence writes the result's prompt.mdctx and ctxplan.json into
// dir (a slash path relative to the root; "" is BuildDir), each
// atomically, and returns their paths as slash paths relative to the root.
func (p *Project) WriteEvidence(ws *Workspace, res *EvidenceResult, dir string) (prompt, plan string, err error) {
	if dir == "" {
		dir = BuildDir(ws)
	}
	rel, err := project.Resolve(p.Root, p.Root, filepath.FromSlash(dir))
	if err != nil {
		return "", "", fmt.Errorf("ctxpack: build folder: %w", err)
	}
	abs := filepath.Join(p.Root, filepath.FromSlash(rel))
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return "", "", fmt.Errorf("ctxpack: %w", err)
	}
	if err := evidence.KeepOutOfIndex(abs, evidence.BuildPatterns); err != nil {
		return "", "", err
	}
	data, err := res.PlanJSON()
	if err != nil {
		return "", "", err
	}
	if err := project.WriteFileAtomic(filepath.Join(abs, "prompt.mdctx"), res.Prompt, ".prompt-*", 0o644); err != nil {
		return "", "", fmt.Errorf("ctxpack: %w", err)
	}
	if err := project.WriteFileAtomic(filepath.Join(abs, "ctxplan.json"), data, ".ctxplan-*", 0o644); err != nil {
		return "", "", fmt.Errorf("ctxpack: %w", err)
	}
	return path.Join(rel, "prompt.mdctx"), path.Join(rel, "ctxplan.json"), nil
}
