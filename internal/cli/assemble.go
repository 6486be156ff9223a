package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/ctxpack/ctxpack/internal/cli/evidencecmd"
	"github.com/spf13/pflag"
)

// AssembleOptions are the options of the commands that assemble: context,
// pack and verify, and within their own Options explain, budget and
// premortem.
type AssembleOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals
	// Project opens the project; its configuration's warnings come with
	// the assembly's.
	Project func() (*app.Project, error)

	Target          string   // context, verify, budget: TARGET (- reads the query from standard input)
	Paths           []string // pack: PATH...
	Query           string   // pack --query
	Include         []string // pack --include
	Exclude         []string // pack --exclude
	FilesFrom       string   // pack --files-from FILE (- reads standard input)
	Null            bool     // pack -0: the list is NUL-separated
	IncludeGen      bool     // pack --include-generated
	Remote          string   // pack --remote URL (or a URL as the first PATH)
	RemoteRef       string   // pack --remote-ref REF
	Strategy        string
	Overflow        string
	Depth           string
	DedupThreshold  float64
	MaxChunksPerDoc int
	ItemCap         float64
	PreferRecent    *bool // nil when not given: the configuration decides
	IncludeMetadata *bool // nil when not given: the configuration decides
	WalkOrder       string
	LinkDepth       int
	Index           cmdutil.IndexFlags
	NoUpdate        bool
	NoRecord        bool // --no-record: no budget record
	NoCache         bool // --no-cache: no assembly cache
	Sources         []string
	Task            string
	Limit           int
	ToEvidence      string // --to-evidence DIR: export into a new workspace
	NoRedact        bool   // --no-redact: secrets left in the output
	Verbose         bool   // -v: each skipped file, not only their counts
	Diff            bool   // --diff: the work tree's changes
	DiffBase        string // --diff-base REF: the branch's changes since REF
	Log             int    // --log N: the N newest commits
	OutFile         string // -o FILE: the output written to FILE, atomically
	Copy            bool   // --copy: the output copied to the clipboard
	SplitOutput     bool   // pack --split-output: outputs of at most the budget each
	LineNumbers     bool   // --line-numbers
	RemoveComments  bool   // --remove-comments
	RemoveEmpty     bool   // --remove-empty-lines
	Tree            bool   // pack --tree

	stdinQuery string // the query of the target -, once read (readQuery)
}

func assembleOptions(f *cmdutil.Factory) AssembleOptions {
	return AssembleOptions{IO: f.IOStreams, Globals: f.Globals, Project: f.Project}
}

func (o *AssembleOptions) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Strategy, "strategy", "", "packing `STRATEGY`: relevance (the best parts whole first, shown by file; the\ndefault where a query ranks the parts), greedy (documents by best part, parts in\nreading order; the default otherwise), interleaved (round-robin over\ndocuments), score (strictly by score)")
	fs.StringVar(&o.Overflow, "overflow", "", "what happens to parts that do not fit: degrade (lower the\nlowest-priority parts first, then drop them), drop (keep the highest-priority\nparts whole), truncate (cut the first part that does not fit, with a marker),\nerror (fail with a report), allow (include everything, flag exceeded; with\nno --budget or --window given, no budget at all: every part at --depth)")
	fs.StringVar(&o.Depth, "depth", "", "highest `LEVEL` to show: meta, summary, detailed, full (default full)")
	fs.Float64Var(&o.DedupThreshold, "dedup-threshold", 0, "word-shingle overlap above which a part duplicates an earlier one (default 0.8)")
	fs.IntVar(&o.MaxChunksPerDoc, "max-chunks-per-doc", 0, "at most `N` parts from one document (default no limit)")
	fs.Float64Var(&o.ItemCap, "item-cap", 0, "largest `SHARE` of the budget one part may take before its fuller\nlevels wait for a larger budget (default 0.25; 1 = no cap)")
	optionalBoolVar(fs, &o.PreferRecent, "prefer-recent", "rank recently changed files higher (git commit times; default from config)")
	optionalBoolVar(fs, &o.IncludeMetadata, "include-metadata", "start the content with one line saying what was assembled and from\nwhich state (mode, target, tokenizer, budget, state root)")
	fs.BoolVar(&o.NoRedact, "no-redact", false, cmdutil.NoRedactUsage)
	fs.BoolVar(&o.LineNumbers, "line-numbers", false, "start each line of a file's text with its line number in the file\n(a part from line 120 starts at 120), counted in the budget")
	fs.BoolVar(&o.RemoveComments, "remove-comments", false, "remove comments (Go, Python and the C family: C, C++, C#, Java,\nJavaScript, TypeScript, Rust, Kotlin, Swift, Scala; strings are left alone)\nbefore counting; files in other languages are left as they are, and a\nwarning counts them")
	fs.BoolVar(&o.RemoveEmpty, "remove-empty-lines", false, "remove blank lines from files' text before counting")
	fs.StringVar(&o.WalkOrder, "walk-order", "", "visit files in `ORDER` (sorted, reverse): a test knob for verify")
	_ = fs.MarkHidden("walk-order")
}

