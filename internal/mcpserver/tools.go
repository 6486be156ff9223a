package mcpserver

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
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

// Assembly arguments shared by context and pack.
type assembly struct {
	Budget    int    `json:"budget,omitempty" jsonschema:"tokens the output may use, counted on the emitted text; 0 or absent: the project's configured budget (8000 by default)"`
	Depth     string `json:"depth,omitempty" jsonschema:"the highest level of a part: meta, summary, detailed or full (the default)"`
	Format    string `json:"format,omitempty" jsonschema:"the format of the text content: text (the default; in sources mode the configured format, else markdown), markdown, doc, xml, json or mdctx; the structured result is the plan either way"`
	Tokenizer string `json:"tokenizer,omitempty" jsonschema:"the tokenizer that counts the budget: o200k_base (the default), cl100k_base or approx"`
	Overflow  string `json:"overflow,omitempty" jsonschema:"what to do when the parts do not fit: degrade (lower levels, then drop; the default), drop, truncate, error or allow"`
	Strategy  string `json:"strategy,omitempty" jsonschema:"the order parts are admitted in: greedy, interleaved or score"`
}

// ContextIn are the arguments of the context tool.
type ContextIn struct {
	Target string `json:"target" jsonschema:"what to assemble the context for: a task or other artifact id (TASK-042), a file or directory of the project (relative to its root), or free text (a question, an error message, a stack trace)"`
	assembly
	LinkDepth int `json:"link_depth,omitempty" jsonschema:"for a task: how many links from it to follow; 0 or absent: all"`
	// Sources mode.
	Sources []string `json:"sources,omitempty" jsonschema:"sources mode: search the target, as free text, in each source named (memories, code, experiences, values and commits; artifacts with task), the budget shared among them by weight, duplicates across them dropped"`
	Task    string   `json:"task,omitempty" jsonschema:"sources mode: the task whose linked artifacts the artifacts source brings (TASK-042); without sources, the sources are artifacts alone"`
	Limit   int      `json:"limit,omitempty" jsonschema:"sources mode: at most this many items from each source's search (1 to 1000; default the configured sources.limit, else 20)"`
}

// PackIn are the arguments of the pack tool.
type PackIn struct {
	Paths []string `json:"paths,omitempty" jsonschema:"files and directories to pack, relative to the project root; absent: the whole project"`
	Query string   `json:"query,omitempty" jsonschema:"rank the files by their relevance to this text (through the repository index) instead of by structure"`
	assembly
}

// SearchIn are the arguments of the search tool.
type SearchIn struct {
	Query   string `json:"query" jsonschema:"free text, identifiers, a stack trace or a whole bug report"`
	K       int    `json:"k,omitempty" jsonschema:"how many results (1 to 100; default 10)"`
	Files   bool   `json:"files,omitempty" jsonschema:"one result per file: its best chunk"`
	Explain bool   `json:"explain,omitempty" jsonschema:"add each factor's value, weight and contribution, and the ranks in each ranking"`
}

// SearchOut is the result of the search tool.
type SearchOut struct {
	Results  []app.SearchHit `json:"results"`
	Warnings []string        `json:"warnings"`
}

// ShowIn are the arguments of the show tool.
type ShowIn struct {
	ID     string `json:"id" jsonschema:"the artifact's id (SPEC-BILLING-001; identity for the project's identity)"`
	Depth  string `json:"depth,omitempty" jsonschema:"meta (its frontmatter), summary (and its first section), detailed (and every heading with its first paragraph) or full (the default)"`
	Format string `json:"format,omitempty" jsonschema:"the format of the text content: text (the default), markdown, doc, xml, json or mdctx"`
}

// ShowOut is the result of the show tool.
type ShowOut struct {
	app.ArtifactView
	Warnings []string `json:"warnings"`
}

// ListIn are the arguments of the list tool.
type ListIn struct {
	Type   string `json:"type,omitempty" jsonschema:"only artifacts of this type: identity, task, spec, decision or norm"`
	Status string `json:"status,omitempty" jsonschema:"only artifacts with this status (in_progress, current, deprecated…)"`
}

// ListOut is the result of the list tool.
type ListOut struct {
	Artifacts []app.ArtifactInfo `json:"artifacts"`
	Warnings  []string           `json:"warnings"`
}

// CheckIn are the arguments of the check tool.
type CheckIn struct {
	Strict     bool `json:"strict,omitempty" jsonschema:"fail on warnings too"`
	NoBaseline bool `json:"no_baseline,omitempty" jsonschema:"report every finding, also those the baseline holds"`
}

