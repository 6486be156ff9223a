package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The evidence workspace's tools: a ctx/ folder of ranked role files that
// the CLI's `ctxpack evidence` commands manage, assembled into
// build/prompt.mdctx and build/ctxplan.json. Every folder a request names
// (the workspace, the build folder) and every selector goes through the
// facade, which confines it to the project root.

// WorkspaceIn names the workspace of an evidence tool.
type WorkspaceIn struct {
	Ctx string `json:"ctx,omitempty" jsonschema:"the workspace folder, relative to the project root; absent: ctx"`
}

// evidenceAssembly are the arguments of the tools that assemble a
// workspace.
type evidenceAssembly struct {
	WorkspaceIn
	Budget    int    `json:"budget,omitempty" jsonschema:"tokens prompt.mdctx may use; 0 or absent: the configured budget (8000 by default)"`
	Window    int    `json:"window,omitempty" jsonschema:"a model's context window, instead of budget: the budget is the window less the configured reserves"`
	Tokenizer string `json:"tokenizer,omitempty" jsonschema:"the tokenizer that counts the budget: o200k_base (the default), cl100k_base or approx"`
	Overflow  string `json:"overflow,omitempty" jsonschema:"what happens to evidence that does not fit: degrade (the highest-ranked evidence is shown as a stub, then dropped; the default), drop, truncate, error or allow; system and user files are never dropped"`
	Depth     string `json:"depth,omitempty" jsonschema:"the highest level shown: meta (stubs only) or full (the default)"`
	FlowID    string `json:"flow_id,omitempty" jsonschema:"the flow's name in prompt.mdctx's header; absent: the workspace's path"`
}

// EvidencePlanIn are the arguments of the evidence_plan tool.
type EvidencePlanIn struct {
	evidenceAssembly
	IncludePrompt bool `json:"include_prompt,omitempty" jsonschema:"give prompt.mdctx as the text content (the structured result is the plan either way)"`
}

// EvidenceAssembleIn are the arguments of the evidence_assemble tool.
type EvidenceAssembleIn struct {
	evidenceAssembly
	Out string `json:"out,omitempty" jsonschema:"the folder to write prompt.mdctx and ctxplan.json into, relative to the project root; absent: build/ beside the workspace"`
}

// EvidenceAddIn are the arguments of the evidence_add tool.
type EvidenceAddIn struct {
	WorkspaceIn
	Selector string `json:"selector" jsonschema:"what to add: path[::range][#tags] relative to the project root (src/app.py, src/app.py::10,40 for lines 10 to 40, src/app.py::10 for line 10 to the end, src/app.py::100c,500c for bytes, src/app.py::10,40#bug,parser with tags), or - to add text"`
	Text     string `json:"text,omitempty" jsonschema:"the text to add when selector is -: a request, a policy, a note"`
	Role     string `json:"role,omitempty" jsonschema:"system (constraints, policies), user (the request) or evidence (the default)"`
	Rank     *int   `json:"rank,omitempty" jsonschema:"the file's rank, 0 to 999: lower is assembled earlier and kept longer; absent: ten past the highest rank of its role's band (000-099 for system and user, 100-999 for evidence)"`
	Kind     string `json:"kind,omitempty" jsonschema:"the file's kind, in its name: 1 to 64 of A-Z a-z 0-9 _ -; absent: from the file's name (app.py gives app_py), or request, policy or note for text"`
	Link     bool   `json:"link,omitempty" jsonschema:"write a .link file holding the selector instead: read afresh at each assembly, always active, never stale"`
}

// EvidenceToggleIn are the arguments of the evidence_toggle tool.
type EvidenceToggleIn struct {
	WorkspaceIn
	ID    string `json:"id,omitempty" jsonschema:"one file: its name, its id (100_app_py) or a rank that one file has"`
	Range string `json:"range,omitempty" jsonschema:"every file ranked in a range, such as 300-399; needs state"`
	State string `json:"state,omitempty" jsonschema:"on or off; absent: flip the one file id names"`
}

