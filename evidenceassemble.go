package ctxpack

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
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
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// EvidencePlanVersion is the version of ctxplan.json's schema.
const EvidencePlanVersion = "1.0"

// EvidenceOrderRule is how parts are ordered: by role (system, user,
// evidence), then rank (then kind and path, for equal ranks).
const EvidenceOrderRule = "role,rank"

// EvidencePlan is build/ctxplan.json: every file of the workspace, what
// became of it, and the totals of prompt.mdctx.
type EvidencePlan struct {
	Version   string         `json:"version"`
	FlowID    string         `json:"flow_id"`
	OrderRule string         `json:"order_rule"`
	Tokenizer string         `json:"tokenizer"`
	Chunker   string         `json:"chunker"` // the build's (chunk.Name); both digests cover it
	Budget    int            `json:"budget"`
	Overflow  string         `json:"overflow"`
	Parts     []EvidencePart `json:"parts"`
	// TotalBytes and TotalTokens are prompt.mdctx's, counted on it.
	TotalBytes  int      `json:"total_bytes"`
	TotalTokens int      `json:"total_tokens"`
	Truncated   bool     `json:"truncated"`
	Exceeded    bool     `json:"exceeded"`
	Warnings    []string `json:"warnings"`
	// StateRoot is the Merkle root over the workspace's files and the
	// project files its links read (DESIGN §2).
	StateRoot string `json:"state_root"`
	// CtxDigest identifies the context: the chunker and the parts in
	// assembly order, each by role, status and the content id of its file:
	// "sha256:" and the hex SHA-256 of "ctxpack ctx_digest v1\n",
	// "chunker " + Chunker + "\n", then "role\tstatus\tcid\n" per part. It
	// does not depend on the rank numbers, the file names, the flow id or
	// where the workspace is: a copy, or a rebase that keeps the order, has
	// the same. Digest is the engine's digest of prompt.mdctx itself
	// (pack.Digest: the chunker and the bytes).
	CtxDigest string `json:"ctx_digest"`
	Digest    string `json:"digest"`
}

// EvidencePart is one file of the workspace in the plan.
type EvidencePart struct {
	Rank string `json:"rank"`
	Kind string `json:"kind"`
	Role string `json:"role"`
	URI  string `json:"uri"` // the workspace file: file://ctx/evidence/100_flow_sh.evidence.md
	CID  string `json:"cid"` // its content id (a link's: of the text it reads)
	// Bytes is the file's size (a link's: of the text it reads).
	Bytes int `json:"bytes"`
	// Tokens are what the part takes in prompt.mdctx (0 when not shown);
	// FullTokens what it takes there shown whole: its tokens when it is,
	// else its section measured alone (a skipped file's as it would be
	// once on).
	Tokens     int `json:"tokens"`
	FullTokens int `json:"full_tokens"`
	// Status is active or linked (shown whole), degraded (shown as a
	// stub), truncated, skipped (a .skip file), dropped (by the budget, or
	// unreadable) with Reason.
	Status     string `json:"status"`
	Reason     string `json:"reason,omitempty"`
	NeedBudget int    `json:"need_budget,omitempty"`
	// Source is where the text came from, from its provenance comment.
	Source string   `json:"source_uri,omitempty"`
	Span   string   `json:"span,omitempty"`
	Tags   []string `json:"tags,omitempty"`
}

// The statuses of a plan's parts.
const (
	StatusActive    = "active"
	StatusLinked    = "linked"
	StatusSkipped   = "skipped"
	StatusDegraded  = "degraded"
	StatusTruncated = "truncated"
	StatusDropped   = "dropped"
)

// Shown reports whether the part is in prompt.mdctx.
func (p EvidencePart) Shown() bool {
	switch p.Status {
	case StatusActive, StatusLinked, StatusDegraded, StatusTruncated:
		return true
	}
	return false
}

// EvidenceResult is an assembled workspace.
type EvidenceResult struct {
	Plan    EvidencePlan
	Prompt  []byte // build/prompt.mdctx
	Entries []evidence.Entry
}

// PlanJSON is the plan as ctxplan.json holds it: indented, ending in a
// newline, in a fixed field order.
func (r *EvidenceResult) PlanJSON() ([]byte, error) { return EncodeJSON(&r.Plan) }

