package evidencecmd

import (
	"fmt"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
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
			rank, err := app.ParseEvidenceRank(args[1])
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
	p, ws, err := o.open(true)
	if err != nil {
		return err
	}
	r, warnings, err := p.RankEvidence(ws, o.ID, o.Rank)
	o.IO.WarnAll(warnings)
	if err != nil {
		return advice(err)
	}
	fmt.Fprintf(o.IO.Out, "✓ %s is now %s (%s)\n", r.From.ID, r.Entry.ID, r.Entry.Path)
	return nil
}
