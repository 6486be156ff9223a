package app

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/collect/files"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// Plan is the record of an assembly: the schema of the json format.
type Plan = render.Plan

// Result is an assembled context.
type Result struct {
	Plan   Plan
	Output []byte // what the requested format prints
	// JSON says Output is the plan as JSON (the json format), not the
	// content: set by PackSplit, whose outputs a front end separates.
	JSON bool
}

// Reserves are the tokens kept back from a context window (DESIGN §3).
type Reserves = project.Reserves

// Request says what to assemble and how. Empty fields take the project's
// configuration, then the defaults.
type Request struct {
	// Paths are the files and directories to pack, relative to the
	// working directory (Project.Dir; slash or OS separators); a path
	// with a glob character that names no file is a glob (selection.go,
	// docs/selection.md). Empty means the whole project.
	Paths []string
	// Include and Exclude are globs (.gitignore's rules, relative to the
	// working directory; an entry may hold several separated by commas)
	// that a packed file must match, one of them, and must not match.
	Include []string
	Exclude []string
	// Files is a list of files (or directories) to pack, relative to the
	// working directory, entry i being line i+1 of FilesFrom, the list's
	// name for messages ("standard input", a file name); blank entries
	// are skipped, duplicates folded (SplitFileList splits a list).
	Files     []string
	FilesFrom string
	// IncludeGenerated packs lock files and generated files, which a
	// pack leaves out (with their reasons) unless named.
	IncludeGenerated bool

	Budget    int       // tokens the output may use
	Window    int       // a context window; the budget is Window − reserves
	Reserves  *Reserves // nil means the configured reserves
	Tokenizer string
	Format    string
	Strategy  string // greedy, interleaved, score, relevance; "" is the mode's
	Overflow  string // degrade, drop, truncate, error, allow
	Depth     string // the highest level: meta, summary, detailed, full

	DedupThreshold  float64 // 0 = configured
	MaxChunksPerDoc int     // 0 = configured
	// ItemCap is the largest share of the budget one part may take
	// before its fuller levels wait for a larger budget; 0 = configured,
	// 1 = no cap.
	ItemCap float64
	// PreferRecent and IncludeMetadata override the configuration when set.
	PreferRecent    *bool
	IncludeMetadata *bool

	// FreeText says that Context's target is free text, never an artifact
	// id or a path: a query a front end read from standard input.
	FreeText bool

	// LinkDepth limits how many links from the task links mode follows;
	// 0 is no limit.
	LinkDepth int

	// ReverseWalk visits files in reverse order: a test knob that proves
	// the output does not depend on walk order (ctxpack verify uses it).
	ReverseWalk bool

	// Query ranks the files of a pack by their relevance to it (through
	// the repository index) instead of by structure.
	Query string
	// Index says where the repository index is, for retrieval and for
	// packs ranked by Query.
	Index IndexOptions
	// Sources are the sources of sources mode (Project.Sources): names
	// from SourceNames, each entry one or several separated by commas.
	Sources []string
	// Task is the task whose linked artifacts the artifacts source brings.
	Task string
	// Limit is how many items each source's search returns; 0 means the
	// configured limit (sources.limit, default 20).
	Limit int

	// NoRedact turns the redact stage off for this request: secrets are
	// left in the output as they are (docs/security.md). The MCP server
	// never sets it; only the configuration (secrets.redact) or the
	// CLI's --no-redact does.
	NoRedact bool

	// NoCache assembles without the assembly cache (.ctxpack/cache/),
	// neither reading nor writing it; the answer is the same either way.
	NoCache bool

	// Diff adds the work tree's changes against HEAD, staged or not, to a
	// pack or a retrieval: one part per changed file, its unified diff.
	// DiffBase compares with the merge base of that branch, tag or
	// commit and HEAD instead (what a branch changed since it left it).
	Diff     bool
	DiffBase string
	// Log adds the Log newest commits, one part each.
	Log int
	// LineNumbers, RemoveComments and RemoveEmptyLines change the full
	// text of every part from a file before it is counted (pack.Transform):
	// each line starts with its number in the file; the comments of the
	// languages whose syntax is known (Go, Python, the C family) are
	// removed, a part in another language left as it is; blank lines are
	// removed. The plan lists what was done to each part.
	LineNumbers      bool
	RemoveComments   bool
	RemoveEmptyLines bool

	// Output is the file the front end writes the output to (-o FILE),
	// relative to the directory the project was opened from, or absolute;
	// "" for none. A pack leaves it out of its input, with the outputs of
	// a split of it (SplitName), each among the skipped, so that a run
	// never packs an earlier run's output.
	Output string

	// Tree puts the directory structure of the files a pack holds at its
	// top (Pack, PackTo, PackSplit; pack.Options.Structure): a part
	// fitted before the files and lowered or dropped, with its reason,
	// like any other.
	Tree bool
}

