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
	ws, entries, err := o.list()
	if err != nil {
		return err
	}
	removed, err := ws.Remove(entries, o.IDs)
	for _, e := range removed {
		fmt.Fprintf(o.IO.Out, "✓ removed %s\n", ws.ShownPath(e))
	}
	return err
}
