package storecmd

import (
	"context"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// MemoryListOptions are the options of 'ctxpack memory list'.
type MemoryListOptions struct {
	StoreOptions
	Category string
}

// NewCmdMemoryList is 'ctxpack memory list'.
func NewCmdMemoryList(f *cmdutil.Factory, runF func(*MemoryListOptions) error) *cobra.Command {
	o := &MemoryListOptions{StoreOptions: storeOptions(f)}
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the memories",
		Long: `List the memories in the store, by id, one line each: the key, the
category, the importance and the content's first line, cut to fit 100
columns (… marks a cut). --category lists one category. --format json
prints them whole, as a JSON array of the objects 'memory show' prints.
An empty list prints nothing (and a note on standard error).`,
		Example: `  ctxpack memory list
  ctxpack memory list --category decision --format json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return memoryListRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.Category, "category", "", "only the memories of this `CATEGORY`")
	return cmd
}

func memoryListRun(ctx context.Context, o *MemoryListOptions) error {
	st, err := o.open("memory list", true)
	if err != nil {
		return err
	}
	defer st.Close()
	ms, err := st.Memories(ctx, o.Category)
	if err != nil {
		return err
	}
	return listRows(&o.StoreOptions, ms, func(m app.MemoryView) []string {
		return []string{m.Key, m.Category, formatFloat(m.Importance), m.Content}
	}, "memories", "'ctxpack memory add' adds one")
}
