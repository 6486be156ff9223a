package evidencecmd

import (
	"fmt"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// RemoveOptions are the options of 'ctxpack evidence remove'.
type RemoveOptions struct {
	WorkspaceOptions
	IDs []string
}

// NewCmdRemove is 'ctxpack evidence remove ID...'.
func NewCmdRemove(f *cmdutil.Factory, runF func(*RemoveOptions) error) *cobra.Command {
	o := &RemoveOptions{WorkspaceOptions: workspaceOptions(f)}
	return &cobra.Command{
		Use:     "remove ID...",
		Aliases: []string{"rm"},
		Short:   "Delete workspace files",
		Args:    cmdutil.MinimumArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.readDir(cmd)
			o.IDs = args
			if runF != nil {
				return runF(o)
			}
			return removeRun(o)
		},
	}
}

func removeRun(o *RemoveOptions) error {
	p, ws, err := o.open(true)
	if err != nil {
		return err
	}
	removed, warnings, err := p.RemoveEvidence(ws, o.IDs)
	o.IO.WarnAll(warnings)
	for _, e := range removed {
		fmt.Fprintf(o.IO.Out, "✓ removed %s\n", e.Path)
	}
	return err
}
