package storecmd

import (
	"context"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// ValueAddOptions are the options of 'ctxpack value add'.
type ValueAddOptions struct {
	StoreOptions
	Text string // the argument; "-" reads standard input
	Axis string
	Tags []string
}

// NewCmdValueAdd is 'ctxpack value add'.
func NewCmdValueAdd(f *cmdutil.Factory, runF func(*ValueAddOptions) error) *cobra.Command {
	o := &ValueAddOptions{StoreOptions: storeOptions(f)}
	cmd := &cobra.Command{
		Use:   "add TEXT|- --axis AXIS",
		Short: "Add a value written by hand",
		Long: `Add a value holding TEXT ("-" reads it from standard input; the spaces
around it are trimmed) to the store, .ctxpack/sources.db, and print its
key: "added value:3". --format json prints the value as stored, as one JSON
object.

--axis is required: full (the value is about the work as a whole),
strategy, surprise or root_cause (root-cause is accepted too). --tag, once
or more, or comma-separated, names the domains and strategies the value
applies to (lower-case words); they are searched, and premortem finds a
domain's values by them. A bad value is a usage error (exit 2) naming the
flag.`,
		Example: `  ctxpack value add "convert currencies after summing" --axis full --tag billing,debugging
  ctxpack value add "bisect before reading code" --axis strategy --tag debugging --tag bisect`,
		Args:        cmdutil.ExactArgs(1),
		Annotations: cmdutil.ArgHelp("TEXT", "the value; - reads it from standard input"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Text = args[0]
			if runF != nil {
				return runF(o)
			}
			return valueAddRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.Axis, "axis", "", "the value's `AXIS`: full, strategy, surprise or root_cause (required)")
	cmd.Flags().StringSliceVar(&o.Tags, "tag", nil, "a domain or strategy the value applies to (`TAG`; repeat or comma-separate)")
	return cmd
}

func valueAddRun(ctx context.Context, o *ValueAddOptions) error {
	const command = "value add"
	if o.Axis == "" {
		return cmdutil.Usagef("%s: --axis is required: full, strategy, surprise or root_cause", command)
	}
	axis, err := parseAxis(command, o.Axis)
	if err != nil {
		return err
	}
	text, err := o.readText(command, o.Text)
	if err != nil {
		return err
	}
	in := app.ValueInput{Text: text, Axis: axis, Tags: o.Tags}
	if err := in.Validate(); err != nil {
		return flagError(command, err, map[string]string{"text": "TEXT", "axis": "--axis", "tags": "--tag"})
	}
	st, err := o.open(command, false)
	if err != nil {
		return err
	}
	defer st.Close()
	v, err := st.AddValue(ctx, in)
	if err != nil {
		return err
	}
	return o.print(v, "added "+v.Key+"\n")
}
