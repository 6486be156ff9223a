package evidencecmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// DepsOptions are the options of 'ctxpack evidence deps'.
type DepsOptions struct {
	WorkspaceOptions
	ID       string
	Index    cmdutil.IndexFlags
	NoUpdate bool
}

// NewCmdDeps is 'ctxpack evidence deps ID'.
func NewCmdDeps(f *cmdutil.Factory, runF func(*DepsOptions) error) *cobra.Command {
	o := &DepsOptions{WorkspaceOptions: workspaceOptions(f)}
	cmd := &cobra.Command{
		Use:   "deps ID",
		Short: "Show what references what between a workspace file and the others",
		Long: `Show the references around the file ID, from the repository index
(brought up to date first unless --no-update): the names its span defines
and the lines of other workspace files that use them; the names it uses
that other workspace files define; and the names it uses that the project
defines where no workspace file reaches (evidence that may be missing).
Names defined in more than three places are not followed.`,
		Example: `  ctxpack evidence deps 100_flow_sh`,
		Args:    cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.readDir(cmd)
			o.ID = args[0]
			if runF != nil {
				return runF(o)
			}
			return depsRun(cmd.Context(), o)
		},
	}
	o.Index.Add(cmd.Flags())
	cmd.Flags().BoolVar(&o.NoUpdate, "no-update", false, "use the index as it is, without bringing it up to date first")
	return cmd
}

func depsRun(ctx context.Context, o *DepsOptions) error {
	if err := o.Globals.TextOrJSON("evidence deps"); err != nil {
		return err
	}
	p, ws, err := o.open(true)
	if err != nil {
		return err
	}
	idx, done := o.Index.UpdateOptions(o.IO, o.NoUpdate)
	defer done()
	d, err := p.EvidenceDeps(ctx, ws, o.ID, idx)
	done()
	if err != nil {
		return err
	}
	o.IO.WarnAll(d.Warnings)
	if o.Globals.JSON() {
		return cmdutil.WriteJSON(o.IO.Out, d)
	}
	w := o.IO.Out
	src := ""
	if d.Source != "" {
		src = " (" + d.Source + ")"
	}
	fmt.Fprintf(w, "%s%s\n", d.Entry, src)
	fmt.Fprintf(w, "  defines: %s\n", listOrNone(d.Defines))
	for _, r := range d.UsedBy {
		fmt.Fprintf(w, "  referenced by %s:%d (%s)\n", r.Entry, r.Line, r.Name)
	}
	for _, u := range d.Uses {
		fmt.Fprintf(w, "  uses %s in %s (%s:%d-%d)\n", u.Name, u.Entry, u.Path, u.Lines[0], u.Lines[1])
	}
	for _, u := range d.Outside {
		fmt.Fprintf(w, "  uses %s, defined at %s:%d-%d, in no workspace file\n", u.Name, u.Path, u.Lines[0], u.Lines[1])
	}
	if len(d.UsedBy)+len(d.Uses)+len(d.Outside) == 0 {
		fmt.Fprintln(w, "  no references found")
	}
	return nil
}

// listOrNone lists names, or says there are none.
func listOrNone(s []string) string {
	if len(s) == 0 {
		return "(nothing the index knows)"
	}
	return strings.Join(s, ", ")
}
