package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
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
	flags           *pflag.FlagSet
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
		ItemCap: o.itemCap,
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
	if o.g.reserves != "" {
		r, err := parseReserves(o.g.reserves)
		if err != nil {
			return req, err
		}
		req.Reserves = &r
	}
	if o.g.budget > 0 && o.g.window > 0 {
		return req, usagef("give --budget or --window, not both")
	}
	return req, nil
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

// assemble opens the project and assembles the target.
func (o *assembleOptions) assemble(ctx context.Context) (*ctxpack.Result, *ctxpack.Project, error) {
	req, err := o.request()
	if err != nil {
		return nil, nil, err
	}
	base, err := o.g.base()
	if err != nil {
		return nil, nil, err
	}
	p, err := ctxpack.Open(base, o.g.config)
	if err != nil {
		return nil, nil, err
	}
	if o.target != "" {
		if err := resolveTarget(base, o.target); err != nil {
			return nil, nil, err
		}
		req.Paths = []string{o.target}
	}
	res, err := p.Pack(ctx, req)
	return res, p, err
}

// resolveTarget checks that a context target is something this version
// can assemble: a path. Task ids and free text come with the links and
// retrieval modes.
func resolveTarget(base, target string) error {
	if target == "-" {
		return usagef("reading the target from standard input needs the retrieval mode, which this version does not have yet")
	}
	p := target
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	if _, err := os.Stat(p); err != nil {
		return usagef("target %q is not a file or directory; this version assembles paths (task ids and free text come with the links and retrieval modes)", target)
	}
	return nil
}

// run assembles and prints, or hands the options to runF (the test seam).
func (o *assembleOptions) run(ctx context.Context, runF func(*assembleOptions) error) error {
	if runF != nil {
		return runF(o)
	}
	res, _, err := o.assemble(ctx)
	if err != nil {
		return err
	}
	return o.write(res)
}

// write prints the result and its warnings.
func (o *assembleOptions) write(res *ctxpack.Result) error {
	if _, err := o.ios.Out.Write(res.Output); err != nil {
		return err
	}
	for _, w := range res.Plan.Warnings {
		o.ios.Warn("%s", w)
	}
	return nil
}

func newCmdContext(g *globals, ios *IOStreams, runF func(*assembleOptions) error) *cobra.Command {
	o := &assembleOptions{g: g, ios: ios}
	cmd := &cobra.Command{
		Use:   "context TARGET",
		Short: "Assemble the context for a target within the budget",
		Long: `Assemble the context for TARGET, fitted exactly to the budget.

TARGET is a file or directory of the project: its files are ranked by kind
(source, tests, docs, config) and path and degraded by level to fit, as with
'ctxpack pack'.`,
		Example: `  ctxpack context . --budget 8000
  ctxpack context internal/ --format json --overflow truncate`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.target = args[0]
			return o.run(cmd.Context(), runF)
		},
	}
	o.addFlags(cmd.Flags())
	return cmd
}

func newCmdPack(g *globals, ios *IOStreams, runF func(*assembleOptions) error) *cobra.Command {
	o := &assembleOptions{g: g, ios: ios}
	cmd := &cobra.Command{
		Use:   "pack [PATH...]",
		Short: "Pack the files under paths into the budget",
		Long: `Pack every file under the given paths (default: the whole project) into the
budget. .gitignore and .ctxpackignore are honoured; binary and oversized files
are skipped with a warning. Files are ranked by kind (source 1.0, tests 0.9,
docs 0.7, config 0.6, other 0.5) and then by path. With the default overflow
strategy, degrade, every file is first listed by its metadata, and then the
highest-ranked files are shown in full while the budget lasts.

The JSON format (--format json) carries the plan: every part with its level,
tokens and content id, every dropped part with the budget it would need,
the state root of the inputs and the digest of the content. The budget
applies to the content (rendered as text inside the plan), which is what an
agent reads; the JSON around it is for tools.`,
		Example: `  ctxpack pack --budget 50000 > context.txt
  ctxpack pack cmd/ internal/ --format xml --window 200000`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.paths = args
			return o.run(cmd.Context(), runF)
		},
	}
	o.addFlags(cmd.Flags())
	return cmd
}

// describe is a one-line summary of a plan for people.
func describe(p ctxpack.Plan) string {
	return fmt.Sprintf("%d parts, %d of %d tokens (%s), %d dropped", len(p.Parts), p.TotalTokens, p.Budget, p.Tokenizer, len(p.Dropped))
}