// addVerboseFlag adds -v/--verbose, to commands whose plans can skip
// files.
func (o *AssembleOptions) addVerboseFlag(fs *pflag.FlagSet) {
	fs.BoolVarP(&o.Verbose, "verbose", "v", false, cmdutil.VerboseUsage)
}

// addLinkFlags adds the flags of commands that follow artifact links.
func (o *AssembleOptions) addLinkFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.LinkDepth, "link-depth", 0, "follow at most `N` links from the task (default no limit)")
}

// addRetrieveFlags adds the flags of commands that retrieve from the
// repository index.
func (o *AssembleOptions) addRetrieveFlags(fs *pflag.FlagSet) {
	o.Index.Add(fs)
	fs.BoolVar(&o.NoUpdate, "no-update", false, "retrieve from the index as it is, without bringing it up to date first")
}

// addRecordFlags adds --no-record and, for commands that retrieve,
// --no-cache.
func (o *AssembleOptions) addRecordFlags(fs *pflag.FlagSet, cache bool) {
	fs.BoolVar(&o.NoRecord, "no-record", false, "do not append this assembly's budget record to .ctxpack/records.jsonl\n(see 'ctxpack report'; records: false in the config turns records off)")
	if cache {
		fs.BoolVar(&o.NoCache, "no-cache", false, "retrieve without the assembly cache (.ctxpack/cache/assemblies/), neither\nreading nor writing it; the output is the same either way")
	}
}

// optionalBool is a bool flag that is nil until it is given.
type optionalBool struct{ p **bool }

// optionalBoolVar adds a bool flag that sets *p only when it is given, so
// that its absence leaves the choice to the configuration.
func optionalBoolVar(fs *pflag.FlagSet, p **bool, name, usage string) {
	fs.Var(optionalBool{p}, name, usage)
	fs.Lookup(name).NoOptDefVal = "true"
}

func (b optionalBool) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	*b.p = &v
	return nil
}

func (b optionalBool) String() string {
	if b.p == nil || *b.p == nil {
		return "false"
	}
	return strconv.FormatBool(**b.p)
}

func (optionalBool) Type() string     { return "bool" }
func (optionalBool) IsBoolFlag() bool { return true }

// request builds the library request from the flags.
func (o *AssembleOptions) request() (app.Request, error) {
	g := o.Globals
	req := app.Request{
		Paths: o.Paths, Budget: g.Budget, Window: g.Window,
		Tokenizer: g.Tokenizer, Format: g.Format,
		Strategy: o.Strategy, Overflow: o.Overflow, Depth: o.Depth,
		DedupThreshold: o.DedupThreshold, MaxChunksPerDoc: o.MaxChunksPerDoc,
		ItemCap: o.ItemCap, LinkDepth: o.LinkDepth, NoCache: o.NoCache,
		Sources: o.Sources, Task: o.Task, Limit: o.Limit,
		Query: o.Query, PreferRecent: o.PreferRecent, IncludeMetadata: o.IncludeMetadata,
		NoRedact:    o.NoRedact,
		LineNumbers: o.LineNumbers, RemoveComments: o.RemoveComments, RemoveEmptyLines: o.RemoveEmpty,
		Tree: o.Tree,
		Diff: o.Diff, DiffBase: o.DiffBase, Log: o.Log,
		Include: o.Include, Exclude: o.Exclude, IncludeGenerated: o.IncludeGen,
	}
	if o.Null && o.FilesFrom == "" {
		return req, cmdutil.Usagef("-0/--null says how --files-from's list is separated; give --files-from too")
	}
	if o.FilesFrom != "" {
		if err := o.readFileList(&req); err != nil {
			return req, err
		}
	}
	out, err := o.Globals.Path(o.OutFile)
	if err != nil {
		return req, err
	}
	req.Output = out
	if o.Limit < 0 {
		return req, cmdutil.Usagef("--limit must not be negative (got %d)", o.Limit)
	}
	if o.LinkDepth < 0 {
		return req, cmdutil.Usagef("--link-depth must not be negative (got %d)", o.LinkDepth)
	}
	switch o.WalkOrder {
	case "", "sorted":
	case "reverse":
		req.ReverseWalk = true
	default:
		return req, cmdutil.Usagef("--walk-order must be sorted or reverse (got %q)", o.WalkOrder)
	}
	return req, g.BudgetFlags(&req)
}

// assemble opens the project and assembles the target for req, the
// request of the flags: a pack of the paths when there is no target and
// no source, else the facade's Context, which decides the mode. A query
// on standard input ("-") is read here and marked as free text.
//
// A pack is written to w as it is rendered (its result then has no
// Output); every other assembly is returned, for write to write.
func (o *AssembleOptions) assemble(ctx context.Context, req app.Request, w io.Writer) (*app.Result, *app.Project, error) {
	p, err := o.open(ctx)
	if err != nil {
		return nil, nil, err
	}
	if o.Target == "" && len(req.Sources) == 0 && req.Task == "" {
		if o.ToEvidence != "" {
			res, err := p.Pack(ctx, req)
			return res, p, err
		}
		// Written as it is rendered when nothing is fitted: res then has
		// no Output.
		res, err := p.PackTo(ctx, req, w)
		return res, p, err
	}
	var done func()
	req.Index, done = o.Index.UpdateOptions(o.IO, o.NoUpdate)
	defer done()
	target := o.Target
	if target == "-" {
		if err := o.readQuery("context"); err != nil {
			return nil, nil, err
		}
		target, req.FreeText = o.stdinQuery, true
	}
	res, err := p.Context(ctx, target, req)
	return res, p, err // a *app.SourceError or *app.TargetError is a usage error (cmdutil.IsUsage)
}

