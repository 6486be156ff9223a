package cli

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// ListOptions are the options of 'ctxpack list'.
type ListOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals
	Project func() (*app.Project, error) // prints the configuration's warnings

	Type   string
	Status string
}

// NewCmdList is 'ctxpack list': the project's artifacts.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	o := &ListOptions{IO: f.IOStreams, Globals: f.Globals, Project: f.ProjectWarn}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the project's artifacts",
		Long:  `List the artifacts of .ctxpack/ (or .contextia/): id, type, status and title, sorted by id.`,
		Example: `  ctxpack list --type spec
  ctxpack list --status in_progress --format json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return listRun(o)
		},
	}
	cmd.Flags().StringVar(&o.Type, "type", "", "only artifacts of `TYPE`: identity, task, spec, decision, norm")
	cmd.Flags().StringVar(&o.Status, "status", "", "only artifacts with `STATUS`")
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

func listRun(o *ListOptions) error {
	if o.Type != "" && !slices.Contains(app.ArtifactTypes, o.Type) {
		return cmdutil.Usagef("--type must be one of %s (got %q)", strings.Join(app.ArtifactTypes, ", "), o.Type)
	}
	p, err := o.Project()
	if err != nil {
		return err
	}
	list, warnings, err := p.List(o.Type, o.Status)
	if err != nil {
		return err
	}
	o.IO.WarnAll(warnings)
	if o.Globals.JSON() {
		return cmdutil.WriteJSON(o.IO.Out, list)
	}
	w := tabwriter.NewWriter(o.IO.Out, 0, 4, 2, ' ', 0)
	for _, a := range list {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", a.ID, a.Type, cmp.Or(a.Status, "-"), a.Title)
	}
	return w.Flush()
}
