package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// assembleOptions are the flags of every command that assembles.
type assembleOptions struct {
	g               *globals
	ios             *IOStreams
	target          string
	paths           []string
	strategy        string
	overflow        string
	depth           string
	dedupThreshold  float64
	maxChunksPerDoc int
	itemCap         float64
	preferRecent    bool
	includeMetadata bool
	walkOrder       string
	linkDepth       int
	index           indexFlags
	noUpdate        bool
	noRecord        bool // --no-record: no budget record (record.go)
	noCache         bool // --no-cache: no assembly cache
	flags           *pflag.FlagSet
	query           string // the target - as read from standard input (readQuery)
	sources         []string
	task            string
	limit           int
	toEvidence      string // --to-evidence DIR: export into a new workspace
}

func (o *assembleOptions) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.strategy, "strategy", "", "packing `STRATEGY`: greedy (documents by best part, parts in reading order),\ninterleaved (round-robin over documents), score (strictly by score)")
	fs.StringVar(&o.overflow, "overflow", "", "what happens to parts that do not fit: degrade (lower the\nlowest-priority parts first, then drop them), drop (keep the highest-priority\nparts whole), truncate (cut the first part that does not fit, with a marker),\nerror (fail with a report), allow (include everything, flag exceeded)")
	fs.StringVar(&o.depth, "depth", "", "highest `LEVEL` to show: meta, summary, detailed, full (default full)")
	fs.Float64Var(&o.dedupThreshold, "dedup-threshold", 0, "word-shingle overlap above which a part duplicates an earlier one (default 0.8)")
	fs.IntVar(&o.maxChunksPerDoc, "max-chunks-per-doc", 0, "at most `N` parts from one document (default no limit)")
	fs.Float64Var(&o.itemCap, "item-cap", 0, "largest `SHARE` of the budget one part may take before its fuller\nlevels wait for a larger budget (default 0.25; 1 = no cap)")
	fs.BoolVar(&o.preferRecent, "prefer-recent", false, "rank recently changed files higher (git commit times; default from config)")
	fs.BoolVar(&o.includeMetadata, "include-metadata", false, "start the content with one line saying what was assembled and from\nwhich state (mode, target, tokenizer, budget, state root)")
	o.flags = fs
	fs.StringVar(&o.walkOrder, "walk-order", "", "visit files in `ORDER` (sorted, reverse): a test knob for verify")
	_ = fs.MarkHidden("walk-order")
}

// request builds the library request from the flags.
func (o *assembleOptions) request() (ctxpack.Request, error) {
	req := ctxpack.Request{
		Paths: o.paths, Budget: o.g.budget, Window: o.g.window,
		Tokenizer: o.g.tokenizer, Format: o.g.format,
		Strategy: o.strategy, Overflow: o.overflow, Depth: o.depth,
		DedupThreshold: o.dedupThreshold, MaxChunksPerDoc: o.maxChunksPerDoc,
		ItemCap: o.itemCap, LinkDepth: o.linkDepth, NoCache: o.noCache,
		Sources: o.sources, Task: o.task, Limit: o.limit,
	}
	if o.limit < 0 {
		return req, usagef("--limit must not be negative (got %d)", o.limit)
	}
	if o.linkDepth < 0 {
		return req, usagef("--link-depth must not be negative (got %d)", o.linkDepth)
	}
	if f := o.flags.Lookup("query"); f != nil { // pack only
		req.Query = f.Value.String()
	}
	if flagChanged(o.flags, "prefer-recent") {
		req.PreferRecent = &o.preferRecent
	}
	if flagChanged(o.flags, "include-metadata") {
		req.IncludeMetadata = &o.includeMetadata
	}
	switch o.walkOrder {
	case "", "sorted":
	case "reverse":
		req.ReverseWalk = true
	default:
		return req, usagef("--walk-order must be sorted or reverse (got %q)", o.walkOrder)
	}
	return req, o.g.budgetFlags(&req)
}

