package storecmd

import (
	"cmp"
	"context"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// ValueListOptions are the options of 'ctxpack value list'.
type ValueListOptions struct {
	StoreOptions
	Axis string
}

// NewCmdValueList is 'ctxpack value list'.
func NewCmdValueList(f *cmdutil.Factory, runF func(*ValueListOptions) error) *cobra.Command {
	o := &ValueListOptions{StoreOptions: storeOptions(f)}
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the values",
		Long: `List the values in the store, by id, one line each: the key, the axis,
the cluster it was derived from (- for one written by hand), the tags
(comma-separated, - for none) and the text's first line, cut to fit 100
columns (… marks a cut). --axis lists one axis. --format json prints them
whole, as a JSON array of the objects 'value show' prints. An empty list
prints nothing (and a note on standard error).`,
		Example: `  ctxpack value list
  ctxpack value list --axis root_cause --format json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return valueListRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.Axis, "axis", "", "only the values of this `AXIS`: full, strategy, surprise or root_cause")
	return cmd
}

func valueListRun(ctx context.Context, o *ValueListOptions) error {
	const command = "value list"
	axis, err := parseAxis(command, o.Axis)
	if err != nil {
		return err
	}
	st, err := o.open(command, true)
	if err != nil {
		return err
	}
	defer st.Close()
	vs, err := st.Values(ctx, axis)
	if err != nil {
		return err
	}
	return listRows(&o.StoreOptions, vs, func(v app.ValueView) []string {
		return []string{v.Key, v.Axis, cmp.Or(v.Cluster, "-"), cmp.Or(strings.Join(v.Tags, ","), "-"), v.Text}
	}, "values", "'ctxpack value add' or 'ctxpack value derive --add' adds them")
}