// ExplainIn are the arguments of the explain tool.
type ExplainIn struct {
	Task      string `json:"task" jsonschema:"the task whose context is explained (TASK-042)"`
	Artifact  string `json:"artifact" jsonschema:"the artifact that is or is not in it"`
	Budget    int    `json:"budget,omitempty" jsonschema:"the budget of the assembly explained; 0 or absent: the configured one"`
	Depth     string `json:"depth,omitempty" jsonschema:"the highest level: meta, summary, detailed or full"`
	Tokenizer string `json:"tokenizer,omitempty" jsonschema:"o200k_base (the default), cl100k_base or approx"`
	LinkDepth int    `json:"link_depth,omitempty" jsonschema:"how many links from the task to follow; 0 or absent: all"`
}

// TokensIn are the arguments of the tokens tool.
type TokensIn struct {
	Paths     []string `json:"paths,omitempty" jsonschema:"files and directories of the project to count, relative to its root"`
	Text      string   `json:"text,omitempty" jsonschema:"a text to count instead of files"`
	Tokenizer string   `json:"tokenizer,omitempty" jsonschema:"o200k_base (the default), cl100k_base or approx"`
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

// addTools adds the read tools, then, unless read-only, the write tools.
func (s *Server) addTools() {
	read := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}
	addTool(s, "context", "Assemble the context for a task id, a file or directory, or free text, fitted to a token budget; with sources (or task), search the free text in the memories, code, experiences, values, commits and a task's artifacts instead; the structured result is the plan (every part with path, lines, level and why; what was dropped and why; the digest)", read, s.context)
	addTool(s, "search", "Rank the repository's chunks for a query (BM25, embeddings and named identifiers, fused), best first, with why each matched", read, s.search)
	addTool(s, "show", "Read one artifact (task, spec, decision, norm, identity) at a level", read, s.show)
	addTool(s, "list", "List the project's artifacts: id, type, status, title and path, sorted by id", read, s.list)
	addTool(s, "check", "Validate the artifacts, their links and the @spec/@decision annotations in the code; every finding names file and line", read, s.check)
	addTool(s, "explain", "Say why an artifact is or is not in a task's context: the link chain, or the reason (no link, link depth, status, budget) with the tokens more that would keep it", read, s.explain)
	addTool(s, "tokens", "Count tokens exactly as a model's tokenizer does, for files of the project or for a text", read, s.tokens)
	addTool(s, "pack", "Pack files of the project to a token budget, lowering each to a summary before leaving it out; the structured result is the plan", read, s.pack)
	s.addStoreReadTools(read)
	s.addEvidenceReadTools(read)
	if s.o.ReadOnly {
		return
	}
	write := &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)}
	addTool(s, "index", "Write: bring the repository index (.ctxpack/index.db) up to date with the files now, and embed what it lacks when an embedder is configured; context and search do this themselves, so call it only after large changes", write, s.index)
	addTool(s, "baseline", "Write: accept the current check findings into the check baseline, so later checks report only new ones", write, s.baseline)
	s.addStoreWriteTools()
	s.addEvidenceWriteTools()
}

func ptr[T any](v T) *T { return &v }

// argRule sets the enum or bounds of a tool's argument that means
// something of its own in that tool, and reports whether it did; the
// shared rules of constrain are then not applied to it.
type argRule func(name string, p *jsonschema.Schema) bool

// addTool adds a typed tool whose input schema carries the enums and
// bounds of its arguments: those of own first, then the shared ones.
func addTool[In, Out any](s *Server, name, desc string, ann *mcp.ToolAnnotations, h mcp.ToolHandlerFor[In, Out], own ...argRule) {
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: the schema of %s: %v", name, err)) // a programming error
	}
	s.constrain(in, own...)
	mcp.AddTool(s.mcp, &mcp.Tool{Name: name, Description: desc, Annotations: ann, InputSchema: in}, h)
	s.tools = append(s.tools, name)
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

// planResult is an assembly as a tool's result: its output as text, its
// plan as the structured content.
func planResult(res *app.Result) (*mcp.CallToolResult, app.Plan, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(res.Output)}}}, res.Plan, nil
}

func (s *Server) context(ctx context.Context, req *mcp.CallToolRequest, in ContextIn) (*mcp.CallToolResult, app.Plan, error) {
	r := s.request(in.assembly)
	r.LinkDepth = in.LinkDepth
	r.Sources, r.Task, r.Limit = in.Sources, in.Task, in.Limit
	res, err := s.assemble(ctx, req.Session, in.Target, r)
	if err != nil {
		return nil, app.Plan{}, err
	}
	return planResult(res)
}

func (s *Server) pack(ctx context.Context, req *mcp.CallToolRequest, in PackIn) (*mcp.CallToolResult, app.Plan, error) {
	for _, path := range in.Paths {
		if err := confine(path); err != nil {
			return nil, app.Plan{}, err
		}
	}
	r := s.request(in.assembly)
	r.Paths, r.Query = in.Paths, in.Query
	p, err := s.open()
	if err != nil {
		return nil, app.Plan{}, err
	}
	res, err := p.Pack(ctx, r)
	if err != nil {
		return nil, app.Plan{}, s.fail(err)
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
	if in.Text != "" {
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
