package evidencecmd

import (
	"context"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// NewCmdPlan is 'ctxpack evidence plan'.
func NewCmdPlan(f *cmdutil.Factory, runF func(*PlanOptions) error) *cobra.Command {
	return planCommand(f, &cobra.Command{
		Use:   "plan",
		Short: "Print the assembly plan (ctxplan.json) without writing anything",
		Long: `Assemble the workspace as 'evidence assemble' would and print the plan,
ctxplan.json, without writing it: every file with its rank, kind, role,
URI, content id, bytes, tokens in the prompt, tokens whole, status (active,
linked, skipped, degraded, truncated, dropped) and why; the prompt's total
bytes and tokens; the chunker of this build (see 'ctxpack version'); ctx_digest,
which identifies the context whatever the rank numbers or the workspace's
place; and digest, of the prompt. Both digests cover the chunker.`,
	}, runF, planRun)
}

func planRun(ctx context.Context, o *PlanOptions) error {
	_, _, res, err := o.assemble(ctx)
	if err != nil {
		return err
	}
	o.IO.WarnAll(res.Plan.Warnings)
	return writePlan(o.IO, res)
}
