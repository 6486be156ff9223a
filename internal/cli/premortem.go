package cli

import (
	"context"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// PremortemOptions are the options of 'ctxpack premortem': the domain
// and strategy, and those of an assembly that premortem takes.
type PremortemOptions struct {
	AssembleOptions
	Domain   string
	Strategy string // --strategy: the experiences' (the packing strategy is not premortem's to choose)
}

const premortemLong = `Assemble the warnings worth reading before work in DOMAIN: what went wrong
before, from the experiences in the store (.ctxpack/sources.db; 'ctxpack
experience add' records them).

The sections, each a share of the budget (3, 2, 2, 2, 1), are:
  Common Failures       the domain's falsified experiences (full axis)
  Strategy Performance  with --strategy: that strategy's outcomes, failures
                        first (strategy axis)
  Unexpected Outcomes   the domain's surprises (surprise axis)
  Root Causes to Watch  why the domain's hypotheses failed (root-cause axis)
  Relevant Principles   the values that match the domain and strategy
Each section takes at most --limit experiences (default 10; values 5),
ranked by how well they match, then by confidence tier and recency. No item
takes more than 25% of its section's share (--item-cap): a longer one is
cut, with its experience id. The output is markdown unless --format says
otherwise, and ends with the number of experiences it is based on. The
budget is 1500 tokens unless --budget, --window or the configuration gives
one.`

// NewCmdPremortem is 'ctxpack premortem DOMAIN': a domain's past
// failures, surprises, root causes and values, fitted to the budget.
func NewCmdPremortem(f *cmdutil.Factory, runF func(*PremortemOptions) error) *cobra.Command {
	o := &PremortemOptions{AssembleOptions: assembleOptions(f)}
	cmd := &cobra.Command{
		Use:   "premortem DOMAIN",
		Short: "Past failures, surprises, root causes and values for a domain",
		Long:  premortemLong,
		Example: `  ctxpack premortem debugging
  ctxpack premortem debugging --strategy systematic-elimination --budget 2000
  ctxpack premortem feature --format json`,
		Args:        cmdutil.ExactArgs(1),
		Annotations: cmdutil.ArgHelp("DOMAIN", "the domain whose experiences to read"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Domain = args[0]
			if runF != nil {
				return runF(o)
			}
			return premortemRun(cmd.Context(), o)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.Strategy, "strategy", "", "also show how the experiences with this `STRATEGY` turned out")
	fs.IntVar(&o.Limit, "limit", 0, "at most `N` experiences in each section (default 10)")
	fs.StringVar(&o.Overflow, "overflow", "", "what happens to items that do not fit: drop (default), truncate, error, allow")
	fs.StringVar(&o.Depth, "depth", "", "highest `LEVEL` to show: meta (headings only), summary, detailed, full (default)")
	fs.Float64Var(&o.ItemCap, "item-cap", 0, "largest `SHARE` of its section's budget one item may take before it is cut (default 0.25)")
	optionalBoolVar(fs, &o.IncludeMetadata, "include-metadata", "start the content with one line saying what was assembled and from which state")
	fs.BoolVar(&o.NoRedact, "no-redact", false, cmdutil.NoRedactUsage)
	o.addRecordFlags(fs, false)
	o.addOutputFlags(fs)
	cmdutil.SetFormats(cmd, cmdutil.AnyFormat)
	return cmd
}

func premortemRun(ctx context.Context, o *PremortemOptions) error {
	req, err := o.request()
	if err != nil {
		return err
	}
	out, err := o.openSink()
	if err != nil {
		return err
	}
	defer out.close()
	p, err := o.Project()
	if err != nil {
		return err
	}
	res, err := p.Premortem(ctx, o.Domain, o.Strategy, req)
	if err != nil {
		return err
	}
	o.record(p, req, res)
	return o.write(out, res)
}
