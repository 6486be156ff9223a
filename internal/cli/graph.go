package cli

import (
	"fmt"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// GraphOptions are the options of 'ctxpack graph'.
type GraphOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals
	Project func() (*app.Project, error) // prints the configuration's warnings

	ID        string
	LinkDepth int
}

// NewCmdGraph is 'ctxpack graph ID': the link closure of an artifact,
// drawn.
func NewCmdGraph(f *cmdutil.Factory, runF func(*GraphOptions) error) *cobra.Command {
	o := &GraphOptions{IO: f.IOStreams, Globals: f.Globals, Project: f.ProjectWarn}
	cmd := &cobra.Command{
		Use:   "graph ID",
		Short: "Draw the link closure of an artifact (mermaid or dot)",
		Long: `Draw what ID's links reach, as 'ctxpack context ID' follows them: a Mermaid
flowchart (--format mermaid, the default; paste it into a Markdown file) or
Graphviz dot (--format dot; render with 'dot -Tsvg'). Artifacts left out for
their status or for being missing are drawn dashed.`,
		Example: `  ctxpack graph TASK-042 > docs/task-042.mmd
  ctxpack graph TASK-042 --format dot | dot -Tsvg > task-042.svg`,
		Args:        cmdutil.ExactArgs(1),
		Annotations: cmdutil.ArgHelp("ID", "an artifact id; 'ctxpack list' shows them"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ID = args[0]
			if runF != nil {
				return runF(o)
			}
			return graphRun(o)
		},
	}
	cmd.Flags().IntVar(&o.LinkDepth, "link-depth", 0, "follow at most `N` links (default no limit)")
	cmdutil.SetFormats(cmd, "mermaid", "dot")
	return cmd
}

func graphRun(o *GraphOptions) error {
	format := o.Globals.Format
	switch format {
	case "":
		format = "mermaid"
	case "mermaid", "dot":
	default:
		return cmdutil.Usagef("graph draws --format mermaid or dot (got %q)", o.Globals.Format)
	}
	if o.LinkDepth < 0 {
		return cmdutil.Usagef("--link-depth must not be negative (got %d)", o.LinkDepth)
	}
	p, err := o.Project()
	if err != nil {
		return err
	}
	set, err := p.Artifacts()
	if err != nil {
		return err
	}
	o.IO.WarnAll(app.ArtifactProblems(set))
	out, err := p.Graph(o.ID, format, o.LinkDepth)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(o.IO.Out, out)
	return err
}