// budgetFlags checks --budget and --window and puts --reserves in req.
func (g *globals) budgetFlags(req *ctxpack.Request) error {
	if g.reserves != "" {
		r, err := parseReserves(g.reserves)
		if err != nil {
			return err
		}
		req.Reserves = &r
	}
	if g.budget > 0 && g.window > 0 {
		return usagef("give --budget or --window, not both")
	}
	return nil
}

func parseReserves(s string) (ctxpack.Reserves, error) {
	f := strings.Split(s, ",")
	if len(f) != 3 {
		return ctxpack.Reserves{}, usagef("--reserves wants SYSTEM,QUERY,RESPONSE, for example 200,100,500 (got %q)", s)
	}
	var n [3]int
	for i, v := range f {
		x, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || x < 0 {
			return ctxpack.Reserves{}, usagef("--reserves: %q is not a non-negative number", v)
		}
		n[i] = x
	}
	return ctxpack.Reserves{System: n[0], Query: n[1], Response: n[2]}, nil
}

// assemble opens the project and assembles the target for req, the
// request of the flags.
func (o *assembleOptions) assemble(ctx context.Context, req ctxpack.Request) (*ctxpack.Result, *ctxpack.Project, error) {
	p, err := o.g.openProject()
	if err != nil {
		return nil, nil, err
	}
	if len(o.sources) > 0 || o.task != "" {
		var done func()
		req.Index, done = o.index.updateOptions(o.ios, o.noUpdate)
		defer done()
		query := o.target
		if query == "-" {
			if err := o.readQuery("context"); err != nil {
				return nil, nil, err
			}
			query = o.query
		}
		if len(req.Sources) == 0 { // --task alone: the task's artifacts
			req.Sources = []string{ctxpack.SourceArtifacts}
		}
		res, err := p.Sources(ctx, query, req)
		var se *ctxpack.SourceError
		if errors.As(err, &se) {
			err = usageError{err}
		}
		return res, p, err
	}
	if o.target != "" {
		var done func()
		req.Index, done = o.index.updateOptions(o.ios, o.noUpdate)
		defer done()
		if o.target == "-" {
			if err := o.readQuery("context"); err != nil {
				return nil, nil, err
			}
			res, err := p.Retrieve(ctx, o.query, req)
			return res, p, err
		}
		res, err := p.Context(ctx, o.target, req)
		var te *ctxpack.TargetError
		if errors.As(err, &te) {
			err = usageError{err}
		}
		return res, p, err
	}
	if o.toEvidence != "" {
		res, err := p.Pack(ctx, req)
		return res, p, err
	}
	// Written as it is rendered when nothing is fitted: res has no Output.
	res, err := p.PackTo(ctx, req, o.ios.Out)
	return res, p, err
}

// readQuery reads the query of the target - from standard input into
// o.query, unless it has been read already; an empty query is a usage
// error of command.
func (o *assembleOptions) readQuery(command string) error {
	if o.query != "" {
		return nil
	}
	q, err := readStdin(o.ios, command, "query")
	if err != nil {
		return err
	}
	if strings.TrimSpace(q) == "" {
		return usagef("%s: the query on standard input is empty", command)
	}
	o.query = q
	return nil
}

// readStdin reads standard input, for an argument given as -; what names
// the argument in the error.
func readStdin(ios *IOStreams, command, what string) (string, error) {
	data, err := io.ReadAll(ios.In)
	if err != nil {
		return "", fmt.Errorf("%s: read the %s from standard input: %w", command, what, err)
	}
	return string(data), nil
}

// run assembles and prints, or hands the options to runF (the test seam).
func (o *assembleOptions) run(ctx context.Context, runF func(*assembleOptions) error) error {
	if runF != nil {
		return runF(o)
	}
	req, err := o.request()
	if err != nil {
		return err
	}
	res, p, err := o.assemble(ctx, req)
	if err != nil {
		return err
	}
	o.record(p, req, res)
	if o.toEvidence != "" {
		o.ios.WarnAll(res.Plan.Warnings)
		return exportEvidence(o.ios, p, o.toEvidence, &res.Plan)
	}
	return o.write(res)
}

