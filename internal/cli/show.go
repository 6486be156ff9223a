package cli

import (
	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// ShowOptions are the options of 'ctxpack show'.
type ShowOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals
	Project func() (*app.Project, error) // prints the configuration's warnings

	ID    string
	Depth string
}

// NewCmdShow is 'ctxpack show ID': one artifact at a level.
func NewCmdShow(f *cmdutil.Factory, runF func(*ShowOptions) error) *cobra.Command {
	o := &ShowOptions{IO: f.IOStreams, Globals: f.Globals, Project: f.ProjectWarn}
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show one artifact at a level",
		Long: `Show the artifact ID at a level: meta (its frontmatter), summary (and its
first section), detailed (and every heading with its first paragraph) or full
(the default), in the output format (--format).`,
		Example: `  ctxpack show SPEC-BILLING-001 --depth summary
  ctxpack show identity --format json`,
		Args:        cmdutil.ExactArgs(1),
		Annotations: cmdutil.ArgHelp("ID", "an artifact id; 'ctxpack list' shows them"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ID = args[0]
			if runF != nil {
				return runF(o)
			}
			return showRun(o)
		},
	}
	cmd.Flags().StringVar(&o.Depth, "depth", "full", "`LEVEL`: meta, summary, detailed, full")
	cmdutil.SetFormats(cmd, cmdutil.AnyFormat)
	return cmd
}

func showRun(o *ShowOptions) error {
	if err := app.CheckDepth(o.Depth); err != nil {
		return cmdutil.WrapUsage(err)
	}
	if err := app.CheckFormat(o.Globals.Format); err != nil {
		return cmdutil.WrapUsage(err)
	}
	p, err := o.Project()
	if err != nil {
		return err
	}
	v, warnings, err := p.Show(o.ID, o.Depth, o.Globals.Format)
	o.IO.WarnAll(warnings)
	if err != nil {
		return err
	}
	_, err = o.IO.Out.Write(v.Output)
	return err
}
