package evidencecmd

import (
	"context"
	"fmt"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// AssembleOptions are the options of 'ctxpack evidence assemble'.
type AssembleOptions struct {
	PlanOptions
	Out    string // --out DIR: instead of build/ beside the workspace
	DryRun bool
}

// NewCmdAssemble is 'ctxpack evidence assemble'.
func NewCmdAssemble(f *cmdutil.Factory, runF func(*AssembleOptions) error) *cobra.Command {
	o := &AssembleOptions{PlanOptions: PlanOptions{WorkspaceOptions: workspaceOptions(f)}}
	cmd := &cobra.Command{
		Use:   "assemble",
		Short: "Write build/prompt.mdctx and build/ctxplan.json from the workspace",
		Long: `Assemble the workspace's active and linked files, fitted to the budget,
and write build/prompt.mdctx and build/ctxplan.json beside the workspace
(--out DIR for another folder in the project).

prompt.mdctx starts with <!-- mdctx:version=1.0; flow_id=…; assembly=role,rank -->,
then # System (the system files in rank order), # User Request (the user
files), and one ## Evidence: path section per evidence file, with a comment
naming the workspace file and its content id. Under a budget the engine's
overflow strategies apply (--overflow; default degrade): the highest-ranked
evidence is shown as a stub, then dropped, first; system and user files are
never dropped (if they alone exceed the budget, it fails and says so).
ctxplan.json lists every file with its status and why (see 'evidence plan').
The same workspace gives the same bytes, wherever it is. It prints the two
files' paths, sizes and tokens; --format json prints {"prompt", "plan_file",
"plan"} (the plan as ctxplan.json holds it).`,
		Example: `  ctxpack evidence assemble --budget 8000
  ctxpack evidence assemble --overflow truncate --flow-id fix-parser
  ctxpack evidence assemble --dry-run | less`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.readDir(cmd)
			if runF != nil {
				return runF(o)
			}
			return assembleRun(cmd.Context(), o)
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.Out, "out", "", "write into `DIR` (in the project) instead of build/ beside the workspace")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "print prompt.mdctx instead of writing the files")
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

func assembleRun(ctx context.Context, o *AssembleOptions) error {
	p, ws, res, err := o.assemble(ctx)
	if err != nil {
		return err
	}
	o.IO.WarnAll(res.Plan.Warnings)
	if o.DryRun {
		_, err := o.IO.Out.Write(res.Prompt)
		return err
	}
	prompt, plan, err := p.WriteEvidence(ws, res, o.Out)
	if err != nil {
		return err
	}
	if o.Globals.JSON() {
		// What the MCP evidence_assemble tool gives: the two files and the
		// plan.
		return cmdutil.WriteJSON(o.IO.Out, struct {
			Prompt   string           `json:"prompt"`
			PlanFile string           `json:"plan_file"`
			Plan     app.EvidencePlan `json:"plan"`
		}{prompt, plan, res.Plan})
	}
	shown := 0
	for _, pt := range res.Plan.Parts {
		if pt.Shown() {
			shown++
		}
	}
	fmt.Fprintf(o.IO.Out, "✓ wrote %s (%d bytes, %d tokens, %s of %d) and %s\n", prompt, res.Plan.TotalBytes, res.Plan.TotalTokens, sharePercent(res.Plan.TotalTokens, res.Plan.Budget), res.Plan.Budget, plan)
	fmt.Fprintf(o.IO.Out, "  %d of %d files assembled; ctx_digest %s\n", shown, len(res.Plan.Parts), res.Plan.CtxDigest)
	return nil
}
