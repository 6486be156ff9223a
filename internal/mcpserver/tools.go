package mcpserver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The limits of arguments that have one.
const (
	maxK     = 100
	maxPaths = 1000
	maxLimit = 1000 // items per source, as sources.limit allows
)

// The tools: one per area, those that do several things with an action
// argument (actions.go). Descriptions teach in a few lines; an argument's
// description says only what its name and values do not. No tool lists an
// output schema: the structured content of a result is the CLI's json
// (for an assembly, its plan without the text, which the text content
// holds once).

// Assembly arguments shared by context and premortem.
type assembly struct {
	Budget    int    `json:"budget,omitempty" jsonschema:"tokens the text may use; absent: the CLI's default"`
	Depth     string `json:"depth,omitempty" jsonschema:"a part's top level (default full)"`
	Format    string `json:"format,omitempty" jsonschema:"of the text (default text)"`
	Tokenizer string `json:"tokenizer,omitempty"`
	Overflow  string `json:"overflow,omitempty" jsonschema:"when parts do not fit (default degrade: lower, then drop)"`
	Strategy  string `json:"strategy,omitempty" jsonschema:"the order parts go in"`
	// Transforms of files' text, counted in the budget.
	LineNumbers      bool `json:"line_numbers,omitempty" jsonschema:"number each line as in its file"`
	RemoveComments   bool `json:"remove_comments,omitempty" jsonschema:"strip comments (Go, Python, C family)"`
	RemoveEmptyLines bool `json:"remove_empty_lines,omitempty"`
}

// changesIn are the arguments that add the repository's changes to a
// pack or a free-text retrieval.
type changesIn struct {
	Diff     bool   `json:"diff,omitempty" jsonschema:"add uncommitted changes"`
	DiffBase string `json:"diff_base,omitempty" jsonschema:"add changes since this ref's merge base"`
	Log      int    `json:"log,omitempty" jsonschema:"add this many newest commits"`
}

// ContextIn are the arguments of the context tool.
type ContextIn struct {
	Target string   `json:"target,omitempty" jsonschema:"a task id (TASK-042), a file, PATH:START-END or directory, or free text: a question, an error, a stack trace"`
	Paths  []string `json:"paths,omitempty" jsonschema:"instead of target: files, directories and globs (src/**/*.py) packed together (. for all)"`
	Query  string   `json:"query,omitempty" jsonschema:"with paths: rank them by their relevance to this text"`
	Tree   bool     `json:"tree,omitempty" jsonschema:"with paths: start with a directory tree"`
	assembly
	LinkDepth int      `json:"link_depth,omitempty" jsonschema:"task: links to follow (absent: all)"`
	Sources   []string `json:"sources,omitempty" jsonschema:"search target in these sources instead, the budget shared among them"`
	Task      string   `json:"task,omitempty" jsonschema:"sources: the task whose linked artifacts the artifacts source brings"`
	Limit     int      `json:"limit,omitempty" jsonschema:"sources: items per source (default 20)"`
	changesIn
}

// PackIn are the arguments of context when it packs paths.
type PackIn struct {
	Paths []string `json:"paths,omitempty"`
	Query string   `json:"query,omitempty"`
	Tree  bool     `json:"tree,omitempty"`
	assembly
	changesIn
}

// SearchIn are the arguments of the search tool.
type SearchIn struct {
	Query   string `json:"query" jsonschema:"free text, identifiers, a stack trace or a bug report"`
	K       int    `json:"k,omitempty" jsonschema:"results (default 10)"`
	Files   bool   `json:"files,omitempty" jsonschema:"one result per file"`
	Explain bool   `json:"explain,omitempty" jsonschema:"add each factor's contribution and the ranks"`
}

// SearchOut is the result of the search tool.
type SearchOut struct {
	Results  []app.SearchHit `json:"results"`
	Warnings []string        `json:"warnings"`
}

