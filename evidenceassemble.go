package ctxpack

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// EvidencePlanVersion is the version of ctxplan.json's schema.
const EvidencePlanVersion = "1.0"

// EvidenceOrderRule is how parts are ordered: by role (system, user,
// evidence), then rank, then kind.
const EvidenceOrderRule = "role,rank"

// EvidencePlan is build/ctxplan.json: every file of the workspace, what
// became of it, and the totals of prompt.mdctx.
type EvidencePlan struct {
	Version   string         `json:"version"`
	FlowID    string         `json:"flow_id"`
	OrderRule string         `json:"order_rule"`
	Tokenizer string         `json:"tokenizer"`
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
	// CtxDigest identifies the context: the parts in assembly order, each
	// by role, status and the content id of its file. It does not depend on the rank numbers, the file names, the
	// flow id or where the workspace is: a copy, or a rebase that keeps
	// the order, has the same. Digest is sha256 of prompt.mdctx itself.
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
	// FullTokens what its section takes whole, measured alone.
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
func (r *EvidenceResult) PlanJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&r.Plan); err != nil {
		return nil, fmt.Errorf("ctxpack: %w", err)
	}
	return buf.Bytes(), nil
}

// evPart is one workspace file read for assembly.
type evPart struct {
	entry evidence.Entry
	part  *pack.Part // nil when not assembled: skipped, or unreadable
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
	if req.Format != "" && req.Format != string(render.MDCtx) {
		return nil, fmt.Errorf("ctxpack: evidence assembles the mdctx format (got --format %s)", req.Format)
	}
	req.Format = string(render.MDCtx)
	if req.Depth != "" && req.Depth != pack.Meta.String() && req.Depth != "stub" && req.Depth != pack.Full.String() {
		return nil, fmt.Errorf("ctxpack: evidence is shown whole or as a stub: depth must be meta or full (got %q)", req.Depth)
	}
	o, err := p.options(req)
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
	parts, inputs, warns := p.evidenceParts(ws, entries, o.Tokenizer)
	warnings = append(warnings, warns...)
	var assembled []pack.Part
	for _, ep := range parts {
		if ep.part != nil {
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
		Tokenizer: res.Plan.Tokenizer, Budget: res.Plan.Budget, Overflow: res.Plan.Overflow,
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
				}
			} else if d, ok := dropped[ep.part.Key]; ok {
				pp.Status, pp.Reason, pp.NeedBudget = StatusDropped, d.Reason, d.NeedBudget
			}
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

// evidenceParts reads the workspace's files, in order, and makes a part
// of each active and linked one. A file that cannot be read is in the
// plan as dropped, with the reason, and warned about.
func (p *Project) evidenceParts(ws *Workspace, entries []evidence.Entry, tok tokenizer.Tokenizer) ([]evPart, []project.Input, []string) {
	var out []evPart
	var inputs []project.Input
	var warnings []string
	limit := p.maxFileBytes()
	for i, e := range entries {
		shownPath := ws.ShownPath(e)
		ep := evPart{entry: e, plan: EvidencePart{
			Rank: evidence.RankString(e.Rank), Kind: e.Kind, Role: string(e.Role),
			URI: evidence.FileURI(shownPath), Status: string(e.State),
		}}
		var text string
		switch e.State {
		case evidence.Linked:
			sel, err := ws.Link(e)
			if err != nil {
				ep.plan.Status, ep.plan.Reason = StatusDropped, err.Error()
				warnings = append(warnings, err.Error())
				out = append(out, ep)
				continue
			}
			ex, err := p.readSelector(sel)
			if err != nil {
				msg := fmt.Sprintf("%s: %v", shownPath, err)
				ep.plan.Status, ep.plan.Reason = StatusDropped, msg
				warnings = append(warnings, msg)
				out = append(out, ep)
				continue
			}
			warnings = append(warnings, ex.Warnings...)
			text = EvidenceText(e.Role, ex.Provenance(), sel.Path, fenceLang(sel.Path), ex.Text)
			inputs = append(inputs, project.Input{Path: sel.Path, CID: project.ContentID(ex.Text)})
		default:
			data, err := ws.Read(e, limit)
			if err != nil {
				ep.plan.Status, ep.plan.Reason = StatusDropped, err.Error()
				warnings = append(warnings, err.Error())
				out = append(out, ep)
				continue
			}
			text = string(data)
			if !utf8.ValidString(text) {
				text = tokenizer.ToValidUTF8(text)
				warnings = append(warnings, fmt.Sprintf("%s: invalid UTF-8 replaced with U+FFFD", shownPath))
			}
		}
		ep.plan.CID = project.ContentID(text)
		ep.plan.Bytes = len(text)
		inputs = append(inputs, project.Input{Path: shownPath, CID: ep.plan.CID})
		title, body, prov := splitEvidence(e, text, shownPath)
		if prov != nil {
			ep.plan.Source, ep.plan.Span, ep.plan.Tags = prov.URI, prov.Span, prov.Tags
		}
		part := pack.Part{
			Key: shownPath, Source: "evidence", Type: string(e.Role), Label: title, Path: shownPath,
			Doc: shownPath, Section: i, Priority: -i, CID: ep.plan.CID,
			Text: map[pack.Level]string{pack.Full: body},
		}
		switch e.Role {
		case evidence.System:
			part.Heading, part.Pinned = "System", true
		case evidence.User:
			part.Heading, part.Pinned = "User Request", true
		default:
			part.Text[pack.Meta] = "[ctxpack: not shown for the budget; the evidence is " + shownPath + "]\n"
		}
		// A skipped file is measured as it would be shown, once on.
		onPath := path.Join(path.Dir(shownPath), evidence.FileName(e.Rank, e.Kind, e.Role, evidence.Active))
		if e.State != evidence.Skipped {
			onPath = shownPath
		}
		ep.plan.FullTokens = tok.Count(render.Segment(render.MDCtx, render.Block{
			Type: part.Type, Label: title, Path: onPath, Text: body, Section: part.Heading, CID: part.CID,
		}, render.Block{}))
		if e.State == evidence.Skipped {
			out = append(out, ep) // measured, not assembled
			continue
		}
		ep.part = &part
		out = append(out, ep)
	}
	return out, inputs, warnings
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
