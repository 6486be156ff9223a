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

// EvidenceIn are the arguments of the evidence tool: those of each of its
// actions.
type EvidenceIn struct {
	Action string `json:"action"`
	ID     string `json:"id,omitempty" jsonschema:"a file's name, id (100_app_py) or rank"`
	evidenceAssembly
	IncludePrompt bool     `json:"include_prompt,omitempty" jsonschema:"give prompt.mdctx as the text"`
	Question      string   `json:"question,omitempty"`
	Sections      []string `json:"sections,omitempty" jsonschema:"default: the question's words choose"`
	Top           int      `json:"top,omitempty"`
}

// EvidenceEditIn are the arguments of the evidence_edit tool: those of
// each of its actions.
type EvidenceEditIn struct {
	Action   string   `json:"action"`
	Selector string   `json:"selector,omitempty" jsonschema:"path, path::10,40 (lines), path::10 (to the end), path::100c,500c (bytes), each with #tag,tag if wanted; - adds text"`
	Text     string   `json:"text,omitempty" jsonschema:"the text selector - adds"`
	Role     string   `json:"role,omitempty" jsonschema:"default evidence"`
	Rank     *int     `json:"rank,omitempty" jsonschema:"lower is assembled earlier and kept longer; add's default: ten past its role's highest (system and user 0-99, evidence 100-999)"`
	Kind     string   `json:"kind,omitempty" jsonschema:"in the file's name (default from the path: app_py)"`
	Link     bool     `json:"link,omitempty" jsonschema:"write a .link file, read afresh at each assembly"`
	ID       string   `json:"id,omitempty" jsonschema:"a file's name, id (100_app_py) or rank"`
	Range    string   `json:"range,omitempty" jsonschema:"the files ranked in it"`
	State    string   `json:"state,omitempty" jsonschema:"absent: flip id"`
	IDs      []string `json:"ids,omitempty" jsonschema:"names, ids or ranks; all found before any is deleted"`
	Query    string   `json:"query,omitempty" jsonschema:"the work at hand"`
	Top      int      `json:"top,omitempty" jsonschema:"the query's best hits that count (default 20)"`
	Off      bool     `json:"off,omitempty" jsonschema:"turn the last focus off"`
	evidenceAssembly
	Out string `json:"out,omitempty" jsonschema:"the folder written (default build/ beside the workspace)"`
}

// WorkspaceIn names the workspace of an evidence action.
type WorkspaceIn struct {
	Ctx string `json:"ctx,omitempty" jsonschema:"the workspace folder (default ctx)"`
}

// evidenceAssembly are the arguments of the actions that assemble a
// workspace.
type evidenceAssembly struct {
	WorkspaceIn
	Budget    int    `json:"budget,omitempty" jsonschema:"tokens prompt.mdctx may use; absent: the CLI's default"`
	Window    int    `json:"window,omitempty" jsonschema:"instead of budget: a context window, less the configured reserves"`
	Tokenizer string `json:"tokenizer,omitempty"`
	Overflow  string `json:"overflow,omitempty" jsonschema:"for evidence that does not fit (default degrade: a stub, then dropped)"`
	Depth     string `json:"depth,omitempty" jsonschema:"meta: stubs only"`
	FlowID    string `json:"flow_id,omitempty" jsonschema:"the flow's name in prompt.mdctx (default the workspace's path)"`
}

// EvidencePlanIn are the arguments of evidence plan.
type EvidencePlanIn struct {
	evidenceAssembly
	IncludePrompt bool `json:"include_prompt,omitempty"`
}

// EvidenceAssembleIn are the arguments of evidence_edit assemble.
type EvidenceAssembleIn struct {
	evidenceAssembly
	Out string `json:"out,omitempty"`
}

// EvidenceAddIn are the arguments of evidence_edit add.
type EvidenceAddIn struct {
	WorkspaceIn
	Selector string `json:"selector"`
	Text     string `json:"text,omitempty"`
	Role     string `json:"role,omitempty"`
	Rank     *int   `json:"rank,omitempty"`
	Kind     string `json:"kind,omitempty"`
	Link     bool   `json:"link,omitempty"`
}