// EvidenceRankIn are the arguments of the evidence_rank tool.
type EvidenceRankIn struct {
	WorkspaceIn
	ID   string `json:"id" jsonschema:"the file: its name, its id (100_app_py) or a rank that one file has"`
	Rank int    `json:"rank" jsonschema:"its new rank, 0 to 999, which no other file may have"`
}

// EvidenceRemoveIn are the arguments of the evidence_remove tool.
type EvidenceRemoveIn struct {
	WorkspaceIn
	IDs []string `json:"ids" jsonschema:"the files to delete: names, ids (100_app_py) or ranks that one file has; all are found before any is deleted"`
}

// EvidenceFocusIn are the arguments of the evidence_focus tool.
type EvidenceFocusIn struct {
	WorkspaceIn
	Query string `json:"query,omitempty" jsonschema:"the work at hand, as free text: evidence no top hit of it overlaps is turned off"`
	Off   bool   `json:"off,omitempty" jsonschema:"turn the last focus off instead: the files it turned off are turned back on"`
	Top   int    `json:"top,omitempty" jsonschema:"how many of the query's best hits count (1 to 100; default 20)"`
}

// EvidenceDepsIn are the arguments of the evidence_deps tool.
type EvidenceDepsIn struct {
	WorkspaceIn
	ID string `json:"id" jsonschema:"the file: its name, its id (100_app_py) or a rank that one file has"`
}

// EvidenceEntry is a workspace file as the evidence tools report it (the
// CLI's json shows the same).
type EvidenceEntry = app.EvidenceEntry

// EvidenceLeft is a file a tool left as it was, and why.
type EvidenceLeft struct {
	EvidenceEntry
	Why string `json:"why"`
}

// EvidenceMoved is a file renamed to another rank: where it was, and it
// as it is now.
type EvidenceMoved struct {
	From string `json:"from" jsonschema:"its path before"`
	EvidenceEntry
}

// EvidenceAddOut is the result of the evidence_add tool: the file added,
// what it costs, and the whole context's size with every active file.
type EvidenceAddOut struct {
	EvidenceEntry
	Bytes       int      `json:"bytes" jsonschema:"the file's size"`
	Tokens      int      `json:"tokens" jsonschema:"what its section takes in prompt.mdctx"`
	TotalBytes  int      `json:"total_bytes" jsonschema:"prompt.mdctx's size with every active file"`
	TotalTokens int      `json:"total_tokens" jsonschema:"prompt.mdctx's tokens with every active file"`
	Budget      int      `json:"budget" jsonschema:"the configured budget"`
	Warnings    []string `json:"warnings"`
}

// EvidenceToggleOut is the result of the evidence_toggle tool.
type EvidenceToggleOut struct {
	Changed  []EvidenceEntry `json:"changed" jsonschema:"the files turned on or off, as they are now"`
	Left     []EvidenceLeft  `json:"left" jsonschema:"the files of the range left as they were: links, and files already so"`
	Warnings []string        `json:"warnings"`
}

// EvidenceRankOut is the result of the evidence_rank tool.
type EvidenceRankOut struct {
	EvidenceMoved
	Warnings []string `json:"warnings"`
}

// EvidenceRebaseOut is the result of the evidence_rebase tool.
type EvidenceRebaseOut struct {
	Renamed  []EvidenceMoved `json:"renamed" jsonschema:"the files renumbered; none when the ranks were so already"`
	Warnings []string        `json:"warnings"`
}

// EvidenceRemoveOut is the result of the evidence_remove tool.
type EvidenceRemoveOut struct {
	Removed  []EvidenceEntry `json:"removed" jsonschema:"the files deleted, as they were"`
	Warnings []string        `json:"warnings"`
}

// The results of evidence_focus, evidence_stale and evidence_deps are the
// facade's, which the CLI's json shows too.
type (
	EvidenceFocusOut = app.FocusReport
	EvidenceStaleOut = app.StaleReport
	EvidenceDepsOut  = app.Deps
)

// EvidenceAssembleOut is the result of the evidence_assemble tool.
type EvidenceAssembleOut struct {
	Prompt   string           `json:"prompt" jsonschema:"prompt.mdctx, relative to the project root"`
	PlanFile string           `json:"plan_file" jsonschema:"ctxplan.json, relative to the project root"`
	Plan     app.EvidencePlan `json:"plan" jsonschema:"what ctxplan.json holds"`
}