// ArtifactsIn are the arguments of the artifacts tool: those of each of
// its actions (ShowIn, ListIn, CheckIn, ExplainIn).
type ArtifactsIn struct {
	Action     string `json:"action"`
	ID         string `json:"id,omitempty" jsonschema:"an artifact id (SPEC-BILLING-001, identity)"`
	Type       string `json:"type,omitempty"`
	Status     string `json:"status,omitempty" jsonschema:"in_progress, current, deprecated…"`
	Depth      string `json:"depth,omitempty" jsonschema:"meta, summary, detailed or full (the default)"`
	Format     string `json:"format,omitempty" jsonschema:"of the text (default text)"`
	Strict     bool   `json:"strict,omitempty" jsonschema:"fail on warnings too"`
	NoBaseline bool   `json:"no_baseline,omitempty" jsonschema:"report the findings the baseline holds too"`
	Task       string `json:"task,omitempty" jsonschema:"the task whose context is explained"`
	Budget     int    `json:"budget,omitempty" jsonschema:"of the explained assembly; absent: the CLI's default"`
	Tokenizer  string `json:"tokenizer,omitempty"`
	LinkDepth  int    `json:"link_depth,omitempty" jsonschema:"links to follow (absent: all)"`
}

// ShowIn are the arguments of artifacts show.
type ShowIn struct {
	ID     string `json:"id"`
	Depth  string `json:"depth,omitempty"`
	Format string `json:"format,omitempty"`
}

// ShowOut is the result of artifacts show: the artifact, whose text the
// text content holds.
type ShowOut struct {
	app.ArtifactView
	Text     *struct{} `json:"text,omitempty"` // hides ArtifactView's: the text content holds it
	Warnings []string  `json:"warnings"`
}

// ListIn are the arguments of artifacts list.
type ListIn struct {
	Type   string `json:"type,omitempty"`
	Status string `json:"status,omitempty"`
}

// ListOut is the result of artifacts list.
type ListOut struct {
	Artifacts []app.ArtifactInfo `json:"artifacts"`
	Warnings  []string           `json:"warnings"`
}

// CheckIn are the arguments of artifacts check.
type CheckIn struct {
	Strict     bool `json:"strict,omitempty"`
	NoBaseline bool `json:"no_baseline,omitempty"`
}

// ExplainIn are the arguments of artifacts explain: the artifact is id.
type ExplainIn struct {
	Task      string `json:"task"`
	Artifact  string `json:"id"`
	Budget    int    `json:"budget,omitempty"`
	Depth     string `json:"depth,omitempty"`
	Tokenizer string `json:"tokenizer,omitempty"`
	LinkDepth int    `json:"link_depth,omitempty"`
}

// LinesOut is the result of context for a target that is lines of a
// file: their summary, whose text the text content holds.
type LinesOut struct {
	app.Summary
	Text *struct{} `json:"text,omitempty"` // hides Summary's: the text content holds it
}

// TokensIn are the arguments of the tokens tool.
type TokensIn struct {
	Paths     []string `json:"paths,omitempty" jsonschema:"project files and directories"`
	Text      string   `json:"text,omitempty" jsonschema:"a text, instead of paths"`
	Tokenizer string   `json:"tokenizer,omitempty"`
	Tree      bool     `json:"tree,omitempty" jsonschema:"add a folder tree"`
	MinTokens int      `json:"min_tokens,omitempty" jsonschema:"tree: hide smaller entries"`
	Top       int      `json:"top,omitempty" jsonschema:"list the N largest"`
}

// IndexIn are the arguments of the index tool: none.
type IndexIn struct{}

// IndexOut is the result of the index tool.
type IndexOut struct {
	Index     string `json:"index"`
	Rebuilt   string `json:"rebuilt,omitempty"`
	Files     int    `json:"files"`
	Chunks    int    `json:"chunks"`
	Skipped   int    `json:"skipped"`
	Added     int    `json:"added"`
	Changed   int    `json:"changed"`
	Removed   int    `json:"removed"`
	Unchanged int    `json:"unchanged"`
	Embedded  int    `json:"embedded"`
	StateRoot string `json:"state_root"`
}

// BaselineIn are the arguments of the baseline tool: none.
type BaselineIn struct{}