// open opens the project: the one around the working directory, or with
// --remote the clone of the remote repository (app.OpenRemote).
func (o *AssembleOptions) open(ctx context.Context) (*app.Project, error) {
	if o.Remote == "" {
		if o.RemoteRef != "" {
			return nil, cmdutil.Usagef("--remote-ref names a ref of --remote's repository; give --remote (or a URL) too")
		}
		return o.Project()
	}
	base, err := o.Globals.Base()
	if err != nil {
		return nil, err
	}
	if o.IO.ErrTTY { // a clone can take a while: say what is going on
		fmt.Fprintf(o.IO.ErrOut, "\rfetching %s…\x1b[K", app.ShowURL(o.Remote))
	}
	p, err := app.OpenRemote(ctx, o.Remote, o.RemoteRef, base, o.Globals.Config)
	if o.IO.ErrTTY {
		fmt.Fprint(o.IO.ErrOut, "\r\x1b[K")
	}
	if err != nil {
		return nil, err
	}
	o.IO.WarnAll(p.Warnings)
	return p, nil
}

// readFileList reads --files-from's list into req: from standard input
// for "-", else from the file (relative to -C or the working directory).
func (o *AssembleOptions) readFileList(req *app.Request) error {
	var data []byte
	if o.FilesFrom == "-" {
		s, err := o.IO.ReadStdin("pack", "file list")
		if err != nil {
			return err
		}
		data, req.FilesFrom = []byte(s), "standard input"
	} else {
		name, err := o.Globals.Path(o.FilesFrom)
		if err != nil {
			return err
		}
		if data, err = os.ReadFile(name); err != nil {
			return cmdutil.Usagef("--files-from: %v", err)
		}
		req.FilesFrom = o.FilesFrom
	}
	req.Files = app.SplitFileList(data, o.Null)
	if len(req.Files) == 0 {
		return cmdutil.Usagef("--files-from %s: the list is empty", o.FilesFrom)
	}
	return nil
}

// readQuery reads the query of the target - from standard input, unless
// it has been read already; an empty query is a usage error of command.
func (o *AssembleOptions) readQuery(command string) error {
	if o.stdinQuery != "" {
		return nil
	}
	q, err := o.IO.ReadStdin(command, "query")
	if err != nil {
		return err
	}
	if strings.TrimSpace(q) == "" {
		return cmdutil.Usagef("%s: the query on standard input is empty", command)
	}
	o.stdinQuery = q
	return nil
}

// record appends the budget record of an assembly to the project's
// records (.ctxpack/records.jsonl), unless --no-record or records: false
// in the config. A failure is a warning: the assembly stands.
func (o *AssembleOptions) record(p *app.Project, req app.Request, res *app.Result) {
	if o.NoRecord {
		return
	}
	if err := p.Record(req, &res.Plan, time.Now()); err != nil {
		o.IO.Warn("not recorded: %v", strings.TrimPrefix(err.Error(), "ctxpack: "))
	}
}

// assembleRun assembles and prints (context, pack), or with --to-evidence
// writes the parts into a new evidence workspace.
func assembleRun(ctx context.Context, o *AssembleOptions) error {
	req, err := o.request()
	if err != nil {
		return err
	}
	if o.ToEvidence != "" && (o.OutFile != "" || o.Copy) {
		return cmdutil.Usagef("--to-evidence writes a workspace, not an output: -o and --copy do not apply")
	}
	if o.SplitOutput {
		return o.splitRun(ctx, req)
	}
	out, err := o.openSink()
	if err != nil {
		return err
	}
	defer out.close()
	res, p, err := o.assemble(ctx, req, out.w)
	if err != nil {
		return err
	}
	o.record(p, req, res)
	if o.ToEvidence != "" {
		o.IO.WarnSkipped(res.Plan.Warnings, res.Plan.Skipped, o.Verbose)
		return evidencecmd.Export(o.IO, p, o.ToEvidence, &res.Plan)
	}
	return o.write(out, res)
}

// write writes the result's output (a pack's was written as it was
// rendered), puts the output in its place (-o, --copy), and prints the
// warnings.
func (o *AssembleOptions) write(out *sink, res *app.Result) error {
	if _, err := out.w.Write(res.Output); err != nil {
		return err
	}
	if err := out.commit(res.Plan.TotalTokens); err != nil {
		return err
	}
	o.IO.WarnSkipped(res.Plan.Warnings, res.Plan.Skipped, o.Verbose)
	return nil
}