// addEvidenceReadTools adds the tools that read a workspace.
func (s *Server) addEvidenceReadTools(read *mcp.ToolAnnotations) {
	addTool(s, "evidence_plan", "Assemble the evidence workspace (ctx/: hand-picked, ranked system, user and evidence files) without writing anything; the structured result is the plan, ctxplan.json: every file with rank, role, content id, bytes, tokens, status (active, linked, skipped, degraded, truncated, dropped) and why, the totals and ctx_digest; include_prompt gives prompt.mdctx as the text", read, s.evidencePlan, s.evidenceArgs)
	addTool(s, "evidence_stale", "List the workspace's evidence whose source changed since it was added, by the content id of the span it selected", read, s.evidenceStale, s.evidenceArgs)
	addTool(s, "evidence_deps", "Show what references what between one workspace file and the others, from the repository index: the names its span defines and who uses them, the names it uses and which files, in the workspace or not, define them", read, s.evidenceDeps, s.evidenceArgs)
}

// addEvidenceWriteTools adds the tools that change a workspace or write
// its assembly.
func (s *Server) addEvidenceWriteTools() {
	add := &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(false), IdempotentHint: false, OpenWorldHint: ptr(false)}
	set := &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)}
	rm := &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)}
	addTool(s, "evidence_add", "Write: add to the evidence workspace (creating it) a project file, a span of its lines or bytes (path::10,40#tags), or text (selector -), as a ranked file with its provenance; gives the file's tokens and the whole context's total against the budget", add, s.evidenceAdd, s.evidenceArgs)
	addTool(s, "evidence_toggle", "Write: turn workspace files on or off (name.md and name.md.skip): one file by id, or every file ranked in a range (300-399) with state; links are always on", add, s.evidenceToggle, s.evidenceArgs)
	addTool(s, "evidence_rank", "Write: give a workspace file another rank (lower is assembled earlier and kept longer under a tight budget)", set, s.evidenceRank, s.evidenceArgs)
	addTool(s, "evidence_rebase", "Write: renumber the workspace's files ten apart (000, 010… and 100, 110…), keeping their order", set, s.evidenceRebase, s.evidenceArgs)
	addTool(s, "evidence_remove", "Write: delete workspace files", rm, s.evidenceRemove, s.evidenceArgs)
	addTool(s, "evidence_focus", "Write: turn off the workspace's evidence that no top hit of a query (through the repository index) overlaps, recording what it turned off; off turns those back on", set, s.evidenceFocus, s.evidenceArgs)
	addTool(s, "evidence_assemble", "Write: assemble the workspace, fitted to the budget, into build/prompt.mdctx (# System, # User Request, ## Evidence: path sections with provenance) and build/ctxplan.json beside it; the structured result is the two paths and the plan", set, s.evidenceAssemble, s.evidenceArgs)
}

// evidenceArgs are the bounds of the evidence tools' arguments.
func (s *Server) evidenceArgs(name string, p *jsonschema.Schema) bool {
	switch name {
	case "rank":
		p.Minimum, p.Maximum = ptr(0.0), ptr(float64(app.MaxEvidenceRank))
	case "role":
		p.Enum = enum(app.EvidenceRoles())
	case "kind":
		p.Pattern = `^[A-Za-z0-9_-]{1,64}$`
	case "state":
		p.Enum = enum([]string{"on", "off"})
	case "range":
		p.Pattern = `^[0-9]{1,3}-[0-9]{1,3}$`
	case "ids":
		p.MinItems, p.MaxItems = ptr(1), ptr(maxPaths)
		p.Items.MinLength = ptr(1)
	case "depth":
		p.Enum = enum([]string{"meta", "full"})
	case "top":
		p.Minimum, p.Maximum = ptr(1.0), ptr(float64(maxK))
	case "window":
		p.Minimum, p.Maximum = ptr(0.0), ptr(float64(s.o.MaxBudget))
	case "selector":
		p.MinLength = ptr(1)
	default:
		return false
	}
	return true
}