// write prints the result and its warnings.
func (o *assembleOptions) write(res *ctxpack.Result) error {
	if _, err := o.ios.Out.Write(res.Output); err != nil {
		return err
	}
	o.ios.WarnAll(res.Plan.Warnings)
	return nil
}

func newCmdContext(g *globals, ios *IOStreams, runF func(*assembleOptions) error) *cobra.Command {
	o := &assembleOptions{g: g, ios: ios}
	cmd := &cobra.Command{
		Use:   "context TARGET|-",
		Short: "Assemble the context for a task, a path or free text within the budget",
		Long: `Assemble the context for TARGET, fitted exactly to the budget.

TARGET is an artifact id, a path, or free text.

An artifact id (TASK-042) is links mode. ctxpack starts from the task in
.ctxpack/ (or a Contextia .contextia/ folder) and follows its frontmatter
links to specs, decisions and norms, each artifact once. Superseded
artifacts are replaced by their successor; deprecated ones and missing
targets are reported and left out. It renders identity, norms, decisions,
specs, the task, then the code paths the specs govern. Under a budget,
identity and the task are always kept. Specs the task links come first,
then transitive specs, then norms, then decisions: levels are lowered before
anything is dropped. --format json gives each part's link chain ("via") and
the spec globs ("paths").

A file or directory is packed as by 'ctxpack pack'.

Anything else is free text, and "-" reads it from standard input: retrieval
mode. The repository index (.ctxpack/index.db, or --index FILE) is brought
up to date, its chunks ranked as 'ctxpack search' ranks them (BM25,
embeddings when configured, and what the text names: identifiers, paths,
traceback frames, fused by RRF, then weighted by task alignment, mention
density, recency, dependency depth and file type), and the best file's
other chunks added at half its relevance. Chunks are placed in tiers by
relevance — primary 50% of the budget (0.7 and up), supporting 30% (0.5),
reference 15% (0.3), history 5% — grouped by file, and fitted: every
retrieved chunk is listed by a meta line first, then the most relevant are
shown in full, as signatures (detailed) or first lines (summary) while the
budget lasts. --format json gives each part's lines, relevance (score),
factors (components) and tier (bucket). A word that reads as a path
(src/x.go, notes.md) and does not exist is an error, not a query.

--sources LIST is sources mode: the free text is searched in each source
named (memories, code, experiences, values, commits, artifacts; 'ctxpack
memory', 'experience' and 'value' add to the store, .ctxpack/sources.db,
and 'ctxpack index' reads git history into it), in parallel, --limit items
each (default 20). Within a source, items are ranked by BM25 over
code-aware terms, weighted by confidence tier (experiences), importance
(memories) and recency (experiences, commits). Duplicates across sources
are dropped, keeping the most relevant copy: the same experience (an
experience and a value derived from it), a commit that changed only a
file a code item shows, and texts 90% alike (sources.similarity). The
budget is divided among the sources by weight — experiences 3, code 2,
commits 2, values 1, memories 1, artifacts 3 (sources.weights) — and what a
source leaves unused flows to the others. No item takes more than 25% of
its source's share (--item-cap): a longer one is cut, with a note saying
where the whole is. Markdown (the default here) shows one section per
source that has items, and a footer with the counts. A source that fails
is skipped with a warning. --task ID with the artifacts source adds the
artifacts the task links to. --overflow defaults to drop in this mode.

--to-evidence DIR writes the parts assembled into a new evidence workspace
instead of printing them, so that a person can start from it and edit
(see 'ctxpack evidence'): the identity and norms as system files, the task
or the query as the user request, every other part as evidence of its file
and line span, ranked in render order, each whole.`,
		Example: `  ctxpack context TASK-042 --budget 4000
  ctxpack context TASK-042 --depth summary --format json
  ctxpack context TASK-042 --link-depth 1
  ctxpack context internal/ --budget 8000
  ctxpack context "the invoice total drifts by a cent after conversion" --budget 8000
  gh issue view 123 | ctxpack context - --budget 13000 --format xml
  ctxpack context "invoice rounding" --sources memories,code,experiences,values,commits --budget 2000
  ctxpack context "retry the payment webhook" --sources artifacts,experiences --task TASK-042
  ctxpack context "invoice rounding" --budget 6000 --to-evidence ctx/`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.target = args[0]
			return o.run(cmd.Context(), runF)
		},
	}
	o.addFlags(cmd.Flags())
	o.addLinkFlags(cmd.Flags())
	o.index.add(cmd.Flags())
	cmd.Flags().BoolVar(&o.noUpdate, "no-update", false, "retrieve from the index as it is, without bringing it up to date first")
	cmd.Flags().StringSliceVar(&o.sources, "sources", nil, "sources mode: search these sources (`LIST` of memories, code,\nexperiences, values, commits, artifacts)")
	cmd.Flags().StringVar(&o.task, "task", "", "with --sources artifacts: the task `ID` whose linked artifacts to bring in")
	cmd.Flags().IntVar(&o.limit, "limit", 0, "sources mode: at most `N` items from each source's search (default 20)")
	cmd.Flags().StringVar(&o.toEvidence, "to-evidence", "", "write the parts assembled into a new evidence workspace `DIR` (ctx/)\ninstead of printing them: each whole, from its file and lines")
	o.addRecordFlags(cmd.Flags(), true)
	return cmd
}

