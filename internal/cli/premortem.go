package cli

import (
	"context"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

type premortemOptions struct {
	assembleOptions
	domain, strategy string
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

func newCmdPremortem(g *globals, ios *IOStreams, runF func(*premortemOptions) error) *cobra.Command {
	o := &premortemOptions{assembleOptions: assembleOptions{g: g, ios: ios}}
	cmd := &cobra.Command{
		Use:   "premortem DOMAIN",
		Short: "Past failures, surprises, root causes and values for a domain",
		Long:  premortemLong,
		Example: `  ctxpack premortem debugging
  ctxpack premortem debugging --strategy systematic-elimination --budget 2000
  ctxpack premortem feature --format json`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.domain = args[0]
			if runF != nil {
				return runF(o)
			}
			return premortemRun(cmd.Context(), o)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.strategy, "strategy", "", "also show how the experiences with this `STRATEGY` turned out")
	fs.IntVar(&o.limit, "limit", 0, "at most `N` experiences in each section (default 10)")
	fs.StringVar(&o.overflow, "overflow", "", "what happens to items that do not fit: drop (default), truncate, error, allow")
	fs.StringVar(&o.depth, "depth", "", "highest `LEVEL` to show: meta (headings only), summary, detailed, full (default)")
	fs.Float64Var(&o.itemCap, "item-cap", 0, "largest `SHARE` of its section's budget one item may take before it is cut (default 0.25)")
	fs.BoolVar(&o.includeMetadata, "include-metadata", false, "start the content with one line saying what was assembled and from which state")
	o.flags = fs
	o.addRecordFlags(fs, false)
	return cmd
}

func premortemRun(ctx context.Context, o *premortemOptions) error {
	req, err := o.request()
	if err != nil {
		return err
	}
	p, err := o.g.openProject()
	if err != nil {
		return err
	}
	res, err := p.Premortem(ctx, o.domain, o.strategy, req)
	if err != nil {
		return err
	}
	o.record(p, req, res)
	return o.write(res)
}