// workspace opens the project and the workspace dir names for one
// request; exists requires the workspace to be there. The facade refuses
// a folder outside the project root, and a workspace whose evidence
// folder or .focus file is a symlink; the server also refuses an absolute
// path.
func (s *Server) workspace(dir string, exists bool) (*app.Project, *app.Workspace, error) {
	if err := confine(dir); err != nil {
		return nil, nil, err
	}
	p, err := s.open()
	if err != nil {
		return nil, nil, err
	}
	ws, err := p.Workspace(dir)
	if err != nil {
		return nil, nil, s.evidenceError(err)
	}
	if exists && !ws.Exists() {
		return nil, nil, fmt.Errorf("ctxpack: %s: no such workspace (evidence_add creates it; ctx names another)", ws.Shown)
	}
	return p, ws, nil
}

// evidenceRequest is the facade's request for an assembly's arguments, in
// the server's mode.
func (s *Server) evidenceRequest(a evidenceAssembly) app.Request {
	return app.Request{
		Budget: a.Budget, Window: a.Window, Tokenizer: a.Tokenizer, Overflow: a.Overflow, Depth: a.Depth,
		NoCache: s.o.ReadOnly,
		Index:   app.IndexOptions{NoUpdate: s.o.ReadOnly},
	}
}

// evidenceError is an error of the evidence workspace as a tool error,
// with the tools' advice where the workspace's errors leave it to the
// front end.
func (s *Server) evidenceError(err error) error {
	msg := strings.ReplaceAll(s.fail(err).Error(), ": project: ", ": ")
	var taken *app.RankTakenError
	var link *app.LinkActiveError
	switch {
	case errors.As(err, &taken):
		msg += " (give another rank, or call evidence_rebase)"
	case errors.As(err, &link):
		msg += " (evidence_remove with ids [" + link.ID + "] takes it out)"
	}
	return errors.New(msg)
}

// assembleEvidence assembles the workspace under the arguments.
func (s *Server) assembleEvidence(ctx context.Context, a evidenceAssembly) (*app.Project, *app.Workspace, *app.EvidenceResult, error) {
	p, ws, err := s.workspace(a.Ctx, true)
	if err != nil {
		return nil, nil, nil, err
	}
	res, err := p.AssembleEvidence(ctx, ws, s.evidenceRequest(a), a.FlowID)
	if err != nil {
		return nil, nil, nil, s.evidenceError(err)
	}
	return p, ws, res, nil
}

func (s *Server) evidencePlan(ctx context.Context, _ *mcp.CallToolRequest, in EvidencePlanIn) (*mcp.CallToolResult, app.EvidencePlan, error) {
	s.evidence.RLock()
	defer s.evidence.RUnlock()
	_, _, res, err := s.assembleEvidence(ctx, in.evidenceAssembly)
	if err != nil {
		return nil, app.EvidencePlan{}, err
	}
	if in.IncludePrompt {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(res.Prompt)}}}, res.Plan, nil
	}
	return nil, res.Plan, nil
}

func (s *Server) evidenceAssemble(ctx context.Context, _ *mcp.CallToolRequest, in EvidenceAssembleIn) (*mcp.CallToolResult, EvidenceAssembleOut, error) {
	if in.Out != "" {
		if err := confine(in.Out); err != nil {
			return nil, EvidenceAssembleOut{}, err
		}
	}
	s.evidence.Lock()
	defer s.evidence.Unlock()
	p, ws, res, err := s.assembleEvidence(ctx, in.evidenceAssembly)
	if err != nil {
		return nil, EvidenceAssembleOut{}, err
	}
	prompt, plan, err := p.WriteEvidence(ws, res, in.Out)
	if err != nil {
		return nil, EvidenceAssembleOut{}, s.evidenceError(err)
	}
	return nil, EvidenceAssembleOut{Prompt: prompt, PlanFile: plan, Plan: res.Plan}, nil
}

func (s *Server) evidenceStale(_ context.Context, _ *mcp.CallToolRequest, in WorkspaceIn) (*mcp.CallToolResult, EvidenceStaleOut, error) {
	s.evidence.RLock()
	defer s.evidence.RUnlock()
	p, ws, err := s.workspace(in.Ctx, true)
	if err != nil {
		return nil, EvidenceStaleOut{}, err
	}
	rep, err := p.StaleEvidence(ws)
	if err != nil {
		return nil, EvidenceStaleOut{}, s.evidenceError(err)
	}
	rep.Warnings = orEmpty(rep.Warnings)
	return nil, *rep, nil
}

