package ctxpack

import (
	"context"

	"github.com/ctxpack/ctxpack/internal/app"
)

// Project is a project opened for assembly.
type Project struct{ p *app.Project }

// Open opens the project that holds dir: its root is found by walking up
// from dir, as git finds a repository's, and its .ctxpack/config.yaml (or
// .contextia/config.yaml) is read. Relative paths of requests start at
// dir.
func Open(dir string) (*Project, error) {
	p, err := app.Open(dir, "")
	if err != nil {
		return nil, err
	}
	return &Project{p}, nil
}

// OpenRemote clones the git repository at url (https, ssh, git@host:path,
// file://), at ref (a branch, a tag or a commit id; "" for its
// default branch), shallow, into the user's cache folder
// (os.UserCacheDir()/ctxpack/remote), reusing the clone while ref
// resolves to the commit it holds, and opens it as a project with
// ctxpack's default configuration: the repository's own is not read.
// Request paths are relative to the clone's root.
func OpenRemote(ctx context.Context, url, ref string) (*Project, error) {
	p, err := app.OpenRemote(ctx, url, ref, "", "")
	if err != nil {
		return nil, err
	}
	return &Project{p}, nil
}

// SplitFileList splits a list of files, one per line (or, with nul,
// NUL-separated, as git ls-files -z writes them), into Request.Files.
func SplitFileList(data []byte, nul bool) []string { return app.SplitFileList(data, nul) }

// Root is the project's root folder, absolute.
func (p *Project) Root() string { return p.p.Root }

// Warnings are the problems found reading the project's configuration.
func (p *Project) Warnings() []string { return append([]string(nil), p.p.Warnings...) }

// Request says what to assemble and how. Empty fields take the project's
// configuration, then ctxpack's defaults, exactly as the ctxpack command
// and its MCP server take them.
type Request struct {
	Budget    int    // tokens the output may use
	Tokenizer string // o200k_base (the default), cl100k_base or approx
	Format    string // text (the default), markdown, doc, xml, json or mdctx
	Depth     string // the highest level: meta, summary, detailed or full
	Overflow  string // degrade, drop, truncate, error or allow
	Strategy  string // greedy, interleaved or score

	// Paths are the files and folders Pack packs, relative to the folder
	// the project was opened from; none is the whole project. A path with
	// a glob character ("*", "?", "[") that names no file is a glob, with
	// .gitignore's rules ("src/**/*.py").
	Paths []string
	// Include and Exclude are globs a packed file must match (one of
	// them) and must not match; an entry may hold several separated by
	// commas. Files lists files to pack, one per entry, as
	// `ctxpack pack --files-from` reads them (SplitFileList).
	Include []string
	Exclude []string
	Files   []string
	// IncludeGenerated packs lock files and generated files, which Pack
	// leaves out (with their reasons in the plan) unless they are named.
	IncludeGenerated bool
	// LinkDepth limits how many links a task's context follows; 0 is no
	// limit.
	LinkDepth int
	// Sources make Context's target a query over those sources
	// (memories, experiences, values, commits, code, artifacts), and Task
	// names the task whose linked artifacts the artifacts source brings; a
	// task alone asks for its artifacts.
	Sources []string
	Task    string

	// Diff adds the work tree's changes against HEAD, staged or not, to a
	// pack or a free-text context: one part per changed file, its unified
	// diff. DiffBase compares with the merge base of that branch, tag or
	// commit and HEAD instead. Log adds the Log newest commits.
	Diff     bool
	DiffBase string
	Log      int
	// LineNumbers starts each line of a file's text with its number in
	// the file; RemoveComments removes the comments of Go, Python and the
	// C family (files in other languages are left as they are, which a
	// warning says); RemoveEmptyLines removes blank lines. Each is done
	// before anything is counted, and the plan lists it for each part.
	LineNumbers      bool
	RemoveComments   bool
	RemoveEmptyLines bool
	// Tree starts a Pack with the directory structure of its files.
	Tree bool
}

func (r Request) app() app.Request {
	return app.Request{
		Budget: r.Budget, Tokenizer: r.Tokenizer, Format: r.Format, Depth: r.Depth,
		Overflow: r.Overflow, Strategy: r.Strategy, Paths: r.Paths, LinkDepth: r.LinkDepth,
		Sources: r.Sources, Task: r.Task,
		Diff: r.Diff, DiffBase: r.DiffBase, Log: r.Log,
		Include: r.Include, Exclude: r.Exclude, Files: r.Files, IncludeGenerated: r.IncludeGenerated,
		LineNumbers: r.LineNumbers, RemoveComments: r.RemoveComments, RemoveEmptyLines: r.RemoveEmptyLines,
		Tree: r.Tree,
	}
}