// addLinkFlags adds the flags of commands that follow artifact links.
func (o *assembleOptions) addLinkFlags(fs *pflag.FlagSet) {
	fs.IntVar(&o.linkDepth, "link-depth", 0, "follow at most `N` links from the task (default no limit)")
}

func newCmdPack(g *globals, ios *IOStreams, runF func(*assembleOptions) error) *cobra.Command {
	o := &assembleOptions{g: g, ios: ios}
	cmd := &cobra.Command{
		Use:   "pack [PATH...]",
		Short: "Pack the files under paths into the budget",
		Long: `Pack every file under the given paths (default: the whole project). Without a
budget (--budget, --window, or one in the config) every file is packed whole
with exact token counts, like Repomix; with one, the output is fitted to it.
.gitignore and .ctxpackignore are honoured; binary and oversized files are
skipped with a warning. Under a budget, files are ranked by structure: the
score is the weighted mean of centrality 0.6 (PageRank over the references
between files: a file that uses an identifier another file defines points
to it), recency 0.3 (0.5^(days older than the newest file / 7), from git
commit times; left out when git knows no file) and file type 0.1 (source
1.0, tests 0.9, docs 0.7, config 0.6, other 0.5); ties go by path. With
--query, the score is the file's relevance to the query as retrieval mode
ranks it (from the repository index, brought up to date first; it already
weighs file type and recency); files it does not match score 0. --format json
shows each factor in the part's components. With the default overflow
strategy, degrade, every file is first listed by its metadata, and then the
highest-ranked files are raised to their summary, detailed and full levels
while the budget lasts.

The JSON format (--format json) carries the plan: every part with its level,
tokens and content id, every dropped part with the budget it would need,
the state root of the inputs and the digest of the content. The budget
applies to the content (rendered as text inside the plan), which is what an
agent reads; the JSON around it is for tools.`,
		Example: `  ctxpack pack --format xml > repo.xml
  ctxpack pack --budget 50000 > context.txt
  ctxpack pack --budget 8000 --query "invoice rounding" --format json
  ctxpack pack cmd/ internal/ --format xml --window 200000`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.paths = args
			return o.run(cmd.Context(), runF)
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().String("query", "", "rank the files by their relevance to `TEXT` (through the repository\nindex) instead of by structure")
	o.addRecordFlags(cmd.Flags(), false)
	return cmd
}

// describe is a one-line summary of a plan for people.
func describe(p ctxpack.Plan) string {
	return fmt.Sprintf("%d parts, %d of %d tokens (%s), %d dropped", len(p.Parts), p.TotalTokens, p.Budget, p.Tokenizer, len(p.Dropped))
}
