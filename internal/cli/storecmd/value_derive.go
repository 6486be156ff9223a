package storecmd

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// ValueDeriveOptions are the options of 'ctxpack value derive'.
type ValueDeriveOptions struct {
	StoreOptions
	Axis      string
	MinSize   int
	Threshold float64
	Add       bool
}

const valueDeriveLong = `Propose values from the experiences in the store that have a lesson.

On each axis (or the one --axis names) the experiences on it are clustered.
Each is a TF-IDF vector of the terms of its axis's fields, and
average-linkage clustering merges the two most alike clusters (their
average cosine similarity over pairs of experiences) while they are at
least --threshold alike (default 0.2). Every cluster of at least
--min-size experiences (default 3) gives one proposal: the lesson of the
member closest to the cluster's centroid, with its similarity to it, the
cluster's members, and their domains and strategies as tags. Each proposal
is printed as "field: value" lines, blank lines between them: cluster
(axis/n), axis, size, members, experience (the central member),
similarity, tags and text. Proposals come by axis (full, strategy,
surprise, root_cause), then by size, largest first; the same rows always
give the same proposals.

Nothing is stored unless --add: then each proposal is added as a value
(with its cluster, size, similarity, experience and tags) and only
"added value:ID" is printed for each. A proposal whose text is already a
value on its axis is not added again (a note on standard error says which).
--format json prints the proposals as a JSON array; with --add each has
"value", the key of the value that holds it, and "added": true when this
run added it.`

// NewCmdValueDerive is 'ctxpack value derive'.
func NewCmdValueDerive(f *cmdutil.Factory, runF func(*ValueDeriveOptions) error) *cobra.Command {
	o := &ValueDeriveOptions{StoreOptions: storeOptions(f)}
	cmd := &cobra.Command{
		Use:     "derive",
		Short:   "Propose values from clusters of alike experiences (--add stores them)",
		Long:    valueDeriveLong,
		Example: "  ctxpack values derive\n  ctxpack values derive --axis root_cause --min-size 4 --threshold 0.3\n  ctxpack values derive --add --format json",
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return valueDeriveRun(cmd.Context(), o)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.Axis, "axis", "", "cluster on this `AXIS` only: full, strategy, surprise or root_cause\n(default all four)")
	fs.IntVar(&o.MinSize, "min-size", app.DefaultMinClusterSize, "the fewest experiences (`N`) a cluster needs to give a proposal")
	fs.Float64Var(&o.Threshold, "threshold", app.DefaultDeriveThreshold, "the least `SIMILARITY` (above 0, at most 1) at which two clusters merge")
	fs.BoolVar(&o.Add, "add", false, "store each proposal as a value")
	return cmd
}

func valueDeriveRun(ctx context.Context, o *ValueDeriveOptions) error {
	const command = "value derive"
	axis, err := parseAxis(command, o.Axis)
	if err != nil {
		return err
	}
	if o.MinSize < 1 {
		return cmdutil.Usagef("%s: --min-size must be a whole number from 1 (got %d)", command, o.MinSize)
	}
	if !(o.Threshold > 0 && o.Threshold <= 1) {
		return cmdutil.Usagef("%s: --threshold must be above 0 and at most 1 (got %s)", command, formatFloat(o.Threshold))
	}
	st, err := o.open(command, !o.Add)
	if err != nil {
		return err
	}
	defer st.Close()
	derived, err := st.DeriveValues(ctx, app.DeriveOptions{Axis: axis, MinSize: o.MinSize, Threshold: o.Threshold}, o.Add)
	err = flagError(command, err, map[string]string{"axis": "--axis", "min_cluster_size": "--min-size", "threshold": "--threshold"})
	if err == nil && len(derived) == 0 && !o.json() {
		fmt.Fprintf(o.IO.ErrOut, "ctxpack: no proposal: no %d or more experiences with a lesson are alike enough (--min-size, --threshold)\n", o.MinSize)
	}
	if !o.Add {
		if err != nil {
			return err
		}
		blocks := make([]string, len(derived))
		for i, d := range derived {
			blocks[i] = formatFields(proposalFields(d.ProposalView))
		}
		return o.print(derived, strings.Join(blocks, "\n"))
	}
	// With --add, derived holds what became of each proposal, up to an
	// error while adding.
	var text strings.Builder
	for _, d := range derived {
		switch {
		case d.Added:
			fmt.Fprintf(&text, "added %s\n", d.Value)
		case d.Value != "":
			fmt.Fprintf(o.IO.ErrOut, "ctxpack: %s is %s already; not added again\n", d.Cluster, d.Value)
		}
	}
	if err != nil {
		if text.Len() > 0 && !o.json() {
			_ = o.print(nil, text.String()) // what was added before the failure
		}
		return err
	}
	return o.print(derived, text.String())
}

// proposalFields are a proposal's fields as derive prints them.
func proposalFields(v app.ProposalView) []field {
	return []field{
		{"cluster", v.Cluster},
		{"axis", v.Axis},
		{"size", strconv.Itoa(v.Size)},
		{"members", strings.Join(v.Members, ", ")},
		{"experience", v.Experience},
		{"similarity", formatFloat(v.Similarity)},
		{"tags", strings.Join(v.Tags, ", ")},
		{"text", v.Text},
	}
}