// BaselineOut is the result of the baseline tool.
type BaselineOut struct {
	Findings int    `json:"findings"`
	Baseline string `json:"baseline"`
}

// The annotations of the tools.
var (
	readTool = &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}
	// setTool writes, and the same request twice does what it did once.
	setTool = &mcp.ToolAnnotations{DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)}
	// editTool writes, and an action of it deletes.
	editTool = &mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(false)}
)

// addTools adds the read tools, then, unless read-only, the write tools.
func (s *Server) addTools() {
	addTool(s, "context", "Assemble the context for a target, fitted exactly to a token budget: a task id gives the task, the specs, decisions and norms its links reach, then the code their paths name; a file or directory is packed; free text searches the repository. paths packs several files and directories instead. sources searches the target in memories, code, experiences, values, commits (artifacts with task) instead. The text is the context; the structured result is its plan in brief: each part's path, lines, level (absent: full) and tokens, what was dropped and why, the digest (ctxpack://plan/last holds it whole).", readTool, s.context)
	addTool(s, "search", "Rank the repository's chunks for a query (BM25, embeddings and identifiers, fused), best first, with why each matched.", readTool, s.search)
	addActions[ArtifactsIn](s, "artifacts", "Read the project's artifacts (identity, tasks, specs, decisions, norms). action: list [type, status]; show id [depth, format]; check [strict, no_baseline]: validate artifacts, links and @spec/@decision annotations, each finding with file and line; explain task id [budget, depth, tokenizer, link_depth]: why artifact id (or a file) is or is not in the task's context.", readTool,
		newActions("artifacts").add("list", op(s.list)).add("show", op(s.show)).add("check", op(s.check)).add("explain", op(s.explain)))
	addTool(s, "tokens", "Count tokens exactly as a model's tokenizer does, for project files or a text.", readTool, s.tokens)
	s.addStoreReadTools()
	s.addEvidenceReadTools()
	if s.o.ReadOnly {
		return
	}
	addTool(s, "index", "Write: bring the repository index (.ctxpack/index.db) up to date, embedding what it lacks when an embedder is configured; context and search do this themselves: call it after large changes.", setTool, s.index)
	addTool(s, "baseline", "Write: accept the current check findings into the baseline, so later checks report only new ones.", setTool, s.baseline)
	s.addStoreWriteTools()
	s.addEvidenceWriteTools()
}

func ptr[T any](v T) *T { return &v }

// argRule sets the enum or bounds of a tool's argument that means
// something of its own in that tool, and reports whether it did; the
// shared rules of constrain are then not applied to it.
type argRule func(name string, p *jsonschema.Schema) bool

// addTool adds a tool whose input schema carries the enums and bounds of
// its arguments: those of own first, then the shared ones. It lists no
// output schema; the result's structured content is h's Out.
func addTool[In, Out any](s *Server, name, desc string, ann *mcp.ToolAnnotations, h mcp.ToolHandlerFor[In, Out], own ...argRule) {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: the schema of %s: %v", name, err)) // a programming error
	}
	s.constrain(in, own...)
	notNull(in)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: name, Description: desc, Annotations: ann, InputSchema: in},
		func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
			res, out, err := h(ctx, req, in)
			if err != nil {
				return nil, nil, err
			}
			return res, out, nil
		})
	s.tools = append(s.tools, name)
}

// addActions adds a tool of several actions, whose input schema is In's:
// the arguments of every action, action's values those of acts.
func addActions[In any](s *Server, name, desc string, ann *mcp.ToolAnnotations, acts *actions, own ...argRule) {
	actionArg := func(arg string, p *jsonschema.Schema) bool {
		if arg != "action" {
			return false
		}
		p.Enum = enum(acts.names)
		return true
	}
	addTool(s, name, desc, ann, func(ctx context.Context, req *mcp.CallToolRequest, _ In) (*mcp.CallToolResult, any, error) {
		return acts.handler(ctx, req)
	}, append([]argRule{actionArg}, own...)...)
}

