package evidencecmd

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// NewCmdBudget is 'ctxpack evidence budget'.
func NewCmdBudget(f *cmdutil.Factory, runF func(*PlanOptions) error) *cobra.Command {
	return planCommand(f, &cobra.Command{
		Use:   "budget",
		Short: "Show the tokens by role against the budget, and what would not fit",
		Long: `Show what the workspace's context takes: tokens by role, the total of the
assembled prompt against the budget, what is left, what assembly would
degrade, truncate or drop at this budget (with the budget each dropped file
needs), and what the skipped files would add.`,
	}, runF, budgetRun)
}

func budgetRun(ctx context.Context, o *PlanOptions) error {
	return o.show(ctx, "evidence budget", writeBudget)
}

func writeBudget(w io.Writer, _ *app.Workspace, res *app.EvidenceResult) error {
	plan := res.Plan
	byRole := map[string]int{}
	files := map[string]int{}
	var skipped, skippedTokens int
	var cut []app.EvidencePart
	parts := 0
	for _, pt := range plan.Parts {
		switch {
		case pt.Shown():
			byRole[pt.Role] += pt.Tokens
			files[pt.Role]++
			parts += pt.Tokens
		case pt.Status == app.StatusSkipped:
			skipped++
			skippedTokens += pt.FullTokens
		}
		if pt.Status == app.StatusDegraded || pt.Status == app.StatusTruncated || pt.Status == app.StatusDropped {
			cut = append(cut, pt)
		}
	}
	fmt.Fprintf(w, "Budget: %d tokens (%s)\n", plan.Budget, plan.Tokenizer)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, r := range app.EvidenceRoles() {
		fmt.Fprintf(tw, "  %s\t%d\t  (%d files)\t\n", r, byRole[r], files[r])
	}
	fmt.Fprintf(tw, "  header\t%d\t\t\n", plan.TotalTokens-parts) // the mdctx version line: section headings count with their parts
	fmt.Fprintf(tw, "  total\t%d\t  (%s)\t\n", plan.TotalTokens, sharePercent(plan.TotalTokens, plan.Budget))
	fmt.Fprintf(tw, "  left\t%d\t\t\n", max(plan.Budget-plan.TotalTokens, 0))
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(cut) > 0 {
		fmt.Fprintf(w, "Not shown whole at this budget (--overflow %s):\n", plan.Overflow)
		for _, pt := range cut {
			need := ""
			if pt.NeedBudget > 0 {
				need = fmt.Sprintf("; fits from --budget %d", pt.NeedBudget)
			}
			fmt.Fprintf(w, "  %s_%s  %s, %d tokens whole (%s%s)\n", pt.Rank, pt.Kind, pt.Status, pt.FullTokens, pt.Reason, need)
		}
	}
	if skipped > 0 {
		fmt.Fprintf(w, "Skipped: %d files, %d tokens if turned on\n", skipped, skippedTokens)
	}
	if plan.Exceeded {
		fmt.Fprintf(w, "Over the budget by %d tokens.\n", plan.TotalTokens-plan.Budget)
	}
	return nil
}