// EvidenceToggleIn are the arguments of evidence_edit toggle.
type EvidenceToggleIn struct {
	WorkspaceIn
	ID    string `json:"id,omitempty"`
	Range string `json:"range,omitempty"`
	State string `json:"state,omitempty"`
}

// EvidenceRankIn are the arguments of evidence_edit rank.
type EvidenceRankIn struct {
	WorkspaceIn
	ID   string `json:"id"`
	Rank *int   `json:"rank"`
}

// EvidenceRemoveIn are the arguments of evidence_edit remove.
type EvidenceRemoveIn struct {
	WorkspaceIn
	IDs []string `json:"ids"`
}

// EvidenceFocusIn are the arguments of evidence_edit focus.
type EvidenceFocusIn struct {
	WorkspaceIn
	Query string `json:"query,omitempty"`
	Off   bool   `json:"off,omitempty"`
	Top   int    `json:"top,omitempty"`
}

// EvidenceAskIn are the arguments of evidence ask.
type EvidenceAskIn struct {
	WorkspaceIn
	Question  string   `json:"question"`
	Sections  []string `json:"sections,omitempty"`
	Top       int      `json:"top,omitempty"`
	Budget    int      `json:"budget,omitempty"`
	Window    int      `json:"window,omitempty"`
	Tokenizer string   `json:"tokenizer,omitempty"`
}