// notNull makes the arguments that may be absent of one type: a slice or
// a pointer is inferred as also taking null, which says nothing an
// absent argument does not and costs every session its tokens.
func notNull(p *jsonschema.Schema) {
	if len(p.Types) == 2 && p.Types[0] == "null" {
		p.Type, p.Types = p.Types[1], nil
	}
	for _, q := range p.Properties {
		notNull(q)
	}
	if p.Items != nil {
		notNull(p.Items)
	}
}

// enum is the values of a schema's enum.
func enum[S ~string](v []S) []any {
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = string(x)
	}
	return out
}

// constrain adds to a tool's input schema the values each argument takes:
// those the tool's own rules set, else the shared ones below.
func (s *Server) constrain(in *jsonschema.Schema, own ...argRule) {
properties:
	for name, p := range in.Properties {
		for _, rule := range own {
			if rule(name, p) {
				continue properties
			}
		}
		switch name {
		case "depth":
			p.Enum = enum([]string{"meta", "summary", "detailed", "full"})
		case "format":
			p.Enum = enum(app.Formats())
		case "tokenizer":
			p.Enum = enum(app.Tokenizers())
		case "overflow":
			p.Enum = enum(app.Overflows())
		case "strategy":
			p.Enum = enum(app.Strategies())
		case "type":
			p.Enum = enum(app.ArtifactTypes)
		case "budget":
			p.Minimum, p.Maximum = ptr(0.0), ptr(float64(s.o.MaxBudget))
		case "k":
			p.Minimum, p.Maximum = ptr(1.0), ptr(float64(maxK))
		case "link_depth":
			p.Minimum = ptr(0.0)
		case "paths":
			p.MaxItems = ptr(maxPaths)
		case "sources":
			p.Items.Enum = enum(app.SourceNames())
			p.MaxItems, p.UniqueItems = ptr(len(app.SourceNames())), true
		case "limit":
			p.Minimum, p.Maximum = ptr(1.0), ptr(float64(maxLimit))
		case "target", "query", "id", "task", "artifact":
			p.MinLength = ptr(1)
		}
	}
}

// request is the facade's request for an assembly's arguments, in the
// server's mode. The input schema has already bounded the budget.
func (s *Server) request(a assembly) app.Request {
	return app.Request{
		Budget: a.Budget, Depth: a.Depth, Format: a.Format, Tokenizer: a.Tokenizer,
		Overflow: a.Overflow, Strategy: a.Strategy,
		LineNumbers: a.LineNumbers, RemoveComments: a.RemoveComments, RemoveEmptyLines: a.RemoveEmptyLines,
		NoCache: s.o.ReadOnly,
		Index:   app.IndexOptions{NoUpdate: s.o.ReadOnly},
	}
}