func (s *Server) evidenceDeps(ctx context.Context, _ *mcp.CallToolRequest, in EvidenceDepsIn) (*mcp.CallToolResult, EvidenceDepsOut, error) {
	s.evidence.RLock()
	defer s.evidence.RUnlock()
	p, ws, err := s.workspace(in.Ctx, true)
	if err != nil {
		return nil, EvidenceDepsOut{}, err
	}
	d, err := p.EvidenceDeps(ctx, ws, in.ID, app.IndexOptions{NoUpdate: s.o.ReadOnly})
	if err != nil {
		return nil, EvidenceDepsOut{}, s.evidenceError(err)
	}
	d.Warnings = orEmpty(d.Warnings)
	return nil, *d, nil
}

func (s *Server) evidenceAdd(ctx context.Context, _ *mcp.CallToolRequest, in EvidenceAddIn) (*mcp.CallToolResult, EvidenceAddOut, error) {
	if in.Selector != "-" {
		if in.Text != "" {
			return nil, EvidenceAddOut{}, fmt.Errorf(`ctxpack: text is added with selector "-"; a selector names a project file`)
		}
		if err := app.CheckSelector(in.Selector); err != nil {
			return nil, EvidenceAddOut{}, s.evidenceError(err)
		}
	}
	ar := app.AddRequest{Selector: in.Selector, Text: in.Text, Role: in.Role, Rank: -1, Kind: in.Kind, Link: in.Link}
	if in.Rank != nil {
		ar.Rank = *in.Rank // the schema bounds it
	}
	s.evidence.Lock()
	defer s.evidence.Unlock()
	p, ws, err := s.workspace(in.Ctx, false)
	if err != nil {
		return nil, EvidenceAddOut{}, err
	}
	a, err := p.AddEvidence(ctx, ws, ar, app.Request{})
	if err != nil {
		return nil, EvidenceAddOut{}, s.evidenceError(err)
	}
	plan := a.Total.Plan
	warnings := orEmpty(a.Warnings)
	if plan.TotalTokens > plan.Budget {
		warnings = append(warnings, fmt.Sprintf("the active files take %d tokens, over the budget of %d: evidence_assemble will degrade or drop the highest-ranked evidence (evidence_plan shows what)", plan.TotalTokens, plan.Budget))
	}
	return nil, EvidenceAddOut{
		EvidenceEntry: app.ViewEntry(ws, a.Entry), Bytes: a.Bytes, Tokens: a.Tokens,
		TotalBytes: plan.TotalBytes, TotalTokens: plan.TotalTokens, Budget: plan.Budget, Warnings: warnings,
	}, nil
}

func (s *Server) evidenceToggle(_ context.Context, _ *mcp.CallToolRequest, in EvidenceToggleIn) (*mcp.CallToolResult, EvidenceToggleOut, error) {
	target := in.ID
	switch {
	case (in.ID == "") == (in.Range == ""):
		return nil, EvidenceToggleOut{}, fmt.Errorf("ctxpack: give id (one file) or range (300-399), one of the two")
	case in.Range != "":
		if err := app.CheckRankRange(in.Range); err != nil {
			return nil, EvidenceToggleOut{}, err
		}
		if in.State == "" {
			return nil, EvidenceToggleOut{}, fmt.Errorf("ctxpack: a range needs state on or off")
		}
		target = in.Range
	}
	s.evidence.Lock()
	defer s.evidence.Unlock()
	p, ws, err := s.workspace(in.Ctx, true)
	if err != nil {
		return nil, EvidenceToggleOut{}, err
	}
	toggled, warnings, err := p.ToggleEvidence(ws, target, in.State)
	if err != nil {
		return nil, EvidenceToggleOut{}, s.evidenceError(err)
	}
	out := EvidenceToggleOut{Changed: []EvidenceEntry{}, Left: []EvidenceLeft{}, Warnings: orEmpty(warnings)}
	for _, t := range toggled {
		if t.Note != "" {
			out.Left = append(out.Left, EvidenceLeft{t.Entry, t.Note})
		} else {
			out.Changed = append(out.Changed, t.Entry)
		}
	}
	return nil, out, nil
}

