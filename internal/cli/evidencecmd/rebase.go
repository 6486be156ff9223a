package evidencecmd

import (
	"fmt"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// RebaseOptions are the options of 'ctxpack evidence rebase'.
type RebaseOptions struct {
	WorkspaceOptions
}

// NewCmdRebase is 'ctxpack evidence rebase'.
func NewCmdRebase(f *cmdutil.Factory, runF func(*RebaseOptions) error) *cobra.Command {
	o := &RebaseOptions{WorkspaceOptions: workspaceOptions(f)}
	return &cobra.Command{
		Use:   "rebase",
		Short: "Renumber the files ten apart, keeping their order",
		Long: `Renumber the workspace's files in rank order, keeping that order: 000,
010, 020… for ranks below 100 and 100, 110, 120… from 100 (closer together
when a band holds more files than fit ten apart). Nothing is renamed when
the ranks are so already.`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.readDir(cmd)
			if runF != nil {
				return runF(o)
			}
			return rebaseRun(o)
		},
	}
}

func rebaseRun(o *RebaseOptions) error {
	p, ws, err := o.open(true)
	if err != nil {
		return err
	}
	renamed, warnings, err := p.RebaseEvidence(ws)
	o.IO.WarnAll(warnings)
	if err != nil {
		return err
	}
	if len(renamed) == 0 {
		fmt.Fprintf(o.IO.Out, "%s: ranks already in order; nothing renamed\n", ws.Shown)
		return nil
	}
	for _, r := range renamed {
		fmt.Fprintf(o.IO.Out, "  %s -> %s\n", r.From.ID, r.Entry.ID)
	}
	fmt.Fprintf(o.IO.Out, "✓ renumbered %d files\n", len(renamed))
	return nil
}
