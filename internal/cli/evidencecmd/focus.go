package evidencecmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// FocusOptions are the options of 'ctxpack evidence focus'.
type FocusOptions struct {
	WorkspaceOptions
	Query    string // the arguments, joined by spaces; off undoes the focus
	Top      int
	Index    cmdutil.IndexFlags
	NoUpdate bool
}

// NewCmdFocus is 'ctxpack evidence focus QUERY' and 'focus off'.
func NewCmdFocus(f *cmdutil.Factory, runF func(*FocusOptions) error) *cobra.Command {
	o := &FocusOptions{WorkspaceOptions: workspaceOptions(f)}
	cmd := &cobra.Command{
		Use:   "focus QUERY | focus off",
		Short: "Turn off the evidence not relevant to QUERY; focus off turns it back on",
		Long: `Turn off the evidence files that are not relevant to QUERY, using the
repository index (brought up to date first unless --no-update): a file is
relevant when one of the query's --top hits overlaps the span it was made
from; a file with no project source when it holds half of the query's
terms. System and user files and links stay on. The files turned off are
recorded in the workspace (.focus); 'focus off' turns exactly those back
on. A new focus replaces the previous one: what that turned off is
weighed again. When nothing is relevant, nothing changes.`,
		Example: `  ctxpack evidence focus "error handling"
  ctxpack evidence focus off`,
		Args: cmdutil.MinimumArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.readDir(cmd)
			o.Query = strings.Join(args, " ")
			if runF != nil {
				return runF(o)
			}
			return focusRun(cmd.Context(), o)
		},
	}
	cmd.Flags().IntVar(&o.Top, "top", 20, "how many of the query's best hits count (`N`)")
	o.Index.Add(cmd.Flags())
	cmd.Flags().BoolVar(&o.NoUpdate, "no-update", false, "use the index as it is, without bringing it up to date first")
	return cmd
}

func focusRun(ctx context.Context, o *FocusOptions) error {
	if o.Top <= 0 {
		return cmdutil.Usagef("--top must be positive (got %d)", o.Top)
	}
	p, ws, err := o.open(true)
	if err != nil {
		return err
	}
	if o.Query == "off" {
		on, warnings, err := p.FocusOff(ws)
		o.IO.WarnAll(warnings)
		if err != nil {
			return err
		}
		if len(on) == 0 && len(warnings) == 0 {
			fmt.Fprintln(o.IO.Out, "no focus is on")
			return nil
		}
		for _, f := range on {
			fmt.Fprintf(o.IO.Out, "✓ on %s\n", f)
		}
		return nil
	}
	idx, done := o.Index.UpdateOptions(o.IO, o.NoUpdate)
	defer done()
	rep, err := p.FocusEvidence(ctx, ws, o.Query, o.Top, idx)
	done()
	if err != nil {
		return err
	}
	o.IO.WarnAll(rep.Warnings)
	if len(rep.Restored) > 0 {
		fmt.Fprintf(o.IO.Out, "undid the previous focus: %d files back on\n", len(rep.Restored))
	}
	kept := 0
	for _, f := range rep.Files {
		mark := "off "
		if f.Kept {
			mark = "keep"
			kept++
		}
		fmt.Fprintf(o.IO.Out, "  %s %s: %s\n", mark, f.ID, f.Why)
	}
	fmt.Fprintf(o.IO.Out, "✓ focus on %q: %d evidence files kept, %d turned off (ctxpack evidence focus off restores them)\n", o.Query, kept, len(rep.Files)-kept)
	return nil
}
