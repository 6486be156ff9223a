package evidence

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	workspace "github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
)

// OrderRule is how parts are ordered: by role (system, user, evidence),
// then rank (then kind and path, for equal ranks).
const OrderRule = "role,rank"

// CheckRequest refuses what evidence mode cannot do: a format other than
// mdctx ("" is mdctx), a depth other than meta (or stub) and full ("" is
// full): a workspace file is shown whole or as a stub.
func CheckRequest(format, depth string) error {
	if format != "" && format != string(render.MDCtx) {
		return fmt.Errorf("ctxpack: evidence assembles the mdctx format (got format %s)", format)
	}
	switch depth {
	case "", pack.Meta.String(), "stub", pack.Full.String():
	default:
		return fmt.Errorf("ctxpack: evidence is shown whole or as a stub: depth must be meta or full (got %q)", depth)
	}
	return nil
}

// Collection is a workspace read for assembly: the parts the engine
// assembles, the options only evidence mode knows (Options), and what
// the plan says of every file whatever the engine does with it.
type Collection struct {
	// Entries are the workspace's files, in assembly order.
	Entries []workspace.Entry
	// Parts are the active and linked files that could be read, in
	// order, one part each: system and user files pinned under "System"
	// and "User Request", each evidence file with a stub at meta that
	// names it, prioritised by rank (the highest-ranked is degraded, then
	// dropped, first).
	Parts []pack.Part
	// Workspace is every file for render.CtxPlan, skipped and unreadable
	// ones too, with the flow id and the order rule.
	Workspace render.EvidenceWorkspace
	// StateRoot is the Merkle root over the workspace's files and the
	// project files its links read.
	StateRoot string
	// Warnings are the workspace's (files it ignores, files it cannot
	// read, invalid UTF-8 repaired).
	Warnings []string

	target string // the workspace's path
}

// Collect reads the workspace's files for assembly. flowID names the flow
// in prompt.mdctx's header; "" is the workspace's path. It fails on a flow
// id that would break the header, and when the workspace cannot be
// listed; a file that cannot be read is a warning, and dropped in the
// plan with its reason.
func (e Env) Collect(ctx context.Context, ws *workspace.Workspace, flowID string) (*Collection, error) {
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
	files, warns := e.readWorkspace(ws, entries)
	return newCollection(ws, flowID, entries, files, append(warnings, warns...)), nil
}

// newCollection is the collection of the workspace's files, read.
func newCollection(ws *workspace.Workspace, flowID string, entries []workspace.Entry, files []*wsFile, warnings []string) *Collection {
	parts, plan, inputs := evidenceParts(files)
	return &Collection{
		Entries: entries, Parts: parts,
		Workspace: render.EvidenceWorkspace{FlowID: flowID, OrderRule: OrderRule, Files: plan},
		StateRoot: project.StateRoot(inputs), Warnings: warnings,
		target: ws.Shown,
	}
}

// Options sets on o what evidence mode asks of the engine: the mdctx
// format with the flow in its header; parts rendered by section (system,
// user, evidence, each in rank order); no deduplication and no item cap or
// bucket policy, since every file was chosen by hand and its rank is its
// priority; no recency; the collection's state root; its warnings after
// o's.
func (c *Collection) Options(o *pack.Options) {
	o.Mode, o.Target = "evidence", c.target
	o.Format = render.MDCtx
	o.DedupThreshold = -1 // every file was chosen by hand
	o.MaxChunksPerDoc = 0
	o.Policy = pack.Policy{}
	o.Sectioned = true
	o.PreferRecent = false
	o.StateRoot = c.StateRoot
	o.Metadata = "flow_id=" + c.Workspace.FlowID + "; assembly=" + OrderRule
	o.Warnings = append(o.Warnings, c.Warnings...)
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
		pf := render.EvidenceFile{Part: render.EvidencePart{
			Rank: workspace.RankString(e.Rank), Kind: e.Kind, Role: string(e.Role),
			URI: workspace.FileURI(f.path), Status: string(e.State),
		}}
		if f.err != nil {
			pf.Part.Status, pf.Part.Reason = render.StatusDropped, f.err.Error()
			plan = append(plan, pf)
			continue
		}
		if e.State == workspace.Linked {
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
		case workspace.System:
			part.Heading, part.Pinned = "System", true
		case workspace.User:
			part.Heading, part.Pinned = "User Request", true
		default:
			part.Text[pack.Meta] = "[ctxpack: not shown for the budget; the evidence is " + f.path + "]\n"
			part.SelfNoted = true
		}
		// Its section whole, alone: for a skipped file, as it would be
		// shown once on.
		whole := render.Block{Type: part.Type, Label: part.Label, Path: part.Path, Text: f.body, Section: part.Heading, CID: part.CID}
		if e.State == workspace.Skipped {
			whole.Path = path.Join(path.Dir(whole.Path), workspace.FileName(e.Rank, e.Kind, e.Role, workspace.Active))
		} else {
			pf.Key = part.Key
			parts = append(parts, part)
		}
		pf.Whole = &whole
		plan = append(plan, pf)
	}
	return parts, plan, inputs
}

// Result is an assembled workspace.
type Result struct {
	Plan    render.EvidencePlan
	Prompt  []byte // build/prompt.mdctx
	Entries []workspace.Entry
}

// PlanJSON is the plan as ctxplan.json holds it: indented, ending in a
// newline, in a fixed field order.
func (r *Result) PlanJSON() ([]byte, error) { return render.EncodeEvidencePlan(&r.Plan) }

// WriteBuild writes the result's prompt.mdctx and ctxplan.json into dir (a
// slash path relative to the root; "" is BuildDir), each atomically, with
// a .ctxpackignore that keeps them out of the index, and returns their
// paths as slash paths relative to the root.
func (e Env) WriteBuild(ws *workspace.Workspace, res *Result, dir string) (prompt, plan string, err error) {
	if dir == "" {
		dir = BuildDir(ws)
	}
	rel, err := project.Resolve(e.Root, e.Root, filepath.FromSlash(dir))
	if err != nil {
		return "", "", fmt.Errorf("ctxpack: build folder: %w", err)
	}
	abs := filepath.Join(e.Root, filepath.FromSlash(rel))
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return "", "", fmt.Errorf("ctxpack: %w", err)
	}
	if err := workspace.KeepOutOfIndex(abs, workspace.BuildPatterns); err != nil {
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