// evPart is one workspace file read for assembly.
type evPart struct {
	entry evidence.Entry
	part  *pack.Part // nil when the file could not be read; a skipped file's is measured, not assembled
	plan  EvidencePart
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
	parts, inputs := evidenceParts(files)
	var assembled []pack.Part
	for _, ep := range parts {
		if ep.part != nil && ep.entry.State != evidence.Skipped {
			assembled = append(assembled, *ep.part)
		}
	}
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
	res, err := pack.Assemble(assembled, o)
	if err != nil {
		return nil, err
	}
	plan := EvidencePlan{
		Version: EvidencePlanVersion, FlowID: flowID, OrderRule: EvidenceOrderRule,
		Tokenizer: res.Plan.Tokenizer, Chunker: res.Plan.Chunker, Budget: res.Plan.Budget, Overflow: res.Plan.Overflow,
		TotalBytes: len(res.Output), TotalTokens: res.Plan.TotalTokens,
		Truncated: res.Plan.Truncated, Exceeded: res.Plan.Exceeded,
		Warnings: res.Plan.Warnings, StateRoot: res.Plan.StateRoot, Digest: res.Plan.Digest,
	}
	if plan.Warnings == nil {
		plan.Warnings = []string{}
	}
	shown := map[string]render.PlanPart{}
	for _, pp := range res.Plan.Parts {
		shown[pp.Key] = pp
	}
	dropped := map[string]render.Dropped{}
	for _, d := range res.Plan.Dropped {
		dropped[d.Key] = d
	}
	digest := sha256.New()
	fmt.Fprintf(digest, "ctxpack ctx_digest v1\nchunker %s\n", plan.Chunker)
	for _, ep := range parts {
		pp := ep.plan
		if ep.part != nil {
			if s, ok := shown[ep.part.Key]; ok {
				pp.Tokens = s.Tokens
				switch {
				case s.Truncated:
					pp.Status, pp.Reason = StatusTruncated, s.Reason
				case s.Level != pack.Full.String():
					pp.Status, pp.Reason = StatusDegraded, s.Reason
				default:
					pp.FullTokens = s.Tokens // shown whole: measured already
				}
			} else if d, ok := dropped[ep.part.Key]; ok {
				pp.Status, pp.Reason, pp.NeedBudget = StatusDropped, d.Reason, d.NeedBudget
			}
		}
		if pp.FullTokens == 0 && ep.part != nil {
			pp.FullTokens = ep.measure(o.Tokenizer)
		}
		fmt.Fprintf(digest, "%s\t%s\t%s\n", pp.Role, pp.Status, pp.CID)
		plan.Parts = append(plan.Parts, pp)
	}
	if plan.Parts == nil {
		plan.Parts = []EvidencePart{}
	}
	plan.CtxDigest = "sha256:" + hex.EncodeToString(digest.Sum(nil))
	return &EvidenceResult{Plan: plan, Prompt: res.Output, Entries: entries}, nil
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

// evidenceParts makes a part of each file, in order: of every active and
// linked one that could be read, to assemble, and of every skipped one,
// to measure. A file that cannot be read is in the plan as dropped, with
// the reason.
func evidenceParts(files []*wsFile) ([]evPart, []project.Input) {
	var out []evPart
	var inputs []project.Input
	for i, f := range files {
		e := f.entry
		ep := evPart{entry: e, plan: EvidencePart{
			Rank: evidence.RankString(e.Rank), Kind: e.Kind, Role: string(e.Role),
			URI: evidence.FileURI(f.path), Status: string(e.State),
		}}
		if f.err != nil {
			ep.plan.Status, ep.plan.Reason = StatusDropped, f.err.Error()
			out = append(out, ep)
			continue
		}
		if e.State == evidence.Linked {
			inputs = append(inputs, project.Input{Path: f.sel.Path, CID: f.src.CID})
		}
		ep.plan.CID = project.ContentID(f.text)
		ep.plan.Bytes = len(f.text)
		inputs = append(inputs, project.Input{Path: f.path, CID: ep.plan.CID})
		if f.prov != nil {
			ep.plan.Source, ep.plan.Span, ep.plan.Tags = f.prov.URI, f.prov.Span, f.prov.Tags
		}
		part := pack.Part{
			Key: f.path, Source: "evidence", Type: string(e.Role), Label: f.title, Path: f.path,
			Doc: f.path, Section: i, Priority: -i, CID: ep.plan.CID,
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
		ep.part = &part
		out = append(out, ep)
	}
	return out, inputs
}

// measure is what the part's section takes whole, alone: for a skipped
// file, as it would be shown once on.
func (ep evPart) measure(tok tokenizer.Tokenizer) int {
	b := render.Block{Type: ep.part.Type, Label: ep.part.Label, Path: ep.part.Path, Text: ep.part.Text[pack.Full], Section: ep.part.Heading, CID: ep.part.CID}
	if ep.entry.State == evidence.Skipped {
		b.Path = path.Join(path.Dir(b.Path), evidence.FileName(ep.entry.Rank, ep.entry.Kind, ep.entry.Role, evidence.Active))
	}
	return tok.Count(render.Segment(render.MDCtx, b, render.Block{}))
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