// Result is an assembled context.
type Result struct {
	Output []byte // what the requested format prints
	Plan   Plan
}

// Plan is the record of an assembly, as the json format prints it: what
// was assembled, why, and what was left out.
type Plan struct {
	Mode        string    `json:"mode"` // links, retrieval, sources, pack, premortem
	Target      string    `json:"target"`
	Tokenizer   string    `json:"tokenizer"`
	Chunker     string    `json:"chunker"`
	Budget      int       `json:"budget"`
	TotalTokens int       `json:"total_tokens"`
	Truncated   bool      `json:"truncated"` // some part's text was cut
	Exceeded    bool      `json:"exceeded"`  // over the budget, which the allow strategy permits
	Parts       []Part    `json:"parts"`     // in the order they are shown
	Dropped     []Dropped `json:"dropped"`
	Paths       []string  `json:"paths"` // code globs a task's specs govern
	Warnings    []string  `json:"warnings"`
	StateRoot   string    `json:"state_root"` // a Merkle root over the inputs
	Digest      string    `json:"digest"`     // of the chunker and the content
}

// Part is a part of the context as shown.
type Part struct {
	Key     string             `json:"key"` // TASK-042, src/a.go#3, memory:42
	Source  string             `json:"source"`
	Type    string             `json:"type"`
	Path    string             `json:"path"`
	Lines   *[2]int            `json:"lines"` // 1-based, inclusive
	Level   string             `json:"level"` // meta, summary, detailed or full
	Tokens  int                `json:"tokens"`
	CID     string             `json:"cid"` // sha256 of the part's fullest text
	Via     []string           `json:"via"` // the link chain that reached it
	Score   *float64           `json:"score"`
	Factors map[string]float64 `json:"components"`
	// Reason says why the part is not shown in full; empty when it is.
	Reason string `json:"reason"`
	// Transforms say how its text differs from the file's beyond its
	// level: comments or empty lines removed, line numbers added.
	Transforms []string `json:"transforms"`
}

// Dropped is a part left out, and why.
type Dropped struct {
	Key    string `json:"key"`
	Path   string `json:"path"`
	Reason string `json:"reason"`
	// NeedBudget is the smallest budget that would keep it, when known.
	NeedBudget int `json:"need_budget"`
}

// result is res in this package's types.
func result(res *app.Result, err error) (*Result, error) {
	if err != nil {
		return nil, err
	}
	ap := &res.Plan
	pl := Plan{
		Mode: ap.Mode, Target: ap.Target, Tokenizer: ap.Tokenizer, Chunker: ap.Chunker,
		Budget: ap.Budget, TotalTokens: ap.TotalTokens, Truncated: ap.Truncated, Exceeded: ap.Exceeded,
		Parts: make([]Part, len(ap.Parts)), Dropped: make([]Dropped, len(ap.Dropped)),
		Paths: ap.Paths, Warnings: ap.Warnings, StateRoot: ap.StateRoot, Digest: ap.Digest,
	}
	for i, pp := range ap.Parts {
		pl.Parts[i] = Part{
			Key: pp.Key, Source: pp.Source, Type: pp.Type, Path: pp.Path, Lines: pp.Lines, Level: pp.Level,
			Tokens: pp.Tokens, CID: pp.CID, Via: pp.Via, Score: pp.Score, Factors: pp.Components, Reason: pp.Reason,
			Transforms: pp.Transforms,
		}
	}
	for i, d := range ap.Dropped {
		pl.Dropped[i] = Dropped{Key: d.Key, Path: d.Path, Reason: d.Reason, NeedBudget: d.NeedBudget}
	}
	return &Result{Output: res.Output, Plan: pl}, nil
}

// Context assembles the context for a target: an artifact id (the task
// and what its links reach), a file or folder of the project (its files),
// or free text (the repository index's best chunks for it; the index is
// brought up to date first). With req.Sources or req.Task, the target is a
// query over those sources.
func (p *Project) Context(ctx context.Context, target string, req Request) (*Result, error) {
	return result(p.p.Context(ctx, target, req.app()))
}

// Pack assembles every file under req.Paths (the whole project when
// none), ranked and degraded by level to fit the budget.
func (p *Project) Pack(ctx context.Context, req Request) (*Result, error) {
	return result(p.p.Pack(ctx, req.app()))
}
