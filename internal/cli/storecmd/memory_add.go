package storecmd

import (
	"context"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// MemoryAddOptions are the options of 'ctxpack memory add'.
type MemoryAddOptions struct {
	StoreOptions
	Text       string // the argument; "-" reads standard input
	Category   string
	Importance *float64 // nil when --importance is not given
}

// NewCmdMemoryAdd is 'ctxpack memory add'.
func NewCmdMemoryAdd(f *cmdutil.Factory, runF func(*MemoryAddOptions) error) *cobra.Command {
	o := &MemoryAddOptions{StoreOptions: storeOptions(f)}
	var importance float64
	cmd := &cobra.Command{
		Use:   "add TEXT|-",
		Short: "Add a memory",
		Long: `Add a memory holding TEXT ("-" reads it from standard input; the spaces
around it are trimmed) to the store, .ctxpack/sources.db, and print its
key: "added memory:42". --format json prints the memory as stored, as one
JSON object.

--category is a lower-case word: a letter, then letters, digits, _ or -,
at most 32 bytes (default fact). --importance is from 0 to 1 (default
0.5); sources mode ranks a more important memory higher. A bad value is a
usage error (exit 2) naming the flag.`,
		Example: `  ctxpack memory add "invoice totals are integers of cents"
  ctxpack memory add "prefer table tests" --category preference --importance 0.3
  ctxpack memory add - --category error < traceback.txt`,
		Args:        cmdutil.ExactArgs(1),
		Annotations: cmdutil.ArgHelp("TEXT", "the memory; - reads it from standard input"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Text = args[0]
			if cmd.Flags().Changed("importance") {
				o.Importance = &importance
			}
			if runF != nil {
				return runF(o)
			}
			return memoryAddRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.Category, "category", "", "the memory's `CATEGORY`: fact (default), preference, decision, error,\nworkflow, context, event, or another lower-case word")
	cmd.Flags().Float64Var(&importance, "importance", 0, "how much the memory matters, a `NUMBER` from 0 to 1 (default 0.5)")
	return cmd
}

func memoryAddRun(ctx context.Context, o *MemoryAddOptions) error {
	const command = "memory add"
	if o.Importance != nil && !(*o.Importance >= 0 && *o.Importance <= 1) {
		return cmdutil.Usagef("%s: --importance must be from 0 to 1 (got %s)", command, formatFloat(*o.Importance))
	}
	text, err := o.readText(command, o.Text)
	if err != nil {
		return err
	}
	in := app.MemoryInput{Content: text, Category: o.Category, Importance: o.Importance}
	if err := in.Validate(); err != nil {
		return flagError(command, err, map[string]string{"content": "TEXT", "category": "--category", "importance": "--importance"})
	}
	st, err := o.open(command, false)
	if err != nil {
		return err
	}
	defer st.Close()
	m, err := st.AddMemory(ctx, in)
	if err != nil {
		return err
	}
	return o.print(m, "added "+m.Key+"\n")
}