// EvidenceDepsIn are the arguments of evidence deps.
type EvidenceDepsIn struct {
	WorkspaceIn
	ID string `json:"id"`
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

// EvidenceAddOut is the result of evidence_edit add: the file added,
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

// EvidenceToggleOut is the result of evidence_edit toggle.
type EvidenceToggleOut struct {
	Changed  []EvidenceEntry `json:"changed" jsonschema:"the files turned on or off, as they are now"`
	Left     []EvidenceLeft  `json:"left" jsonschema:"the files of the range left as they were: links, and files already so"`
	Warnings []string        `json:"warnings"`
}

// EvidenceRankOut is the result of evidence_edit rank.
type EvidenceRankOut struct {
	EvidenceMoved
	Warnings []string `json:"warnings"`
}

// EvidenceRebaseOut is the result of evidence_edit rebase.
type EvidenceRebaseOut struct {
	Renamed  []EvidenceMoved `json:"renamed" jsonschema:"the files renumbered; none when the ranks were so already"`
	Warnings []string        `json:"warnings"`
}

// EvidenceRemoveOut is the result of evidence_edit remove.
type EvidenceRemoveOut struct {
	Removed  []EvidenceEntry `json:"removed" jsonschema:"the files deleted, as they were"`
	Warnings []string        `json:"warnings"`
}

// The results of evidence_edit focus, evidence stale and evidence deps are the
// facade's, which the CLI's json shows too.
type (
	EvidenceFocusOut = app.FocusReport
	EvidenceStaleOut = app.StaleReport
	EvidenceDepsOut  = app.Deps
	EvidenceAskOut   = app.AskReport
)

// EvidenceAssembleOut is the result of evidence_edit assemble.
type EvidenceAssembleOut struct {
	Prompt   string           `json:"prompt" jsonschema:"prompt.mdctx, relative to the project root"`
	PlanFile string           `json:"plan_file" jsonschema:"ctxplan.json, relative to the project root"`
	Plan     app.EvidencePlan `json:"plan" jsonschema:"what ctxplan.json holds"`
}

// addEvidenceReadTools adds the evidence tool, which reads a workspace.
func (s *Server) addEvidenceReadTools() {
	addActions[EvidenceIn](s, "evidence", "Read the evidence workspace ctx/: hand-picked, ranked system, user and evidence files (ctx names another folder). action: plan [budget | window, tokenizer, overflow, depth, flow_id, include_prompt]: what assembling it gives, writing nothing; the structured result is ctxplan.json: each file with rank, role, tokens, status and why, the totals and ctx_digest. stale: the evidence whose source changed since it was added. deps id: what references what between that file and the others. ask question [sections, top, budget…]: which evidence covers it, what the index ranks high that none holds (gaps, with tokens), what is redundant; each with why.", readTool,
		newActions("evidence").add("plan", op(s.evidencePlan)).add("stale", op(s.evidenceStale)).add("deps", op(s.evidenceDeps)).add("ask", op(s.evidenceAsk)), s.evidenceArgs)
}

// addEvidenceWriteTools adds the evidence_edit tool, which changes a
// workspace or writes its assembly.
func (s *Server) addEvidenceWriteTools() {
	addActions[EvidenceEditIn](s, "evidence_edit", "Write: edit the evidence workspace ctx/ (ctx names another; created by the first add). action: add selector [text, role, rank, kind, link]: a project file, a span of it or text, with its provenance; gives its tokens and the total against the budget. toggle id | range with state: turn files on or off. rank id rank. rebase: renumber ten apart, keeping the order. remove ids. focus query [top] | off: turn off the evidence no top hit of query overlaps. assemble [out, budget…]: write build/prompt.mdctx and build/ctxplan.json.", editTool,
		newActions("evidence_edit").add("add", op(s.evidenceAdd)).add("toggle", op(s.evidenceToggle)).add("rank", op(s.evidenceRank)).
			add("rebase", op(s.evidenceRebase)).add("remove", op(s.evidenceRemove)).add("focus", op(s.evidenceFocus)).add("assemble", op(s.evidenceAssemble)),
		s.evidenceArgs)
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
	case "selector", "question":
		p.MinLength = ptr(1)
	case "sections":
		p.Items.Enum = enum(app.AskSections())
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
		return nil, nil, fmt.Errorf("ctxpack: %s: no such workspace (evidence_edit add creates it; ctx names another)", ws.Shown)
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
		msg += " (give another rank, or call evidence_edit rebase)"
	case errors.As(err, &link):
		msg += " (evidence_edit remove with ids [" + link.ID + "] takes it out)"
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
	if in.ID == "" {
		return nil, EvidenceDepsOut{}, fmt.Errorf("ctxpack: evidence deps needs id: a file's name, id (100_app_py) or rank")
	}
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

func (s *Server) evidenceAsk(ctx context.Context, _ *mcp.CallToolRequest, in EvidenceAskIn) (*mcp.CallToolResult, EvidenceAskOut, error) {
	s.evidence.RLock()
	defer s.evidence.RUnlock()
	p, ws, err := s.workspace(in.Ctx, true)
	if err != nil {
		return nil, EvidenceAskOut{}, err
	}
	req := s.evidenceRequest(evidenceAssembly{Budget: in.Budget, Window: in.Window, Tokenizer: in.Tokenizer})
	rep, err := p.AskEvidence(ctx, ws, app.AskRequest{Question: in.Question, Sections: in.Sections, Top: in.Top}, req)
	if err != nil {
		return nil, EvidenceAskOut{}, s.evidenceError(err)
	}
	return nil, *rep, nil
}

func (s *Server) evidenceAdd(ctx context.Context, _ *mcp.CallToolRequest, in EvidenceAddIn) (*mcp.CallToolResult, EvidenceAddOut, error) {
	if in.Selector == "" {
		return nil, EvidenceAddOut{}, fmt.Errorf("ctxpack: evidence_edit add needs selector: a project file (src/app.py, src/app.py::10,40), or - with text")
	}
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
		warnings = append(warnings, fmt.Sprintf("the active files take %d tokens, over the budget of %d: evidence_edit assemble will degrade or drop the highest-ranked evidence (evidence plan shows what)", plan.TotalTokens, plan.Budget))
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
	if in.ID == "" || in.Rank == nil {
		return nil, EvidenceRankOut{}, fmt.Errorf("ctxpack: evidence_edit rank needs id (the file) and rank (its new rank, 0 to 999)")
	}
	s.evidence.Lock()
	defer s.evidence.Unlock()
	p, ws, err := s.workspace(in.Ctx, true)
	if err != nil {
		return nil, EvidenceRankOut{}, err
	}
	r, warnings, err := p.RankEvidence(ws, in.ID, *in.Rank)
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
	if len(in.IDs) == 0 {
		return nil, EvidenceRemoveOut{}, fmt.Errorf("ctxpack: evidence_edit remove needs ids: the files' names, ids (100_app_py) or ranks")
	}
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