// confine refuses a path that is absolute; the facade refuses the ones
// that leave the root through ".." or a symlink.
func confine(path string) error {
	if filepath.IsAbs(path) || strings.HasPrefix(path, "/") || strings.HasPrefix(path, `\`) || filepath.VolumeName(path) != "" {
		return fmt.Errorf("ctxpack: %s: paths are relative to the project root; an absolute path is refused", path)
	}
	return nil
}

// assemble assembles target as `ctxpack context` does, confined to the
// project, then finishes it.
func (s *Server) assemble(ctx context.Context, ss *mcp.ServerSession, target string, r app.Request) (*app.Result, error) {
	if target == "-" {
		return nil, fmt.Errorf(`ctxpack: target "-" reads standard input on the command line; here, give the text itself`)
	}
	if !strings.ContainsAny(target, " \t\n") {
		if err := confine(strings.TrimSpace(target)); err != nil {
			return nil, err
		}
	}
	p, err := s.open()
	if err != nil {
		return nil, err
	}
	res, err := p.Context(ctx, target, r)
	if err != nil {
		return nil, s.fail(err)
	}
	s.finish(ctx, ss, p, r, res)
	return res, nil
}

// finish records an assembly's budget (unless read-only) and keeps its
// plan as the session's last.
func (s *Server) finish(ctx context.Context, ss *mcp.ServerSession, p *app.Project, r app.Request, res *app.Result) {
	if !s.o.ReadOnly {
		if err := p.Record(r, &res.Plan, time.Now()); err != nil {
			s.log.WarnContext(ctx, "budget record not written", "error", err)
		}
	}
	s.setPlan(ss, &res.Plan)
}

// PlanOut is an assembly's plan as a tool's structured result, in brief:
// without its content, which the text content holds once, and each part
// with what it holds (PartOut). The plan whole, with each part's content
// id and score, is the resource ctxpack://plan/last, and the text of
// format json.
type PlanOut struct {
	app.Plan
	Parts []PartOut `json:"parts"`
	// Dropped are the parts left out but those the directory tree lists;
	// InTree names those (each is a line of the tree in the text, or of a
	// folded directory), without the reason every one of them shares.
	Dropped []app.Dropped `json:"dropped"`
	InTree  []string      `json:"in_tree,omitempty"`
	Content *struct{}     `json:"content,omitempty"` // hides the plan's
}

// PartOut is a part of the plan in brief: what it holds, at what level,
// its tokens, and why it is not whole.
type PartOut struct {
	// Key is the part's key when its path does not give it: an
	// artifact's id, a memory's key.
	Key       string   `json:"key,omitempty"`
	Path      string   `json:"path,omitempty"`
	Lines     *[2]int  `json:"lines,omitempty"`
	Level     string   `json:"level,omitempty"` // absent: full
	Tokens    int      `json:"tokens"`
	Via       []string `json:"via,omitempty"`
	Truncated bool     `json:"truncated,omitempty"`
	Reason    string   `json:"reason,omitempty"`
	// Transforms are what was done to the text beyond its level
	// (line_numbers, remove_comments, remove_empty_lines).
	Transforms []string `json:"transforms,omitempty"`
}

// briefPlan is plan as PlanOut.
func briefPlan(plan app.Plan) PlanOut {
	parts := make([]PartOut, len(plan.Parts))
	for i, p := range plan.Parts {
		parts[i] = PartOut{Path: p.Path, Lines: p.Lines, Tokens: p.Tokens, Via: p.Via, Truncated: p.Truncated, Reason: p.Reason, Transforms: p.Transforms}
		if p.Level != "full" {
			parts[i].Level = p.Level
		}
		if p.Path == "" || (p.Key != p.Path && !strings.HasPrefix(p.Key, p.Path+"#")) {
			parts[i].Key = p.Key
		}
	}
	out := PlanOut{Plan: plan, Parts: parts, Dropped: []app.Dropped{}}
	for _, d := range plan.Dropped {
		if strings.HasPrefix(d.Reason, app.ReasonTree) {
			name := d.Path
			if name == "" {
				name = d.Key
			}
			out.InTree = append(out.InTree, name)
			continue
		}
		out.Dropped = append(out.Dropped, d)
	}
	return out
}

// planResult is an assembly as a tool's result: its output as text, its
// plan in brief as the structured content.
func planResult(res *app.Result) (*mcp.CallToolResult, PlanOut, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(res.Output)}}}, briefPlan(res.Plan), nil
}

// context assembles a target, or packs paths, or shows lines of a file.
func (s *Server) context(ctx context.Context, req *mcp.CallToolRequest, in ContextIn) (*mcp.CallToolResult, any, error) {
	if file, lines, ok := parseLines(in.Target); ok {
		p, err := s.open()
		if err != nil {
			return nil, nil, err
		}
		if isFile(p, file) && !isFile(p, in.Target) {
			return s.lines(ctx, p, in, file, lines)
		}
	}
	res, plan, err := s.assembleTarget(ctx, req, in)
	if err != nil {
		return nil, nil, err
	}
	return res, plan, nil
}

// assembleTarget assembles a target, or packs paths.
func (s *Server) assembleTarget(ctx context.Context, req *mcp.CallToolRequest, in ContextIn) (*mcp.CallToolResult, PlanOut, error) {
	pack := len(in.Paths) > 0 || in.Query != ""
	switch {
	case pack && in.Target != "":
		return nil, PlanOut{}, fmt.Errorf("ctxpack: give target or paths, not both (paths packs files and directories; target also takes one)")
	case pack && (in.LinkDepth != 0 || in.Sources != nil || in.Task != "" || in.Limit != 0):
		return nil, PlanOut{}, fmt.Errorf("ctxpack: link_depth, sources, task and limit go with a target, not with paths")
	case pack:
		return s.pack(ctx, req, PackIn{Paths: in.Paths, Query: in.Query, Tree: in.Tree, assembly: in.assembly, changesIn: in.changesIn})
	case in.Tree:
		return nil, PlanOut{}, fmt.Errorf("ctxpack: tree goes with paths, not with a target")
	case strings.TrimSpace(in.Target) == "":
		return nil, PlanOut{}, fmt.Errorf("ctxpack: give target (a task id, a path, or free text) or paths")
	}
	r := s.request(in.assembly)
	r.LinkDepth = in.LinkDepth
	r.Sources, r.Task, r.Limit = in.Sources, in.Task, in.Limit
	r.Diff, r.DiffBase, r.Log = in.Diff, in.DiffBase, in.Log
	res, err := s.assemble(ctx, req.Session, in.Target, r)
	if err != nil {
		return nil, PlanOut{}, err
	}
	return planResult(res)
}

// parseLines reads a target of the form PATH:START-END (two decimal
// numbers), the lines of a file that a part's header names ('full:
// ctxpack summarize PATH:START-END --depth full'); it does not check the
// numbers, which Summarize checks against the file. Nothing else is lines
// of a file: "main.go: panic: …" is free text, as it was.
func parseLines(target string) (string, [2]int, bool) {
	i := strings.LastIndexByte(target, ':')
	if i <= 0 {
		return "", [2]int{}, false
	}
	a, b, ok := strings.Cut(target[i+1:], "-")
	if !ok {
		return "", [2]int{}, false
	}
	var lines [2]int
	for j, n := range []string{a, b} {
		if n == "" || strings.Trim(n, "0123456789") != "" {
			return "", [2]int{}, false
		}
		v, err := strconv.Atoi(n)
		if err != nil {
			v = math.MaxInt // only digits: out of range, past any file's end
		}
		lines[j] = v
	}
	return target[:i], lines, true
}

// isFile reports whether name is a local path (not absolute, not out
// through "..") that names a file under the project's root; Summarize
// refuses a symlink out of it.
func isFile(p *app.Project, name string) bool {
	if !filepath.IsLocal(filepath.FromSlash(name)) {
		return false
	}
	info, err := os.Stat(filepath.Join(p.Dir, filepath.FromSlash(name)))
	return err == nil && !info.IsDir()
}

// lines shows lines of a file at in.Depth (default full), as 'ctxpack
// summarize FILE:START-END' does: the text content is the text, the
// structured result the summary without it. Only depth and tokenizer
// apply: the lines are not an assembly.
func (s *Server) lines(ctx context.Context, p *app.Project, in ContextIn, file string, lines [2]int) (*mcp.CallToolResult, any, error) {
	rest := in
	rest.Target, rest.Depth, rest.Tokenizer = "", "", ""
	if len(rest.Paths) == 0 {
		rest.Paths = nil
	}
	if len(rest.Sources) == 0 {
		rest.Sources = nil
	}
	if !reflect.DeepEqual(rest, ContextIn{}) {
		return nil, nil, fmt.Errorf("ctxpack: target %s is lines of a file, shown whole at depth: only depth and tokenizer go with it", in.Target)
	}
	sum, err := p.Summarize(ctx, file, app.SummarizeOptions{Level: cmp.Or(in.Depth, "full"), Tokenizer: in.Tokenizer, Lines: lines})
	var se *app.SpanError
	if errors.As(err, &se) {
		return nil, nil, spanError(in.Target, file, se)
	}
	if err != nil {
		return nil, nil, s.fail(err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: sum.Text}}}, LinesOut{Summary: *sum}, nil
}

// spanError is lines a file does not have, in the context tool's terms.
func spanError(target, file string, e *app.SpanError) error {
	if e.FileLines == 0 {
		return fmt.Errorf("ctxpack: target %s: %s is empty: it has no lines to show", target, file)
	}
	what := fmt.Sprintf("%s ends at line %d", file, e.FileLines)
	switch {
	case e.Lines[0] < 1:
		what = "lines are numbered from 1"
	case e.Lines[1] < e.Lines[0]:
		what = "START is after END"
	}
	return fmt.Errorf("ctxpack: target %s: %s (valid: PATH:START-END with 1 <= START <= END <= %d)", target, what, e.FileLines)
}

func (s *Server) pack(ctx context.Context, req *mcp.CallToolRequest, in PackIn) (*mcp.CallToolResult, PlanOut, error) {
	for _, path := range in.Paths {
		if err := confine(path); err != nil {
			return nil, PlanOut{}, err
		}
	}
	r := s.request(in.assembly)
	r.Paths, r.Query, r.Tree = in.Paths, in.Query, in.Tree
	r.Diff, r.DiffBase, r.Log = in.Diff, in.DiffBase, in.Log
	p, err := s.open()
	if err != nil {
		return nil, PlanOut{}, err
	}
	res, err := p.Pack(ctx, r)
	if err != nil {
		return nil, PlanOut{}, s.fail(err)
	}
	s.finish(ctx, req.Session, p, r, res)
	return planResult(res)
}

func (s *Server) search(ctx context.Context, _ *mcp.CallToolRequest, in SearchIn) (*mcp.CallToolResult, SearchOut, error) {
	if strings.TrimSpace(in.Query) == "" {
		return nil, SearchOut{}, fmt.Errorf("ctxpack: query is empty")
	}
	k := cmp.Or(in.K, 10) // the schema bounds it
	p, err := s.open()
	if err != nil {
		return nil, SearchOut{}, err
	}
	hits, opt, warnings, err := p.Search(ctx, in.Query, k, in.Files, app.IndexOptions{NoUpdate: s.o.ReadOnly})
	if err != nil {
		return nil, SearchOut{}, s.fail(err)
	}
	return nil, SearchOut{Results: app.SearchHits(hits, opt, in.Explain), Warnings: orEmpty(append(p.Warnings, warnings...))}, nil
}

func (s *Server) show(_ context.Context, _ *mcp.CallToolRequest, in ShowIn) (*mcp.CallToolResult, ShowOut, error) {
	if in.ID == "" {
		return nil, ShowOut{}, fmt.Errorf("ctxpack: artifacts show needs id: an artifact id (SPEC-BILLING-001), or identity")
	}
	p, err := s.open()
	if err != nil {
		return nil, ShowOut{}, err
	}
	v, warnings, err := p.Show(in.ID, in.Depth, in.Format)
	if err != nil {
		return nil, ShowOut{}, s.fail(err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(v.Output)}}}, ShowOut{ArtifactView: *v, Warnings: orEmpty(warnings)}, nil
}

func (s *Server) list(_ context.Context, _ *mcp.CallToolRequest, in ListIn) (*mcp.CallToolResult, ListOut, error) {
	p, err := s.open()
	if err != nil {
		return nil, ListOut{}, err
	}
	list, warnings, err := p.List(in.Type, in.Status)
	if err != nil {
		return nil, ListOut{}, s.fail(err)
	}
	return nil, ListOut{Artifacts: list, Warnings: orEmpty(warnings)}, nil
}

func (s *Server) check(ctx context.Context, _ *mcp.CallToolRequest, in CheckIn) (*mcp.CallToolResult, app.CheckReport, error) {
	p, err := s.open()
	if err != nil {
		return nil, app.CheckReport{}, err
	}
	rep, err := p.Check(ctx, app.CheckOptions{Strict: in.Strict, NoBaseline: in.NoBaseline})
	if err != nil {
		return nil, app.CheckReport{}, s.fail(err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: rep.Text()}}}, *rep, nil
}

func (s *Server) explain(ctx context.Context, _ *mcp.CallToolRequest, in ExplainIn) (*mcp.CallToolResult, app.Explanation, error) {
	if in.Task == "" || in.Artifact == "" {
		return nil, app.Explanation{}, fmt.Errorf("ctxpack: artifacts explain needs task (TASK-042) and id, the artifact that is or is not in its context")
	}
	r := s.request(assembly{Budget: in.Budget, Depth: in.Depth, Tokenizer: in.Tokenizer})
	r.LinkDepth = in.LinkDepth
	p, err := s.open()
	if err != nil {
		return nil, app.Explanation{}, err
	}
	e, err := p.Explain(ctx, in.Task, in.Artifact, r)
	if err != nil {
		return nil, app.Explanation{}, s.fail(err)
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: e.Reason + "\n"}}}, *e, nil
}

func (s *Server) tokens(ctx context.Context, _ *mcp.CallToolRequest, in TokensIn) (*mcp.CallToolResult, app.TokenReport, error) {
	if (len(in.Paths) == 0) == (in.Text == "") {
		return nil, app.TokenReport{}, fmt.Errorf("ctxpack: give paths or text, one of the two")
	}
	p, err := s.open()
	if err != nil {
		return nil, app.TokenReport{}, err
	}
	shape := app.TokenShape{Tree: in.Tree, MinTokens: in.MinTokens, Top: in.Top}
	if err := shape.Check(); err != nil {
		return nil, app.TokenReport{}, err
	}
	if in.Text != "" {
		if in.Tree || in.Top > 0 {
			return nil, app.TokenReport{}, fmt.Errorf("tree and top show the files of paths; a text has none")
		}
		tok, err := p.Tokenizer(in.Tokenizer)
		if err != nil {
			return nil, app.TokenReport{}, s.fail(err)
		}
		n := tok.Count(in.Text)
		return nil, app.TokenReport{Tokenizer: tok.Name(), Files: []app.TokenCount{}, Total: n, Skipped: []app.TokenSkip{}}, nil
	}
	for _, path := range in.Paths {
		if err := confine(path); err != nil {
			return nil, app.TokenReport{}, err
		}
	}
	rep, err := p.Tokens(ctx, in.Paths, in.Tokenizer)
	if err != nil {
		return nil, app.TokenReport{}, s.fail(err)
	}
	if err := rep.Shape(shape); err != nil {
		return nil, app.TokenReport{}, err
	}
	return nil, *rep, nil
}

func (s *Server) index(ctx context.Context, _ *mcp.CallToolRequest, _ IndexIn) (*mcp.CallToolResult, IndexOut, error) {
	p, err := s.open()
	if err != nil {
		return nil, IndexOut{}, err
	}
	oi, err := p.OpenIndex(app.IndexOptions{}, false)
	if err != nil {
		return nil, IndexOut{}, s.fail(err)
	}
	defer oi.Close()
	st, err := p.UpdateIndex(ctx, oi, nil)
	if err != nil {
		return nil, IndexOut{}, s.fail(err)
	}
	out := IndexOut{
		Index: oi.Shown, Files: st.Files, Chunks: st.Chunks, Skipped: st.Skipped,
		Added: st.Added, Changed: st.Changed, Removed: st.Removed, Unchanged: st.Unchanged + st.Touched, StateRoot: st.StateRoot,
	}
	if st.Rebuilt.Replaced() {
		out.Rebuilt = st.Rebuilt.String()
	}
	es, err := p.EmbedIndex(ctx, oi, nil)
	if err != nil {
		return nil, IndexOut{}, s.fail(err)
	}
	if es != nil {
		out.Embedded = es.Embedded
	}
	return nil, out, nil
}

func (s *Server) baseline(ctx context.Context, _ *mcp.CallToolRequest, _ BaselineIn) (*mcp.CallToolResult, BaselineOut, error) {
	p, err := s.open()
	if err != nil {
		return nil, BaselineOut{}, err
	}
	n, shown, err := p.UpdateBaseline(ctx, "")
	if err != nil {
		return nil, BaselineOut{}, s.fail(err)
	}
	return nil, BaselineOut{Findings: n, Baseline: shown}, nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
