package evidencecmd

import (
	"fmt"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/spf13/cobra"
)

// RankOptions are the options of 'ctxpack evidence rank'.
type RankOptions struct {
	WorkspaceOptions
	ID   string
	Rank int
}

// NewCmdRank is 'ctxpack evidence rank ID RANK'.
func NewCmdRank(f *cmdutil.Factory, runF func(*RankOptions) error) *cobra.Command {
	o := &RankOptions{WorkspaceOptions: workspaceOptions(f)}
	return &cobra.Command{
		Use:   "rank ID RANK",
		Short: "Give a workspace file another rank",
		Long: `Give the file ID another rank (0 to 999) by renaming it: a lower rank is
assembled earlier and kept longer under a tight budget. The rank must be
free; 'evidence rebase' renumbers every file.`,
		Example: `  ctxpack evidence rank 100_flow_sh 50`,
		Args:    cmdutil.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.readDir(cmd)
			o.ID = args[0]
			rank, err := evidence.ParseRank(args[1])
			if err != nil {
				return cmdutil.WrapUsage(err)
			}
			o.Rank = rank
			if runF != nil {
				return runF(o)
			}
			return rankRun(o)
		},
	}
}

func rankRun(o *RankOptions) error {
	ws, entries, err := o.list()
	if err != nil {
		return err
	}
	e, err := evidence.Find(entries, o.ID)
	if err != nil {
		return err
	}
	ne, err := ws.SetRank(entries, e, o.Rank)
	if err != nil {
		return advice(err)
	}
	fmt.Fprintf(o.IO.Out, "✓ %s is now %s (%s)\n", e.ID(), ne.ID(), ws.ShownPath(ne))
	return nil
}