func (s *Server) evidenceRank(_ context.Context, _ *mcp.CallToolRequest, in EvidenceRankIn) (*mcp.CallToolResult, EvidenceRankOut, error) {
	s.evidence.Lock()
	defer s.evidence.Unlock()
	p, ws, err := s.workspace(in.Ctx, true)
	if err != nil {
		return nil, EvidenceRankOut{}, err
	}
	r, warnings, err := p.RankEvidence(ws, in.ID, in.Rank)
	if err != nil {
		return nil, EvidenceRankOut{}, s.evidenceError(err)
	}
	return nil, EvidenceRankOut{EvidenceMoved{r.From.Path, r.Entry}, orEmpty(warnings)}, nil
}

func (s *Server) evidenceRebase(_ context.Context, _ *mcp.CallToolRequest, in WorkspaceIn) (*mcp.CallToolResult, EvidenceRebaseOut, error) {
	s.evidence.Lock()
	defer s.evidence.Unlock()
	p, ws, err := s.workspace(in.Ctx, true)
	if err != nil {
		return nil, EvidenceRebaseOut{}, err
	}
	renamed, warnings, err := p.RebaseEvidence(ws)
	if err != nil {
		return nil, EvidenceRebaseOut{}, s.evidenceError(err)
	}
	out := EvidenceRebaseOut{Renamed: []EvidenceMoved{}, Warnings: orEmpty(warnings)}
	for _, r := range renamed {
		out.Renamed = append(out.Renamed, EvidenceMoved{r.From.Path, r.Entry})
	}
	return nil, out, nil
}

func (s *Server) evidenceRemove(_ context.Context, _ *mcp.CallToolRequest, in EvidenceRemoveIn) (*mcp.CallToolResult, EvidenceRemoveOut, error) {
	s.evidence.Lock()
	defer s.evidence.Unlock()
	p, ws, err := s.workspace(in.Ctx, true)
	if err != nil {
		return nil, EvidenceRemoveOut{}, err
	}
	removed, warnings, err := p.RemoveEvidence(ws, in.IDs)
	out := EvidenceRemoveOut{Removed: append([]EvidenceEntry{}, removed...), Warnings: orEmpty(warnings)}
	if err != nil {
		return nil, out, s.evidenceError(err)
	}
	return nil, out, nil
}

func (s *Server) evidenceFocus(ctx context.Context, _ *mcp.CallToolRequest, in EvidenceFocusIn) (*mcp.CallToolResult, EvidenceFocusOut, error) {
	switch {
	case in.Off && in.Query != "":
		return nil, EvidenceFocusOut{}, fmt.Errorf("ctxpack: give query (focus on it) or off (turn the focus off), not both")
	case !in.Off && strings.TrimSpace(in.Query) == "":
		return nil, EvidenceFocusOut{}, fmt.Errorf("ctxpack: query is empty: give the work at hand, or off to turn the focus off")
	}
	s.evidence.Lock()
	defer s.evidence.Unlock()
	p, ws, err := s.workspace(in.Ctx, true)
	if err != nil {
		return nil, EvidenceFocusOut{}, err
	}
	if in.Off {
		on, warnings, err := p.FocusOff(ws)
		if err != nil {
			return nil, EvidenceFocusOut{}, s.evidenceError(err)
		}
		return nil, EvidenceFocusOut{Files: []app.FocusEntry{}, Restored: orEmpty(on), Warnings: orEmpty(warnings)}, nil
	}
	rep, err := p.FocusEvidence(ctx, ws, in.Query, in.Top, app.IndexOptions{NoUpdate: s.o.ReadOnly})
	if err != nil {
		return nil, EvidenceFocusOut{}, s.evidenceError(err)
	}
	rep.Restored, rep.Warnings = orEmpty(rep.Restored), orEmpty(rep.Warnings)
	return nil, *rep, nil
}
