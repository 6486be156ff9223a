package cli

import (
	"context"
	"fmt"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// ExplainOptions are the options of 'ctxpack explain': the assembly of
// 'ctxpack context TASK-ID' and the artifact to explain in it.
type ExplainOptions struct {
	AssembleOptions
	Task     string // TASK-ID
	Artifact string // ARTIFACT-ID
}

// NewCmdExplain is 'ctxpack explain TASK-ID ARTIFACT-ID'.
func NewCmdExplain(f *cmdutil.Factory, runF func(*ExplainOptions) error) *cobra.Command {
	o := &ExplainOptions{AssembleOptions: assembleOptions(f)}
	o.Project = f.ProjectWarn // prints the configuration's warnings
	cmd := &cobra.Command{
		Use:   "explain TASK-ID ARTIFACT-ID",
		Short: "Say why an artifact is or is not in a task's context",
		Long: `Say why ARTIFACT-ID is in the context of TASK-ID, with the link chain that
reached it and its level, or why it is not. The reason is one of: no link
reaches it, the link depth, its status (deprecated or superseded), or the
budget, with how many more tokens would have kept it. ARTIFACT-ID may be a
file of the project instead: whether the artifacts' "paths" globs bring it
into the context, through which artifact, its rank for the task's text and
its level, or what left it out. Takes the flags of 'ctxpack context', so it
explains exactly that assembly.`,
		Example: `  ctxpack explain TASK-042 DEC-BILLING-003 --budget 600
  ctxpack explain TASK-042 NORM-ASYNC-001 --link-depth 1 --format json
  ctxpack explain TASK-042 src/billing/invoice/generator.py --budget 600`,
		Args: cmdutil.ExactArgs(2),
		Annotations: cmdutil.ArgHelp("TASK-ID", "the task whose context holds the artifact",
			"ARTIFACT-ID", "the artifact to explain, or a file of the project"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Task, o.Artifact = args[0], args[1]
			if runF != nil {
				return runF(o)
			}
			return explainRun(cmd.Context(), o)
		},
	}
	o.addFlags(cmd.Flags())
	o.addLinkFlags(cmd.Flags())
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

func explainRun(ctx context.Context, o *ExplainOptions) error {
	req, err := o.request()
	if err != nil {
		return err
	}
	json := o.Globals.JSON()
	if json {
		req.Format = "text"
	}
	p, err := o.Project()
	if err != nil {
		return err
	}
	e, err := p.Explain(ctx, o.Task, o.Artifact, req)
	if err != nil {
		return err
	}
	if json {
		return cmdutil.WriteJSON(o.IO.Out, e)
	}
	_, err = fmt.Fprintf(o.IO.Out, "%s: %s\n", e.Artifact, e.Reason)
	return err
}