// DefaultBudget is the budget used when neither the request nor the
// configuration gives one.
const DefaultBudget = 8000

// Project is a project opened for assembly.
type Project struct {
	Root     string // absolute
	Dir      string // absolute: where relative request paths start
	FS       fs.FS  // the files under Root
	Config   project.Config
	Warnings []string // from reading the configuration
	// Remote is the repository the project was cloned from (OpenRemote);
	// nil for a project on disk.
	Remote *Remote
	// StorePool, when set, keeps the PostgreSQL stores the project opens
	// (a server's, for its life); nil opens one for each use.
	StorePool *StorePool

	projectState
}

// Open finds the project root from dir (walking up like git) and reads
// its configuration; configPath, when not empty, names another config file
// (relative to dir or absolute).
func Open(dir, configPath string) (*Project, error) {
	root, err := project.FindRoot(dir)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("ctxpack: %w", err)
	}
	p := &Project{Root: root, Dir: abs, FS: project.DirFS(root)}
	cfsys, cpath := p.FS, ""
	switch {
	case configPath != "":
		abs := configPath
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, abs)
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, fmt.Errorf("ctxpack: config file: %w", err)
		}
		cfsys, cpath = project.DirFS(filepath.Dir(abs)), filepath.Base(abs)
	default:
		if d := project.ArtifactDir(p.FS); d != "" {
			cpath = d + "/config.yaml"
		}
	}
	p.Config = project.Defaults()
	if cpath != "" {
		if err := p.loadConfig(cfsys, cpath); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// loadConfig reads the configuration file at path in fsys into p: its
// settings, and its warnings among p's.
func (p *Project) loadConfig(fsys fs.FS, path string) error {
	cfg, warns, err := project.LoadConfig(fsys, path)
	if err != nil {
		return err
	}
	p.Config = cfg
	for _, w := range warns {
		p.Warnings = append(p.Warnings, w.String())
	}
	return nil
}

// Tokenizer returns the tokenizer a request names, or the configured one.
func (p *Project) Tokenizer(name string) (tokenizer.Tokenizer, error) {
	if name == "" {
		name = p.Config.Tokenizer
	}
	return getTokenizer(name)
}

// options turns a request into engine options, the configuration filling
// what the request leaves empty.
func (p *Project) options(req Request) (pack.Options, error) {
	c := p.Config
	var o pack.Options
	var err error
	if o.Tokenizer, err = p.Tokenizer(req.Tokenizer); err != nil {
		return o, err
	}
	if o.Format, err = parseFormat(firstNonEmpty(req.Format, c.Format)); err != nil {
		return o, err
	}
	if o.Strategy, err = parseStrategy(firstNonEmpty(req.Strategy, c.Pack.Strategy)); err != nil {
		return o, err
	}
	if o.Overflow, err = parseOverflow(firstNonEmpty(req.Overflow, c.Pack.Overflow)); err != nil {
		return o, err
	}
	o.MaxLevel = pack.Full
	if req.Depth != "" {
		if o.MaxLevel, err = parseLevel(req.Depth); err != nil {
			return o, err
		}
	}
	if o.Budget, err = p.budget(req); err != nil {
		return o, err
	}
	o.DedupThreshold = c.Pack.DedupThreshold
	if req.DedupThreshold != 0 {
		o.DedupThreshold = req.DedupThreshold
	}
	o.MaxChunksPerDoc = c.Pack.MaxChunksPerDoc
	if req.MaxChunksPerDoc != 0 {
		o.MaxChunksPerDoc = req.MaxChunksPerDoc
	}
	o.Policy.ItemCap = c.Pack.ItemCap
	if req.ItemCap != 0 {
		if req.ItemCap < 0 || req.ItemCap > 1 {
			return o, fmt.Errorf("ctxpack: item cap must be in (0, 1] (got %g)", req.ItemCap)
		}
		o.Policy.ItemCap = req.ItemCap
	}
	if o.Policy.ItemCap >= 1 {
		o.Policy.ItemCap = 0 // a cap of the whole budget is no cap
	}
	o.PreferRecent = c.Pack.PreferRecent
	if req.PreferRecent != nil {
		o.PreferRecent = *req.PreferRecent
	}
	if o.Secrets, err = p.scanner(req); err != nil {
		return o, err
	}
	o.Transform = pack.Transform{LineNumbers: req.LineNumbers, RemoveComments: req.RemoveComments, RemoveEmptyLines: req.RemoveEmptyLines}
	return o, nil
}

// rankedStrategy is the packing strategy of a mode whose parts a query
// ranks: the request's or the configuration's when either names one,
// else relevance (docs/engine.md: the best parts whole first).
func (p *Project) rankedStrategy(req Request, parsed pack.Strategy) pack.Strategy {
	if firstNonEmpty(req.Strategy, p.Config.Pack.Strategy) == "" {
		return pack.Relevance
	}
	return parsed
}

// budget resolves --budget and --window with reserves: the request's,
// else the configuration's, else DefaultBudget; 0, no budget, only when
// the request asks for none (unbudgeted: overflow allow and no budget).
func (p *Project) budget(req Request) (int, error) {
	if req.Budget < 0 || req.Window < 0 {
		return 0, fmt.Errorf("ctxpack: budget and window must not be negative")
	}
	if req.Budget > 0 && req.Window > 0 {
		return 0, fmt.Errorf("ctxpack: give a budget or a window, not both")
	}
	if p.unbudgeted(req) {
		return 0, nil
	}
	if req.Budget > 0 {
		return req.Budget, nil
	}
	window, res := p.window(req)
	if window == 0 && p.Config.Budget > 0 {
		return p.Config.Budget, nil
	}
	if window > 0 {
		n := window - res.System - res.Query - res.Response
		if n <= 0 {
			return 0, fmt.Errorf("ctxpack: window %d leaves no budget after reserves (system %d, query %d, response %d)", window, res.System, res.Query, res.Response)
		}
		return n, nil
	}
	return DefaultBudget, nil
}

// window is the context window a request's budget comes from, with the
// reserves kept back from it: the request's, else the configuration's
// when it gives no budget; 0 when the budget is given directly.
func (p *Project) window(req Request) (int, Reserves) {
	res := p.Config.Reserves
	if req.Reserves != nil {
		res = *req.Reserves
	}
	switch {
	case req.Budget > 0:
		return 0, res
	case req.Window > 0:
		return req.Window, res
	case p.Config.Budget == 0:
		return p.Config.Window, res
	}
	return 0, res
}

// Pack assembles every file under req.Paths, degraded by level to fit.
// The budget is the request's, else the configuration's, else
// DefaultBudget, as for every target. Files are ranked by structure: how
// central they are in the graph of references between files, how
// recently they changed, and their kind; with req.Query, by their
// relevance to it instead. With overflow allow and no budget given (asked
// for in so many words), there is no budget: every file is packed at the
// requested depth with exact counts, ranked by kind of file (source,
// tests, docs, config) and path unless req.Query asks for a ranking, and
// only exact copies are left out unless req.DedupThreshold asks for more.
// A part that repeats another is shown as a line naming it. The
// collector is internal/collect/files.
func (p *Project) Pack(ctx context.Context, req Request) (*Result, error) {
	parts, o, err := p.packParts(ctx, req)
	if err != nil {
		return nil, err
	}
	res, err := pack.Assemble(parts, o)
	if err != nil {
		return nil, err
	}
	if err := checkEmpty(&res.Plan, packSearched(res.Plan.Warnings)); err != nil {
		return nil, err
	}
	return &Result{Plan: res.Plan, Output: res.Output}, nil
}

// packSearched says where a pack found nothing: no text file under its
// paths, and how many files were skipped (the warnings name them).
func packSearched(warnings []string) string {
	skipped := 0
	for _, w := range warnings {
		if strings.HasPrefix(w, "skipped ") {
			skipped++
		}
	}
	s := "no text file under it"
	if skipped > 0 {
		s += fmt.Sprintf(" (%d %s skipped: binary, oversized, secret, lock or generated files, as the warnings say)", skipped, plural(skipped, "file", "files"))
	}
	return s
}

// PackTo is Pack writing the output to w. When nothing is fitted to a
// budget (no budget, or --overflow allow) and the format is not json, the
// output is written as it is rendered, a few files at a time, and its
// content is not kept: memory does not grow with the size of the output.
// Otherwise the output is fitted, verified and then written. Either way
// the bytes written are Pack's Output, and the Result has no Output; when
// the output was written as it was rendered, its Plan has no Content.
// When PackTo fails after it started writing, part of the output has been
// written.
func (p *Project) PackTo(ctx context.Context, req Request, w io.Writer) (*Result, error) {
	parts, o, err := p.packParts(ctx, req)
	if err != nil {
		return nil, err
	}
	if o.Overflow != pack.Allow || o.Format == render.JSON {
		// Fitted, then written: an empty result writes nothing.
		res, err := pack.Assemble(parts, o)
		if err != nil {
			return nil, err
		}
		if err := checkEmpty(&res.Plan, packSearched(res.Plan.Warnings)); err != nil {
			return nil, err
		}
		if _, err := w.Write(res.Output); err != nil {
			return nil, err
		}
		return &Result{Plan: res.Plan}, nil
	}
	res, err := pack.AssembleTo(w, parts, o) // nothing is written when no part is shown
	if err != nil {
		return nil, err
	}
	if err := checkEmpty(&res.Plan, packSearched(res.Plan.Warnings)); err != nil {
		return nil, err
	}
	return &Result{Plan: res.Plan}, nil
}

// PackSplit assembles the pack an unbudgeted request would (every file
// under req.Paths at the requested depth, as Pack with overflow allow and
// no budget), divided into outputs that each take at most the request's
// budget (--budget, --window, the configuration's, else DefaultBudget), in
// order: their union shows every file that pack shows, a file too large
// for one output cut into pieces of lines (pack.Split). Overflow and
// strategy have nothing to decide and are ignored.
func (p *Project) PackSplit(ctx context.Context, req Request) ([]*Result, error) {
	budget, err := p.budget(req)
	if err != nil {
		return nil, err
	}
	if budget == 0 { // overflow allow with no budget given: the default one
		budget = DefaultBudget
	}
	parts, o, err := p.packPartsAs(ctx, req, true)
	if err != nil {
		return nil, err
	}
	outs, err := pack.Split(parts, o, budget)
	if err != nil {
		return nil, err
	}
	if len(outs) == 0 {
		return nil, checkEmpty(&Plan{Mode: o.Mode, Target: o.Target, Warnings: o.Warnings}, packSearched(o.Warnings))
	}
	res := make([]*Result, len(outs))
	for i, r := range outs {
		res[i] = &Result{Plan: r.Plan, Output: r.Output, JSON: o.Format == render.JSON}
	}
	return res, nil
}

// packParts resolves a pack request into engine options, the
// configuration and the pack defaults filling what it leaves empty, and
// collects its parts (internal/collect/files).
func (p *Project) packParts(ctx context.Context, req Request) ([]pack.Part, pack.Options, error) {
	return p.packPartsAs(ctx, req, p.unbudgeted(req))
}

// packPartsAs is packParts, for an unbudgeted pack when unbudgeted is
// true whatever the request says (its options then have no budget and
// overflow allow).
func (p *Project) packPartsAs(ctx context.Context, req Request, unbudgeted bool) ([]pack.Part, pack.Options, error) {
	o, err := p.options(req)
	if err != nil {
		return nil, o, err
	}
	if unbudgeted {
		o.Budget, o.Overflow = 0, pack.Allow
	}
	if unbudgeted && req.DedupThreshold == 0 {
		o.DedupThreshold = 1 // with no budget, only exact copies are left out
	}
	o.ShowCopies = true
	o.MetaAsTree = true
	o.Structure = req.Tree
	if req.Query != "" {
		o.Strategy = p.rankedStrategy(req, o.Strategy) // the query ranks the files
	}
	sel, err := p.selection(req)
	if err != nil {
		return nil, o, err
	}
	roots := sel.roots
	ranked := !unbudgeted || req.Query != ""
	wo, err := p.walkOptions()
	if err != nil {
		return nil, o, err
	}
	wo.Select, wo.Prune = sel.walkSelect(), sel.walkPrune()
	wo.KeepGenerated = sel.keepGenerated(req.IncludeGenerated || !wo.SkipGenerated)
	c, err := files.Collect(ctx, files.Env{FS: p.FS, Root: p.Root, Walk: wo}, files.Request{
		Roots:   roots,
		Ranked:  !unbudgeted,
		Query:   req.Query,
		Changed: o.PreferRecent && !ranked,
		Reverse: req.ReverseWalk,
		Leave:   p.leaveOutput(req.Output),
		Relevance: func(ctx context.Context, query string) (map[string]float64, []string, error) {
			hits, warnings, err := p.RankFiles(ctx, query, req.Index)
			if err != nil {
				return nil, nil, err
			}
			rel := make(map[string]float64, len(hits))
			for _, f := range hits {
				rel[f.Path] = f.Relevance
			}
			return rel, warnings, nil
		},
	})
	if err != nil {
		return nil, o, err
	}
	if err := sel.check(); err != nil {
		return nil, o, err
	}
	if ranked {
		o.PreferRecent = false // recency is one of the factors already
	}
	o.Mode, o.Target = "pack", sel.target(c.Target)
	if r := p.Remote; r != nil {
		// The clone's place in the cache says nothing; the URL and the
		// commit say what was packed.
		t := r.URL + "@" + r.Commit
		if o.Target != "." {
			t += " " + o.Target
		}
		o.Target = t
	}
	o.StateRoot = c.StateRoot
	o.Skipped = skips(c.Skipped)
	o.Warnings = append(slices.Clone(p.Warnings), c.Warnings...)
	o.Warnings = append(o.Warnings, SkipWarnings(o.Skipped, p.tooLargeFix())...)
	slices.Sort(o.Warnings)
	var keep func(string) bool
	if pick := sel.walkSelect(); pick != nil || !under(roots, ".") {
		keep = func(path string) bool { return under(roots, path) && (pick == nil || pick(path)) }
	}
	parts, err := p.addChanges(ctx, req, c.Parts, &o, keep)
	if err != nil {
		return nil, o, err
	}
	p.setMetadata(req, &o)
	return parts, o, nil
}

func (p *Project) includeMetadata(req Request) bool {
	if req.IncludeMetadata != nil {
		return *req.IncludeMetadata
	}
	return p.Config.Pack.IncludeMetadata
}

// setMetadata sets the metadata line of an assembly, when req or the
// configuration asks for one: the mode, the target unless it is free text
// (retrieval's query, which can be long and span lines), the tokenizer,
// the budget and the state root, all set in o before.
func (p *Project) setMetadata(req Request, o *pack.Options) {
	if !p.includeMetadata(req) {
		return
	}
	target := " target=" + o.Target
	if o.Mode == "retrieval" {
		target = ""
	}
	o.Metadata = fmt.Sprintf("mode=%s%s tokenizer=%s budget=%d state_root=%s", o.Mode, target, o.Tokenizer.Name(), o.Budget, o.StateRoot)
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// leaveOutput is the files.Request.Leave of a pack that writes to out
// (Request.Output): out itself, and the outputs of a split of it
// (SplitName), when out is under the project root; nil otherwise.
func (p *Project) leaveOutput(out string) func(string) string {
	if out == "" {
		return nil
	}
	rel, err := project.Resolve(p.Root, p.Dir, out)
	if err != nil || rel == "." {
		return nil
	}
	dir, base := path.Split(rel)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	if ext == base {
		stem, ext = base, ""
	}
	return func(f string) string {
		if f == rel {
			return project.OutputReason
		}
		d, b := path.Split(f)
		if d != dir || !strings.HasPrefix(b, stem+".") || !strings.HasSuffix(b, ext) {
			return ""
		}
		n := strings.TrimSuffix(strings.TrimPrefix(b, stem+"."), ext)
		if n != "" && strings.Trim(n, "0123456789") == "" && n[0] != '0' {
			return project.OutputReason
		}
		return ""
	}
}

// SplitName is the file of output i (from 1) of a split output written
// to name (-o FILE with --split-output): the number before the extension,
// out.txt → out.1.txt; a name with no extension (or only one, .pack)
// gets it at the end, out → out.1.
func SplitName(name string, i int) string {
	ext := filepath.Ext(name)
	base := filepath.Base(name)
	if ext == "" || ext == base {
		return fmt.Sprintf("%s.%d", name, i)
	}
	return fmt.Sprintf("%s.%d%s", strings.TrimSuffix(name, ext), i, ext)
}
